"""``unoduo simulate --bots A,B --matches N [--save DIR] [--json] [--stacking …]``:
headless bot-vs-bot matches (duplicate pairs), their result, optionally every match as
a save file; the rule options are the ``play`` command's (one per option of the table)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..text import printable
from .common import Subparsers, EXIT_OK, LIMITS, MAX_TARGET, Progress, UsageError, add_rule_options, clip, \
    open_store, rule_options, seed, up_to, writable_dir

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    sim = sub.add_parser("simulate", parents=[common], help="headless bot-vs-bot matches")
    sim.add_argument("--bots", default="random", metavar="A,B,…",
                     help="a bot level per seat, comma-separated, or one for all (default random)")
    sim.add_argument("--preset", choices=("duo", "classic"), default="duo")
    sim.add_argument("--seats", type=up_to(LIMITS["seats"]),
                     help="players (classic: 2–10; duo: 2)")
    sim.add_argument("--matches", type=up_to(LIMITS["matches"]), default=10)
    sim.add_argument("--seed", type=seed, default=1)
    sim.add_argument("--target", type=up_to(MAX_TARGET),
                     help="points that end each match (200)")
    sim.add_argument("--jobs", type=up_to(LIMITS["jobs"]), default=1,
                     help="processes to play in")
    sim.add_argument("--think-ms", type=up_to(LIMITS["think_ms"]),
                     help="the hard bot's time per decision")
    sim.add_argument("--save", metavar="DIR", help="write every match as a save file in DIR")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    add_rule_options(sim)
    sim.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from engine import bots
    from engine.bots.arena import run_arena

    from ..plan import preset_rules

    levels = tuple(x.strip() for x in args.bots.split(","))
    try:
        rules = preset_rules(args.preset,
                             args.seats or (len(levels) if len(levels) > 1 else None),
                             **rule_options(args))
    except ValueError as exc:
        raise UsageError(clip(exc, 200)) from None
    if len(levels) not in (1, rules.seats) or any(level not in bots.LEVELS for level in levels):
        count = "two" if rules.seats == 2 else str(rules.seats)
        raise UsageError(f"--bots takes {count} of {', '.join(bots.LEVELS)} (one per seat), "
                         "comma-separated, or one for all")
    on_match = None
    folder = None
    if args.save:
        from ..store import Seat

        store = open_store(args)
        where = args.save
        try:
            folder = Path(args.save).expanduser()
            for where in (store.matches_dir, folder):  # the store makes both
                where.mkdir(parents=True, exist_ok=True)
        except (OSError, RuntimeError) as exc:
            raise UsageError(f"cannot save to {clip(where, 100)}: "
                             f"{clip(getattr(exc, 'strerror', None) or exc, 100)}") from None
        writable_dir(folder, "--save")

        def on_match(match, seat_levels) -> None:
            seats = tuple(Seat(f"{level.capitalize()} bot {s + 1}", f"bot:{level}")
                          for s, level in enumerate(seat_levels))
            with store.new_match(match, seats, durable=False, directory=folder):
                pass  # new_match writes the whole log and, the match being over, the footer

    bar = Progress(sys.stderr, args.matches) if sys.stderr.isatty() else None
    try:
        result = run_arena(levels, args.matches, args.seed, jobs=args.jobs, rules=rules,
                           think_ms=args.think_ms, on_match=on_match, progress=bar)
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        out = result.to_dict()
        out["saved_to"] = str(folder) if folder else None
        print(json.dumps(out))
    else:
        print(result.format())
        if folder:
            print(f"saved to {printable(folder)}")
    return EXIT_OK
