"""``unoduo join CODE [--name NAME] [--connect 127.0.0.1:PORT]``: take a free seat at a
table, or the seat this user had (its token is kept in the data dir)."""

from __future__ import annotations

import argparse
from typing import Any

from .common import sit_at

__all__ = ["add_parser", "run"]


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    join = sub.add_parser("join", parents=[common], help="take a seat at a table")
    join.add_argument("code", metavar="CODE", help="the join code, like tide-wolf-1742")
    join.add_argument("--connect", metavar="127.0.0.1:PORT",
                      help="reach the table over TCP (an ssh -L tunnel) instead of its socket")
    join.add_argument("--name", help="your name")
    join.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return sit_at(args, "play")
