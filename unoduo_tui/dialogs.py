"""Modal dialogs with typed results (``dismiss(value)``): the colour picker, the dump
dialog, the challenge prompt, the round and match summaries, and leaving the table.

None binds a game decision to bare Escape (escape sequences split on slow links);
Escape only ever cancels something that changes nothing.
"""

from __future__ import annotations

from typing import Sequence, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from engine import Action, Card, PlayerView
from engine.cards import COLOUR_NAMES, COLOURS

from .columns import short_names
from .text import printable
from .textual_compat import AnswerOnce
from .widgets.cardrow import CardRow
from .widgets.footer import Footer

__all__ = ["Dialog", "ShownHand", "ColourPicker", "DumpDialog", "ChallengePrompt", "RoundOver",
           "MatchOver", "ConfirmLeave", "ConfirmDelete", "BranchDialog", "OwnKeys"]


T = TypeVar("T")


class OwnKeys:
    """A dialog with a footer of its own: its keys, not the keys of the screen it covers
    (a mixin for a ``ModalScreen``; Textual runs every class's ``on_mount``)."""

    def on_mount(self) -> None:
        self.mount(Footer())


class Dialog(AnswerOnce, OwnKeys, ModalScreen[T]):
    """The base of every dialog: it answers once (:class:`AnswerOnce`) — a second key
    or click in the same tick, after the answer, does nothing — and shows its own keys
    (:class:`OwnKeys`)."""


_LEAVE = Binding("q", "leave", "Quit", id="dialog.quit")
_SHEET_ROOM = 64 - 2 - 4 - 6  # a dialog's width, less its border, padding and "Round "


class CanLeave:
    """q in a dialog that waits for a game decision: leave the table (it asks first)."""

    def action_leave(self) -> None:
        self.app.ask_to_leave()


class ColourPicker(CanLeave, Dialog[str | None]):
    """Name a colour: r / y / g / b (``None`` when cancelled, if cancelling is allowed)."""

    BINDINGS = [
        Binding("r", "pick('R')", "Red", id="colour.red"),
        Binding("y", "pick('Y')", "Yellow", id="colour.yellow"),
        Binding("g", "pick('G')", "Green", id="colour.green"),
        Binding("b", "pick('B')", "Blue", id="colour.blue"),
        Binding("escape", "cancel", "Cancel", id="colour.cancel"),
        _LEAVE,
    ]

    def __init__(self, title: str, can_cancel: bool = True) -> None:
        super().__init__()
        self.title_text = title
        self.can_cancel = can_cancel

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            with Horizontal(classes="colour-buttons"):
                for c in COLOURS:
                    yield Button(f"{c} {COLOUR_NAMES[c]}", id=f"colour-{c}",
                                 classes=f"colour colour-{c}", compact=True)
            yield Static("Press r, y, g or b" + (" · Esc: back" if self.can_cancel else ""),
                         classes="dialog-help")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.can_cancel
        return True

    def action_pick(self, colour: str) -> None:
        self.dismiss(colour)

    def action_cancel(self) -> None:
        if self.can_cancel:
            self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "colour-R")[-1])


class DumpDialog(CanLeave, Dialog[Action]):
    """A4 / S10: dump every card of the colour, choosing the last one — or not."""

    BINDINGS = [
        Binding("left,h", "move(-1)", "Previous", id="dump.left", show=False),
        Binding("right,l", "move(1)", "Next", id="dump.right", show=False),
        *[Binding(str(i), f"jump({i - 1})", f"Card {i}", id=f"dump.jump{i}", show=False)
          for i in range(1, 10)],
        Binding("enter,space", "dump", "Dump", id="dump.dump"),
        Binding("n", "decline", "Don't dump", id="dump.decline"),
        Binding("u", "uno", "Say UNO", id="dump.uno"),
        _LEAVE,
    ]

    def __init__(self, view: PlayerView, armed: bool = False) -> None:
        super().__init__()
        self.view = view
        self.colour = view.dump_colour or "R"
        dumps = [a for a in view.legal_actions if a.kind == "dump"]
        self.lasts: list[Card] = []
        for a in dumps:
            if a.card not in self.lasts:
                self.lasts.append(a.card)
        self.can_uno = any(a.uno for a in dumps)
        self.armed = armed and self.can_uno
        self.count = sum(1 for c in view.hand if c.colour == self.colour)
        self.nodump = "nodump" in view.legal_actions

    def compose(self) -> ComposeResult:
        name = COLOUR_NAMES[self.colour]
        n = self.count
        with Vertical(classes="dialog"):
            yield Static(f"Dump all {n} {name} cards?" if n != 1
                         else f"Dump your last {name} card too?", classes="dialog-title")
            yield Static("They all go down at once; choose the one that goes last — only its "
                         "action counts.", classes="dialog-text")
            yield CardRow(self.lasts, selected=0, id="dump-cards")
            yield Static(id="dump-uno", classes="dialog-text")
            yield Static("←/→ or 1–9 choose · Enter: dump · n: don't dump"
                         + (" · u: say UNO" if self.can_uno else ""), classes="dialog-help")

    def on_mount(self) -> None:
        self._show_uno()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "uno":
            return self.can_uno
        if action == "decline":
            return self.nodump
        return True

    def _show_uno(self) -> None:
        text = ""
        if self.can_uno:
            text = ("You will say UNO! with the dump." if self.armed
                    else "This dump leaves you one card: press u to say UNO!")
        line = self.query_one("#dump-uno", Static)
        line.update(text)
        line.display = bool(text)

    @property
    def row(self) -> CardRow:
        return self.query_one(CardRow)

    def action_move(self, step: int) -> None:
        row = self.row
        row.selected = ((row.selected or 0) + step) % len(self.lasts)

    def action_jump(self, index: int) -> None:
        if index < len(self.lasts):
            self.row.selected = index

    def action_uno(self) -> None:
        if self.can_uno:
            self.armed = not self.armed
            self._show_uno()

    def action_dump(self) -> None:
        card = self.lasts[self.row.selected or 0]
        text = f"dump {card}" + (" uno" if self.armed else "")
        self.dismiss(Action.parse(text))

    def action_decline(self) -> None:
        if self.nodump:
            self.dismiss(Action.parse("nodump"))


class ChallengePrompt(CanLeave, Dialog[str]):
    """A6: challenge the Wild Draw 4, draw 4, or first catch a missed UNO."""

    BINDINGS = [
        Binding("c", "choose('challenge')", "Challenge", id="wd4.challenge"),
        Binding("d", "choose('draw')", "Draw 4", id="wd4.draw"),
        Binding("x", "choose('catch')", "Catch", id="wd4.catch"),
        _LEAVE,
    ]

    def __init__(self, view: PlayerView, opponent: str, hint: str = "") -> None:
        super().__init__()
        self.view = view
        self.opponent = printable(opponent)
        self.hint = printable(hint)

    def compose(self) -> ComposeResult:
        colour = COLOUR_NAMES.get(self.view.color or "", "?")
        guilty = ("any playable card other than a Wild"
                  if self.view.rules.wd4_guilty == "any_playable"
                  else "a card of the colour that was active then")
        with Vertical(classes="dialog"):
            yield Static(Text(f"{self.opponent} played W+4 and named {colour}."),
                         classes="dialog-title")
            yield Static(Text(
                f"Challenge? {self.opponent} shows you the hand. If it held {guilty}, "
                f"{self.opponent} draws 4 and you play on. If not, you draw 6 and "
                f"{self.opponent} plays again."), classes="dialog-text")
            if self.hint:
                yield Static(Text(self.hint), classes="dialog-text hint")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Challenge (c)", id="challenge", compact=True)
                yield Button("Draw 4 (d)", id="draw", compact=True)
                if "catch" in self.view.legal_actions:
                    yield Button(Text(f"Catch {self.opponent} without UNO (x)"), id="catch",
                                 compact=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters:
            return parameters[0] in self.view.legal_actions
        return True

    def action_choose(self, what: str) -> None:
        if what in self.view.legal_actions:
            self.dismiss(what)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_choose(event.button.id or "draw")


def _hand_text(cards: Sequence[Card]) -> str:
    return " ".join(c.text for c in cards) if cards else "—"


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
        w = min(_SHEET_ROOM // 2, max(len(n) for n in self.names))  # the seats' names
        for seat, name in enumerate(short_names(self.names[0], self.names[1], w)):
            body.append(f"{name:<{w}} ", "bold")
            body.append(f"+{points[seat]:<4} total {totals[seat]:<4}\n")
            body.append(f"  cards left: {_hand_text(hands[seat])}\n", "dim")
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
            ref = getattr(getattr(screen, "table", None), "save_ref", None)
            if ref is not None:
                return ref
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
        w = max(10, min(_SHEET_ROOM // 2, max(len(n) for n in self.names) + 1)) - 1
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


class ConfirmLeave(Dialog[str | None]):
    """q at the table: quit or go to the menu (the match is saved after every move)."""

    AUTO_FOCUS = "#stay"

    BINDINGS = [
        Binding("q,y", "choose('quit')", "Quit", id="leave.quit"),
        Binding("m", "choose('menu')", "Menu", id="leave.menu"),
        Binding("n,escape", "choose(None)", "Stay", id="leave.stay"),
    ]

    def __init__(self, saved: bool = True) -> None:
        super().__init__()
        self.saved = saved

    def compose(self) -> ComposeResult:
        note = ("Every move is already saved: resume this match from the menu or with "
                "'unoduo resume'." if self.saved else "This match is not being saved.")
        with Vertical(classes="dialog"):
            yield Static("Leave the table?", classes="dialog-title")
            yield Static(note, classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Quit (q)", id="quit", compact=True)
                yield Button("Menu (m)", id="menu", compact=True)
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


class ShownHand(Dialog[None]):
    """A6: the hand a challenged Wild Draw 4's player showed you — in a dialog that
    closes before the next turn, never a toast that could outlive it (hot-seat: on
    the other player's screen)."""

    BINDINGS = [Binding("enter,space", "close", "Continue", id="shown.continue")]

    def __init__(self, player: str, cards: Sequence[Card]) -> None:
        super().__init__()
        self.player = printable(player)
        self.cards = tuple(cards)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(f"{self.player} shows you the hand"), classes="dialog-title")
            yield Static(Text(_hand_text(self.cards)), classes="dialog-text")
            yield Button("Continue (Enter)", id="continue", compact=True)

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)
