"""#22 Under faults, at full size, by hand (not collected by pytest):

    python -m tests.ssh.faults_by_hand kill-worker --players 20
    python -m tests.ssh.faults_by_hand sigterm --players 20 [--workers 2]

Starts ``unoduo serve --workers W`` on 127.0.0.1 (a free port, a temp serve dir),
puts PLAYERS scripted players (spread over 127.0.0.2 …, 8 an address) into matches
vs a bot, two cards kept each, then either kills a worker with SIGKILL (``--workers
1`` by default: it holds them all) and reconnects them all, or sends the server
SIGTERM; prints how many were told, resumed, how many acknowledged moves were
lost, and (SIGTERM) the time to the server's exit and to the whole tree's."""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

from unoduo_tui.net.lobby import pid_alive
from tests.bench.ssh import _tree
from unoduo_tui.ssh.hosted import WORKER_LOST

from .term import WAIT, new_key
from .test_workers import _serve_with_workers, saved_match, two_kept, until

STOPPING = "the server is stopping; your match is saved"


def _workers(pid: int) -> list[int]:
    out = []
    for child in _tree(pid):
        try:
            if b"unoduo_tui.ssh.worker" in Path(f"/proc/{child}/cmdline").read_bytes():
                out.append(child)
        except OSError:
            pass
    return out


async def _players(client, n: int):
    keys = {f"p{i}": new_key() for i in range(n)}
    source = {name: f"127.0.0.{2 + i // 8}" for i, name in enumerate(keys)}
    players = {name: await client.play(key, name, source=source[name])
               for name, key in keys.items()}
    turns = dict(zip(players, await asyncio.gather(*map(two_kept, players.values()))))
    return keys, source, players, turns


def _lost(serve_dir: Path, turns: dict[str, int]) -> int:
    lost = 0
    for name, turn in turns.items():
        decisions, hand = saved_match(serve_dir, name)
        lost += max(0, (turn - 1) - decisions) + max(0, 3 - hand)
    return lost


async def kill_worker(serve_dir: Path, n: int, workers: int) -> None:
    proc, client = await _serve_with_workers(serve_dir, workers)
    try:
        keys, source, players, turns = await _players(client, n)
        doomed = max(_workers(proc.pid), key=lambda pid: len(_tree(pid)))
        os.kill(doomed, signal.SIGKILL)
        await asyncio.gather(*(asyncio.wait_for(p.screen.closed.wait(), WAIT)
                               for p in players.values()))
        told = sum(WORKER_LOST in p.screen.text() for p in players.values())
        lost = _lost(serve_dir, turns)
        back = {name: await client.play(key, name, source=source[name])
                for name, key in keys.items()}

        async def resume(name: str) -> bool:
            try:
                await back[name].screen.wait(f"Signed in as {name}", "Resume")
                await back[name].keys("r")
                await back[name].screen.wait("Your hand · 2 cards",
                                             f"Draft {turns[name]}/14: keep")
                return True
            except AssertionError:
                return False
        resumed = sum(await asyncio.gather(*map(resume, keys)))
        await until(lambda: len(_workers(proc.pid)) == workers, "the worker replaced")
        print(f"kill -9 of worker {doomed} holding {n} players (--workers {workers}): "
              f"told {told}/{n}, resumed exactly {resumed}/{n}, acknowledged moves "
              f"lost {lost}; workers now {_workers(proc.pid)}")
    finally:
        proc.send_signal(signal.SIGTERM)
        await proc.wait()


async def sigterm(serve_dir: Path, n: int, workers: int) -> None:
    proc, client = await _serve_with_workers(serve_dir, workers)
    try:
        _, _, players, turns = await _players(client, n)
        tree = _tree(proc.pid)
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        status = await asyncio.wait_for(proc.wait(), WAIT)
        exited = time.monotonic() - start
        await until(lambda: not any(pid_alive(pid) for pid in tree), "the tree gone")
        gone = time.monotonic() - start
        await asyncio.gather(*(asyncio.wait_for(p.screen.closed.wait(), WAIT)
                               for p in players.values()))
        told = sum(STOPPING in p.screen.text() for p in players.values())
        print(f"SIGTERM with {n} players mid-match (--workers {workers}): exit status "
              f"{status} after {exited:.2f} s, whole tree ({len(tree)} processes) gone "
              f"after {gone:.2f} s (polled); told {told}/{n}; acknowledged moves lost "
              f"{_lost(serve_dir, turns)}")
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.ssh.faults_by_hand")
    parser.add_argument("what", choices=("kill-worker", "sigterm"))
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="uss", dir="/tmp"))
    try:
        if args.what == "kill-worker":
            asyncio.run(kill_worker(root / "serve", args.players, args.workers or 1))
        else:
            asyncio.run(sigterm(root / "serve", args.players, args.workers or 2))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
