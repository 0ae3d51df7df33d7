"""Figures for the SSH game server (#16, #22): ``python -m tests.bench.ssh
[--connections 30,60] [--workers 0,2] [--seconds 60] [--pace 0.5]``.

Starts ``unoduo serve`` (a process of its own, on 127.0.0.1 and a free port, in a
temporary folder; ``--workers W``: ``serve --workers W``, 0 a process per connection,
several given: each in turn and then a table side by side), then opens
``--connections`` SSH connections from this process (asyncssh, one fresh ed25519 key
each: one player each; ``--per-address`` of them from each of 127.0.0.2, 127.0.0.3 …,
as serve limits connections per address), each with an 80×24 pty.  Every connection
goes the way a player does: the lobby, ``n`` (vs bots), ``ctrl+s`` (the new-match
form's start: UNO Duo vs one normal bot), then plays the match by a fixed script of
keys that needs no knowledge of the cards (keep in the draft; a card number and
Enter; Red for a wild; draw; pass; Enter for a round's end), one key every
``--pace`` seconds.

Printed for each run:

- **memory per player**: the PSS (``/proc/PID/smaps_rollup``: shared pages split
  between the sharers) of the server's whole process tree (the server, its game
  processes or workers) with every player at their table, over the tree's idle PSS
  (measured once it has settled after the start), divided by the players;
- **CPU per script key**: the tree's CPU time while they play, over the script keys
  sent (the bots' moves and the SSH server's own work included);
- **key-to-screen-update latency**: every ``--probe-every`` script keys a connection
  waits until its screen has been quiet for 0.1 s and shows its own decision with no
  dialog over the table (read from a terminal emulator, ``pyte``: the footer offers
  "Select" and one of Keep / Play / Draw / Pass, and the hand holds two cards or more —
  so nothing but the key can change the screen), sends → (select the next card) and
  times the first byte of screen update that comes back — p50, p90, p99 and the max
  over all probes of all connections, while all of them play.  (``pyte`` is in the
  ``bench`` extra.)
- **connect → lobby**: ``--burst`` players connecting at once before the others,
  from the TCP connect to "Signed in" on their screen;
- the load average at the end of the play (the machine may be shared).

``--cluster N`` (#27) runs the same players against a cluster instead of one server:
``N`` ``serve --store`` nodes (``--workers`` each) sharing a PostgreSQL, behind HAProxy
in TCP mode (PROXY v2), all started for the run by :mod:`tests.bench.cluster` — the
players connect to the balancer, and the figures cover the launcher's tree (the
nodes, their workers and bot pools, HAProxy; the CPU split by each).  PostgreSQL is
not in it (``pg_ctl`` starts it as a daemon): its CPU is not counted.

``--idle-lobby N [--tables T]`` measures the lobby instead (#22): ``T`` open tables
(two human seats each, nobody at them) opened in the server's table service through
its socket, then the server tree's CPU over ``--seconds`` with nobody connected, then
with ``N`` players connected and idle in the lobby, each showing the first page of
the ``T`` tables: the difference, per idle player, as a percentage of a core.

A benchmark, not a test: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import AsyncIterator

import asyncssh

from tests.bench.proc import cpu_seconds

#: the script: keys a player sends over and over (bytes, as a terminal sends them)
SCRIPT = (b"k", b"1", b"\r", b"r", b"2", b"\r", b"r", b"3", b"\r", b"r",
          b"d", b"\r", b"r", b"p", b"\r")
RIGHT = b"\x1b[C"
_ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]")


class Player:
    """One SSH connection: what it has received, and its latency probes."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.text = bytearray()     # output with escape sequences stripped (the tail)
        self.last_byte = time.monotonic()
        self.arrived = asyncio.Event()
        self.samples: list[float] = []
        self.keys = 0
        self.skipped = 0  # probes not taken: not this player's decision just then
        self.error: str | None = None
        self.to_lobby: float | None = None  # seconds from connecting to the lobby shown
        self.closed = False  # the server ended the connection
        import pyte

        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)

    def took(self, data: bytes) -> None:
        self.last_byte = time.monotonic()
        self.stream.feed(data)
        self.text += _ANSI.sub(b"", data)
        del self.text[:-20_000]
        self.arrived.set()

    async def wait_for(self, needle: bytes, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text:
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                seen = bytes(self.text[-200:]).decode("utf-8", "replace").strip()
                raise TimeoutError(f"connection {self.number}: no {needle!r} on screen "
                                   f"({'closed' if self.closed else 'timed out'}; it "
                                   f"showed {seen[-120:]!r})")
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), left)
            except asyncio.TimeoutError:
                pass

    def deciding(self) -> bool:
        """The screen shows this player's decision, no dialog, two cards or more."""
        rows = self.screen.display
        footer = rows[-1]
        hand = re.search(r"Your hand · (\d+) cards", "\n".join(rows))
        return ("Select" in footer and any(k in footer for k in ("Keep", "Play", "Draw", "Pass"))
                and hand is not None and int(hand.group(1)) >= 2)

    async def quiet(self, seconds: float = 0.1, at_most: float = 3.0) -> None:
        start = time.monotonic()
        while time.monotonic() - self.last_byte < seconds and time.monotonic() - start < at_most:
            await asyncio.sleep(seconds / 2)


async def _pump(process: asyncssh.SSHClientProcess, player: Player) -> None:
    try:
        while True:
            data = await process.stdout.read(65536)
            if not data:
                player.closed = True
                player.arrived.set()
                return
            player.took(data)
    except Exception as exc:  # a benchmark says what broke rather than hang
        player.error = f"reading the screen: {exc!r}"
        raise



def source_address(number: int, per_address: int) -> str:
    """The loopback address player ``number`` connects from: ``per_address`` players
    on each of 127.0.0.2, 127.0.0.3, … (serve limits connections per address)."""
    return f"127.0.0.{2 + number // per_address}"


@contextlib.asynccontextmanager
async def _terminal(number: int, port: int, per_address: int, player: Player
                    ) -> AsyncIterator[tuple[asyncssh.SSHClientProcess, asyncio.Task]]:
    """Player ``number``'s session at 80×24 with a key of its own, from its source
    address, its screen read into ``player``: (the process, the task reading it)."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with asyncssh.connect("127.0.0.1", port, username=f"p{number}",
                                client_keys=[key], known_hosts=None, agent_path=None,
                                local_addr=(source_address(number, per_address), 0)
                                ) as conn:
        process = await conn.create_process(term_type="xterm-256color",
                                            term_size=(80, 24), encoding=None)
        yield process, asyncio.create_task(_pump(process, player))


async def play(number: int, port: int, ready: asyncio.Queue, go: asyncio.Event,
               stop: asyncio.Event, pace: float, probe_every: int, timeout: float,
               per_address: int = 4, lobby_only: bool = False) -> Player:
    """One scripted player (``lobby_only``: connect, note the time to the lobby on
    screen in :attr:`Player.to_lobby`, and leave)."""
    player = Player(number)
    try:
        started = time.monotonic()
        async with _terminal(number, port, per_address, player) as (process, pump):
            await player.wait_for(b"Signed in", timeout)
            player.to_lobby = time.monotonic() - started
            if lobby_only:
                pump.cancel()
                await ready.put(number)
                return player
            process.stdin.write(b"n")
            await player.wait_for(b"Start", timeout)
            process.stdin.write(b"\x13")  # ctrl+s: start the match the form shows
            await player.wait_for(b"Keep", timeout)  # the draft's footer
            await ready.put(number)
            await go.wait()
            # players keep their own time, as people do: each starts at its own moment
            # of the first interval and waits pace × 0.5–1.5 between keys (all of them
            # on one clock sent their keys in one burst every ``pace`` s, and a probe
            # measured the queue of that burst)
            jitter = random.Random(number)
            await asyncio.sleep(jitter.uniform(0, pace))
            step = 0
            while not stop.is_set() and not pump.done():
                process.stdin.write(SCRIPT[step % len(SCRIPT)])
                player.keys += 1
                step += 1
                await asyncio.sleep(pace * jitter.uniform(0.5, 1.5))
                if step % probe_every == 0:
                    await player.quiet()
                    if not player.deciding():
                        player.skipped += 1
                        continue
                    sent = time.monotonic()
                    player.last_byte = 0.0
                    process.stdin.write(RIGHT)
                    while player.last_byte < sent and not stop.is_set() and not pump.done():
                        player.arrived.clear()
                        try:
                            await asyncio.wait_for(player.arrived.wait(), 5.0)
                        except asyncio.TimeoutError:
                            break
                    if player.last_byte >= sent:
                        player.samples.append(player.last_byte - sent)
            pump.cancel()
    except (OSError, asyncssh.Error, TimeoutError) as exc:
        player.error = str(exc) or type(exc).__name__
        await ready.put(-number)
    return player


def _tree(pid: int) -> list[int]:
    """``pid`` and every process under it (its workers, their children …)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        out.append(todo.pop())
        todo += parents.get(out[-1], [])
    return out


def _role(pid: int) -> str:
    """What process ``pid`` is in the server's tree (its command line, in a word)."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "gone"
    text = b" ".join(argv).decode(errors="replace")
    for needle, role in (("ssh.worker", "workers"), ("multiprocessing", "bot pools"),
                         ("reaper", "reaper"), (" serve", "server (SSH, hall)"),
                         ("unoduo_tui.cli", "game processes"), ("postgres", "postgres"),
                         ("haproxy", "haproxy"), ("tests.bench.cluster", "launcher")):
        if needle in text:
            return role
    return "other"


def _cpu_by_role(tree: list[int]) -> dict[str, float]:
    out: dict[str, float] = {}
    for pid in tree:
        role = _role(pid)
        out[role] = out.get(role, 0.0) + cpu_seconds(pid)
    return out


def _machine_speed(seconds: float = 1.0) -> float:
    """UNO Duo's random play in actions per CPU second, here and now: CPU per key of
    the same code moved by a third between runs on this virtual machine; beside each
    run this says whether the machine itself ran slower."""
    from tests.bench.engine import engine_run

    engine_run(seconds / 4, seed=2)  # warm: the first matches of a process run slower
    return engine_run(seconds, seed=1)[1].cpu


def _own_cpu() -> float:
    """CPU seconds this benchmark's process (the scripted clients) has used."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _kib(pid: int, field: str, name: str = "smaps_rollup") -> int:
    try:
        for line in Path(f"/proc/{pid}/{name}").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _tree_pss(pid: int) -> int:
    return sum(_kib(k, "Pss") for k in _tree(pid))


async def _settled_pss(pid: int, at_most: float = 20.0) -> int:
    """The tree's PSS once it has stopped growing (workers import for a second or two
    after the server says it listens)."""
    last, steady, deadline = _tree_pss(pid), 0, time.monotonic() + at_most
    while steady < 4 and time.monotonic() < deadline:
        await asyncio.sleep(0.25)
        now = _tree_pss(pid)
        steady = steady + 1 if abs(now - last) <= max(last // 200, 256) else 0
        last = now
    return last


def _played(players: Path, url: str | None = None) -> dict[str, int]:
    """What the scripts played, from the players' save files (``url``: the saves of
    every player in that database)."""
    from unoduo_tui.store import Store

    tally = dict(matches=0, actions=0, rounds=0, finished=0)
    if url is not None:
        from unoduo_tui.storage.pg import PgStore

        stores = [PgStore(url, players, owner=None)]
    else:
        stores = [Store(f) for f in (players.iterdir() if players.is_dir() else ())]
    for store in stores:
        for s in store.summaries():
            tally["matches"] += 1
            tally["actions"] += s.actions
            tally["rounds"] += s.round
            tally["finished"] += s.status == "finished"
    return tally


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(values: list[float]) -> str:
    if not values:
        return "no samples"
    ms = [v * 1000 for v in values]
    return (f"p50 {statistics.median(ms):.0f} ms, p90 {_pct(ms, 0.9):.0f} ms, "
            f"p99 {_pct(ms, 0.99):.0f} ms, max {max(ms):.0f} ms")


async def run_model(args: argparse.Namespace, workers: int, connections: int) -> dict:
    """One server (``workers`` 0: a process per connection), ``connections`` players:
    its figures (printed as they come, and returned for the side-by-side table)."""
    model = f"--workers {workers}" if workers else "process per connection"
    if args.cluster:
        model = f"{args.cluster} nodes × ({model}), HAProxy"
    print(f"== {model}, {connections} players ==", file=sys.stderr)
    folder = tempfile.mkdtemp(prefix="unoduo-sshbench-")
    most = str(connections + args.burst + 10)
    command = (["-m", "tests.bench.cluster", "--nodes", str(args.cluster), "--folder",
                folder] if args.cluster else
               ["-m", "unoduo_tui.cli", "serve", "--port", "0", "--data-dir", folder,
                "--idle", "0"])
    server = subprocess.Popen(
        [sys.executable, *command, "--max-connections", most, "--workers", str(workers)],
        stdout=subprocess.PIPE, text=True,
        stderr=open(args.server_log, "a") if args.server_log else subprocess.DEVNULL)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r"port (\d+)", line)
        if not found:
            raise RuntimeError(f"the server did not start: {line.strip()!r}")
        port = int(found.group(1))
        store = re.search(r" store (\S+)", line)
        idle_pss = await _settled_pss(server.pid)
        ready: asyncio.Queue = asyncio.Queue()
        go, stop = asyncio.Event(), asyncio.Event()
        burst = []
        if args.burst:  # connect → lobby, this many at once, before anyone plays
            burst = await asyncio.gather(*(
                play(connections + i, port, ready, go, stop, 0, 1, args.timeout,
                     args.per_address, lobby_only=True) for i in range(args.burst)))
            while not ready.empty():
                ready.get_nowait()
        started = time.monotonic()
        tasks = [asyncio.create_task(play(i, port, ready, go, stop, args.pace,
                                          args.probe_every, args.timeout, args.per_address))
                 for i in range(connections)]
        at_table = failed = 0
        while at_table + failed < connections:
            number = await ready.get()
            at_table, failed = at_table + (number >= 0), failed + (number < 0)
            print(f"\r{at_table} at their tables, {failed} failed", end="", file=sys.stderr)
        print(file=sys.stderr)
        setup = time.monotonic() - started
        await asyncio.sleep(1.0)  # the last matches' first frames drawn
        tree = _tree(server.pid)
        pss = sum(_kib(k, "Pss") for k in tree)
        speed = [_machine_speed()]  # the players wait at their tables meanwhile
        roles_before = _cpu_by_role(tree)
        client_before = _own_cpu()
        go.set()
        await asyncio.sleep(args.seconds)
        client = _own_cpu() - client_before
        tree = _tree(server.pid)
        roles = _cpu_by_role(tree)
        by_role = {r: roles[r] - roles_before.get(r, 0.0) for r in roles}
        cpu_used = sum(by_role.values())
        load = os.getloadavg()[0]
        stop.set()
        players = await asyncio.gather(*tasks)
        speed.append(_machine_speed())
        samples = [s for p in players for s in p.samples]
        keys = sum(p.keys for p in players)
        errors = [p.error for p in players if p.error] + [p.error for p in burst if p.error]
        n = max(at_table, 1)
        figures = dict(
            model=model, players=at_table, setup=setup,
            pss=(pss - idle_pss) / n / 1024, idle=idle_pss / 1024, processes=len(tree),
            cpu_key=cpu_used / max(keys, 1) * 1000,
            cpu_roles={r: v / max(keys, 1) * 1000 for r, v in sorted(by_role.items())},
            core=cpu_used / args.seconds / n * 100,
            client_core=client / args.seconds * 100,
            latency=samples, lobby=[p.to_lobby for p in burst if p.to_lobby is not None],
            keys=keys, load=load, errors=errors, speed=speed,
            played=_played(Path(folder) / "players", store.group(1) if store else None),
            skipped=sum(p.skipped for p in players))
        _print(figures, args)
        return figures
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
        subprocess.run(["rm", "-rf", folder], check=False)


def _print(f: dict, args: argparse.Namespace) -> None:
    print(f"{f['model']}: {f['players']} players reached their table in {f['setup']:.1f} s "
          f"({len(f['errors'])} failed{': ' + f['errors'][0] if f['errors'] else ''})")
    print(f"  memory per player: PSS {f['pss']:.1f} MiB (the whole process tree, "
          f"{f['processes']} processes, over its idle {f['idle']:.1f} MiB)")
    print(f"  CPU while playing: {f['cpu_key']:.1f} ms per script key, bots' moves and "
          f"the server included ({f['core']:.1f}% of a core per player)")
    print("    of it: " + ", ".join(f"{role} {ms:.1f}" for role, ms in f["cpu_roles"].items()))
    print(f"  the scripted clients (SSH and a pyte terminal each, one process, one event "
          f"loop: their queue is in the latency): {f['client_core']:.0f}% of a core")
    print(f"  key → first screen update ({len(f['latency'])} probes, {f['keys']} script keys "
          f"in {args.seconds:.0f} s, a key every {args.pace:g} s): {_ms(f['latency'])}")
    if args.burst:
        print(f"  connect → lobby on screen, {args.burst} at once: {_ms(f['lobby'])}")
    print(f"  this machine's speed: the engine's random play at {f['speed'][0] / 1000:.0f}k "
          f"actions per CPU second before the run, {f['speed'][1] / 1000:.0f}k after "
          f"(python -m tests.bench.engine's figure: compare runs of other hours by it)")
    played = f["played"]
    print(f"  played: {played['actions']} moves logged in {played['matches']} saved matches "
          f"({played['rounds']} rounds reached, {played['finished']} finished); "
          f"probes not taken: {f['skipped']}; load average {f['load']:.1f}")


def _table(results: list[dict], args: argparse.Namespace) -> None:
    print(f"\nside by side (a key every {args.pace:g} s, {args.seconds:.0f} s of play, "
          f"{os.cpu_count()} CPUs):")
    print(f"{'model':<24} {'players':>7} {'PSS MiB':>8} {'ms/key':>7} {'p50':>6} {'p99':>6}"
          f" {'lobby p50':>9} {'load':>5} {'speed':>6}")
    for f in results:
        lat = [v * 1000 for v in f["latency"]] or [float("nan")]
        lobby = [v * 1000 for v in f["lobby"]] or [float("nan")]
        print(f"{f['model']:<24} {f['players']:>7} {f['pss']:>8.1f} {f['cpu_key']:>7.1f} "
              f"{statistics.median(lat):>6.0f} {_pct(lat, 0.99):>6.0f} "
              f"{statistics.median(lobby):>9.0f} {f['load']:>5.1f} "
              f"{min(f['speed']) / 1000:>5.0f}k")


async def idle_player(number: int, port: int, ready: asyncio.Queue, stop: asyncio.Event,
                      timeout: float, per_address: int, listed: bytes,
                      logging_in: dict[str, asyncio.Semaphore]) -> Player:
    """A player who connects, waits until the lobby lists ``listed`` ("1000 tables"),
    and does nothing more until ``stop``.  ``logging_in``: per source address, how many
    may be logging in at once (serve's login pool: 4)."""
    player = Player(number)
    address = source_address(number, per_address)
    gate = logging_in.setdefault(address, asyncio.Semaphore(4))
    try:
        await gate.acquire()
        async with _terminal(number, port, per_address, player) as (process, pump):
            try:
                await player.wait_for(b"Signed in", timeout)
            finally:
                gate.release()
                gate = None
            await player.wait_for(listed, timeout)
            await ready.put(number)
            await stop.wait()
            pump.cancel()
    except (OSError, asyncssh.Error, TimeoutError) as exc:
        if gate is not None:
            gate.release()
        player.error = str(exc) or type(exc).__name__
        await ready.put(-number)
    return player


def _open_tables(folder: Path, count: int) -> None:
    """``count`` tables in the server's table service (two human seats, nobody at
    them), hosted from ten players' folders."""
    from concurrent.futures import ThreadPoolExecutor

    from engine import Rules

    from unoduo_tui.net import hall_link
    from unoduo_tui.net.client import plan_to_json
    from unoduo_tui.plan import HUMAN, MatchPlan

    hall = folder / "sockets" / "hall.sock"

    def one(n: int) -> None:
        plan = MatchPlan((f"Host{n}", "Player 2"), (HUMAN, HUMAN), Rules(preset="duo", seats=2))
        hall_link.open_table(folder / "players" / f"bench-host-{n % 10}", "--plan",
                             plan_to_json(plan), idle=0, path=hall)

    with ThreadPoolExecutor(4) as pool:
        for done, _ in enumerate(pool.map(one, range(count)), 1):
            if done % 100 == 0:
                print(f"\r{done} tables open", end="", file=sys.stderr)
    print(file=sys.stderr)


async def run_idle_lobby(args: argparse.Namespace, workers: int) -> dict:
    """``--idle-lobby``: the CPU an idle lobby costs, per player (see the module doc)."""
    players, tables = args.idle_lobby, args.tables
    model = f"--workers {workers}" if workers else "process per connection"
    print(f"== idle lobby: {model}, {players} players, {tables} tables ==", file=sys.stderr)
    folder = Path(tempfile.mkdtemp(prefix="unoduo-sshbench-"))
    server = subprocess.Popen(
        [sys.executable, "-m", "unoduo_tui.cli", "serve", "--port", "0", "--data-dir",
         str(folder), "--max-connections", str(players + 10), "--idle", "0",
         "--workers", str(workers)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    stop = asyncio.Event()
    tasks: list[asyncio.Task] = []
    try:
        assert server.stdout is not None
        found = re.search(r"port (\d+)", server.stdout.readline())
        if not found:
            raise RuntimeError("the server did not start")
        port = int(found.group(1))
        await _settled_pss(server.pid)
        started = time.monotonic()
        empty = _tree_pss(server.pid)
        await asyncio.to_thread(_open_tables, folder, tables)
        opening = time.monotonic() - started
        await asyncio.sleep(1.0)
        held = _tree_pss(server.pid) - empty

        def cpu() -> float:
            return sum(cpu_seconds(k) for k in _tree(server.pid))

        def server_cpu() -> float:
            return cpu_seconds(server.pid)

        before = cpu()
        await asyncio.sleep(args.seconds)
        alone = cpu() - before  # the tables with nobody in the lobby
        ready: asyncio.Queue = asyncio.Queue()
        listed = f"{tables} tables".encode()
        logging_in: dict[str, asyncio.Semaphore] = {}
        tasks = [asyncio.create_task(idle_player(i, port, ready, stop, args.timeout,
                                                 args.per_address, listed, logging_in))
                 for i in range(players)]
        waiting = failed = 0
        while waiting + failed < players:
            number = await ready.get()
            waiting, failed = waiting + (number >= 0), failed + (number < 0)
            print(f"\r{waiting} in the lobby, {failed} failed", end="", file=sys.stderr)
        print(file=sys.stderr)
        await asyncio.sleep(args.settle)  # the last lobbies drawn, their boards read
        before, before_server = cpu(), server_cpu()
        await asyncio.sleep(args.seconds)
        idle, idle_server = cpu() - before, server_cpu() - before_server
        load = os.getloadavg()[0]
        n = max(waiting, 1)
        per_player = max(0.0, idle - alone) / args.seconds / n * 100
        errors = [t.result().error for t in tasks if t.done() and t.result().error]
        print(f"{model}: {tables} tables opened in {opening:.1f} s (PSS {held / 1024:.0f} MiB "
              f"more, {held / max(tables, 1):.0f} KiB a table); {waiting} players idle in "
              f"the lobby ({failed} failed), each listing page 1 of the {tables}")
        if errors:
            print(f"  the first failure: {errors[0]}")
        print(f"  server tree CPU over {args.seconds:.0f} s: {alone:.2f} s with nobody "
              f"connected, {idle:.2f} s with the {waiting} idle lobbies ({idle_server:.2f} s of "
              "it the server's own process, holding the tables; the rest its workers)")
        print(f"  an idle lobby: {per_player:.3f} % of a core per player "
              f"(load average {load:.1f})")
        stopping = time.monotonic()
        server.terminate()
        await asyncio.to_thread(server.wait, 60)
        print(f"  SIGTERM → exit with the {tables} tables and {waiting} players: "
              f"{time.monotonic() - stopping:.1f} s")
        return dict(model=model, players=waiting, per_player=per_player, load=load)
    finally:
        stop.set()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
        subprocess.run(["rm", "-rf", str(folder)], check=False)


async def run(args: argparse.Namespace) -> int:
    if args.idle_lobby:
        for workers in args.models:
            await run_idle_lobby(args, workers)
        return 0
    results = []
    for connections in args.connections:
        for workers in args.models:
            results.append(await run_model(args, workers, connections))
    if len(results) > 1:
        _table(results, args)
    return 0


def _list(kind):
    def parse(text: str) -> list:
        try:
            values = [kind(v) for v in text.split(",") if v.strip()]
        except ValueError:
            values = []
        if not values or any(v < 0 for v in values):
            raise argparse.ArgumentTypeError(f"{text[:20]!r}: numbers, comma-separated")
        return values
    return parse


def main(argv: list[str] | None = None) -> int:
    try:
        import pyte  # noqa: F401
    except ImportError:
        print("the SSH benchmark reads screens with pyte: pip install -e '.[bench]'",
              file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog="python -m tests.bench.ssh",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=_list(int), default=[100], metavar="N[,N…]",
                        help="players (several: one run each, e.g. 30,60)")
    parser.add_argument("--workers", dest="models", type=_list(int), default=[0],
                        metavar="W[,W…]",
                        help="serve --workers W (0: a process per connection; several: "
                             "each model in turn, e.g. 0,2, and a table side by side)")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="how long all of them play once they are at their tables")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between script keys")
    parser.add_argument("--probe-every", type=int, default=6,
                        help="script keys between two latency probes")
    parser.add_argument("--burst", type=int, default=10,
                        help="players connecting at once, before the run, to time "
                             "connect → lobby (0: none)")
    parser.add_argument("--per-address", type=int, default=4,
                        help="players per source address (127.0.0.2, 127.0.0.3, …; serve logs in 4 at once from one address)")
    parser.add_argument("--cluster", type=int, default=0, metavar="N",
                        help="N serve nodes sharing a PostgreSQL behind HAProxy, instead "
                             "of one server (tests.bench.cluster starts them)")
    parser.add_argument("--idle-lobby", type=int, default=0, metavar="N",
                        help="measure N players idle in the lobby instead (with --tables)")
    parser.add_argument("--settle", type=float, default=2.0,
                        help="seconds from the last lobby shown to the measure "
                             "(with --idle-lobby: each lobby's leaderboard refreshes the "
                             "server's index from every save once, as it opens)")
    parser.add_argument("--tables", type=int, default=1000,
                        help="open tables the idle lobbies list (with --idle-lobby)")
    parser.add_argument("--server-log", metavar="PATH",
                        help="append the server's log (its stderr) to PATH")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds a connection may take to reach its table")
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
