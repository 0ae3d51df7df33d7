"""``unoduo web``: the same app in a browser, on textual-serve's page and protocol (#16).

    unoduo web [--host 127.0.0.1] [--port 8000] [--max-tabs 16] [--allow-host NAME]
               [--no-token] [--data-dir PATH] [play|resume|replay …]

Every browser tab that opens the page is a player of its own: the server starts
``python -m unoduo_tui.cli --data-dir PATH [COMMAND …]`` for it (the menu, or the
command given after web's own options, checked here first) and ends it when the
tab closes.  Saves and replays are the terminal's: the same data dir.

Nobody else plays as you (#21): the address printed at start carries a secret made
for this start (``?token=…``); without it, or the cookie its first visit leaves, the
server answers 403.  The ``Host`` and the websocket's ``Origin`` are checked too, and
what one tab may cost is bounded: :mod:`.web_guard` and :mod:`.web_server` say how.

Nothing is fetched from the internet: the page is our copy of textual-serve's
template (``web_templates/app_index.html``) with the font taken from textual-serve's
own static files instead of Google Fonts, and every other asset served from here.
The template keeps the ids, classes and data attributes textual-serve's
``static/js/textual.js`` reads, and its ``font_size`` variable: textual-serve is
bound to 1.1.x in pyproject for that.

A bad argument, or a port in use, is one line on stderr and exit status 2, before
the server starts; Ctrl+C (SIGTERM, SIGHUP) stops the server and every tab's app,
each of which saves as it goes.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import re
import socket
import sys
from pathlib import Path
from typing import Sequence

from .common import Subparsers, EXIT_OK, UsageError, clip, open_store, resolve, writable_dir

__all__ = ["add_parser", "run", "tab_command", "is_loopback", "check_port", "DEFAULT_PORT",
           "DEFAULT_HOST", "DEFAULT_MAX_TABS", "TEMPLATES", "APP_COMMANDS", "new_token"]

DEFAULT_PORT, DEFAULT_HOST, DEFAULT_MAX_TABS = 8000, "127.0.0.1", 16
#: our copy of textual-serve's page template
TEMPLATES = Path(__file__).parent.parent / "web_templates"
#: what a tab may start with besides the menu (the interactive commands)
APP_COMMANDS = ("play", "resume", "replay")
#: web's options, which go before the tab's command
WEB_OPTIONS = ("--port", "--host", "--data-dir", "--max-tabs", "--allow-host", "--no-token")
#: a host name (letters, digits, dots, dashes) or an IP address, for --allow-host
HOST_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")


def _whole_in(what: str, low: int, high: int):
    """An argparse type: a whole number from ``low`` to ``high``, else "not WHAT"."""
    def parse(text: str) -> int:
        try:
            value = int(text) if len(text) <= len(str(high)) else low - 1
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"not {what} ({low}-{high}): {clip(text, 20)!r}")
        return value

    return parse


_port = _whole_in("a port", 1, 65535)
_tabs = _whole_in("a number of tabs", 1, 1000)


def _host_name(text: str) -> str:
    name = text.strip("[]")
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        pass
    if not HOST_NAME.fullmatch(name):
        raise argparse.ArgumentTypeError(f"not a host name (no port, no scheme): "
                                         f"{clip(text, 40)!r}")
    return name.lower()


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    """The ``web`` sub-command (called by ``build_parser``)."""
    web = sub.add_parser(
        "web", parents=[common], help="serve the app to web browsers (textual-serve)",
        description="Serve the app to web browsers: every tab is a player with the menu, "
                    "saves and replays of the data dir. Open the address it prints: it "
                    "carries a secret made for this start (?token=...), and nothing is "
                    "served without it. Anything after web's own options is what each "
                    "tab starts with, e.g. 'unoduo web play --vs hard'.")
    web.add_argument("--port", type=_port, default=DEFAULT_PORT,
                     help=f"the port to listen on (default {DEFAULT_PORT})")
    web.add_argument("--host", default=DEFAULT_HOST,
                     help=f"the address to listen on (default {DEFAULT_HOST}: this machine "
                          "only)")
    web.add_argument("--max-tabs", type=_tabs, default=DEFAULT_MAX_TABS, metavar="N",
                     help=f"tabs open at once, each one app process; the next gets a page "
                          f"that says the server is full (default {DEFAULT_MAX_TABS})")
    web.add_argument("--allow-host", type=_host_name, action="append", default=[],
                     metavar="NAME",
                     help="a name (or address) browsers may reach this server by, besides "
                          "the one it listens on, localhost, 127.0.0.1 and [::1]; "
                          "any other Host is refused (a page that rebinds its name to this "
                          "machine); may be given more than once")
    web.add_argument("--no-token", action="store_true",
                     help="serve without the secret in the address (DANGEROUS: every "
                          "program and user that reaches the port plays as you)")
    web.add_argument("app", nargs=argparse.REMAINDER, metavar="[COMMAND …]",
                     help="what each tab starts with: play/resume/replay and their options "
                          "(default: the menu)")
    web.set_defaults(run=run)


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` names is this machine's loopback (an unknown
    name: ``False``)."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return False
    return bool(infos) and all(ipaddress.ip_address(str(i[4][0]).split("%")[0]).is_loopback
                               for i in infos)


def check_port(host: str, port: int) -> None:
    """:class:`UsageError` unless ``host``:``port`` can be listened on now (bound with
    ``SO_REUSEADDR`` as the server binds it, then let go)."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        raise UsageError(f"cannot listen on {clip(host, 60)}: "
                         f"{clip(getattr(exc, 'strerror', None) or exc, 100)}") from None
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(address)
            except OSError as exc:
                raise _listen_error(host, port, exc) from None


def _listen_error(host: str, port: int, exc: OSError) -> UsageError:
    if exc.errno == errno.EADDRINUSE:
        return UsageError(f"port {port} on {clip(host, 60)} is in use: stop what uses it "
                          "or give another --port")
    return UsageError(f"cannot listen on {clip(host, 60)} port {port}: "
                      f"{clip(exc.strerror or exc, 100)}")


def url(host: str, port: int, token: str | None = None) -> str:
    """The address to open (with the token, when there is one)."""
    from ..web_guard import bracketed

    return f"http://{bracketed(host)}:{port}/" + (f"?token={token}" if token else "")


def new_token() -> str:
    """A secret for one start of the server: 192 random bits, URL-safe."""
    import secrets  # (its hashlib and hmac: not at every start of unoduo)

    return secrets.token_urlsafe(24)


def tab_command(data_dir: Path, app: Sequence[str] = ()) -> list[str]:
    """What the server runs for each tab (no shell): this Python, the CLI, the data
    dir and the tab's command."""
    return [sys.executable, "-m", "unoduo_tui.cli", "--data-dir", str(data_dir), *app]


def _checked_app(app: Sequence[str], data_dir: Path) -> list[str]:
    """``app`` (what each tab starts with) once checked as the terminal checks it: a
    bad one is a :class:`UsageError` here, not a dead tab."""
    from . import play, replay, resume
    from .common import build_parser

    app = list(app[1:] if app[:1] == ["--"] else app)
    if not app:
        return app
    if app[0] not in APP_COMMANDS:
        raise UsageError(f"a tab starts with the menu or one of {', '.join(APP_COMMANDS)}, "
                         f"not {clip(app[0], 40)!r}")
    mine = [a for a in app if a.split("=", 1)[0] in WEB_OPTIONS]
    if mine:
        raise UsageError(f"{clip(mine[0].split('=', 1)[0], 20)} is web's own option: give it "
                         f"before {clip(app[0], 20)}")
    parser = build_parser((play, resume, replay))
    args = parser.parse_args(["--data-dir", str(data_dir), *app])  # exits 2 if bad
    store = open_store(args)
    if args.command == "play":
        play.plan_of(args, store)
    elif args.match is not None:
        resolve(store, args.match)
    return app


def run(args: argparse.Namespace) -> int:
    """``unoduo web``: check everything, print the address, serve until Ctrl+C."""
    store = open_store(args)
    writable_dir(store.data_dir, "the data dir")
    app = _checked_app(args.app, store.data_dir)
    check_port(args.host, args.port)
    try:
        from ..web_guard import Guard, WebLimits
        from ..web_server import WebServer
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise UsageError(f"unoduo web needs textual-serve: {clip(exc, 100)}") from None
    token = None if args.no_token else new_token()
    host = clip(args.host, 60)
    if args.no_token:
        reach = "this machine" if is_loopback(args.host) else "this machine and others"
        _warn(f"WARNING: --no-token: no secret guards this server: every program and "
              f"every user of {reach} that reaches port {args.port} can play as you, "
              "with your saved matches")
    if not is_loopback(args.host):
        _warn(f"warning: {host} is reachable from other machines, over plain http: anyone "
              "who sees the address can play as you, with your saved matches; a browser "
              "elsewhere must use a name given with --allow-host NAME")
    server = WebServer(tab_command(store.data_dir, app), host=args.host, port=args.port,
                       guard=Guard(args.host, args.port, token, args.allow_host),
                       address=url(args.host, args.port, token), templates=TEMPLATES,
                       limits=WebLimits(max_tabs=args.max_tabs))
    try:
        server.serve()
    except OSError as exc:  # taken between the check and the bind
        raise _listen_error(args.host, args.port, exc) from None
    print("unoduo web: stopped", flush=True)
    return EXIT_OK


def _warn(text: str) -> None:
    print(f"unoduo web: {text}", file=sys.stderr, flush=True)
