"""Step-through replay speed: ``python -m tests.bench.replay [--actions 10000]``.

Plays one long random-vs-random match (``Rules(target=5000)``, cut at ``--actions``
decisions), builds a :class:`ReplayCursor` over its
log, and prints the build time, the cost of one step forward and one step back
(median, 99th percentile and worst over ``--steps`` random positions), a jump to a
random position — timed without ``tracemalloc``, which slows every allocation — and
then the peak memory of building and using the cursor (``tracemalloc``).

A benchmark, not a test: nothing here asserts on time.  Targets (issue 6): under
5 ms a step, under 150 MB for the viewer.
"""

from __future__ import annotations

import argparse
import resource
import random
import statistics
import time
import tracemalloc

from engine import bots
from engine.match import Match
from engine.replay import ReplayCursor
from engine.rules import Rules


def long_match(actions: int, seed: int = 1, target: int = 5000) -> Match:
    """A random-vs-random match under ``Rules(target=target)``, stopped after
    ``actions`` decisions (or when over, if sooner)."""
    m = Match.new(Rules(target=target), seed=seed)
    players = [bots.make("random", seed=seed), bots.make("random", seed=seed + 1)]
    for _ in range(actions):
        if m.over:
            break
        seat = m.to_act
        m.apply(players[seat].choose(m.view(seat)))
    return m


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"median {statistics.median(samples) * 1e3:6.3f} ms, p99 {p99 * 1e3:6.3f} ms, "
            f"worst {max(samples) * 1e3:6.3f} ms")


def _use(cursor: ReplayCursor, steps: int, seed: int):
    """Forward, back and jump ``steps`` times from random positions; their times."""
    rng = random.Random(seed)
    fwd, back, jump = [], [], []
    clock = time.perf_counter
    for _ in range(steps):
        cursor.goto(rng.randrange(1, cursor.count))
        t = clock()
        cursor.step(+1)
        fwd.append(clock() - t)
        t = clock()
        cursor.step(-1)
        back.append(clock() - t)
        target = rng.randrange(cursor.count + 1)
        t = clock()
        cursor.goto(target)
        jump.append(clock() - t)
        cursor.view("all")
        cursor.view(0)
    return fwd, back, jump


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.replay",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--target", type=int, default=5000, help="the match's points target")
    parser.add_argument("--every", type=int, default=200, help="decisions between snapshots")
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    m = long_match(args.actions, args.seed, args.target)
    log, rules = m.actions, m.rules
    decisions = sum(1 for e in log if not e.is_chance)
    del m
    # times first, without tracemalloc (it slows every allocation), then the memory
    t = time.perf_counter()
    cursor = ReplayCursor(rules, log, 0, every=args.every)
    build = time.perf_counter() - t
    fwd, back, jump = _use(cursor, args.steps, args.seed)
    rounds = cursor.final.round
    del cursor
    tracemalloc.start()
    cursor = ReplayCursor(rules, log, 0, every=args.every)
    _use(cursor, min(args.steps, 100), args.seed)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"match: {decisions:,} decisions, {len(log):,} log entries, {rounds} rounds;"
          f" snapshots every {args.every}")
    print(f"build cursor      {build * 1e3:9.1f} ms")
    print(f"step forward      {_ms(fwd)}")
    print(f"step back         {_ms(back)}")
    print(f"goto random       {_ms(jump)}")
    print(f"peak memory       {peak / 2**20:9.1f} MB (tracemalloc, cursor and its use)")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"process max RSS   {rss:9.1f} MB (python, engine, the match and the cursor)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
