"""The dialogs that wait for a game decision: the colour picker, the dump dialog
(A4 / S10), the challenge prompt (A6 / C8) and the hand a challenge showed you."""

from __future__ import annotations

from typing import Callable, Sequence

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from engine import Action, Card, PlayerView
from engine.cards import COLOUR_NAMES, COLOURS

from ..text import printable
from ..widgets.cardrow import CardRow
from ..widgets.status import wd4_player
from .base import LEAVE, CanLeave, Dialog, hand_text

__all__ = ["ColourPicker", "SwapPicker", "DumpDialog", "ChallengePrompt", "ShownHand"]


class ColourPicker(CanLeave, Dialog[str | None]):
    """Name a colour: r / y / g / b (``None`` when cancelled, if cancelling is allowed)."""

    BINDINGS = [
        Binding("r", "pick('R')", "Red", id="colour.red"),
        Binding("y", "pick('Y')", "Yellow", id="colour.yellow"),
        Binding("g", "pick('G')", "Green", id="colour.green"),
        Binding("b", "pick('B')", "Blue", id="colour.blue"),
        Binding("escape", "cancel", "Cancel", id="colour.cancel"),
        LEAVE,
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


class SwapPicker(CanLeave, Dialog[int | None]):
    """H1: the seat a 7 swaps hands with — one key per seat offered (1–9, 0 for the
    tenth), each shown with its name and card count (and ``partner``'s marked, H5);
    Esc: back (``None``)."""

    BINDINGS = [
        *[Binding(str(k % 10), f"pick({k - 1})", f"Seat {k}", id=f"swap.seat{k}", show=False)
          for k in range(1, 11)],
        Binding("escape", "cancel", "Cancel", id="swap.cancel"),
        LEAVE,
    ]

    def __init__(self, title: str, seats: Sequence[int], names: Sequence[str],
                 counts: Sequence[int], partner: int | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.seats = tuple(seats)
        self.names = tuple(names)
        self.counts = tuple(counts)
        self.partner = partner

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            for k, seat in enumerate(self.seats):
                n = self.counts[seat]
                mate = " (your partner)" if seat == self.partner else ""
                yield Static(f"{(k + 1) % 10}  {printable(self.names[seat])}{mate} — "
                             f"{n} card{'s' * (n != 1)}", classes="dialog-text")
            last = len(self.seats) % 10
            yield Static(f"Press 1–{last or 0} to swap hands · Esc: back",
                         classes="dialog-help")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick":
            index = parameters[0] if parameters else None
            return isinstance(index, int) and index < len(self.seats)
        return True

    def action_pick(self, index: int) -> None:
        if 0 <= index < len(self.seats):
            self.dismiss(self.seats[index])

    def action_cancel(self) -> None:
        self.dismiss(None)


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
        LEAVE,
    ]

    def __init__(self, view: PlayerView, armed: bool = False) -> None:
        super().__init__()
        self.view = view
        self.colour = view.dump_colour or "R"
        dumps = [a for a in view.legal_actions if a.kind == "dump"]
        self.lasts: list[Card] = []
        for a in dumps:
            if a.card is not None and a.card not in self.lasts:
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
    """A6: challenge the Wild Draw 4, draw 4, stack one of your own (H2) or first catch a
    missed UNO.  ``t``
    asks for a hint (practice, as at the table): ``hint`` says it (slow: called off
    the event loop; ``None``: no hints here).  Nothing is hinted unasked."""

    BINDINGS = [
        Binding("c", "choose('challenge')", "Challenge", id="wd4.challenge"),
        Binding("d", "choose('draw')", "Draw 4", id="wd4.draw"),
        Binding("x", "choose('catch')", "Catch", id="wd4.catch"),
        Binding("s", "choose('stack')", "Stack W+4", id="wd4.stack"),
        Binding("t", "hint", "Hint", id="wd4.hint"),
        LEAVE,
    ]

    def __init__(self, view: PlayerView, names: Sequence[str],
                 hint: Callable[[], str] | None = None) -> None:
        """``names``: every seat's (untrusted: cleaned here) — the Wild Draw 4's player
        and a seat to catch are read from ``view``."""
        super().__init__()
        self.view = view
        self.names = [printable(n) for n in names]
        player = wd4_player(view)
        self.opponent = self.names[player] if player is not None else "Someone"
        exposed = view.exposed
        self.exposed = self.names[exposed] if exposed is not None else self.opponent
        self.ask_hint = hint
        self.hint = ""  # what the hint said, once asked
        #: H2: a Wild Draw 4 of one's own may go on it ("stack": the screen asks the colour)
        self.can_stack = any(a.kind == "play" for a in view.legal_actions)

    def compose(self) -> ComposeResult:
        colour = COLOUR_NAMES.get(self.view.color or "", "?")
        guilty = ("any playable card other than a Wild"
                  if self.view.rules.wd4_guilty == "any_playable"
                  else "a card of the colour that was active then")
        opp = self.opponent
        # A6 / C8 not guilty: the challenger loses its turn — to the W+4's player with two
        then = f"{opp} plays again" if len(self.names) == 2 else "you lose your turn"
        with Vertical(classes="dialog"):
            yield Static(Text(f"{opp} played W+4 and named {colour}."),
                         classes="dialog-title")
            yield Static(Text(
                f"Challenge? {opp} shows you the hand. If it held {guilty}, "
                f"{opp} draws 4 and you play on. If not, you draw 6 and {then}."),
                classes="dialog-text")
            hint = Static(id="wd4-hint", classes="dialog-text hint")
            hint.display = False
            yield hint
            with Horizontal(classes="dialog-buttons"):
                yield Button("Challenge (c)", id="challenge", compact=True)
                yield Button("Draw 4 (d)", id="draw", compact=True)
                if self.can_stack:
                    yield Button("Stack your W+4 (s)", id="stack", compact=True)
                if "catch" in self.view.legal_actions:
                    yield Button(Text(f"Catch {self.exposed} without UNO (x)"), id="catch",
                                 compact=True)

    def action_hint(self) -> None:
        if self.ask_hint is not None and not self.hint:
            self._hint()

    @work(thread=True, exclusive=True, group="wd4-hint")
    def _hint(self) -> None:
        assert self.ask_hint is not None
        try:
            said = printable(self.ask_hint())
        except Exception:  # noqa: BLE001 - a hint is optional: it never breaks the prompt
            said = "No hint here."
        self.app.call_from_thread(self._show_hint, said)

    def _show_hint(self, said: str) -> None:
        if not self.is_attached:
            return
        self.hint = said
        line = self.query_one("#wd4-hint", Static)
        line.update(Text(said))
        line.display = True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters:
            return parameters[0] in self.view.legal_actions or (
                parameters[0] == "stack" and self.can_stack)
        if action == "hint":
            return self.ask_hint is not None
        return True

    def action_choose(self, what: str) -> None:
        if what in self.view.legal_actions or (what == "stack" and self.can_stack):
            self.dismiss(what)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_choose(event.button.id or "draw")


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
            yield Static(Text(hand_text(self.cards)), classes="dialog-text")
            yield Button("Continue (Enter)", id="continue", compact=True)

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)
