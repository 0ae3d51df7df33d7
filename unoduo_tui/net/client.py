"""``unoduo host`` / ``join`` / ``watch``: play each other from two terminals (#15).

- ``unoduo host [--preset P] [--seats N] [--vs LEVEL,…] [--name NAME] [--listen ADDR]``
  starts the table's authority as a process of its own (its own session: closing the
  host's terminal does not end the table), prints the join code, then opens the
  host's screen as a client.  ``--vs`` gives the other seats in order (a bot level or
  ``human``; default: every other seat human).  ``--detach``: print the code and leave
  the table running (no screen).  ``--resume ID``: reopen a hosted match whose
  authority died, with its code and seat tokens.
- ``unoduo join CODE [--name NAME]`` takes a free seat, or the seat this Unix user had
  (its token is kept in the data dir); ``unoduo watch CODE [--delay N]`` watches.

The socket, the code and the tokens are described in :mod:`.codes`; the messages in
:mod:`.authority`.  Reaching a ``--listen 127.0.0.1:PORT`` table from another machine:
``ssh -L PORT:127.0.0.1:PORT host``, then ``unoduo join CODE --connect 127.0.0.1:PORT``.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import subprocess
import sys
import threading
import time
from typing import Any

from ..cli_args import EXIT_FAIL, EXIT_OK, UsageError, clip
from ..text import player_name, printable
from .codes import MAX_DELAY, load_tokens, parse_code, save_token

# light at import (``unoduo --help`` builds these parsers): the engine, the table and
# the app are imported by the commands themselves

__all__ = ["add_parsers", "COMMANDS", "host_plan", "start_authority", "remote_app",
           "run_remote", "resume_hosted", "connect", "sit_host", "host_banner", "wire"]

#: seconds to wait for the authority's first line
START_SECONDS = 30.0


def add_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    """The ``host`` / ``join`` / ``watch`` sub-commands (called by ``build_parser``)."""
    host = sub.add_parser("host", parents=[common],
                          help="open a table others join from their terminals")
    host.add_argument("--preset", choices=("duo", "classic"), default="duo")
    host.add_argument("--seats", type=int, help="players (classic: 2–10; duo: 2)")
    host.add_argument("--vs", metavar="LEVEL,…",
                      help="the other seats in order: a bot level or 'human' (default: human)")
    host.add_argument("--name", help="your name")
    host.add_argument("--listen", metavar="127.0.0.1:PORT",
                      help="also listen on loopback TCP (reach it with ssh -L)")
    host.add_argument("--resume", metavar="ID", help="reopen a hosted match whose table ended")
    host.add_argument("--idle", type=float, metavar="MINUTES",
                      help="end the table after this many minutes with nobody connected "
                           "(default 30; 0: never); unoduo resume ID brings it back")
    host.add_argument("--away", type=float, metavar="MINUTES",
                      help="minutes a player may be away before the others can hand their "
                           "seat to a bot until they are back (default 3)")
    host.add_argument("--detach", action="store_true",
                      help="print the code and leave the table running, without a screen")
    for name, what in (("join", "take a seat at a table"), ("watch", "watch a table")):
        p = sub.add_parser(name, parents=[common], help=what)
        p.add_argument("code", metavar="CODE", help="the join code, like tide-wolf-1742")
        p.add_argument("--connect", metavar="127.0.0.1:PORT",
                       help="reach the table over TCP (an ssh -L tunnel) instead of its socket")
        if name == "join":
            p.add_argument("--name", help="your name")
        else:
            p.add_argument("--delay", type=int, default=0,
                           help=f"see the table this many moves late (0–{MAX_DELAY})")


def host_plan(preset: str, seats: int | None, vs: str | None, name: str | None) -> Any:
    """The hosted match (a :class:`MatchPlan`): the host in seat 0, then ``vs``
    (comma-separated) in order."""
    from engine import Rules

    from ..plan import HUMAN, MatchPlan, bot_levels, opponent_label

    others = [v.strip() for v in vs.split(",")] if vs else []
    count = seats or (len(others) + 1 if others else 2)
    if len(others) == 1 and count > 2:
        others = others * (count - 1)
    others += [HUMAN] * (count - 1 - len(others))
    if len(others) != count - 1:
        raise UsageError(f"--vs names {len(others)} seats, but the table has {count - 1} "
                         "besides yours")
    kinds = [HUMAN]
    for level in others:
        if level != HUMAN and level not in bot_levels():
            raise UsageError(f"{clip(level, 40)!r} is not a bot level or 'human' (one of "
                             f"{', '.join((*bot_levels(), HUMAN))})")
        kinds.append(HUMAN if level == HUMAN else f"bot:{level}")
    names = [player_name(name, "Host")]
    for seat, kind in enumerate(kinds[1:], 1):
        names.append(f"Player {seat + 1}" if kind == HUMAN else opponent_label(kind))
    try:
        return MatchPlan(tuple(names), tuple(kinds), Rules(preset=preset, seats=count))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def start_authority(data_dir: Any, *what: str, listen: str | None = None,
                    socket_dir: str | None = None, bot_pause: float | None = None,
                    idle: float | None = None, listing: str | None = None,
                    quick: bool = False, away: float | None = None) -> dict:
    """Start the table's process in a session of its own; its first line (``code``,
    ``match``, ``seat``, ``token``, ``port``, ``pid``).  ``listing``: a lobby dir to
    list the table in (``quick``: as a quick-match table; :mod:`.lobby`).
    ``RuntimeError`` when it could not."""
    argv = [sys.executable, "-m", "unoduo_tui.net.serve", "--data-dir", str(data_dir), *what]
    if listen:
        argv += ["--listen", listen]
    if socket_dir:
        argv += ["--socket-dir", str(socket_dir)]
    if bot_pause is not None:
        argv += ["--bot-pause", str(bot_pause)]
    if idle is not None:
        argv += ["--idle", str(idle)]
    if away is not None:
        argv += ["--away", str(away)]
    if listing:
        argv += ["--listing", str(listing)] + (["--quick"] if quick else [])
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + START_SECONDS
    line = b""
    while not line.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([proc.stdout], [], [], left)[0]:
            proc.kill()
            raise RuntimeError("the table did not start in time")
        chunk = os.read(proc.stdout.fileno(), 4096)
        if not chunk:
            break
        line += chunk
    proc.stdout.close()
    # reaped when it ends (a long-lived lobby starts many): a zombie would look alive
    threading.Thread(target=proc.wait, daemon=True, name="unoduo-reap").start()
    try:
        info = json.loads(line or b"{}")
    except ValueError:
        info = {}
    if "code" not in info:
        raise RuntimeError(info.get("error") or "the table did not start")
    return info


def _host(args: argparse.Namespace) -> int:
    from ..cli import _store
    from .serve import parse_listen, plan_to_json

    store = _store(args)
    if args.listen:
        try:
            parse_listen(args.listen)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if args.resume:
        what: tuple[str, ...] = ("--resume", args.resume)
    else:
        what = ("--plan", plan_to_json(host_plan(args.preset, args.seats, args.vs, args.name)))
    if args.idle is not None and not 0 <= args.idle <= 7 * 24 * 60:
        raise UsageError("--idle is a number of minutes from 0 (never) to a week")
    if args.away is not None and not 0 <= args.away <= 7 * 24 * 60:
        raise UsageError("--away is a number of minutes from 0 (at once) to a week")
    if not args.detach:
        _need_terminal()  # before the table starts: a bad terminal is a usage error
    return _run_host(store, what, listen=args.listen, detach=args.detach,
                     name=args.name or "", idle=args.idle, away=args.away)


def resume_hosted(store: Any, path: str) -> int | None:
    """``unoduo resume ID`` of a match that was hosted: its table (reached if it is
    running, else started again with its code and seat tokens) and the host's screen
    (None: not hosted; :func:`.hosted.open_hosted`)."""
    from ..table import Refused
    from .hosted import open_hosted

    try:
        opened = open_hosted(store, path)
    except Refused as exc:
        print(f"unoduo: the table refused: {clip(exc.reason, 200)}", file=sys.stderr)
        return EXIT_FAIL
    except (ConnectionError, RuntimeError, OSError, ValueError) as exc:
        print(f"unoduo: cannot open the table: {clip(exc, 300)}", file=sys.stderr)
        return EXIT_FAIL
    if opened is None:
        return None
    table, info = opened
    if info is not None:
        _print_code(info)
    return run_remote(store, table)


def _need_terminal() -> None:
    from ..cli import _terminal_problem

    problem = _terminal_problem()
    if problem:
        raise UsageError(problem)


def _run_host(store: Any, what: tuple[str, ...], *, listen: str | None, detach: bool,
              name: str, idle: float | None = None, away: float | None = None) -> int:
    try:
        info = start_authority(store.data_dir, *what, listen=listen, idle=idle, away=away)
    except RuntimeError as exc:
        print(f"unoduo: cannot open the table: {clip(exc, 300)}", file=sys.stderr)
        return EXIT_FAIL
    _print_code(info)
    if detach or info.get("seat") is None:
        return EXIT_OK
    return _open(store, info["code"], want="play", name=name, tokens=[info["token"]],
                 new_seat=False, banner=host_banner(info["code"]))


def _print_code(info: dict) -> None:
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


def host_banner(code: str, place: str = "terminal") -> str:
    """The line at the top of the host's screen: the code, to read out, and where the
    others join from ``place`` (:data:`..words.PLACES`: a lobby lists the table)."""
    how = {"lobby": "others join it in the lobby (j)",
           "web": "others: Join a table… in the menu"}.get(place,
                                                          f"others type: unoduo join {code}")
    return f"Join code: {code}  ·  {how}"


def _join(args: argparse.Namespace, want: str) -> int:
    from ..cli import _store

    try:
        code = parse_code(args.code)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    store = _store(args)
    delay = getattr(args, "delay", 0)
    if not 0 <= delay <= MAX_DELAY:
        raise UsageError(f"--delay is a number of moves from 0 to {MAX_DELAY}")
    tcp = None
    if args.connect:
        from .serve import parse_listen

        try:
            tcp = parse_listen(args.connect)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return _open(store, code, want=want, name=getattr(args, "name", "") or "", delay=delay,
                 tcp=tcp)


def _open(store: Any, code: str, *, want: str, name: str, tokens: list[str] | None = None,
          new_seat: bool = True, delay: int = 0, tcp: tuple[str, int] | None = None,
          banner: str | None = None) -> int:
    from ..table import Refused

    _need_terminal()
    try:
        table = connect(store, code, want=want, name=name, tokens=tokens, new_seat=new_seat,
                        delay=delay, tcp=tcp)
    except Refused as exc:
        print(f"unoduo: the table refused: {clip(exc.reason, 200)}", file=sys.stderr)
        return EXIT_FAIL
    except (ConnectionError, OSError, ValueError) as exc:
        print(f"unoduo: {clip(exc, 300)}", file=sys.stderr)
        return EXIT_FAIL
    table.banner = banner
    return run_remote(store, table)


def connect(store: Any, code: str, *, want: str, name: str = "",
            tokens: list[str] | None = None, new_seat: bool = True, delay: int = 0,
            tcp: tuple[str, int] | None = None) -> Any:
    """A :class:`RemoteTable` at ``code`` (the CLI's, the menu's and the lobby's one way
    in).  A player offers ``tokens`` (None: the ones the data dir keeps for ``code``,
    to take a seat of theirs back; one whose connection answers is left to it) and,
    with ``new_seat``, takes a free seat otherwise; the seat's token is kept in the
    data dir.  Raises ``Refused``, ``ConnectionError``/``OSError`` (no table there) or
    ``ValueError`` (a bad code)."""
    from .remote import RemoteTable

    if tokens is None:
        tokens = load_tokens(store.data_dir, code) if want == "play" else []
    table = RemoteTable.connect(code, name=name, want=want, tokens=tokens, new_seat=new_seat,
                                delay=delay, tcp=tcp)
    if want == "play" and table.token:
        try:
            save_token(store.data_dir, code, table.token)
        except OSError:
            pass  # a rejoin then needs the host's table file; the game goes on
    return table


def sit_host(store: Any, info: dict, name: str = "") -> Any:
    """The host's own seat at the table :func:`start_authority` just started (``info``:
    its first line) — that seat only, never another."""
    return connect(store, info["code"], want="play", name=name, tokens=[info["token"]],
                   new_seat=False)


def run_remote(store: Any, table: Any) -> int:
    """The full-screen app at ``table`` (a :class:`RemoteTable`) until the player leaves."""
    from ..app import run_to_exit

    try:
        return run_to_exit(remote_app(store, table, handle_signals=True))
    finally:
        table.close()


def remote_app(store: Any, table: Any, **options: Any) -> Any:
    """The app showing ``table``: seats whose player is not connected are marked away
    (the :class:`Seats` widget), and who comes and goes, and chat lines, are toasts."""
    app = _remote_app_class()(store, "menu", table=table, **options)
    wire(app, table)
    return app


def wire(app: Any, table: Any) -> None:
    """Who comes and goes, and chat lines, as toasts on ``app``; seats whose player
    is not connected marked away."""
    now = table.presence
    known: dict[str, Any] = {"connected": set(now.connected) if now is not None else None}
    humans = {s for s, kind in enumerate(table.kinds) if not kind.startswith("bot:")}

    def presence(p) -> None:
        _in_app(app, lambda: _mark_away(app, frozenset(humans - set(p.connected)), p.names))
        before, known["connected"] = known["connected"], set(p.connected)
        if before is None:
            return
        for seat in sorted(before - set(p.connected)):
            _in_app(app, lambda s=seat: app.notify(
                f"{printable(p.names[s])} disconnected — waiting"[:240]))
        for seat in sorted(set(p.connected) - before):
            _in_app(app, lambda s=seat: app.notify(
                f"{printable(p.names[s])} is at the table"[:240]))

    table.on_presence = presence
    table.on_chat = lambda seat, name, text: _in_app(
        app, lambda: app.notify(f"{printable(name)}: {printable(text)}"[:240]))


def _remote_app_class() -> Any:
    """The app with one key more: ``/`` to chat (:mod:`.chat`)."""
    from ..app import UnoDuoApp
    from .chat import ChatLine, chat_binding

    from .. import app as app_module

    class RemoteApp(UnoDuoApp):
        CSS_PATH = os.path.join(os.path.dirname(app_module.__file__), "app.tcss")
        BINDINGS = [*UnoDuoApp.BINDINGS, chat_binding()]

        def action_chat(self) -> None:
            if not isinstance(self.screen, ChatLine):
                self.push_screen(ChatLine(self.start_table))

    return RemoteApp


def _mark_away(app: Any, away: frozenset, names: tuple[str, ...]) -> None:
    """Seats whose player is not connected marked away; the seats named as the table
    now names them (a joiner's own name once they sit down)."""
    from ..screens.game import GameScreen
    from ..widgets import Seats

    for screen in app.screen_stack:
        if isinstance(screen, GameScreen):
            for seats in screen.query(Seats):
                seats.away = away
            screen.rename_seats(names)


def _in_app(app: Any, fn: Any) -> None:
    """Run ``fn`` on the app's thread (from the table's reader thread, or on it)."""
    try:
        if threading.get_ident() == getattr(app, "_thread_id", None):
            fn()
        else:
            app.call_from_thread(fn)
    except Exception:  # the app is not running (yet, or any more)
        pass


COMMANDS = {"host": _host, "join": lambda a: _join(a, "play"),
            "watch": lambda a: _join(a, "watch")}
