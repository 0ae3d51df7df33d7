"""``unoduo list [--spoiler-free]``: the saved matches, a line each (≤ 80 columns)."""

from __future__ import annotations

import argparse

from ..text import printable
from .common import Subparsers, EXIT_OK, clip, open_saves

__all__ = ["add_parser", "run", "players"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    listing = sub.add_parser("list", parents=[common], help="list saved matches")
    listing.add_argument("--spoiler-free", action="store_true",
                         help="finished matches without their round, scores or winner")
    listing.set_defaults(run=run)


#: ``unoduo list``: a match per line (and an indented line for its notes), ≤ 80 columns
_LIST_HEAD = f"{'ID':<6} {'STARTED':<16} {'PLAYERS':<24} {'ROUND':>5} {'SCORES':>9}  STATUS"
_STATUS_WIDTH, _NOTE_INDENT = 14, " " * 24


def players(seats) -> str:
    """The seats in at most 24 columns: "Ann v Rando"; "Ann, Bea and Cal" cut."""
    from ..text.columns import short_names
    from ..text.words import and_list, seat_names

    names = seat_names(seats)
    if len(names) == 2:  # like names stay apart ("Random b…1", "Random b…2")
        return " v ".join(short_names(names[0], names[1], 10))
    return clip(and_list(names), 24) if names else "?"


def _list_rows(s, spoiler_free: bool) -> list[str]:
    """One match's line of ``unoduo list``, then, indented on lines of their own: with
    more than two seats, every seat and its score (the PLAYERS column names the game
    and the seat count, SCORES the top score); then its notes (the game when not UNO
    Duo, practice, branch, damage)."""
    from ..store import short_id
    from ..text.words import distinct_names, game_name, seat_names, standings

    names = list(seat_names(s.seats))
    many = len(names) > 2
    started = s.created.astimezone().strftime("%Y-%m-%d %H:%M") if s.created else "?"
    scores = ("-" if not s.scores else f"top {max(s.scores)}" if many
              else "–".join(map(str, s.scores)))
    rounds, status = str(s.round), s.status
    hide = spoiler_free and (s.status == "finished" or bool(s.parent))
    notes = []
    if hide:
        # who won and how long it ran; a branch's scores tell how its parent stood
        rounds = scores = "?"
    elif s.status == "finished" and s.winner is not None and 0 <= s.winner < len(names):
        # H5: partners show their team's total and a win is never tied, so the other
        # seat with the winner's total is its partner: their team (numbered by its
        # lower seat, the winner, as the seat strip and the score sheet number it) won
        top = s.scores[s.winner] if s.winner < len(s.scores) else None
        mates = [i for i, t in enumerate(s.scores[:len(names)]) if t == top and i != s.winner]
        status = f"team {s.winner + 1} won" if mates else \
            distinct_names(names, 10)[s.winner] + " won"
        if mates:
            notes.append(f"team {s.winner + 1}: {names[s.winner]} & {names[mates[0]]}")
    elif s.status == "finished":
        status = "a draw"
    if s.problem and s.status == "damaged":
        notes.append(printable(s.problem.split(": ", 1)[-1]))
    if s.preset != "duo" and not many:  # many seats: the PLAYERS column names it
        notes.append(game_name(s.preset))
    if s.undos:
        notes.append(f"practice ({s.undos} undo{'s' * (s.undos != 1)})")
    if s.parent:
        notes.append(f"branch of {clip(short_id(s.parent[0]), 12)} @ {s.parent[1]}")
    who = f"{game_name(s.preset)}, {len(names)} seats" if many else players(s.seats)
    line = (f"{clip(short_id(printable(s.id)), 6):<6} {started:<16} {clip(who, 24):<24} "
            f"{clip(rounds, 5):>5} {clip(scores, 9):>9}  {clip(status, _STATUS_WIDTH)}")
    room = 80 - len(_NOTE_INDENT)
    rows = [line]
    if many:
        shown = None if hide or len(s.scores) != len(names) else s.scores
        rows += [_NOTE_INDENT + row for row in standings(names, shown, room)]
    if notes:
        rows.append(_NOTE_INDENT + clip(", ".join(notes), room))
    return rows


def run(args: argparse.Namespace) -> int:
    rows = open_saves(args).summaries()
    if not rows:
        print("No saved matches yet. Start one with 'unoduo play'.")
        return EXIT_OK
    # the short id (enough for resume / replay / verify …) keeps a line within 80 columns
    print(_LIST_HEAD)
    for s in rows:
        print("\n".join(_list_rows(s, args.spoiler_free)))
    return EXIT_OK
