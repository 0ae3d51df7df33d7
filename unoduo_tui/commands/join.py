"""``unoduo join CODE [--name NAME] [--connect 127.0.0.1:PORT]``: take a free seat at a
table, or the seat this user had (its token is kept in the data dir)."""

from __future__ import annotations

import argparse

from .common import Subparsers, add_table_address, sit_at

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    join = sub.add_parser("join", parents=[common], help="take a seat at a table")
    add_table_address(join)
    join.add_argument("--name", help="your name")
    join.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return sit_at(args, "play")
