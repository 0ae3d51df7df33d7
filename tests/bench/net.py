"""Figures for remote play (#15, #22): ``python -m tests.bench.net [--tables 50]
[--pace 2]``.

A server process holds ``--tables`` authorities on one event loop (each a
:class:`LocalTable` of two human seats, unsaved, on its own Unix socket); this
process runs two scripted :class:`RemoteTable` clients per table, each playing a
random legal action as soon as its view says it may, at full speed, for
``--seconds``.  ``--client-procs N`` spreads the clients over N processes of their
own (threads in each): with all of them as threads of one process their GIL is part
of the round trip, so comparing the two separates the clients' time from the
authority's.  Printed: decisions made, p50/p99 round-trip from a client's action
to the update that shows it, the server's memory per table (RSS growth over an
empty server, divided by the tables), and a local table's memory measured the same
way in this process, and the server's CPU per decision (full speed: the saturation
throughput of one core).  Target (#22): p99 ≤ 50 ms at a human's pace (``--pace 2``).
A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.bench.proc import cpu_seconds


def _rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _plan(seed: int):
    from engine import Rules
    from unoduo_tui.plan import HUMAN, MatchPlan

    return MatchPlan(("A", "B"), (HUMAN, HUMAN), Rules(), seed)


def serve(tables: int, folder: str) -> None:
    """The server side: ``tables`` authorities, then one JSON line, until stdin closes."""
    from unoduo_tui.table.local import LocalTable
    from unoduo_tui.net.authority import Authority
    from unoduo_tui.net.codes import new_code

    async def main() -> None:
        import tracemalloc

        empty = _rss_kib()
        tracemalloc.start()
        held = []
        for i in range(tables):
            table = LocalTable.start(None, _plan(i + 1))
            code = new_code()
            authority = Authority(table, code)
            path = os.path.join(folder, f"{i}.sock")
            await authority.start(path)
            held.append((authority, code, path))
        traced = tracemalloc.get_traced_memory()[0] // 1024
        tracemalloc.stop()
        print(json.dumps({"tables": [[c, p] for _, c, p in held],
                          "rss_kib": traced}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        print(json.dumps({"rss_kib": _rss_kib() - empty}), flush=True)
        for authority, _, _ in held:
            await authority.close()

    asyncio.run(main())


def _player(code: str, path: str, seconds: float, times: list, stop: threading.Event,
            seed: int, pace: float = 0.0) -> None:
    import socket

    from unoduo_tui.net.remote import RemoteTable

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    table = RemoteTable(sock, code)
    seat = table.seat
    assert seat is not None  # a player's seat: a hello to play is given one or refused
    updates: queue.Queue = queue.Queue()
    last = table.subscribe(updates.put)
    rng = random.Random(seed)
    while not stop.is_set():
        view = last.views[seat]
        if last.over:
            break
        if view.legal_actions:
            if pace and stop.wait(pace * rng.uniform(0.5, 1.5)):  # a player thinks
                break
            action = rng.choice(view.legal_actions)
            count = view.event_count
            start = time.perf_counter()
            table.act(seat, str(action))
            while True:
                last = updates.get(timeout=30)
                if last.views[seat].event_count > count or last.cause == "refused":
                    break
            times.append(time.perf_counter() - start)
        else:
            try:
                last = updates.get(timeout=0.5)
            except queue.Empty:
                pass
    table.close()


def _local_table_kib(tables: int, decisions: int) -> tuple[float, float]:
    """A local table's memory (tracemalloc), at the start and after ``decisions``
    random decisions each."""
    import tracemalloc

    from unoduo_tui.table.local import LocalTable

    tracemalloc.start()
    held = [LocalTable.start(None, _plan(i + 1)) for i in range(tables)]
    start = tracemalloc.get_traced_memory()[0] / 1024 / tables
    rng = random.Random(1)
    for table in held:
        for _ in range(decisions):
            m = table.match
            if m.over:
                break
            table.act(m.to_act, str(rng.choice(m.legal_actions())))
    after = tracemalloc.get_traced_memory()[0] / 1024 / tables
    tracemalloc.stop()
    return start, after


def _run_players(tables: list, first_seed: int, seconds: float, pace: float = 0.0
                 ) -> list[float]:
    """Two players a table (``tables``: [code, path] pairs) as threads, for ``seconds``
    (``pace``: seconds a player thinks before each decision, × 0.5–1.5; 0: none)."""
    times: list[float] = []
    stop = threading.Event()
    threads = [threading.Thread(target=_player, args=(code, path, seconds, times, stop,
                                                      first_seed + i * 2 + k, pace),
                                daemon=True)
               for i, (code, path) in enumerate(tables) for k in range(2)]
    for t in threads:
        t.start()
    stop.wait(seconds)
    stop.set()
    for t in threads:
        t.join(60)
    return times


def _players_in_processes(tables: list, procs: int, seconds: float, pace: float = 0.0
                          ) -> list[float]:
    """The same, the tables dealt round to ``procs`` client processes."""
    shares = [tables[i::procs] for i in range(procs)]
    children = [subprocess.Popen([sys.executable, "-m", "tests.bench.net", "--play",
                                  json.dumps({"tables": share, "seed": i * 1000,
                                              "seconds": seconds, "pace": pace})],
                                 stdout=subprocess.PIPE, text=True)
                for i, share in enumerate(shares) if share]
    times: list[float] = []
    for child in children:
        out, _ = child.communicate(timeout=seconds + 120)
        times += json.loads(out)["times"]
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.net")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--client-procs", type=int, default=0,
                        help="run the clients in this many processes (0: threads here)")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="seconds a player thinks before each decision (× 0.5–1.5, "
                             "each its own; 0: full speed, the saturation throughput)")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--play", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve is not None:
        serve(args.serve, args.folder)
        return 0
    if args.play is not None:
        job = json.loads(args.play)
        print(json.dumps({"times": _run_players(job["tables"], job["seed"],
                                                job["seconds"], job["pace"])}))
        return 0
    folder = tempfile.mkdtemp(prefix="udb", dir="/tmp")
    server = subprocess.Popen([sys.executable, "-m", "tests.bench.net", "--serve",
                               str(args.tables), "--folder", folder],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None and server.stdin is not None
    ready = json.loads(server.stdout.readline())
    started = time.perf_counter()
    cpu_before = cpu_seconds(server.pid)
    if args.client_procs > 0:
        times = _players_in_processes(ready["tables"], args.client_procs, args.seconds,
                                      args.pace)
    else:
        times = _run_players(ready["tables"], 0, args.seconds, args.pace)
    elapsed = time.perf_counter() - started
    server_cpu = cpu_seconds(server.pid) - cpu_before
    server.stdin.close()
    after = json.loads(server.stdout.readline())
    server.wait(60)
    times.sort()
    n = len(times)
    if not n:
        print("no decisions were made")
        return 1
    p50, p99 = times[n // 2] * 1000, times[min(n - 1, int(n * 0.99))] * 1000
    where = (f"in {args.client_procs} processes" if args.client_procs > 0
             else "as threads of one process")
    print(f"{args.tables} tables, {2 * args.tables} clients {where}, {elapsed:.1f} s: "
          f"{n} decisions ({n / elapsed:.0f}/s)")
    print(f"the server's CPU: {server_cpu:.1f} s, {n / max(server_cpu, 1e-9):.0f} decisions "
          f"per second of one core ({server_cpu / elapsed * 100:.0f}% of a core); load "
          f"average {os.getloadavg()[0]:.1f}")
    print(f"round trip action -> its update: p50 {p50:.1f} ms, p99 {p99:.1f} ms "
          f"(target p99 <= 50 ms)")
    print(f"authority memory per table: {ready['rss_kib'] / args.tables:.0f} KiB at the "
          f"start (tracemalloc), {after['rss_kib'] / args.tables:.0f} KiB after play "
          f"(RSS growth)")
    local_start, local_after = _local_table_kib(args.tables, n // args.tables)
    print(f"local table memory per table: {local_start:.0f} KiB at the start, "
          f"{local_after:.0f} KiB after {n // args.tables} decisions (tracemalloc)")
    Path(folder).rmdir() if not any(Path(folder).iterdir()) else None
    return 0


if __name__ == "__main__":
    sys.exit(main())
