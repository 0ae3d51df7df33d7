"""``unoduo export ID|PATH``: a match's log as JSON lines (header, one line per log
entry, footer); a hosted match's other seats stay hidden."""

from __future__ import annotations

import argparse
import sys

from .common import Subparsers, EXIT_FAIL, EXIT_OK, read_only, remote_seats

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    export = sub.add_parser("export", parents=[common],
                            help="a match's log as JSON lines: header, one line per log "
                                 "entry, footer")
    export.add_argument("match", metavar="ID|PATH")
    export.add_argument("--json", action="store_true",
                        help="JSON lines (the only format, and the default)")
    export.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..transcript import export_lines

    loaded = read_only(args)
    if loaded is None:
        return EXIT_FAIL
    sys.stdout.writelines(export_lines(loaded, remote_seats(args, loaded)))
    return EXIT_OK
