"""``unoduo watch CODE [--delay N] [--connect 127.0.0.1:PORT]``: watch a table, as late
as asked."""

from __future__ import annotations

import argparse
from typing import Any

from ..net.codes import MAX_DELAY
from .common import sit_at

__all__ = ["add_parser", "run"]


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    watch = sub.add_parser("watch", parents=[common], help="watch a table")
    watch.add_argument("code", metavar="CODE", help="the join code, like tide-wolf-1742")
    watch.add_argument("--connect", metavar="127.0.0.1:PORT",
                       help="reach the table over TCP (an ssh -L tunnel) instead of its socket")
    watch.add_argument("--delay", type=int, default=0,
                       help=f"see the table this many moves late (0–{MAX_DELAY})")
    watch.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return sit_at(args, "watch")
