"""``unoduo transcript ID|PATH``: a match as plain sentences, action by action (what
its host's seat saw, for a hosted match)."""

from __future__ import annotations

import argparse
import sys

from .common import Subparsers, EXIT_FAIL, EXIT_OK, read_only, remote_seats

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    transcript = sub.add_parser("transcript", parents=[common],
                                help="a match as plain sentences, action by action")
    transcript.add_argument("match", metavar="ID|PATH")
    transcript.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..transcript import transcript_text

    loaded = read_only(args)
    if loaded is None:
        return EXIT_FAIL
    sys.stdout.write(transcript_text(loaded, remote_seats(args, loaded)))
    return EXIT_OK
