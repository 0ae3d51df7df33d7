"""``unoduo play [--preset P] [--seats N] [--vs LEVEL[,LEVEL…]] [--seed S] …``: a new
match straight away (the menu, with no command, runs the same way: :func:`.common.run_interactive`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from engine.rules import PRESETS

from .common import LIMITS, MAX_TARGET, UsageError, clip, name_type, opponents, \
    run_interactive, seed, up_to

if TYPE_CHECKING:
    from ..plan import MatchPlan
    from ..store import Store

__all__ = ["add_parser", "run", "plan_of"]


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
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
    _add_rule_options(play)
    play.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_interactive(args, plan_of=plan_of)


def plan_of(args: argparse.Namespace, store: Store) -> MatchPlan:
    """The match ``unoduo play`` asked for (options not given: the form's last choices
    for that preset); :class:`UsageError` for a wrong count of ``--vs`` levels, seats
    out of the preset's range or an option the preset lacks."""
    from engine.rules import OPTIONS

    from ..plan import play_plan
    from ..settings import Settings

    given = {o.name: getattr(args, o.name, None) for o in OPTIONS if o.name != "seats"}
    try:
        return play_plan(args.preset, args.seats, args.vs or (), name=args.name,
                         seed=args.seed, remembered=Settings.load(store).options_for(
                             args.preset), **given)
    except ValueError as exc:
        raise UsageError(clip(exc, 200)) from None


def _option_type(name: str, values: tuple):
    """An argparse type for the option ``name``: one of ``values`` by its text
    (``on``/``off`` for a yes-or-no option)."""
    def text_of(value) -> str:
        return ("on" if value else "off") if isinstance(value, bool) else str(value)

    def parse(text: str):
        for value in values:
            if text.strip().lower() == text_of(value):
                return value
        raise argparse.ArgumentTypeError(f"{clip(text, 40)!r}: one of "
                                         + ", ".join(text_of(v) for v in values))
    parse.__name__ = name  # argparse names the type in its messages
    return parse, "|".join(text_of(v) for v in values)


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    """``--deck``, ``--refill`` …: one per option of :data:`engine.rules.OPTIONS` with a
    list of choices (``--seats`` and ``--target`` have their own), its values the union
    over the presets; whether the chosen preset has it is checked later."""
    from engine.rules import OPTIONS

    for opt in OPTIONS:
        choices = [c for cs in opt.choices.values() if cs for c in cs]
        if opt.name == "seats" or not choices:
            continue
        values = tuple(dict.fromkeys(c.value for c in choices))
        kind, metavar = _option_type(opt.name, values)
        presets = " and ".join(opt.default)
        parser.add_argument(f"--{opt.name.replace('_', '-')}", type=kind, metavar=metavar,
                            help=f"{opt.label} ({opt.rule}; {presets})")
