"""The end of a round (E1–E3, C10) and of the match (E4): who went out, the points,
the totals and who wins under the match's scoring, for 2–10 seats."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from engine import PlayerView

from ..columns import short_names
from ..text import printable
from .base import SHEET_ROOM, Dialog, hand_text

__all__ = ["RoundOver", "MatchOver"]


class RoundOver(Dialog[None]):
    """E1–E3: who went out, the cards left, the points and the new totals."""

    BINDINGS = [Binding("enter,space", "close", "Continue", id="round.continue", key_display="⏎")]

    def __init__(self, number: int, winner: int | None, data: tuple, names: Sequence[str],
                 viewer: int | None, target: int, *, match_over: bool = False,
                 match_winner: int | None = None) -> None:
        """``match_over``: this round ended the match (``match_winner``: its winner,
        ``None`` for a draw)."""
        super().__init__()
        self.number, self.winner, self.data = number, winner, data
        self.names, self.viewer, self.target = [printable(n) for n in names], viewer, target
        self.match_over, self.match_winner = match_over, match_winner

    def compose(self) -> ComposeResult:
        hands, points, totals, blocked = self.data
        if blocked:
            head = f"Round {self.number} is blocked: each scores their own hand."
        elif self.winner == self.viewer:
            head = f"Round {self.number}: you went out!"
        else:
            head = f"Round {self.number}: {self.names[self.winner]} went out."
        body = Text()
        w = min(SHEET_ROOM // 2, max(len(n) for n in self.names))  # the seats' names
        for seat, name in enumerate(short_names(self.names[0], self.names[1], w)):
            body.append(f"{name:<{w}} ", "bold")
            body.append(f"+{points[seat]:<4} total {totals[seat]:<4}\n")
            body.append(f"  cards left: {hand_text(hands[seat])}\n", "dim")
        body.append("\n" + self._outcome())
        with Vertical(classes="dialog"):
            yield Static(Text(head), classes="dialog-title")
            yield Static(body, classes="dialog-text")
            yield Button("Continue (Enter)", id="continue", compact=True)

    def _outcome(self) -> str:
        """What the round means for the match (E4)."""
        if not self.match_over:
            return f"The match ends when someone reaches {self.target}; the lower total wins."
        if self.match_winner is None:
            return f"That was the last round: someone reached {self.target}. The match is a draw."
        who = ("You win" if self.match_winner == self.viewer
               else f"{self.names[self.match_winner]} wins")
        return (f"That was the last round: someone reached {self.target}. "
                f"{who} the match with the lower total.")

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)


class MatchOver(Dialog[str]):
    """E4: the winner and the full score sheet; then a new match, the menu or quit."""

    BINDINGS = [
        Binding("n", "choose('new')", "New match", id="over.new"),
        Binding("m", "choose('menu')", "Menu", id="over.menu"),
        Binding("q", "choose('quit')", "Quit", id="over.quit"),
        Binding("w", "watch", "Watch replay", id="over.replay"),
    ]

    def __init__(self, view: PlayerView, names: Sequence[str], hot_seat: bool = False) -> None:
        super().__init__()
        self.view, self.names, self.hot_seat = view, [printable(n) for n in names], hot_seat
        self.replay_ref: str | None = None  # the save file, when the match has one

    def _saved_ref(self) -> str | None:
        """The save file of the match at the table below (None: an unsaved match)."""
        for screen in reversed(self.app.screen_stack):
            handle = getattr(getattr(screen, "session", None), "handle", None)
            path = getattr(handle, "path", None)
            if path is not None:
                return str(path)
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "watch":
            return True if self.replay_ref else None
        return True

    def compose(self) -> ComposeResult:
        view = self.view
        scores = view.scores
        if view.winner is None:
            head = f"Match over: a draw at {scores[0]}–{scores[1]}."
        elif view.winner == view.seat and not self.hot_seat:
            head = f"You win the match, {scores[view.winner]} to {scores[1 - view.winner]}!"
        else:
            head = (f"{self.names[view.winner]} wins the match, "
                    f"{scores[view.winner]} to {scores[1 - view.winner]}.")
        sheet = Text()
        # a column as wide as the longer name, up to half the room beside "Round"
        w = max(10, min(SHEET_ROOM // 2, max(len(n) for n in self.names) + 1)) - 1
        a, b = short_names(self.names[0], self.names[1], w)
        sheet.append(f"{'Round':<6}{a:>{w}} {b:>{w}}\n", "bold")
        rounds = view.rounds
        shown = rounds[-10:]
        if len(rounds) > len(shown):
            sheet.append(f"  … {len(rounds) - len(shown)} earlier rounds\n", "dim")
        for i, (winner, points) in enumerate(shown, len(rounds) - len(shown) + 1):
            marks = ["*" if winner == s else " " for s in (0, 1)]
            sheet.append(f"{i:<6}{points[0]:>{w}}{marks[0]}{points[1]:>{w}}{marks[1]}\n")
        sheet.append(f"{'Total':<6}{scores[0]:>{w}} {scores[1]:>{w}}\n", "bold")
        sheet.append(f"(* went out · lower total wins · target {view.rules.target})", "dim")
        self.replay_ref = self._saved_ref()
        with Vertical(classes="dialog"):
            yield Static(Text(head), classes="dialog-title")
            yield Static(sheet, classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button("New match (n)", id="new", compact=True)
                if self.replay_ref:
                    yield Button("Watch replay (w)", id="watch", compact=True)
                yield Button("Menu (m)", id="menu", compact=True)
                yield Button("Quit (q)", id="quit", compact=True)

    def action_choose(self, what: str) -> None:
        self.dismiss(what)

    def action_watch(self) -> None:
        """To the menu (the table closes its save file), then the replay over it."""
        ref, app = self.replay_ref, self.app
        if ref is None or not self.on_top:  # answered already: one replay, not two
            return
        self.dismiss("menu")
        app.call_later(app.open_replay, ref)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "watch":
            self.action_watch()
            return
        self.dismiss(event.button.id or "menu")
