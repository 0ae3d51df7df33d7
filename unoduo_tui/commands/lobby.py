"""``unoduo lobby [--name NAME] [--lobby-dir PATH]``: the lobby (#16), what an SSH
player sees first — and, on one machine, a plain user's way to tables in other
terminals.

The SSH server runs it per connection with ``--data-dir PLAYER_DIR`` and the
environment ``UNODUO_SOCKET_DIR``, ``UNODUO_LOBBY_DIR`` and ``UNODUO_KEY`` (the key's
fingerprint, shown in the lobby's header), read here, at the edge, into a
:class:`~unoduo_tui.sessions.SessionConfig` (a worker of ``serve --workers`` builds
that config from what the server tells it instead).  The name is ``--name``, else the one in
``<data dir>/identity.json`` (``{"name": …}``, written by the server), else the login.
The lobby dir: :func:`unoduo_tui.net.lobby.lobby_dir` (under ``unoduo serve``, with
``UNODUO_HALL`` set, the tables come from the server's table service instead:
:mod:`unoduo_tui.net.hall`).
"""

from __future__ import annotations

import argparse

from ..text import player_name
from .common import Subparsers, UsageError, clip, name_type, need_terminal, open_store, writable_dir

__all__ = ["add_parser", "run"]

LOBBY_HELP = ("the folder every lobby shares: the listing of open tables and the "
              "quick-match queue (default: $UNODUO_LOBBY_DIR, else unoduo-lobby-<uid> "
              "beside the socket dir, e.g. /tmp/unoduo-lobby-1000)")


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    lobby = sub.add_parser("lobby", parents=[common],
                           help="the lobby: resume, quick match, open, join or watch tables")
    lobby.add_argument("--name", type=name_type,
                       help="your name (default: identity.json in the data dir, else "
                            "your login)")
    lobby.add_argument("--lobby-dir", metavar="PATH", help=LOBBY_HELP)
    lobby.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..startup import paused

    with paused():  # to the first frame (the app resumes it then)
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from ..app import run_to_exit
    from ..net.lobby import identity_name, lobby_dir
    from ..plan import login_name
    from ..sessions import SessionConfig, session_app

    store = open_store(args)
    writable_dir(store.data_dir, "the data dir")
    try:
        folder = lobby_dir(args.lobby_dir)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot use the lobby dir: {clip(exc, 200)}") from None
    name = (args.name or identity_name(store.data_dir)
            or player_name(login_name(), "Player"))
    need_terminal()
    config = SessionConfig.from_environment(store.data_dir, name, folder)
    return run_to_exit(session_app(config, handle_signals=True))
