"""``unoduo replay [--spoiler-free] ID|PATH``: watch a saved match again, read-only."""

from __future__ import annotations

import argparse

from .common import Subparsers, run_interactive

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    replay = sub.add_parser("replay", parents=[common],
                            help="watch a saved match again, step by step (read-only)")
    replay.add_argument("match", metavar="ID|PATH")
    replay.add_argument("--spoiler-free", action="store_true",
                        help="start at the beginning, with the match's length, its moments "
                             "to come and its result hidden (s toggles it)")
    replay.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_interactive(args)
