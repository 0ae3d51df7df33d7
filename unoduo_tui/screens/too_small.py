"""Shown instead of a broken table while the terminal is smaller than 80×24."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

__all__ = ["TooSmall", "MIN_SIZE"]

MIN_SIZE = (80, 24)


class TooSmall(Screen[None]):
    """"Make the terminal at least 80×24"; the app pops it when the size is back."""

    def compose(self) -> ComposeResult:
        with Middle():
            with Center():
                yield Static(id="too-small-text")

    def on_mount(self) -> None:
        self.show_size()

    def on_resize(self) -> None:
        self.show_size()

    def show_size(self) -> None:
        w, h = self.app.size
        self.query_one("#too-small-text", Static).update(
            f"Make the terminal at least {MIN_SIZE[0]}×{MIN_SIZE[1]}.\n"
            f"It is {w}×{h} now.\n\nThe game is paused and saved; it comes back on its own.")
