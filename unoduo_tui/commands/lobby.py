"""``unoduo lobby [--name NAME] [--lobby-dir PATH]``: the lobby (#16), what an SSH
player sees first — and, on one machine, a plain user's way to tables in other
terminals.

The SSH server runs it per connection with ``--data-dir PLAYER_DIR`` and the
environment ``UNODUO_SOCKET_DIR``, ``UNODUO_LOBBY_DIR`` and ``UNODUO_KEY`` (the key's
fingerprint, shown in the lobby's header), read here, at the edge, into a
:class:`~unoduo_tui.sessions.SessionConfig` (a worker of ``serve --workers`` builds
that config from what the server tells it instead).  The name is ``--name``, else the one in
``<data dir>/identity.json`` (``{"name": …}``, written by the server), else the login.
The lobby dir: :func:`.lobby.lobby_dir`.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
from pathlib import Path
from typing import Any

from ..cli_args import UsageError, clip
from ..files import read_regular
from ..text import player_name

__all__ = ["add_parser", "run", "identity_name", "save_identity_name", "lobby_app"]

LOBBY_HELP = ("the folder every lobby shares: the listing of open tables and the "
              "quick-match queue (default: $UNODUO_LOBBY_DIR, else unoduo-lobby-<uid> "
              "beside the socket dir, e.g. /tmp/unoduo-lobby-1000)")


def add_parser(sub: Any, common: argparse.ArgumentParser, name_type: Any) -> None:
    lobby = sub.add_parser("lobby", parents=[common],
                           help="the lobby: resume, quick match, open, join or watch tables")
    lobby.add_argument("--name", type=name_type,
                       help="your name (default: identity.json in the data dir, else "
                            "your login)")
    lobby.add_argument("--lobby-dir", metavar="PATH", help=LOBBY_HELP)


def identity_name(data_dir: Path) -> str | None:
    """The name in ``<data dir>/identity.json`` (cleaned), if any."""
    try:
        raw = json.loads(read_regular(Path(data_dir) / "identity.json", 1 << 12))
        name = raw.get("name") if isinstance(raw, dict) else None
    except (OSError, ValueError):
        return None
    return player_name(name, "") or None if isinstance(name, str) else None


def save_identity_name(data_dir: Path, name: str) -> None:
    """Rename: ``name`` into ``<data dir>/identity.json``, its other fields kept."""
    from ..files import private_dir, replace_private

    path = Path(data_dir) / "identity.json"
    try:
        raw = json.loads(read_regular(path, 1 << 12))
    except (OSError, ValueError):
        raw = {}
    raw = raw if isinstance(raw, dict) else {}
    raw["name"] = name
    private_dir(Path(data_dir))
    replace_private(path, json.dumps(raw).encode())


def run(args: argparse.Namespace) -> int:
    from ..cli import _store, _terminal_problem, _writable_dir
    from ..plan import login_name
    from ..sessions import SessionConfig, session_app
    from .lobby import lobby_dir

    store = _store(args)
    _writable_dir(store.data_dir, "the data dir")
    try:
        folder = lobby_dir(args.lobby_dir)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot use the lobby dir: {clip(exc, 200)}") from None
    name = (args.name or identity_name(store.data_dir)
            or player_name(login_name(), "Player"))
    problem = _terminal_problem()
    if problem:
        raise UsageError(problem)
    from ..app import run_to_exit

    config = SessionConfig.from_environment(store.data_dir, name, folder)
    return run_to_exit(session_app(config, handle_signals=True))


def lobby_app(store: Any, place: Any, **options: Any) -> Any:
    """The app with the lobby as its first screen and ``/`` to chat at a shared table
    (``options`` go to :class:`~unoduo_tui.app.UnoDuoApp`)."""
    return _lobby_app_class()(store, "menu", lobby=place, **options)


@functools.cache
def _lobby_app_class() -> type:
    """The lobby's app class, made once per process (many sessions share a worker:
    a class each would be made, and kept, once per session)."""
    from .. import app as app_module
    from ..app import UnoDuoApp
    from ..screens.game import GameScreen
    from .chat import ChatLine, chat_binding

    class LobbyApp(UnoDuoApp):
        CSS_PATH = os.path.join(os.path.dirname(app_module.__file__), "app.tcss")
        BINDINGS = [*UnoDuoApp.BINDINGS, chat_binding()]

        def action_chat(self) -> None:
            table = next((s.table for s in reversed(self.screen_stack)
                          if isinstance(s, GameScreen)), None)
            if (table is not None and hasattr(table, "chat")
                    and not isinstance(self.screen, ChatLine)):
                self.push_screen(ChatLine(table))

    return LobbyApp
