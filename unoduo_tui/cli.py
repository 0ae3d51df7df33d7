"""The ``unoduo`` command.

    unoduo                      the menu            unoduo list       saved matches
    unoduo play [--vs LEVEL]    a new match         unoduo verify X   check a save file
    unoduo resume [ID|PATH]     carry on            unoduo export X   its log as JSON lines
    unoduo rules                the rule book       unoduo simulate --bots a,b --matches N
    unoduo replay X             watch a match again unoduo transcript X
    unoduo replay --spoiler-free X   … from the start, its length and result hidden
    unoduo delete X [--yes]     remove a saved match for good
    unoduo play --preset classic --seats N --vs LEVEL[,LEVEL…]|human   classic, 2–10 seats
    unoduo serve [--port 2222] [--listen ADDR]   an SSH server: anyone with ssh plays
    unoduo lobby                the lobby an SSH player sees (resume, quick match, tables)
    unoduo web [--port 8000]    the app in a web browser (textual-serve)
    unoduo stats [--player NAME] [--json]   your record: wins, ratings, moments

Non-interactive commands never import Textual.  A bad argument is one line on
stderr and exit status 2, before anything full-screen: the interactive commands
check their arguments (the opponent, the match to resume or replay, the data dir)
and then refuse a ``TERM=dumb`` terminal in plain text, all before Textual starts.
Everything printed from a save file or the command line goes through
:func:`~unoduo_tui.text.printable`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Sequence

from .cli_args import EXIT_FAIL, EXIT_OK, EXIT_USAGE, UsageError, build_parser
from .cli_args import clip as _clip
from .text import printable
from .transcript import transcript_text  # noqa: F401 - its old home: tests import it here


def rule_book() -> str:
    """The player-facing rule book shipped inside the package."""
    from importlib import resources

    return resources.files("unoduo_tui").joinpath("rules.md").read_text(encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    command = args.command or "menu"
    try:
        handler = _COMMANDS[command]
        return handler(args)
    except UsageError as exc:
        _err(str(exc))
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `unoduo export … | head`
        sys.stderr.close()
        return EXIT_OK


def _store(args: argparse.Namespace):
    from .store import Store

    try:
        return Store(args.data_dir)
    except (OSError, RuntimeError, ValueError) as exc:  # ~nosuchuser, a name too long
        raise UsageError(f"cannot use the data dir: {_clip(exc)}") from None


def _err(message: str) -> None:
    print(f"unoduo: {_clip(message, 400)}", file=sys.stderr)


def _resolve(store, ref: str) -> Path:
    """The save file ``ref`` names (an id, a unique start of one, a short id or a
    path); :class:`UsageError` when there is none."""
    from .store import SaveFileError

    missing = UsageError(f"no saved match {_clip(ref, 40)!r} (see 'unoduo list')")
    try:
        if any(c in ref for c in "*?[") and not Path(ref).expanduser().is_file():
            raise missing  # an id holds no wildcards: '*5' must not pick a match
        return store.resolve(ref)
    except SaveFileError as exc:  # none, or several
        raise UsageError(_clip(exc, 200)) from None
    except (OSError, RuntimeError, ValueError):  # a name too long, ~nosuchuser/x
        raise missing from None


def _writable_dir(path: Path, what: str) -> None:
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
        raise UsageError(f"cannot use {_clip(path, 100)} as {what}: it is not a folder "
                         "unoduo can write in")


# -- interactive ---------------------------------------------------------------------

#: the driver textual-serve gives each browser tab's app (``unoduo web``): no tty, no TERM
WEB_DRIVER = "textual.drivers.web_driver:WebDriver"


def _terminal_problem() -> str | None:
    if os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER:
        return None  # a browser tab: textual-serve's pipes are its terminal
    term = os.environ.get("TERM", "")
    if term in ("", "dumb", "unknown"):
        return (f"unoduo needs a full-screen terminal, and TERM={term or '(unset)'} is not "
                "one. Try TERM=xterm-256color, or run it in tmux.")
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return "unoduo needs an interactive terminal (stdin and stdout are not a tty)."
    return None


def _interactive(args: argparse.Namespace) -> int:
    # the arguments first: a bad one is a line on stderr, never a toast on the menu
    store = _store(args)
    match = getattr(args, "match", None)
    if match is not None:
        match = str(_resolve(store, match))
    if args.command != "replay":  # the menu, a new match and a resumed one write there
        _writable_dir(store.data_dir, "the data dir")
    plan = _play_plan(args, store) if args.command == "play" else None
    problem = _terminal_problem()
    if problem:
        raise UsageError(problem)
    if args.command == "resume" and match is None:  # the newest unfinished match
        newest = store.newest_unfinished()
        match = None if newest is None else str(newest.path)
    if args.command == "resume" and match is not None:  # a hosted match: its table (#15)
        from .net.commands import resume_hosted
        hosted = resume_hosted(store, match)
        if hosted is not None:
            return hosted
    try:
        from .app import run_app
    except ImportError as exc:  # pragma: no cover - the app ships with the package
        _err(f"the game table is not available: {exc}")
        return EXIT_FAIL
    if args.command == "play":
        return run_app(store, "play", plan=plan)
    if args.command == "resume":
        return run_app(store, "resume", resume=match)
    if args.command == "replay":
        return run_app(store, "replay", replay=match, spoiler_free=args.spoiler_free)
    return run_app(store, "menu")


def _play_plan(args: argparse.Namespace, store):
    """The match ``unoduo play`` asked for (options not given: the form's last choices
    for that preset); :class:`UsageError` for a wrong count of ``--vs`` levels, seats
    out of the preset's range or an option the preset lacks."""
    from engine.rules import OPTIONS

    from .plan import play_plan
    from .settings import Settings

    given = {o.name: getattr(args, o.name, None) for o in OPTIONS if o.name != "seats"}
    try:
        return play_plan(args.preset, args.seats, args.vs or (), name=args.name,
                         seed=args.seed, remembered=Settings.load(store).options_for(
                             args.preset), **given)
    except ValueError as exc:
        raise UsageError(_clip(exc, 200)) from None


# -- headless ------------------------------------------------------------------------

#: ``unoduo list``: a match per line (and an indented line for its notes), ≤ 80 columns
_LIST_HEAD = f"{'ID':<6} {'STARTED':<16} {'PLAYERS':<24} {'ROUND':>5} {'SCORES':>9}  STATUS"
_STATUS_WIDTH, _NOTE_INDENT = 14, " " * 24


def _players(seats) -> str:
    """The seats in at most 24 columns: "Ann v Rando"; "Ann, Bea and Cal" cut."""
    from .columns import short_names
    from .words import and_list, seat_names

    names = seat_names(seats)
    if len(names) == 2:  # like names stay apart ("Random b…1", "Random b…2")
        return " v ".join(short_names(names[0], names[1], 10))
    return _clip(and_list(names), 24) if names else "?"


def _list_rows(s, spoiler_free: bool) -> list[str]:
    """One match's line of ``unoduo list``, then, indented on lines of their own: with
    more than two seats, every seat and its score (the PLAYERS column names the game
    and the seat count, SCORES the top score); then its notes (the game when not UNO
    Duo, practice, branch, damage)."""
    from .store import short_id
    from .words import distinct_names, game_name, seat_names, standings

    names = list(seat_names(s.seats))
    many = len(names) > 2
    started = s.created.astimezone().strftime("%Y-%m-%d %H:%M") if s.created else "?"
    scores = ("-" if not s.scores else f"top {max(s.scores)}" if many
              else "–".join(map(str, s.scores)))
    rounds, status = str(s.round), s.status
    hide = spoiler_free and (s.status == "finished" or bool(s.parent))
    if hide:
        # who won and how long it ran; a branch's scores tell how its parent stood
        rounds = scores = "?"
    elif s.status == "finished" and s.winner is not None and 0 <= s.winner < len(names):
        status = distinct_names(names, 10)[s.winner] + " won"
    elif s.status == "finished":
        status = "a draw"
    notes = []
    if s.problem and s.status == "damaged":
        notes.append(printable(s.problem.split(": ", 1)[-1]))
    if s.preset != "duo" and not many:  # many seats: the PLAYERS column names it
        notes.append(game_name(s.preset))
    if s.undos:
        notes.append(f"practice ({s.undos} undo{'s' * (s.undos != 1)})")
    if s.parent:
        notes.append(f"branch of {_clip(short_id(s.parent[0]), 12)} @ {s.parent[1]}")
    players = f"{game_name(s.preset)}, {len(names)} seats" if many else _players(s.seats)
    line = (f"{_clip(short_id(printable(s.id)), 6):<6} {started:<16} {_clip(players, 24):<24} "
            f"{_clip(rounds, 5):>5} {_clip(scores, 9):>9}  {_clip(status, _STATUS_WIDTH)}")
    room = 80 - len(_NOTE_INDENT)
    rows = [line]
    if many:
        shown = None if hide or len(s.scores) != len(names) else s.scores
        rows += [_NOTE_INDENT + row for row in standings(names, shown, room)]
    if notes:
        rows.append(_NOTE_INDENT + _clip(", ".join(notes), room))
    return rows


def _list(args: argparse.Namespace) -> int:
    rows = _store(args).summaries()
    if not rows:
        print("No saved matches yet. Start one with 'unoduo play'.")
        return EXIT_OK
    # the short id (enough for resume / replay / verify …) keeps a line within 80 columns
    print(_LIST_HEAD)
    for s in rows:
        print("\n".join(_list_rows(s, args.spoiler_free)))
    return EXIT_OK


def _read_only(args: argparse.Namespace, verdict: bool = False):
    """The match ``args.match`` names, opened read-only; ``None`` when its file is
    damaged, once stderr is told why (``verdict``: stdout, as ``damaged: …``).
    Not found: :class:`UsageError`."""
    from .store import SaveFileError

    store = _store(args)
    path = _resolve(store, args.match)
    try:
        return store.open(path, read_only=True)
    except SaveFileError as exc:
        print(("damaged: " if verdict else "unoduo: ") + _clip(exc, 400),
              file=sys.stdout if verdict else sys.stderr)
        return None


def _verify(args: argparse.Namespace) -> int:
    loaded = _read_only(args, verdict=True)
    if loaded is None:
        return EXIT_FAIL
    m = loaded.match
    state = ("finished, " + (f"{printable(loaded.seats[m.winner].name)} won"
                             if m.winner is not None else "a draw")
             ) if m.over else f"in progress, round {m.round}"
    decisions = sum(1 for e in m.actions if not e.is_chance)
    note = f" ({printable('; '.join(loaded.notes))})" if loaded.notes else ""
    print(f"ok: {printable(loaded.path)}: {decisions} decisions, {m.log_length} log entries, "
          f"scores {'–'.join(map(str, m.scores))}, {state}; framing, chain and every move "
          f"check out{note}")
    return EXIT_OK


def _export(args: argparse.Namespace) -> int:
    from .transcript import export_lines

    loaded = _read_only(args)
    if loaded is None:
        return EXIT_FAIL
    sys.stdout.writelines(export_lines(loaded, _remote(args, loaded)))
    return EXIT_OK


def _remote(args: argparse.Namespace, loaded) -> tuple[int, ...]:
    """The seats of ``loaded`` played from other terminals (a hosted match's)."""
    from .net.hosted import remote_seats

    return remote_seats(_store(args), loaded)


def _simulate(args: argparse.Namespace) -> int:
    from engine import Rules, bots
    from engine.bots.arena import run_arena

    levels = tuple(x.strip() for x in args.bots.split(","))
    try:
        rules = Rules(preset=args.preset, target=args.target,
                      seats=args.seats or (len(levels) if len(levels) > 1 else None))
    except ValueError as exc:
        raise UsageError(_clip(exc, 200)) from None
    if len(levels) not in (1, rules.seats) or any(level not in bots.LEVELS for level in levels):
        count = "two" if rules.seats == 2 else str(rules.seats)
        raise UsageError(f"--bots takes {count} of {', '.join(bots.LEVELS)} (one per seat), "
                         "comma-separated, or one for all")
    on_match = None
    folder = None
    if args.save:
        from .store import Seat

        store = _store(args)
        where = args.save
        try:
            folder = Path(args.save).expanduser()
            for where in (store.matches_dir, folder):  # the store makes both
                where.mkdir(parents=True, exist_ok=True)
        except (OSError, RuntimeError) as exc:
            raise UsageError(f"cannot save to {_clip(where, 100)}: "
                             f"{_clip(getattr(exc, 'strerror', None) or exc, 100)}") from None
        _writable_dir(folder, "--save")

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


class Progress:
    """``simulate``'s progress bar on a terminal's stderr: matches done / total and the
    time elapsed, redrawn in place; :meth:`close` ends its line."""

    WIDTH = 24

    def __init__(self, stream, total: int) -> None:
        import time

        self._stream, self._total, self._clock = stream, max(1, total), time.monotonic
        self._start = self._clock()
        self(0)

    def __call__(self, done: int) -> None:
        filled = self.WIDTH * min(done, self._total) // self._total
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self._stream.write(f"\r[{bar}] {done}/{self._total} matches, "
                           f"{self._clock() - self._start:.1f} s elapsed")
        self._stream.flush()

    def close(self) -> None:
        self._stream.write("\n")
        self._stream.flush()


def _delete(args: argparse.Namespace) -> int:
    from .store import SaveFileError, short_id

    store = _store(args)
    path = _resolve(store, args.match)
    if not args.yes:
        if not sys.stdin.isatty():
            raise UsageError("delete asks first: give --yes to delete without a terminal")
        s = store.summary(path)
        what = f"{_clip(short_id(s.id), 12)} ({_players(s.seats)}, {s.status})"
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
        _err(exc)
        return EXIT_FAIL
    print(f"Deleted {printable(gone)}")
    return EXIT_OK


def _transcript(args: argparse.Namespace) -> int:
    from .transcript import transcript_text

    loaded = _read_only(args)
    if loaded is None:
        return EXIT_FAIL
    sys.stdout.write(transcript_text(loaded, _remote(args, loaded)))
    return EXIT_OK


def _width() -> int:
    """The width to wrap to: ``$COLUMNS``, else the terminal's, else 80 (piped)."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
        if columns > 0:
            return columns
    except ValueError:
        pass
    if sys.stdout.isatty():
        import shutil

        return shutil.get_terminal_size().columns
    return 80


def _rules(args: argparse.Namespace) -> int:
    """The rule book rendered for the terminal (Rich's Markdown, wrapped to the width),
    paged through ``$PAGER`` (else ``less``) when stdout is a terminal."""
    from rich.console import Console
    from rich.markdown import Markdown

    book = Markdown(rule_book())
    if not (sys.stdout.isatty() and sys.stdin.isatty()):  # plain text, no trailing blanks
        import io

        console = Console(file=io.StringIO(), width=_width(), color_system=None)
        console.print(book)
        sys.stdout.writelines(line.rstrip() + "\n"
                              for line in console.file.getvalue().splitlines())
        return EXIT_OK
    console = Console(width=_width())
    # pydoc's choice: $MANPAGER, $PAGER, else less; less shows colours given -R (or -r),
    # which it gets unless $LESS says otherwise (git does the same)
    pager = (os.environ.get("MANPAGER") or os.environ.get("PAGER") or "less").split()
    if pager and pager[0].endswith("less"):
        flags = os.environ.setdefault("LESS", "-R")
        styles = "R" in flags or "r" in flags
    else:
        styles = True
    with console.pager(styles=styles):
        console.print(book)
    return EXIT_OK


_COMMANDS = {
    "menu": _interactive, "play": _interactive, "resume": _interactive, "list": _list,
    "verify": _verify, "export": _export, "simulate": _simulate, "rules": _rules,
    "transcript": _transcript, "replay": _interactive, "delete": _delete,
}
from .net.commands import COMMANDS as _NET_COMMANDS  # noqa: E402 - host / join / watch (#15)
_COMMANDS.update(_NET_COMMANDS)
from .ssh.command import serve as _serve  # noqa: E402 - unoduo serve (#16)
_COMMANDS["serve"] = _serve
from .net.lobby_cli import run as _lobby  # noqa: E402 - the lobby (#16)
_COMMANDS["lobby"] = _lobby
from .web import run as _web  # noqa: E402 - unoduo web (#16)
_COMMANDS["web"] = _web
from .record.command import run as _stats  # noqa: E402 - unoduo stats (#24)
_COMMANDS["stats"] = _stats
from .review.command import run as _review  # noqa: E402 - unoduo review (#25)
_COMMANDS["review"] = _review


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
