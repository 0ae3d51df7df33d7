"""``unoduo verify ID|PATH``: check a save file — framing, chain, every move."""

from __future__ import annotations

import argparse

from ..text import printable
from ..text.words import team_name
from .common import Subparsers, EXIT_FAIL, EXIT_OK, read_only

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    verify = sub.add_parser("verify", parents=[common],
                            help="check a save file: framing, chain, legality")
    verify.add_argument("match", metavar="ID|PATH")
    verify.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    loaded = read_only(args, verdict=True)
    if loaded is None:
        return EXIT_FAIL
    m = loaded.match
    names = [printable(s.name) for s in loaded.seats]
    state = ("finished, " + (f"{team_name(m.rules, m.winner, names)} won"
                             if m.winner is not None else "a draw")
             ) if m.over else f"in progress, round {m.round}"
    decisions = sum(1 for e in m.actions if not e.is_chance)
    note = f" ({printable('; '.join(loaded.notes))})" if loaded.notes else ""
    print(f"ok: {printable(loaded.ref)}: {decisions} decisions, {m.log_length} log entries, "
          f"scores {'–'.join(map(str, m.scores))}, {state}; framing, chain and every move "
          f"check out{note}")
    return EXIT_OK
