"""Hand an away player's seat to a bot (#21): which level plays for them until they
are back — one key per bot level the engine offers, Escape changes nothing."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ..plan import bot_levels, opponent_label
from .base import Dialog

__all__ = ["StandIn"]


class StandIn(Dialog[str | None]):
    """"Jo is away: a bot plays for them until they are back" — the level, or ``None``."""

    BINDINGS = [*(Binding(level[0], f"pick({level!r})", opponent_label(f"bot:{level}"),
                          id=f"stand_in.{level}") for level in bot_levels()),
                Binding("escape", "cancel", "Cancel", id="stand_in.cancel")]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"{self.player} is away: which bot plays for them until they are "
                         "back?", classes="dialog-title", markup=False)
            with Horizontal(classes="colour-buttons"):
                for level in bot_levels():
                    yield Button(opponent_label(f"bot:{level}"), id=f"stand-in-{level}",
                                 compact=True)
            keys = ", ".join(level[0] for level in bot_levels())
            yield Static(f"Press {keys} · Esc: nobody, wait for them", classes="dialog-help")

    def action_pick(self, level: str) -> None:
        self.dismiss(level)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(str(event.button.id).removeprefix("stand-in-"))
