"""``unoduo watch CODE [--delay N] [--connect 127.0.0.1:PORT]``: watch a table, as late
as asked."""

from __future__ import annotations

import argparse

from .common import Subparsers, add_table_address, sit_at

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    from ..net.codes import MAX_DELAY  # (its secrets and hmac: only when built)

    watch = sub.add_parser("watch", parents=[common], help="watch a table")
    add_table_address(watch)
    watch.add_argument("--delay", type=int, default=0,
                       help=f"see the table this many moves late (0–{MAX_DELAY})")
    watch.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return sit_at(args, "watch")
