"""Hot-seat hand-off: an opaque cover between two humans' turns, so no frame ever
shows one player's cards to the other."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from ..text import printable
from ..textual_compat import AnswerOnce

__all__ = ["HandOff"]


class HandOff(AnswerOnce, Screen[None]):
    """"Pass to <name> — press Enter"; the table is uncovered for that player only."""

    BINDINGS = [Binding("enter,space", "ready", "Ready", id="handoff.ready")]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = printable(name)

    def compose(self) -> ComposeResult:
        with Middle():
            with Center():
                yield Static(Text(f"Pass to {self.player}"), id="handoff-title")
            with Center():
                yield Static(Text(f"{self.player}: press Enter when no one else "
                                  "can see the screen."), id="handoff-text")

    def action_ready(self) -> None:
        self.dismiss(None)
