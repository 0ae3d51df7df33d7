"""The ``unoduo`` command line's grammar: its parser, the checks on each argument and
their limits.  A bad argument is one printable line on stderr and exit status 2
(:class:`UsageError`, :meth:`_Parser.error`).  No Textual here."""

from __future__ import annotations

import argparse

from engine.rules import PRESETS

from . import __version__
from .text import player_name, printable

__all__ = ["build_parser", "UsageError", "clip", "MAX_TARGET", "SEED_RANGE",
           "EXIT_OK", "EXIT_FAIL", "EXIT_USAGE"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
#: the largest ``--target``: far beyond any real match (200; 500 classic) and within
#: the save file's 64-bit integers, yet a bot-vs-bot match to it ends (~20 s)
MAX_TARGET = 100_000
#: the seeds a save file stores as a number (the codec writes 0 … 2**64-1 as such)
SEED_RANGE = range(2**64)
_LIMITS = {"matches": 1_000_000, "jobs": 64, "think_ms": 60_000, "seats": 99}


class UsageError(Exception):
    """A bad argument: :func:`main` prints it as one line and exits with status 2."""


def clip(text: object, width: int = 160) -> str:
    """Untrusted ``text`` made printable and cut to ``width`` characters."""
    s = printable(text)
    return s if len(s) <= width else s[:width - 1] + "…"


def _whole(text: str, base: int = 10) -> int:
    # at most 30 digits: int() of 5,000 digits is slow and its error is long
    try:
        if len(text.strip()) > 30:
            raise ValueError
        return int(text, base)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {clip(text, 40)!r}") from None


def _seed(text: str) -> int:
    value = _whole(text, 0)
    if value not in SEED_RANGE:
        raise argparse.ArgumentTypeError("a seed is a whole number from 0 to 2**64-1")
    return value


def _up_to(limit: int):
    """An argparse type: a whole number from 1 to ``limit``."""
    def whole(text: str) -> int:
        value = _whole(text)
        if not 1 <= value <= limit:
            raise argparse.ArgumentTypeError(f"a whole number from 1 to {limit:,}")
        return value
    return whole


def _opponents(text: str) -> tuple[str, ...]:
    """``--vs``: a level (or ``human``) for every other seat, or one per other seat,
    comma-separated; the count is checked against the seats later."""
    from .plan import HUMAN, bot_levels

    levels = tuple(x.strip() for x in text.split(","))
    for level in levels:
        if level != HUMAN and level not in bot_levels():
            raise argparse.ArgumentTypeError(f"unknown opponent {clip(level, 40)!r}: one of "
                                             f"{', '.join(bot_levels())} or {HUMAN}")
    return levels


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


def _name(text: str) -> str | None:
    """``--name``, cleaned as the game stores names (blank: the default name)."""
    return player_name(text, fallback="") or None


class _Parser(argparse.ArgumentParser):
    """Usage errors as one printable line on stderr (argparse prints the usage too)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: {clip(message, 200)} (see '{self.prog} "
                              "--help')\n")


def build_parser() -> argparse.ArgumentParser:
    def data_dir_option(default) -> argparse.ArgumentParser:
        options = _Parser(add_help=False)
        options.add_argument("--data-dir", metavar="PATH", default=default,
                             help="where saved matches live (default: $UNODUO_DATA_DIR or "
                                  "the user data dir)")
        return options

    # `unoduo --data-dir X list` and `unoduo list --data-dir X` both work: a command's
    # own --data-dir must not put back the default over one given before the command
    top, common = data_dir_option(None), data_dir_option(argparse.SUPPRESS)
    parser = _Parser(
        prog="unoduo", parents=[top],
        description="UNO Duo in your terminal. With no command: the main menu.")
    parser.add_argument("--version", action="version", version=f"unoduo {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", parents=[common], help="start a new match straight away")
    play.add_argument("--preset", choices=tuple(PRESETS), default="duo",
                      help="duo (UNO Duo, 2 players; the default) or classic (2–10)")
    play.add_argument("--seats", type=_up_to(_LIMITS["seats"]),
                      help="players, you included (classic: 2–10; duo: 2)")
    play.add_argument("--vs", metavar="LEVEL[,LEVEL…]", type=_opponents,
                      help="a bot level for every other seat, or one per other seat, "
                           "comma-separated; 'human' for a hot-seat player (default normal)")
    play.add_argument("--seed", type=_seed, help="a fixed seed (default: unguessable)")
    play.add_argument("--target", type=_up_to(MAX_TARGET),
                      help="points that end the match (200; classic 500)")
    play.add_argument("--name", type=_name, help="your name")
    _add_rule_options(play)

    resume = sub.add_parser("resume", parents=[common], help="carry on a saved match")
    resume.add_argument("match", nargs="?", metavar="ID|PATH",
                        help="default: the newest unfinished match")

    listing = sub.add_parser("list", parents=[common], help="list saved matches")
    listing.add_argument("--spoiler-free", action="store_true",
                         help="finished matches without their round, scores or winner")

    verify = sub.add_parser("verify", parents=[common],
                            help="check a save file: framing, chain, legality")
    verify.add_argument("match", metavar="ID|PATH")

    export = sub.add_parser("export", parents=[common],
                            help="a match's log as JSON lines: header, one line per log "
                                 "entry, footer")
    export.add_argument("match", metavar="ID|PATH")
    export.add_argument("--json", action="store_true",
                        help="JSON lines (the only format, and the default)")

    sim = sub.add_parser("simulate", parents=[common], help="headless bot-vs-bot matches")
    sim.add_argument("--bots", default="random", metavar="A,B,…",
                     help="a bot level per seat, comma-separated, or one for all (default random)")
    sim.add_argument("--preset", choices=("duo", "classic"), default="duo")
    sim.add_argument("--seats", type=_up_to(_LIMITS["seats"]),
                     help="players (classic: 2–10; duo: 2)")
    sim.add_argument("--matches", type=_up_to(_LIMITS["matches"]), default=10)
    sim.add_argument("--seed", type=_seed, default=1)
    sim.add_argument("--target", type=_up_to(MAX_TARGET),
                     help="points that end each match (200)")
    sim.add_argument("--jobs", type=_up_to(_LIMITS["jobs"]), default=1,
                     help="processes to play in")
    sim.add_argument("--think-ms", type=_up_to(_LIMITS["think_ms"]),
                     help="the hard bot's time per decision")
    sim.add_argument("--save", metavar="DIR", help="write every match as a save file in DIR")
    sim.add_argument("--json", action="store_true", help="print one JSON object")

    transcript = sub.add_parser("transcript", parents=[common],
                                help="a match as plain sentences, action by action")
    transcript.add_argument("match", metavar="ID|PATH")

    replay = sub.add_parser("replay", parents=[common],
                            help="watch a saved match again, step by step (read-only)")
    replay.add_argument("match", metavar="ID|PATH")
    replay.add_argument("--spoiler-free", action="store_true",
                        help="start at the beginning, with the match's length, its moments "
                             "to come and its result hidden (s toggles it)")

    delete = sub.add_parser("delete", parents=[common], help="remove a saved match for good")
    delete.add_argument("match", metavar="ID|PATH")
    delete.add_argument("--yes", action="store_true",
                        help="do not ask (needed when not at a terminal)")

    sub.add_parser("rules", parents=[common], help="print the rule book")
    from .net.commands import add_parsers as net_parsers  # host / join / watch (#15)
    net_parsers(sub, common)
    from .ssh.command import add_parser as serve_parser  # unoduo serve (#16)
    serve_parser(sub, common)
    from .net.lobby_cli import add_parser as lobby_parser  # the lobby (#16)
    lobby_parser(sub, common, _name)
    from .web import add_parser as web_parser  # unoduo web (#16)
    web_parser(sub, common)
    from .record.command import add_parser as stats_parser  # unoduo stats (#24)
    stats_parser(sub, common)
    from .review.command import add_parser as review_parser  # unoduo review (#25)
    review_parser(sub, common)
    return parser
