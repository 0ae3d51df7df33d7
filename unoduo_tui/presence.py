"""A shared table's presence and chat, shown in an app: who comes and goes, and chat
lines, as toasts; the seats of absent players marked away."""

from __future__ import annotations

import threading
from typing import Any

from .screens.game import GameScreen
from .text import printable
from .widgets import Seats

__all__ = ["wire"]


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


def _mark_away(app: Any, away: frozenset, names: tuple[str, ...]) -> None:
    """Seats whose player is not connected marked away; the seats named as the table
    now names them (a joiner's own name once they sit down)."""
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
