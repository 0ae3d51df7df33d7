"""A decision's save, in PostgreSQL against the files (#27): ``python -m
tests.bench.saves [--decisions 2000] [--seed 1]``.

In one run, one process: a save in a data dir on this machine's disk
(:class:`~unoduo_tui.store.Store`: the record appended, then ``fdatasync``) and a
save in a PostgreSQL started for the run on a temporary folder and a free port of
127.0.0.1 (:class:`~unoduo_tui.storage.pg.PgStore`: the record's row inserted and its
match's row updated in one transaction, ``synchronous_commit`` on; the server with
``fsync`` on, as a real one runs — the tests run theirs with it off).  Two matches,
one per store, are played by random bots decision by decision, the two taking turns,
and each decision's :meth:`~unoduo_tui.savehandle.SaveHandle.sync` is timed: what a
table waits for before it shows the decision.  A match that ends gives way to a new
one until ``--decisions`` are timed in each.  Printed: p50, p90, p99 and the max of
each, and the load average (the machine may be shared).  PostgreSQL as Debian
installs it, run as the ``postgres`` user when root (:mod:`tests.cluster.servers`).

A benchmark, not a test: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from engine import Match, Rules, bots
from engine.savefile import SaveFileError

__all__ = ["main"]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(decisions: int, seed: int) -> int:
    from unoduo_tui.savehandle import Seat
    from unoduo_tui.storage.pg import PgStore
    from unoduo_tui.store import Store

    from ..cluster.servers import Postgres, missing

    why = missing()
    if why:
        print(f"cannot run: {why}", file=sys.stderr)
        return 2
    server = Postgres(fsync=True).start()
    folder = Path(tempfile.mkdtemp(prefix="unoduo-savebench-", dir=os.getcwd()))
    try:
        stores = {"files": Store(folder / "data"), "PostgreSQL": PgStore(server.new_db(),
                                                                         folder / "pg")}
        seats = (Seat("Ann", "bot:random"), Seat("Bob", "bot:random"))
        times: dict[str, list[float]] = {name: [] for name in stores}
        games: dict[str, tuple] = {}
        n = 0
        while min(len(t) for t in times.values()) < decisions:
            for name, store in stores.items():
                if name not in games or games[name][0].over:
                    n += 1
                    m = Match.new(Rules(preset="duo", seats=2), seed=seed + n)
                    players = [bots.make("random", seed=seed + n + s) for s in range(2)]
                    games[name] = (m, players, store.new_match(m, seats))
                m, players, handle = games[name]
                m.apply(players[m.to_act].choose(m.view(m.to_act)))
                started = time.perf_counter()
                handle.sync(m)
                times[name].append(time.perf_counter() - started)
        load = os.getloadavg()
        print(f"a decision's save, {decisions} decisions each, taking turns in one process "
              f"({os.cpu_count()} CPUs, load average {load[0]:.1f} {load[1]:.1f}):")
        for name, values in times.items():
            ms = [v * 1000 for v in values[:decisions]]
            print(f"  {name:<11} p50 {statistics.median(ms):6.2f} ms   p90 "
                  f"{_pct(ms, 0.9):6.2f} ms   p99 {_pct(ms, 0.99):6.2f} ms   max "
                  f"{max(ms):7.2f} ms")
        print(f"  files: {folder} (on the disk of the working folder); PostgreSQL "
              f"{server.bin.parent.name} on 127.0.0.1, fsync on, synchronous_commit on")
        return 0
    except SaveFileError as exc:
        print(f"cannot run: {exc}", file=sys.stderr)
        return 1
    finally:
        server.stop()
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.saves",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=2000,
                        help="decisions timed in each store")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return run(args.decisions, args.seed)


if __name__ == "__main__":
    sys.exit(main())
