"""``unoduo play [--preset P] [--seats N] [--vs LEVEL[,LEVEL…]] [--seed S] …``: a new
match straight away (the menu, with no command, runs the same way: :func:`.common.run_interactive`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from engine.rules import PRESETS

from .common import Subparsers, LIMITS, MAX_TARGET, UsageError, add_rule_options, clip, name_type, \
    opponents, rule_options, run_interactive, seed, up_to

if TYPE_CHECKING:
    from ..plan import MatchPlan
    from ..store import Saves

__all__ = ["add_parser", "run", "plan_of"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    play = sub.add_parser("play", parents=[common], help="start a new match straight away")
    play.add_argument("--preset", choices=tuple(PRESETS), default="duo",
                      help="duo (UNO Duo, 2 players; the default) or classic (2–10)")
    play.add_argument("--seats", type=up_to(LIMITS["seats"]),
                      help="players, you included (classic: 2–10; duo: 2)")
    play.add_argument("--vs", metavar="LEVEL[,LEVEL…]", type=opponents,
                      help="a bot level for every other seat, or one per other seat, "
                           "comma-separated; 'human' for a hot-seat player (default normal)")
    play.add_argument("--seed", type=seed, help="a fixed seed (default: unguessable)")
    play.add_argument("--target", type=up_to(MAX_TARGET),
                      help="points that end the match (200; classic 500)")
    play.add_argument("--name", type=name_type, help="your name")
    add_rule_options(play)
    play.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_interactive(args, plan_of=plan_of)


def plan_of(args: argparse.Namespace, store: Saves) -> MatchPlan:
    """The match ``unoduo play`` asked for (options not given: the form's last choices
    for that preset); :class:`UsageError` for a wrong count of ``--vs`` levels, seats
    out of the preset's range or an option the preset lacks."""
    from ..plan import play_plan
    from ..settings import Settings

    given = rule_options(args)
    try:
        return play_plan(args.preset, args.seats, args.vs or (), name=args.name,
                         seed=args.seed, remembered=Settings.load(store).options_for(
                             args.preset), **given)
    except ValueError as exc:
        raise UsageError(clip(exc, 200)) from None
