"""``unoduo delete ID|PATH [--yes]``: remove a saved match for good (asked first at a
terminal)."""

from __future__ import annotations

import argparse
import sys

from ..text import printable
from .common import Subparsers, EXIT_FAIL, EXIT_OK, UsageError, clip, err, open_saves, resolve
from .list import players

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    delete = sub.add_parser("delete", parents=[common], help="remove a saved match for good")
    delete.add_argument("match", metavar="ID|PATH")
    delete.add_argument("--yes", action="store_true",
                        help="do not ask (needed when not at a terminal)")
    delete.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..store import SaveFileError, short_id

    store = open_saves(args)
    path = resolve(store, args.match)
    if not args.yes:
        if not sys.stdin.isatty():
            raise UsageError("delete asks first: give --yes to delete without a terminal")
        s = next(x for x in store.summaries() if x.ref == str(path) or x.id == path)
        what = f"{clip(short_id(s.id), 12)} ({players(s.seats)}, {s.status})"
        try:
            answer = input(f"Delete {what} for good? [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing deleted.")
            return EXIT_OK
    try:
        gone = store.delete(path)
    except SaveFileError as exc:  # open in another process, or not ours to remove
        err(exc)
        return EXIT_FAIL
    print(f"Deleted {printable(gone)}")
    return EXIT_OK
