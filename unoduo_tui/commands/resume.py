"""``unoduo resume [ID|PATH]``: carry on a saved match (the newest unfinished one by
default; a hosted match at its table)."""

from __future__ import annotations

import argparse

from .common import Subparsers, run_interactive

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    resume = sub.add_parser("resume", parents=[common], help="carry on a saved match")
    resume.add_argument("match", nargs="?", metavar="ID|PATH",
                        help="default: the newest unfinished match")
    resume.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_interactive(args)
