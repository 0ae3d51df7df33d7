"""The app at shared tables (#15, #16): with ``/`` to chat.  Who comes and goes, chat
lines and the join code come in the table's updates, which the game screen shows
(:meth:`unoduo_tui.screens.game.GameScreen._show_presence`).

- :func:`remote_app`: the app opened at one :class:`~unoduo_tui.net.remote.RemoteTable`
  (``unoduo host`` / ``join`` / ``watch``);
- :func:`lobby_app`: the app with the lobby as its first screen (``unoduo lobby``, an
  SSH session);
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any

from . import app as app_module
from .app import UnoDuoApp
from .dialogs.chat import ChatLine, chat_binding
from .screens.game import GameScreen

if TYPE_CHECKING:
    from .net.remote import RemoteTable
    from .screens.lobby import LobbyPlace
    from .store import Saves

__all__ = ["remote_app", "lobby_app", "lobby_app_class"]


def remote_app(store: Saves | None, table: RemoteTable, **options: Any) -> UnoDuoApp:
    """The app showing ``table`` (a :class:`~unoduo_tui.net.remote.RemoteTable`)."""
    return _remote_app_class()(store, "menu", table=table, **options)


def _remote_app_class() -> type[UnoDuoApp]:
    """The app with one key more: ``/`` to chat (:mod:`.dialogs.chat`)."""

    class RemoteApp(UnoDuoApp):
        CSS_PATH = os.path.join(os.path.dirname(app_module.__file__), "app.tcss")
        BINDINGS = [*UnoDuoApp.BINDINGS, chat_binding()]

        def action_chat(self) -> None:
            from .net.remote import RemoteTable

            table = self.start_table
            if isinstance(table, RemoteTable) and not isinstance(self.screen, ChatLine):
                self.push_screen(ChatLine(table))

    return RemoteApp


def lobby_app(store: Saves | None, place: LobbyPlace, **options: Any) -> UnoDuoApp:
    """The app with the lobby as its first screen and ``/`` to chat at a shared table
    (``options`` go to :class:`~unoduo_tui.app.UnoDuoApp`)."""
    return lobby_app_class()(store, "menu", lobby=place, **options)


@functools.cache
def lobby_app_class() -> type[UnoDuoApp]:
    """The lobby's app class, made once per process (many sessions share a worker:
    a class each would be made, and kept, once per session)."""
    class LobbyApp(UnoDuoApp):
        CSS_PATH = os.path.join(os.path.dirname(app_module.__file__), "app.tcss")
        BINDINGS = [*UnoDuoApp.BINDINGS, chat_binding()]

        def action_chat(self) -> None:
            from .net.remote import RemoteTable

            table = next((s.table for s in reversed(self.screen_stack)
                          if isinstance(s, GameScreen)), None)
            if isinstance(table, RemoteTable) and not isinstance(self.screen, ChatLine):
                self.push_screen(ChatLine(table))  # a shared table: it has a chat

    return LobbyApp
