"""The record's figures: ``python -m tests.bench.record``.

    python -m tests.bench.record make DIR [--matches 10000] [--jobs 2] [--seed 1]
    python -m tests.bench.record time DIR [--jobs 2] [--ends 50]

``make`` writes finished human-vs-bot saves into ``DIR/matches`` — what a player's
data dir holds after many matches (``unoduo simulate --save`` writes bot-only ones,
which the record does not count).  The "human" seats (Ann, and in one match of ten a
classic four-seat table with Bea too) are played by the normal bot; the opponents
cycle through random, easy and normal (hard thinks 500 ms a move: too slow for
10,000).  Seeded: the same command writes the same matches.

``time`` measures, on the dir: ``unoduo stats --rebuild`` (every save replayed and
counted, ``--jobs`` processes), ``unoduo stats`` (a refresh that finds nothing new,
and the summary of every player) and ``unoduo stats --json``, each as a child
process, wall clock; then the index's update at a match's end (:meth:`Index.note` of
a new finished save, the store's hook), ``--ends`` times: mean and max.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from engine import Match, Rules, bots

__all__ = ["main", "make_saves"]

OPPONENTS = ("random", "easy", "normal")


def _one(args: tuple) -> None:
    data_dir, i, seed = args
    from engine import __version__
    from engine.savefile import Encoder, Footer, Header

    from unoduo_tui.files import put_new, private_dir

    level = OPPONENTS[i % len(OPPONENTS)]
    seats: tuple[tuple[str, str], ...]
    kinds: tuple[str, ...]
    if i % 10 == 9:
        rules = Rules(preset="classic", seats=4)
        seats = (("Ann", "human"), (f"{level.capitalize()} bot", f"bot:{level}"),
                 ("Bea", "human"), ("Easy bot", "bot:easy"))
        kinds = ("normal", level, "normal", "easy")
    else:
        rules = Rules()
        seats = (("Ann", "human"), (f"{level.capitalize()} bot", f"bot:{level}"))
        kinds = ("normal", level)
        if i % 2:
            seats, kinds = seats[::-1], kinds[::-1]
    deal = seed * 1_000_003 + i
    players = [bots.make(k, seed=deal * 16 + s) for s, k in enumerate(kinds)]
    m = Match.new(rules, seed=deal)
    while not m.over:
        m.apply(players[m.to_act].choose(m.view(m.to_act)))
    # the bytes the store writes for a finished match (header, log, footer), without
    # its fsync per file: a bulk write of many saves
    match_id = f"20260101-000000-{(seed * 1_000_003 + i) & 0xFFFFFF:06x}"
    enc = Encoder()
    data = enc.start(Header(match_id, rules, m.seed, seats,
                            "2026-01-01T00:00:00+00:00", __version__))
    data += enc.entries(m.actions)
    data += enc.footer(Footer(m.winner, m.scores, m.round, m.log_length, 0, len(data)))
    folder = Path(data_dir) / "matches"
    private_dir(folder)
    put_new(folder / f"{match_id}.unoduo", data, False)


def make_saves(data_dir: Path, matches: int, jobs: int = 2, seed: int = 1) -> None:
    work = [(str(data_dir), i, seed) for i in range(matches)]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for done, _ in enumerate(pool.imap_unordered(_one, work, chunksize=8), 1):
                if done % 500 == 0:
                    print(f"{done}/{matches}", file=sys.stderr, flush=True)
    else:
        for job in work:
            _one(job)


def _timed(argv: list[str]) -> str:
    """A child's wall clock, and the CPU it and its children took (the figure a loaded
    machine does not change)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return f"{wall:.2f} s wall, {cpu:.2f} s CPU"


def time_dir(data_dir: Path, jobs: int, ends: int) -> None:
    from unoduo_tui.record.index import Index

    unoduo = [sys.executable, "-m", "unoduo_tui.cli", "--data-dir", str(data_dir)]
    saves = len(list((data_dir / "matches").glob("*.unoduo")))
    load = open("/proc/loadavg").read().split()[:3]
    print(f"{saves} saves in {data_dir}; load average {' '.join(load)}")
    print(f"unoduo stats --rebuild: {_timed([*unoduo, 'stats', '--rebuild'])} "
          f"({os.cpu_count()} cores)")
    print(f"unoduo stats:           {_timed([*unoduo, 'stats'])}")
    print(f"unoduo stats --json:    {_timed([*unoduo, 'stats', '--json'])}")
    spare = data_dir / "spare"
    shutil.rmtree(spare, ignore_errors=True)
    make_saves(spare, ends, jobs=1, seed=99)
    index = Index.of(data_dir)
    index.refresh()  # the connection a playing process holds
    took, cpu, noted = [], [], []
    for path in sorted((spare / "matches").glob("*.unoduo")):
        target = data_dir / "matches" / path.name
        if target.exists():
            raise SystemExit(f"{target} is there already: not a fresh match's end")
        noted.append(target)
        os.replace(path, target)  # a save whose match has just ended
        tick, tock = time.perf_counter(), time.process_time()
        index.note(target)
        took.append(time.perf_counter() - tick)
        cpu.append(time.process_time() - tock)
    shutil.rmtree(spare, ignore_errors=True)
    for t in noted:  # the dir as it was, for the next run
        t.unlink()
        index.forget(t)
    print(f"index update at a match's end: mean {1000 * sum(took) / len(took):.1f} ms, "
          f"median {1000 * sorted(took)[len(took) // 2]:.1f} ms, max {1000 * max(took):.1f} ms "
          f"wall; mean {1000 * sum(cpu) / len(cpu):.1f} ms CPU, over {len(took)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.record")
    sub = parser.add_subparsers(dest="what", required=True)
    make = sub.add_parser("make")
    make.add_argument("dir", type=Path)
    make.add_argument("--matches", type=int, default=10_000)
    make.add_argument("--jobs", type=int, default=2)
    make.add_argument("--seed", type=int, default=1)
    timing = sub.add_parser("time")
    timing.add_argument("dir", type=Path)
    timing.add_argument("--jobs", type=int, default=2)
    timing.add_argument("--ends", type=int, default=50)
    args = parser.parse_args(argv)
    if args.what == "make":
        tick = time.perf_counter()
        make_saves(args.dir, args.matches, args.jobs, args.seed)
        print(f"{args.matches} saves in {args.dir} in {time.perf_counter() - tick:.0f} s")
    else:
        time_dir(args.dir, args.jobs, args.ends)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
