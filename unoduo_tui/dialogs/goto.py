"""The replay's ``g``: a dialog asking for an action number."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from .base import OwnKeys
from ..textual_compat import AnswerOnce, Modal

__all__ = ["GoToAction"]


class GoToAction(AnswerOnce, OwnKeys, Modal[int | None]):
    """``g``: ask for an action number (0 … count)."""

    DEFAULT_CSS = """
    GoToAction #goto-input { margin-bottom: 1; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="goto.cancel")]

    def __init__(self, count: int, here: int) -> None:
        super().__init__()
        self.count, self.here = count, here

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"Go to action (0–{self.count}; now {self.here})",
                         classes="dialog-title")
            yield Input(placeholder=str(self.here), type="integer", id="goto-input")
            yield Static("Enter: go · Escape: cancel", classes="dialog-help")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            self.dismiss(int(event.value))
        except ValueError:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)
