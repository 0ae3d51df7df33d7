"""``unoduo stats [--preset P] [--player NAME] [--json] [--rebuild]``: the record.

Self-contained: :func:`add_parser` adds its parser, :func:`run` runs it.  No Textual.
The index is refreshed from the saves first (a missing, stale or damaged one mends
itself); a damaged save is one line on stderr, the others are counted; ``--rebuild``
starts from nothing, with a progress bar on stderr when it is a terminal.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from .common import Subparsers, EXIT_FAIL, EXIT_OK, Progress, clip, err, open_store

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    from engine.rules import PRESETS

    stats = sub.add_parser("stats", parents=[common],
                           help="your record: matches, wins, ratings, moments")
    stats.add_argument("--preset", choices=tuple(PRESETS), help="one game only")
    stats.add_argument("--player", metavar="NAME", help="one player (a name, a bot level's "
                       "name such as 'Normal bot', or an id)")
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    stats.add_argument("--rebuild", action="store_true",
                       help="build the index again from every save file")
    stats.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..record.index import Index, IndexBusy
    from ..record.stats import records
    from ..record.words import moment_lines, opponent_lines, record_lines

    store = open_store(args)
    data = store.data_dir
    found = []
    if data.is_dir():
        index = Index.of(data)
        bar: list = []

        def progress(done: int, total: int) -> None:
            if not bar and total and sys.stderr.isatty():
                bar.append(Progress(sys.stderr, total))
            if bar:
                bar[0](done)

        try:
            try:
                done = index.refresh(progress=progress, jobs=min(os.cpu_count() or 1, 8),
                                     rebuild=args.rebuild)
            finally:
                if bar:
                    bar[0].close()
            for line in done.damaged:
                err(f"skipped {line}")
            found = index.read(lambda conn: records(conn, args.preset, args.player),
                               fresh=False)
        except IndexBusy as exc:
            err(f"the record's index is busy ({exc}); try again")
            return EXIT_FAIL
        except OSError as exc:
            err(f"cannot use the record's index: {exc.strerror or exc}")
            return EXIT_FAIL
    if args.json:
        print(json.dumps({"players": [r.to_json() for r in found]}))
        return EXIT_OK
    if not found:
        who = f" for {clip(args.player, 40)!r}" if args.player else ""
        print(f"No finished matches{who} yet. Play one with 'unoduo play'.")
        return EXIT_OK
    blocks = []
    for rec in found:
        lines = record_lines(rec)
        lines += ["  " + line for line in moment_lines(rec)]
        lines += ["  " + line for line in opponent_lines(rec)]
        blocks.append("\n".join(lines))
    print("\n\n".join(blocks))
    return EXIT_OK
