"""What the sub-commands share (#22): the checks on each argument and their limits,
the data dir, the match a reference names, the terminal check, the host's join code,
the full-screen app at a table.  A bad argument is one printable line on stderr and
exit status 2 (:class:`UsageError`, :meth:`Parser.error`).  Light at import (``unoduo
--help`` builds every parser): no Textual here, and what a command needs it imports
when it runs."""

from __future__ import annotations

import argparse

import os
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterable, NoReturn, TypeAlias

from ..text import clip, player_name

if TYPE_CHECKING:
    from ..net.messages import Want
    from ..net.remote import RemoteTable
    from ..plan import MatchPlan
    from ..store import Loaded, Saves, Store

__all__ = ["UsageError", "clip", "err", "MAX_TARGET", "SEED_RANGE", "LIMITS", "EXIT_OK",
           "EXIT_FAIL", "EXIT_USAGE", "Parser", "whole", "seed", "up_to", "opponents",
           "name_type", "open_store", "open_saves", "resolve", "writable_dir", "WEB_DRIVER", "terminal_problem",
           "need_terminal", "run_interactive", "print_code", "run_remote", "read_only",
           "remote_seats", "resume_hosted", "build_parser", "sit_at", "open_table",
           "Progress", "Subparsers"]

#: what ``add_subparsers`` returns: each command module's ``add_parser`` adds its own
#: command to it (a string: the type is argparse's, named for the checker only)
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
#: the largest ``--target``: far beyond any real match (200; 500 classic) and within
#: the save file's 64-bit integers, yet a bot-vs-bot match to it ends (~20 s)
MAX_TARGET = 100_000
#: the seeds a save file stores as a number (the codec writes 0 … 2**64-1 as such)
SEED_RANGE = range(2**64)
LIMITS = {"matches": 1_000_000, "jobs": 64, "think_ms": 60_000, "seats": 99}


class UsageError(Exception):
    """A bad argument: :func:`unoduo_tui.cli.main` prints it as one line and exits
    with status 2."""


def whole(text: str, base: int = 10) -> int:
    # at most 30 digits: int() of 5,000 digits is slow and its error is long
    try:
        if len(text.strip()) > 30:
            raise ValueError
        return int(text, base)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {clip(text, 40)!r}") from None


def seed(text: str) -> int:
    value = whole(text, 0)
    if value not in SEED_RANGE:
        raise argparse.ArgumentTypeError("a seed is a whole number from 0 to 2**64-1")
    return value


def up_to(limit: int):
    """An argparse type: a whole number from 1 to ``limit``."""
    def parse(text: str) -> int:
        value = whole(text)
        if not 1 <= value <= limit:
            raise argparse.ArgumentTypeError(f"a whole number from 1 to {limit:,}")
        return value
    parse.__name__ = "whole"
    return parse


def opponents(text: str) -> tuple[str, ...]:
    """``--vs``: a level (or ``human``) for every other seat, or one per other seat,
    comma-separated; the count is checked against the seats later."""
    from ..plan import HUMAN, bot_levels

    levels = tuple(x.strip() for x in text.split(","))
    for level in levels:
        if level != HUMAN and level not in bot_levels():
            raise argparse.ArgumentTypeError(f"unknown opponent {clip(level, 40)!r}: one of "
                                             f"{', '.join(bot_levels())} or {HUMAN}")
    return levels


def name_type(text: str) -> str | None:
    """``--name``, cleaned as the game stores names (blank: the default name)."""
    return player_name(text, fallback="") or None


class Parser(argparse.ArgumentParser):
    """Usage errors as one printable line on stderr (argparse prints the usage too).
    Options are taken only as written: argparse's prefix matching read ``serve --host
    127.0.0.1`` as ``--host-key 127.0.0.1`` (and wrote a host key of that name)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {clip(message, 200)} (see '{self.prog} "
                              "--help')\n")


def err(message: object) -> None:
    """``message`` as one line on stderr: ``unoduo: …``, printable and cut short."""
    print(f"unoduo: {clip(message, 400)}", file=sys.stderr)


# -- the data dir and the matches in it ------------------------------------------------


def open_store(args: argparse.Namespace) -> Store:
    """The :class:`~unoduo_tui.store.Store` of ``--data-dir``; :class:`UsageError` when
    it cannot be used (or ``--store`` names a database: this command keeps its saves
    in files)."""
    from ..store import Store

    if getattr(args, "store", None) not in (None, "files"):
        raise UsageError(f"'{args.command}' keeps its saves in the data dir: --store is for "
                         "serve, list, verify, export, transcript, review, replay, delete "
                         "and store")
    try:
        return Store(args.data_dir)
    except (OSError, RuntimeError, ValueError) as exc:  # ~nosuchuser, a name too long
        raise UsageError(f"cannot use the data dir: {clip(exc)}") from None


def open_saves(args: argparse.Namespace) -> Saves:
    """The saves of ``--data-dir`` (:class:`~unoduo_tui.store.Store`), or of the
    database ``--store`` / ``$UNODUO_STORE`` names — every player's there, as the
    operator sees them; :class:`UsageError` when they cannot be used."""
    from ..store import SaveFileError, Store
    from ..storage import store_url

    try:
        url = store_url(getattr(args, "store", None))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if url is not None:
        from ..storage.pg import PgStore
        from ..store import data_dir

        try:
            return PgStore(url, data_dir(args.data_dir), owner=None)
        except (SaveFileError, OSError) as exc:
            raise UsageError(f"cannot use the store: {clip(exc)}") from None
    try:
        return Store(args.data_dir)
    except (OSError, RuntimeError, ValueError) as exc:  # ~nosuchuser, a name too long
        raise UsageError(f"cannot use the data dir: {clip(exc)}") from None


def resolve(store: Saves, ref: str) -> str | Path:
    """The save file ``ref`` names (an id, a unique start of one, a short id or a
    path); :class:`UsageError` when there is none."""
    from ..store import SaveFileError

    missing = UsageError(f"no saved match {clip(ref, 40)!r} (see 'unoduo list')")
    try:
        if any(c in ref for c in "*?[") and not Path(ref).expanduser().is_file():
            raise missing  # an id holds no wildcards: '*5' must not pick a match
        return store.resolve(ref)
    except SaveFileError as exc:  # none, or several
        raise UsageError(clip(exc, 200)) from None
    except (OSError, RuntimeError, ValueError):  # a name too long, ~nosuchuser/x
        raise missing from None


def writable_dir(path: Path, what: str) -> None:
    """:class:`UsageError` unless ``path`` is a folder, or can be made one, that we can
    write in (looked at, not created)."""
    try:
        existing = path
        while not existing.exists() and existing.parent != existing:
            existing = existing.parent
        ok = existing.is_dir() and os.access(existing, os.W_OK | os.X_OK)
    except OSError:
        ok = False
    if not ok:
        raise UsageError(f"cannot use {clip(path, 100)} as {what}: it is not a folder "
                         "unoduo can write in")


def read_only(args: argparse.Namespace, verdict: bool = False):
    """The match ``args.match`` names, opened read-only; ``None`` when its file is
    damaged, once stderr is told why (``verdict``: stdout, as ``damaged: …``).
    Not found: :class:`UsageError`."""
    from ..store import SaveFileError

    opened = open_saves(args)
    path = resolve(opened, args.match)
    try:
        return opened.open(path, read_only=True)
    except SaveFileError as exc:
        print(("damaged: " if verdict else "unoduo: ") + clip(exc, 400),
              file=sys.stdout if verdict else sys.stderr)
        return None


# -- the terminal ----------------------------------------------------------------------

#: the driver textual-serve gives each browser tab's app (``unoduo web``): no tty, no TERM
WEB_DRIVER = "textual.drivers.web_driver:WebDriver"


def terminal_problem() -> str | None:
    """Why this is no terminal the app can run full-screen in (None: it is one)."""
    if os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER:
        return None  # a browser tab: textual-serve's pipes are its terminal
    term = os.environ.get("TERM", "")
    if term in ("", "dumb", "unknown"):
        return (f"unoduo needs a full-screen terminal, and TERM={term or '(unset)'} is not "
                "one. Try TERM=xterm-256color, or run it in tmux.")
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return "unoduo needs an interactive terminal (stdin and stdout are not a tty)."
    return None


def need_terminal() -> None:
    """:class:`UsageError` unless this is a full-screen terminal (before Textual starts:
    a bad terminal is a usage error, in plain text)."""
    problem = terminal_problem()
    if problem:
        raise UsageError(problem)


def run_interactive(args: argparse.Namespace,
                    plan_of: Callable[[argparse.Namespace, Saves], MatchPlan] | None = None
                    ) -> int:
    """The menu, ``play``, ``resume`` and ``replay``: the arguments checked first (a bad
    one is a line on stderr, never a toast on the menu), then the terminal, then the
    app.  ``plan_of``: makes the match ``play`` asked for (in the store it opens)."""
    from ..startup import paused

    with paused():  # to the first frame (the app resumes it then)
        return _run_interactive(args, plan_of)


def _run_interactive(args: argparse.Namespace,
                     plan_of: Callable[[argparse.Namespace, Saves], MatchPlan] | None
                     ) -> int:
    command = args.command or "menu"
    opened = open_saves(args) if command == "replay" else open_store(args)
    match = getattr(args, "match", None)
    if match is not None:
        match = str(resolve(opened, match))
    if command != "replay":  # the menu, a new match and a resumed one write there
        writable_dir(opened.data_dir, "the data dir")
    plan = plan_of(args, opened) if command == "play" and plan_of is not None else None
    need_terminal()
    if command == "resume" and match is None:  # the newest unfinished match
        newest = opened.newest_unfinished()
        match = None if newest is None else newest.ref
    if command == "resume" and match is not None:  # a hosted match: its table (#15)
        hosted = resume_hosted(opened, match)
        if hosted is not None:
            return hosted
    try:
        from ..app import run_app
    except ImportError as exc:  # pragma: no cover - the app ships with the package
        err(f"the game table is not available: {exc}")
        return EXIT_FAIL
    if command == "play":
        return run_app(opened, "play", plan=plan)
    if command == "resume":
        return run_app(opened, "resume", resume=match)
    if command == "replay":
        return run_app(opened, "replay", replay=match, spoiler_free=args.spoiler_free)
    return run_app(opened, "menu")


# -- tables ----------------------------------------------------------------------------


def print_code(info: dict) -> None:
    """The join code and how to use it, on stdout (the authority's first line)."""
    code = info["code"]
    print(f"Table open. Join code: {code}")
    print(f"  others join with:  unoduo join {code}")
    print(f"  or watch with:     unoduo watch {code}")
    if info.get("port"):
        print(f"  over TCP: 127.0.0.1:{info['port']} (from elsewhere: ssh -L "
              f"{info['port']}:127.0.0.1:{info['port']} THIS-HOST, then "
              f"unoduo join {code} --connect 127.0.0.1:{info['port']})")
    print(f"  the match is saved as {info['match']}; if the table ends, "
          f"unoduo host --resume {info['match']}")
    sys.stdout.flush()


def add_table_address(parser: argparse.ArgumentParser) -> None:
    """The options that name a table to sit at (``join``, ``watch``): its code and,
    through a tunnel, where to reach it."""
    parser.add_argument("code", metavar="CODE", help="the join code, like tide-wolf-1742")
    parser.add_argument("--connect", metavar="127.0.0.1:PORT",
                        help="reach the table over TCP (an ssh -L tunnel) instead of its socket")


def sit_at(args: argparse.Namespace, want: Want) -> int:
    """``unoduo join`` (``want="play"``) and ``watch``: the code, ``--delay`` and
    ``--connect`` checked, then the table's screen."""
    from ..net.client import parse_listen
    from ..net.codes import MAX_DELAY, parse_code

    try:
        code = parse_code(args.code)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    opened = open_store(args)
    delay = getattr(args, "delay", 0)
    if not 0 <= delay <= MAX_DELAY:
        raise UsageError(f"--delay is a number of moves from 0 to {MAX_DELAY}")
    tcp = None
    if args.connect:
        try:
            tcp = parse_listen(args.connect)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return open_table(opened, code, want=want, name=getattr(args, "name", "") or "",
                      delay=delay, tcp=tcp)


def open_table(store: Saves, code: str, *, want: Want, name: str, tokens: list[str] | None = None,
               new_seat: bool = True, delay: int = 0, tcp: tuple[str, int] | None = None,
               banner: str | None = None) -> int:
    """The full-screen app at the table ``code`` (a seat, or watching); a table that
    refuses or is not there is one line on stderr and exit status 1."""
    from ..net.client import connect
    from ..table import Refused

    need_terminal()
    try:
        table = connect(store, code, want=want, name=name, tokens=tokens, new_seat=new_seat,
                        delay=delay, tcp=tcp)
    except Refused as exc:
        err(f"the table refused: {clip(exc.reason, 200)}")
        return EXIT_FAIL
    except (ConnectionError, OSError, ValueError) as exc:
        err(clip(exc, 300))
        return EXIT_FAIL
    table.banner = banner
    return run_remote(store, table)


def run_remote(store: Saves, table: RemoteTable) -> int:
    """The full-screen app at ``table`` (a :class:`RemoteTable`) until the player leaves."""
    from ..startup import paused

    try:
        with paused():  # to the first frame (the app resumes it then)
            from ..app import run_to_exit
            from ..apps import remote_app

            return run_to_exit(remote_app(store, table, handle_signals=True))
    finally:
        table.close()


def resume_hosted(store: Saves, path: str) -> int | None:
    """``unoduo resume ID`` of a match that was hosted: its table (reached if it is
    running, else started again with its code and seat tokens) and the host's screen
    (None: not hosted; :func:`unoduo_tui.net.hosted.open_hosted`)."""
    from ..net.hosted import open_hosted
    from ..table import Refused

    try:
        opened = open_hosted(store, path)
    except Refused as exc:
        err(f"the table refused: {clip(exc.reason, 200)}")
        return EXIT_FAIL
    except (ConnectionError, RuntimeError, OSError, ValueError) as exc:
        err(f"cannot open the table: {clip(exc, 300)}")
        return EXIT_FAIL
    if opened is None:
        return None
    table, info = opened
    if info is not None:
        print_code(info)
    return run_remote(store, table)


class Progress:
    """A progress bar on a terminal's stderr (``simulate``, ``stats --rebuild``): done /
    total and the time elapsed, redrawn in place; :meth:`close` ends its line."""

    WIDTH = 24

    def __init__(self, stream, total: int, what: str = "matches") -> None:
        import time

        self._stream, self._total, self._clock = stream, max(1, total), time.monotonic
        self._what = what
        self._start = self._clock()
        self(0)

    def __call__(self, done: int, total: int | None = None, *_: object) -> None:
        """``done`` of the total (``total``: a new total, for work that learns its size
        as it goes — the review's decisions)."""
        if total is not None:
            self._total = max(1, total)
        filled = self.WIDTH * min(done, self._total) // self._total
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self._stream.write(f"\r[{bar}] {done}/{self._total} {self._what}, "
                           f"{self._clock() - self._start:.1f} s elapsed")
        self._stream.flush()

    def close(self) -> None:
        self._stream.write("\n")
        self._stream.flush()


def remote_seats(args: argparse.Namespace, loaded: Loaded) -> tuple[int, ...]:
    """The seats of ``loaded`` played from other terminals (a hosted match's): what
    ``export`` and ``transcript`` leave hidden."""
    from ..net.hosted import remote_seats as hosted_remote_seats

    return hosted_remote_seats(open_saves(args), loaded)


def build_parser(modules: Iterable[ModuleType]) -> argparse.ArgumentParser:
    """The ``unoduo`` parser with the sub-commands of ``modules`` (each module's
    ``add_parser(sub, common)`` adds its own and sets its ``run``)."""
    from .. import __version__

    def data_dir_option(default) -> argparse.ArgumentParser:
        options = Parser(add_help=False)
        options.add_argument("--data-dir", metavar="PATH", default=default,
                             help="where saved matches live (default: $UNODUO_DATA_DIR or "
                                  "the user data dir)")
        options.add_argument("--store", metavar="URL", default=default,
                             help="keep the saves in this PostgreSQL database "
                                  "(postgresql://…; default: $UNODUO_STORE, else the files "
                                  "of the data dir)")
        return options

    # `unoduo --data-dir X list` and `unoduo list --data-dir X` both work: a command's
    # own --data-dir must not put back the default over one given before the command
    top, common = data_dir_option(None), data_dir_option(argparse.SUPPRESS)
    parser = Parser(
        prog="unoduo", parents=[top],
        description="UNO Duo in your terminal. With no command: the main menu.")
    parser.add_argument("--version", action="version", version=f"unoduo {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in modules:
        module.add_parser(sub, common)
    return parser


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


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """``--deck``, ``--refill``, ``--seven-zero`` …: one per option of
    :data:`engine.rules.OPTIONS` with a list of choices (``--seats`` and ``--target``
    have their own), its values the union over the presets; whether the chosen preset
    has it is checked later.  A yes-or-no option alone means on (``--jump-in``)."""
    from engine.rules import OPTIONS

    for opt in OPTIONS:
        choices = [c for cs in opt.choices.values() if cs for c in cs]
        if opt.name == "seats" or not choices:
            continue
        values = tuple(dict.fromkeys(c.value for c in choices))
        kind, metavar = _option_type(opt.name, values)
        presets = " and ".join(opt.default)
        on_off = all(isinstance(v, bool) for v in values)
        alone: dict[str, Any] = {"nargs": "?", "const": True} if on_off else {}
        parser.add_argument(f"--{opt.name.replace('_', '-')}", type=kind,
                            metavar=metavar, help=f"{opt.label} ({opt.rule}; {presets})",
                            **alone)


def rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options :func:`add_rule_options` read (``None``: not given)."""
    from engine.rules import OPTIONS

    return {o.name: getattr(args, o.name, None) for o in OPTIONS if o.name != "seats"}
