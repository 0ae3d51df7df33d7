"""The game log: the events this seat may see, as short sentences, newest at the bottom."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

from engine import PlayerView, describe

__all__ = ["GameLog"]

_KEEP = 200  # lines rewritten when the viewer changes (hot-seat) or a match is resumed
_QUIET = {"first"}


class GameLog(RichLog):
    """Shows ``view.events`` described for ``view.seat`` with ``names``."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, max_lines=400, auto_scroll=True,
                         min_width=10)
        self.names: tuple[str, ...] = ("You", "Opponent")
        self._seat: int | None = None
        self._shown = 0

    def show(self, view: PlayerView) -> None:
        events = view.events
        if view.seat != self._seat or len(events) < self._shown:
            self.clear()
            self._seat = view.seat
            self._shown = max(0, len(events) - _KEEP)
        for event in events[self._shown:]:
            if event.kind in _QUIET:
                continue
            text = describe(event, self.names, view.seat)
            if event.kind in ("round", "round_end", "match_end"):
                self.write(Text(text, "bold"))
            elif event.kind in ("catch", "challenge") or event.uno:
                self.write(Text(text, "italic"))
            else:
                self.write(Text(text))
        self._shown = len(events)
