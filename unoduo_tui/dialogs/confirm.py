"""Questions away from the game: leave the table, delete a saved match, branch a
replay."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ..app_link import unoduo
from ..text import printable
from ..text.words import resume_note
from .base import Dialog, GoesHome, home_bindings

__all__ = ["ConfirmLeave", "ConfirmDelete", "BranchDialog"]


class ConfirmLeave(GoesHome, Dialog[str | None]):
    """q at the table: quit or go to the menu (the match is saved after every move)."""

    AUTO_FOCUS = "#stay"

    BINDINGS = [
        Binding("q,y", "choose('quit')", "Quit", id="leave.quit"),
        *home_bindings("leave"),
        Binding("n,escape", "choose(None)", "Stay", id="leave.stay"),
    ]

    def __init__(self, saved: bool = True) -> None:
        super().__init__()
        self.saved = saved

    def compose(self) -> ComposeResult:
        home = unoduo(self).home_name
        note = (f"Every move is already saved: {resume_note(unoduo(self).place)}."
                if self.saved else "This match is not being saved.")
        with Vertical(classes="dialog"):
            yield Static("Leave the table?", classes="dialog-title")
            yield Static(note, classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Quit (q)", id="quit", compact=True)
                yield Button(f"{home} (m)", id="menu", compact=True)
                yield Button("Stay (n)", id="stay", compact=True)

    def action_choose(self, what: str | None) -> None:
        self.dismiss(what)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None if event.button.id == "stay" else event.button.id)


class ConfirmDelete(Dialog[bool]):
    """The lists' delete key: delete ``what`` (a saved match, in words) for good?
    ``True`` deletes; n, Escape or the Keep button keep it."""

    AUTO_FOCUS = "#keep"

    BINDINGS = [
        Binding("y", "choose(True)", "Delete", id="delete.yes"),
        Binding("n,escape", "choose(False)", "Keep", id="delete.no"),
    ]

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Delete this saved match for good?", classes="dialog-title")
            yield Static(self.what, classes="dialog-text")
            yield Static("Its file goes, and its replay with it; this cannot be undone.",
                         classes="dialog-help")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Delete (y)", id="delete", variant="error", compact=True)
                yield Button("Keep (n)", id="keep", compact=True)

    def action_choose(self, delete: bool) -> None:
        self.dismiss(delete)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "delete")


class BranchDialog(Dialog["tuple[str, int] | None"]):
    """``b`` in a replay: the bot level to play against and the seat to take, for a
    what-if branch from the position shown; ``(level, seat)`` or ``None``.

    ``seat_fixed``: the only seat allowed (an unfinished match's human keeps theirs)."""

    BINDINGS = [
        Binding("enter", "start", "Start", id="branch.start"),
        Binding("left,up", "level(-1)", "Easier", id="branch.easier", show=False),
        Binding("right,down", "level(1)", "Harder", id="branch.harder", show=False),
        Binding("s", "seat", "Seat", id="branch.seat"),
        Binding("escape", "cancel", "Cancel", id="branch.cancel"),
    ]

    def __init__(self, levels: Sequence[str], names: Sequence[str], position: int,
                 seat: int = 0, seat_fixed: int | None = None, level: str | None = None) -> None:
        super().__init__()
        self.levels = tuple(levels)
        self.names = tuple(printable(n) for n in names)
        self.position = position
        self.seat_fixed = seat_fixed
        self.seat = seat if seat_fixed is None else seat_fixed
        self.level = self.levels.index(level) if level in self.levels else 0

    def compose(self) -> ComposeResult:
        keys = f"1–{len(self.levels)}" if len(self.levels) > 1 else "1"
        with Vertical(classes="dialog"):
            yield Static(f"What if? A new practice match from action {self.position}",
                         classes="dialog-title")
            yield Static(id="branch-choice", classes="dialog-text")
            yield Static(f"{keys} or ←→ bot · s seat · Enter start · Esc back"
                         if self.seat_fixed is None else
                         f"{keys} or ←→ bot · Enter start · Esc back", classes="dialog-help")

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        text = Text()
        text.append("Opponent: ", "bold")
        for i, level in enumerate(self.levels):
            text.append(f" {i + 1} {level} ", "reverse bold" if i == self.level else "")
        text.append("\nYou play: ", "bold")
        text.append(f"seat {self.seat + 1} ({self.names[self.seat]}'s cards)")
        if self.seat_fixed is not None:
            text.append("\n(the match is unfinished: you keep your own seat)", "dim")
        self.query_one("#branch-choice", Static).update(text)

    def on_key(self, event) -> None:
        if event.character and event.character.isdigit():
            i = int(event.character) - 1
            if 0 <= i < len(self.levels):
                event.stop()
                self.level = i
                self._show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "seat":
            return True if self.seat_fixed is None else None
        return True

    def action_level(self, delta: int) -> None:
        self.level = (self.level + delta) % len(self.levels)
        self._show()

    def action_seat(self) -> None:
        if self.seat_fixed is None:
            self.seat = (self.seat + 1) % len(self.names)
            self._show()

    def action_start(self) -> None:
        self.dismiss((self.levels[self.level], self.seat))

    def action_cancel(self) -> None:
        self.dismiss(None)
