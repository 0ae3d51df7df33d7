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
                        help="judge knowing every hand (finished matches only)")
    review.add_argument("--json", action="store_true", help="print one JSON object")
    review.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..review.run import as_json, reviewable_seats, run_review
    from ..text.words import seat_names
    from .common import EXIT_FAIL, EXIT_OK, Progress, UsageError, err, read_only, remote_seats

    loaded = read_only(args)
    if loaded is None:
        return EXIT_FAIL
    seat = None if args.seat is None else args.seat - 1
    try:
        seats = reviewable_seats(loaded, remote_seats(args, loaded), seat, args.hindsight)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    bar = Progress(sys.stderr, 1, "decisions") if sys.stderr.isatty() else None
    failed = None
    try:
        result = run_review(loaded, seats, args.hindsight, progress=bar)
    except (RuntimeError, ValueError) as exc:  # a position no world fits, a worker lost
        failed = str(exc)
    finally:
        if bar is not None:
            bar.close()
    if failed is not None:
        err(f"the review stopped: {failed}")
        return EXIT_FAIL
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
    cells = [values[(i + 1) * n // min(width, n) - 1] for i in range(min(width, n))]
    return "".join(_BARS[min(7, int(v * 8 / 100.0001))] for v in cells)


def summary_lines(loaded, result: "Review", names: Sequence[str], seats: Sequence[int],
                  width: int = 80) -> list[str]:
    """The text summary of ``unoduo review``, in ``width`` columns: what the numbers
    mean, then per seat its accuracy, counts, three biggest mistakes (numbered as
    ``transcript`` numbers decisions, which is where the replay's ``g`` goes) and curve."""
    import textwrap

    from engine.review import FLAGGED, LABELS, THRESHOLDS
    from engine.review_calibration import fitted

    limits = ", ".join(f"{name} < {below:g}" for name, below in THRESHOLDS[:-1])
    rules = loaded.header.rules
    duo = rules.preset == "duo"
    about = ("Win chance: of winning the round"
             + (" (the team's)" if rules.teams == "partners" else "") + ", "
             + ("knowing every hand (hindsight)" if result.hindsight
                else "from what the seat knew then"
                + ("" if fitted(rules) else " (uncalibrated: no map is fitted for this "
                   "game, only for UNO Duo and classic at 4 seats without house rules)")) +
             f". Labels by points of it lost: {limits}, blunder beyond; forced: one legal "
             "action. Accuracy: lichess's, from win chances. The curve: of winning the "
             + ("match." if duo else "round."))
    out = [f"Review of match {loaded.id}"]
    if result.hindsight:
        out += textwrap.wrap("HINDSIGHT: judged knowing every hand, which no player did "
                             "(the draw pile's order still left to chance)", width)
    out += textwrap.wrap(about, width) + [""]
    for s in result.seats:
        if s.seat not in seats:
            continue
        acc = "—" if s.accuracy is None else f"{s.accuracy:.0f}"
        out.append(f"Seat {s.seat + 1} {names[s.seat]}: accuracy {acc} over {s.decisions} "
                   "decisions")
        out.append("  " + ", ".join(f"{s.counts[k]} {k}" for k in LABELS))
        for d in s.worst:
            out += textwrap.wrap(f"{d.step + 1}. round {d.round}, {d.label} −{d.loss:.0f}: "
                                 f"{d.reason}", width, initial_indent="  ",
                                 subsequent_indent="      ")
        if not s.worst:
            out.append("  no " + " / ".join(FLAGGED))
        out.append(f"  win chance: {_curve(result.curves[s.seat], width - 15)}")
    return out
