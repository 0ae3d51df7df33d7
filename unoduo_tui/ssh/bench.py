"""Figures for the SSH game server (#16): ``python -m unoduo_tui.ssh.bench
[--connections 100] [--seconds 60]``.

Starts ``unoduo serve`` (a process of its own, on 127.0.0.1 and a free port, in a
temporary folder), then opens ``--connections`` SSH connections from this process
(asyncssh, one fresh ed25519 key each: one player each, each from an address of its
own in 127.0.0.0/8, :func:`loopback`, as players on the network would come — the
server's limits per address stay the defaults), each with an 80×24 pty.
Every connection goes the way a player does: the lobby, ``n`` (vs bots), ``ctrl+s``
(the new-match form's start: UNO Duo vs one normal bot), then plays the match by a
fixed script of keys that needs no knowledge of the cards (keep in the draft; a card
number and Enter; Red for a wild; draw; pass; Enter for a round's end), one key every
``--pace`` seconds.

Printed, once every connection is at its table:

- **memory per connection**: the sum over the game processes (the server's children)
  of their PSS (``/proc/PID/smaps_rollup``: shared pages split between the sharers)
  and of their RSS, plus the server process's growth over its idle size, divided by
  the connections;
- **key-to-screen-update latency**: every ``--probe-every`` script keys a connection
  waits until its screen has been quiet for 0.1 s and shows its own decision with no
  dialog over the table (read from a terminal emulator, ``pyte``: the footer offers
  "Select" and one of Keep / Play / Draw / Pass, and the hand holds two cards or more —
  so nothing but the key can change the screen), sends → (select the next card) and
  times the first byte of screen update that comes back — p50, p90, p99 and the max
  over all probes of all connections, while all of them play.  (``pyte`` is in the
  ``bench`` extra.)

A benchmark, not a test: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

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
            if left <= 0:
                raise TimeoutError(f"connection {self.number}: no {needle!r} on screen")
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
                return
            player.took(data)
    except Exception as exc:  # a benchmark says what broke rather than hang
        player.error = f"reading the screen: {exc!r}"
        raise


def loopback(number: int) -> str:
    """A loopback address of its own for the player ``number`` (127.0.1.1 on)."""
    return f"127.0.{1 + number // 250}.{1 + number % 250}"


async def play(number: int, port: int, ready: asyncio.Queue, go: asyncio.Event,
               stop: asyncio.Event, pace: float, probe_every: int, timeout: float) -> Player:
    player = Player(number)
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        async with asyncssh.connect("127.0.0.1", port, username=f"p{number}",
                                    client_keys=[key], known_hosts=None,
                                    agent_path=None,
                                    local_addr=(loopback(number), 0)) as conn:
            process = await conn.create_process(term_type="xterm-256color",
                                                term_size=(80, 24), encoding=None)
            pump = asyncio.create_task(_pump(process, player))
            await player.wait_for(b"Signed in", timeout)
            process.stdin.write(b"n")
            await player.wait_for(b"Start", timeout)
            process.stdin.write(b"\x13")  # ctrl+s: start the match the form shows
            await player.wait_for(b"Keep", timeout)  # the draft's footer
            await ready.put(number)
            await go.wait()
            step = 0
            while not stop.is_set() and not pump.done():
                process.stdin.write(SCRIPT[step % len(SCRIPT)])
                player.keys += 1
                step += 1
                await asyncio.sleep(pace)
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


def _children(pid: int) -> list[int]:
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(entry))
    return kids


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _kib(pid: int, field: str, name: str = "smaps_rollup") -> int:
    try:
        for line in Path(f"/proc/{pid}/{name}").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _played(players: Path) -> dict[str, int]:
    """What the scripts played, from the players' save files."""
    from ..store import Store

    tally = dict(matches=0, actions=0, rounds=0, finished=0)
    for folder in players.iterdir() if players.is_dir() else ():
        for s in Store(folder).summaries():
            tally["matches"] += 1
            tally["actions"] += s.actions
            tally["rounds"] += s.round
            tally["finished"] += s.status == "finished"
    return tally


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace) -> int:
    folder = tempfile.mkdtemp(prefix="unoduo-sshbench-")
    server = subprocess.Popen(
        [sys.executable, "-m", "unoduo_tui.cli", "serve", "--port", "0", "--data-dir", folder,
         "--max-connections", str(args.connections + 10), "--idle", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r"port (\d+)", line)
        if not found:
            print(f"the server did not start: {line.strip()!r}", file=sys.stderr)
            return 1
        port = int(found.group(1))
        idle_kib = _kib(server.pid, "VmRSS", "status")
        ready: asyncio.Queue = asyncio.Queue()
        go, stop = asyncio.Event(), asyncio.Event()
        started = time.monotonic()
        tasks = [asyncio.create_task(play(i, port, ready, go, stop, args.pace,
                                          args.probe_every, args.timeout))
                 for i in range(args.connections)]
        at_table = failed = 0
        while at_table + failed < args.connections:
            number = await ready.get()
            at_table, failed = at_table + (number >= 0), failed + (number < 0)
            print(f"\r{at_table} at their tables, {failed} failed", end="", file=sys.stderr)
        print(file=sys.stderr)
        setup = time.monotonic() - started
        kids = _children(server.pid)
        pss = sum(_kib(k, "Pss") for k in kids)
        rss = sum(_kib(k, "Rss") for k in kids)
        server_kib = _kib(server.pid, "VmRSS", "status")
        cpu_before = sum(_cpu_seconds(k) for k in kids)
        go.set()
        await asyncio.sleep(args.seconds)
        cpu_used = sum(_cpu_seconds(k) for k in kids) - cpu_before
        stop.set()
        players = await asyncio.gather(*tasks)
        samples = [s for p in players for s in p.samples]
        keys = sum(p.keys for p in players)
        errors = [p.error for p in players if p.error]
        n = max(at_table, 1)
        print(f"connections: {args.connections} asked, {at_table} reached their table in "
              f"{setup:.1f} s ({len(errors)} failed{': ' + errors[0] if errors else ''})")
        print(f"memory per connection: PSS {pss / n / 1024:.1f} MiB, RSS {rss / n / 1024:.1f} MiB "
              f"(game processes: {len(kids)}; the server {idle_kib / 1024:.1f} → "
              f"{server_kib / 1024:.1f} MiB, {(server_kib - idle_kib) / n:.0f} KiB per connection)")
        print(f"CPU of the game processes while playing: {cpu_used:.1f} s in {args.seconds:.0f} s, "
              f"{cpu_used / args.seconds / n * 100:.1f}% of a core per connection "
              f"({cpu_used / max(sum(p.keys for p in players), 1) * 1000:.1f} ms per script key, "
              f"bots' moves included)")
        if samples:
            ms = [s * 1000 for s in samples]
            print(f"key → first screen update, {len(ms)} probes over {args.seconds:.0f} s while "
                  f"{at_table} play ({keys} script keys): p50 {statistics.median(ms):.1f} ms, "
                  f"p90 {_pct(ms, 0.9):.1f} ms, p99 {_pct(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")
        played = _played(Path(folder) / "players")
        print(f"played: {played['actions']} moves logged in {played['matches']} saved matches "
              f"({played['rounds']} rounds reached, {played['finished']} matches finished)")
        print(f"probes not taken (a dialog, the bot's turn, one card): "
              f"{sum(p.skipped for p in players)}")
        print(f"load average: {os.getloadavg()[0]:.1f} (2 cores: {os.cpu_count()} CPUs)")
        return 0
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
        subprocess.run(["rm", "-rf", folder], check=False)


def main(argv: list[str] | None = None) -> int:
    try:
        import pyte  # noqa: F401
    except ImportError:
        print("the SSH benchmark reads screens with pyte: pip install -e '.[bench]'",
              file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog="python -m unoduo_tui.ssh.bench",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="how long all of them play once they are at their tables")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between script keys")
    parser.add_argument("--probe-every", type=int, default=6,
                        help="script keys between two latency probes")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds a connection may take to reach its table")
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
