"""``unoduo web``: the same app in a browser, served by textual-serve (#16).

    unoduo web [--host 127.0.0.1] [--port 8000] [--data-dir PATH] [play|resume|replay …]

Every browser tab that opens the page is a player of its own: textual-serve starts
``python -m unoduo_tui.cli --data-dir PATH [COMMAND …]`` for it (the menu, or the
command given after web's own options, checked here first) and ends it when the
tab closes.  Saves and replays are the terminal's: the same data dir.

Nothing is fetched from the internet: the page is our copy of textual-serve's
template (``web_templates/app_index.html``) with the font taken from textual-serve's
own static files instead of Google Fonts, and every other asset served from here.
The template keeps the ids, classes and data attributes textual-serve's
``static/js/textual.js`` reads, and its ``font_size`` variable: textual-serve is
bound to 1.1.x in pyproject for that.

A bad argument, or a port in use, is one line on stderr and exit status 2, before
the server starts; Ctrl+C (or SIGTERM) stops the server and every tab's app, each
of which saves as it goes.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import shlex
import socket
import sys
from pathlib import Path
from typing import Any, Sequence

from .cli_args import EXIT_OK, UsageError, clip

__all__ = ["add_parser", "run", "tab_command", "is_loopback", "check_port", "DEFAULT_PORT",
           "DEFAULT_HOST", "TEMPLATES", "APP_COMMANDS"]

DEFAULT_PORT, DEFAULT_HOST = 8000, "127.0.0.1"
#: our copy of textual-serve's page template
TEMPLATES = Path(__file__).with_name("web_templates")
#: what a tab may start with besides the menu (the interactive commands)
APP_COMMANDS = ("play", "resume", "replay")
#: web's options, which go before the tab's command
WEB_OPTIONS = ("--port", "--host", "--data-dir")


def _port(text: str) -> int:
    try:
        value = int(text) if len(text) < 8 else -1
    except ValueError:
        value = -1
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"not a port (1-65535): {clip(text, 20)!r}")
    return value


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """The ``web`` sub-command (called by ``build_parser``)."""
    web = sub.add_parser(
        "web", parents=[common], help="serve the app to web browsers (textual-serve)",
        description="Serve the app to web browsers: every tab is a player with the menu, "
                    "saves and replays of the data dir. Anything after web's own options "
                    "is what each tab starts with, e.g. 'unoduo web play --vs hard'.")
    web.add_argument("--port", type=_port, default=DEFAULT_PORT,
                     help=f"the port to listen on (default {DEFAULT_PORT})")
    web.add_argument("--host", default=DEFAULT_HOST,
                     help=f"the address to listen on (default {DEFAULT_HOST}: this machine "
                          "only)")
    web.add_argument("app", nargs=argparse.REMAINDER, metavar="[COMMAND …]",
                     help="what each tab starts with: play/resume/replay and their options "
                          "(default: the menu)")


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
    return bool(infos) and all(ipaddress.ip_address(i[4][0].split("%")[0]).is_loopback
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


def url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/"


def tab_command(data_dir: Path, app: Sequence[str] = ()) -> str:
    """The shell command textual-serve runs for each tab: this Python, the CLI, the
    data dir and the tab's command."""
    return shlex.join([sys.executable, "-m", "unoduo_tui.cli", "--data-dir", str(data_dir),
                       *app])


def _checked_app(app: Sequence[str], data_dir: Path) -> list[str]:
    """``app`` (what each tab starts with) once checked as the terminal checks it: a
    bad one is a :class:`UsageError` here, not a dead tab."""
    from . import cli
    from .cli_args import build_parser

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
    args = build_parser().parse_args(["--data-dir", str(data_dir), *app])  # exits 2 if bad
    store = cli._store(args)
    if args.command == "play":
        cli._play_plan(args, store)
    elif args.match is not None:
        cli._resolve(store, args.match)
    return app


def run(args: argparse.Namespace) -> int:
    """``unoduo web``: check everything, print the address, serve until Ctrl+C."""
    from . import cli

    store = cli._store(args)
    cli._writable_dir(store.data_dir, "the data dir")
    app = _checked_app(args.app, store.data_dir)
    check_port(args.host, args.port)
    try:
        from textual_serve.server import Server
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise UsageError(f"unoduo web needs textual-serve: {clip(exc, 100)}") from None
    where = url(args.host, args.port)
    if not is_loopback(args.host):
        print(f"unoduo web: warning: {clip(args.host, 60)} is reachable from other machines; "
              "anyone who can reach it can play as you, with your saved matches",
              file=sys.stderr, flush=True)
    server = _server_class(Server)(tab_command(store.data_dir, app), address=where,
                                   host=args.host, port=args.port, title="unoduo",
                                   templates_path=TEMPLATES)
    try:
        server.serve()
    except OSError as exc:  # taken between the check and the bind
        raise _listen_error(args.host, args.port, exc) from None
    print("unoduo web: stopped", flush=True)
    return EXIT_OK


def _server_class(base: type) -> type:
    """textual-serve's ``Server`` printing one line at start and warnings only (its
    logo, and aiohttp's line per request, would bury the address), and ending every
    open tab at shutdown: aiohttp would wait for the browsers to close them (until a
    heartbeat goes unanswered, ~25 s), so Ctrl+C seemed to hang."""

    class Server(base):  # type: ignore[misc, valid-type]
        def __init__(self, command: str, *, address: str, **options: Any) -> None:
            super().__init__(command, **options)
            self.address = address  # the URL to print
            self.tabs: set = set()  # the tasks serving the open tabs' websockets

        async def handle_websocket(self, request: Any) -> Any:
            import asyncio

            tab = asyncio.current_task()
            self.tabs.add(tab)
            try:
                return await super().handle_websocket(request)
            finally:
                self.tabs.discard(tab)

        async def on_shutdown(self, app: Any) -> None:
            # a cancelled tab tells its app to quit, waits for it and closes the socket
            for tab in list(self.tabs):
                tab.cancel()

        def initialize_logging(self) -> None:
            import logging

            logging.basicConfig(level=logging.WARNING, format="unoduo web: %(message)s")

        async def on_startup(self, app: Any) -> None:
            print(f"unoduo web: serving on {self.address} (Ctrl+C to stop)", flush=True)

    return Server
