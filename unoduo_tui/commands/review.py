"""``unoduo review ID|PATH [--seat N] [--hindsight] [--json]``: what the hard bot thinks
of every decision of a saved match (#25).

Self-contained: :func:`add_parser` adds its parser, :func:`run` runs it.  No Textual.
A text summary per seat (accuracy, counts per label, the three biggest mistakes with
their reasons, the win-chance curve) or, with ``--json``, one object.  A progress bar
on stderr when it is a terminal; Ctrl+C stops it (exit 130, nothing cached).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from engine.review import Review

    from .common import Subparsers

__all__ = ["add_parser", "run", "summary_lines"]

_BARS = "▁▂▃▄▅▆▇█"


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    review = sub.add_parser("review", parents=[common],
                            help="what the hard bot thinks of every decision of a match")
    review.add_argument("match", metavar="ID|PATH")
    review.add_argument("--seat", metavar="N", type=int,
                        help="only seat N's decisions (counted from 1)")
    review.add_argument("--hindsight", action="store_true",
                        help="judge with the real hidden cards (finished matches only)")
    review.add_argument("--json", action="store_true", help="print one JSON object")
    review.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..review.run import as_json, reviewable_seats, run_review
    from ..text.words import seat_names
    from .common import EXIT_FAIL, EXIT_OK, Progress, UsageError, read_only, remote_seats

    loaded = read_only(args)
    if loaded is None:
        return EXIT_FAIL
    seat = None if args.seat is None else args.seat - 1
    try:
        seats = reviewable_seats(loaded, remote_seats(args, loaded), seat, args.hindsight)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    bar = Progress(sys.stderr, 1, "decisions") if sys.stderr.isatty() else None
    try:
        result = run_review(loaded, seats, args.hindsight, progress=bar)
    finally:
        if bar is not None:
            bar.close()
    names = seat_names(loaded.seats)
    if args.json:
        print(json.dumps(as_json(loaded, result, names, seats)))
    else:
        print("\n".join(summary_lines(loaded, result, names, seats)))
    return EXIT_OK


def _curve(values: Sequence[float], width: int = 60) -> str:
    """Win chances (0–100) as one line of bars, ``width`` cells at most."""
    if not values:
        return ""
    n = len(values)
    cells = [values[min(n - 1, i * n // width)] for i in range(min(width, n))]
    return "".join(_BARS[min(7, int(v * 8 / 100.0001))] for v in cells)


def summary_lines(loaded, result: "Review", names: Sequence[str], seats: Sequence[int]
                  ) -> list[str]:
    """The text summary of ``unoduo review``."""
    from engine.review import FLAGGED, LABELS, THRESHOLDS

    limits = ", ".join(f"{name} < {below:g}" for name, below in THRESHOLDS[:-1])
    # H5: with partners a seat wins the round when either partner goes out
    whose = " (with one's partner)" if loaded.header.rules.teams == "partners" else ""
    out = [f"Review of match {loaded.id}" + (" — HINDSIGHT: judged with the real hidden "
                                               "cards" if result.hindsight else ""),
           f"Win chance: of winning the round{whose}, " + ("played out once from the real cards"
                                                    if result.hindsight else
                                                    "from each seat's own view") +
           ". Labels by points "
           f"lost: {limits}, blunder beyond; forced: one legal action. The curve: "
           + ("of winning the match." if loaded.header.rules.preset == "duo"
              else "of winning the round."), ""]
    for s in result.seats:
        if s.seat not in seats:
            continue
        acc = "—" if s.accuracy is None else f"{s.accuracy:.0f}"
        counts = ", ".join(f"{s.counts[k]} {k}" for k in LABELS)
        out.append(f"Seat {s.seat + 1} {names[s.seat]}: accuracy {acc}, {s.decisions} "
                   f"decisions ({counts})")
        for d in s.worst:
            out.append(f"  #{d.index} round {d.round}: {d.label}, −{d.loss:.0f} — {d.reason}")
        if not s.worst:
            out.append("  no " + " / ".join(FLAGGED))
        out.append(f"  win chance: {_curve(result.curves[s.seat])}")
    return out
