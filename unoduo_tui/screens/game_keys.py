"""The game table's keys: what a key may do now (the footer, the palette and the
bindings read one :meth:`GameKeys.check_action`) and what it does — always through the
screen's table, never the match."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING, Callable, Iterable, TypeVar

from textual import work
from textual.app import SystemCommand
from textual.binding import Binding

from engine import Action, Card

from ..table import Refused
from ..widgets import Hand
from ..text.words import hint_text

#: what a dialog answers (its Screen's result type)
Answer = TypeVar("Answer")

if TYPE_CHECKING:
    from textual.screen import Screen

    from engine import PlayerView

    from ..app import UnoDuoApp
    from ..table import Table, TableUpdate

    _Screen = Screen[None]  # what GameKeys is mixed into
else:
    _Screen = object

__all__ = ["GameKeys"]

#: bindings that are only cursor movement: no footer entry, no palette command
_QUIET = {"move", "jump"}


class GameKeys(_Screen):
    """The key actions of :class:`~.game.GameScreen` (a mixin: its bindings stay
    declared on the screen, where Textual collects them)."""

    if TYPE_CHECKING:  # the game screen's, used here
        table: Table
        latest: TableUpdate | None
        names: tuple[str, ...]
        spectator: bool
        viewer: int | None
        _waiting: bool
        _in_flight: bool

        @property
        def unoduo(self) -> UnoDuoApp: ...
        @property
        def live(self) -> bool: ...
        @property
        def hand(self) -> Hand: ...
        @property
        def lost(self) -> bool: ...
        def my_view(self) -> PlayerView | None: ...
        def decision(self) -> tuple[str, int] | None: ...
        def refresh_table(self) -> None: ...
        def _show(self, screen: "Screen[Answer]",
                  then: "Callable[[Answer | None], object] | None" = None) -> None: ...
        def _wait(self, screen: "Screen[Answer]", then: "Callable[[Answer], object]") -> None: ...
        def do(self, action: Action | str) -> None: ...

    #: the last :meth:`_legal_now`: (the update, the screen's state, its answer)
    _legal_cache: tuple | None = None

    # -- what a key may do now -----------------------------------------------------

    def _legal(self) -> tuple[Action, ...]:
        """What the viewer may do now (nothing under a dialog or while an action is
        on its way to the table)."""
        return self._legal_now()[0]

    def _legal_now(self) -> tuple[tuple[Action, ...], frozenset[str]]:
        """:meth:`_legal` and the kinds of its actions, worked out once per update and
        state of the screen: the footer, the palette and each key ask
        :meth:`check_action` for every binding (~27 calls a key, #22)."""
        latest = self.latest
        state = (self._waiting, self._in_flight, self.viewer)
        cached = self._legal_cache
        if cached is not None and cached[0] is latest and cached[1] == state:
            return cached[2]
        view = self.my_view()
        if self._waiting or self._in_flight or view is None:
            legal: tuple[Action, ...] = ()
        elif view.to_act != self.viewer:  # H4: only its jump-ins, during others' turns
            legal = tuple(a for a in view.legal_actions if a.kind == "jump")
        elif latest is not None and latest.save_error:
            legal = ()  # the table waits for its save: the banner says so
        else:
            legal = view.legal_actions
        now = (legal, frozenset(a.kind for a in legal))
        self._legal_cache = (latest, state, now)
        return now

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("help", "leave"):
            return True
        if action == "rejoin":
            return self.lost
        if self.lost:
            return False  # the position is the last one told: nothing to do on it
        if action == "stand_in":
            return bool(self.latest and self.latest.may_stand_in) and not self.spectator
        if self.spectator:
            return False  # a watcher's keys only leave, help and (the app's) chat
        legal, kinds = self._legal_now()
        if "jump" in kinds:  # H4: another seat's turn — only the jump-in (and UNO with it)
            if action in ("move", "jump"):
                return bool(self.hand.cards)
            if action == "uno":
                return any(a.uno for a in legal)
            return action == "jump_in"
        if action in ("undo", "redo"):
            if not self.table.practice or self.latest is None:
                return False
            if action == "redo":  # shown only while there is something to redo
                return self.latest.can_redo and bool(legal)
            return True if legal and self.latest.can_undo else None  # dimmed
        if action == "hint":
            return bool(legal) and self.table.practice
        if action in ("move", "jump"):
            return bool(self.hand.cards)
        if action == "play":
            return "play" in kinds
        if action == "keep":
            return "keep" in kinds
        if action == "reject":
            return "reject" in kinds
        if action == "draw":
            return "draw" in kinds
        if action == "pass":
            return "pass" in kinds
        if action == "uno":
            return any(a.uno for a in legal)  # U3: only with a move that leaves one card
        if action == "challenge":
            return "challenge" in kinds
        if action == "catch":
            return "catch" in kinds
        if action == "jump_in":
            return False  # only during another seat's turn (above)
        return True

    # -- actions -----------------------------------------------------------------

    def action_move(self, step: int) -> None:
        hand = self.hand
        n = len(hand.cards)
        if n:
            hand.select((hand.selected + step) % n)

    def action_jump(self, index: int) -> None:
        if index < len(self.hand.cards):
            self.hand.select(index)

    def action_play(self) -> None:
        card = self.hand.selected_card
        if card is not None:
            self.play(card)

    def on_hand_card_chosen(self, message: Hand.CardChosen) -> None:
        message.stop()
        if self.check_action("play", ()):
            self.play(message.card)

    def action_jump_in(self) -> None:
        """``j`` (H4): play the card identical to the top card out of turn."""
        jumps = [a for a in self._legal() if a.kind == "jump"]
        if jumps:
            card = jumps[0].card
            if card is not None:  # a jump names its card
                self.hand.select_card(card)
            self._choose(jumps)

    def play(self, card: Card) -> None:
        """Play ``card``: a Wild asks for its colour, a 7 under Seven-O the seat to swap
        with; UNO is said if armed."""
        legal = [a for a in self._legal() if a.kind == "play" and a.card is card]
        if not legal:
            self.app.bell()
            view = self.my_view()
            why = "Only the card you drew can be played now." if view and view.phase == "drawn" \
                else f"{card} does not fit now."
            self.notify(why, severity="warning", timeout=3)
            return
        self._choose(legal)

    def _choose(self, legal: list[Action]) -> None:
        """One of ``legal`` (one card's plays or jumps): the colour or the seat asked
        for when there is a choice."""
        card = legal[0].card
        assert card is not None  # a play or a jump names its card
        armed = self.uno_armed
        swaps = [a for a in legal if a.swap is not None]
        if swaps:  # H1: a 7 that is not the last card swaps hands with a seat
            from ..dialogs import SwapPicker

            view = self.my_view()
            seats = [a.swap for a in swaps if a.swap is not None]
            counts = view.hand_sizes if view is not None else (0,) * (max(seats) + 1)
            partner = None if view is None or view.seat is None else view.rules.partner(view.seat)
            self._wait(SwapPicker(f"{card}: swap hands with whom?", seats, self.names, counts,
                                  partner),
                       lambda seat: self.do(next(a for a in swaps if a.swap == seat)))
            return

        def choose(colour: str | None) -> Action:
            pick = [a for a in legal if a.colour == colour]
            said = [a for a in pick if a.uno == armed]
            return (said or pick)[0]

        if card.is_wild:
            from ..dialogs import ColourPicker

            self._wait(ColourPicker(f"Play {card}: name the colour"),
                       lambda colour: self.do(choose(colour)))
        else:
            self.do(choose(None))

    def _simple(self, kind: str) -> None:
        if kind in self._legal():
            self.do(Action.parse(kind))

    def action_keep(self) -> None:
        self._simple("keep")

    def action_reject(self) -> None:
        self._simple("reject")

    def action_draw(self) -> None:
        self._simple("draw")

    def action_pass(self) -> None:
        self._simple("pass")

    def action_challenge(self) -> None:
        self._simple("challenge")

    def action_catch(self) -> None:
        self._simple("catch")

    def action_undo(self) -> None:
        if self.check_action("undo", ()) and self.table.undo():
            undos = (self.latest.undos if self.latest else 0) + 1
            self._rewound(f"Undone (practice: {undos} undo{'s' * (undos != 1)}). y redoes.")

    def action_redo(self) -> None:
        if self.check_action("redo", ()) and self.table.redo():
            self._rewound("Redone.")

    def action_hint(self) -> None:
        if self.check_action("hint", ()) and self.viewer is not None:
            self.notify("Thinking about your move…", timeout=1)
            self._hint(self.viewer, self.decision())

    @work(exclusive=True, group="hint")
    async def _hint(self, seat: int, token: tuple[str, int] | None) -> None:
        """``t``: the table's hint for ``seat`` (the hard bot's pick), said in words; a
        card to play is selected — unless the moment has passed."""
        try:
            text = await asyncio.to_thread(self.table.hint, seat)
        except Refused:
            return
        view = self.my_view()
        if not self.live or view is None or self.decision() != token:
            return  # the moment has passed
        action = Action.parse(text)
        if action.card is not None:
            self.hand.select_card(action.card)
        self.notify(f"The hard bot would {hint_text(action, view)}.", title="Hint",
                    timeout=8)

    def _rewound(self, note: str) -> None:
        self.uno_armed = False
        self.notify(note, timeout=3)

    def action_uno(self) -> None:
        self.uno_armed = not self.uno_armed
        self.refresh_table()
        if self.uno_armed:
            self.notify("UNO! will be said with your next play.", timeout=2)

    def action_stand_in(self) -> None:
        """``b``: a bot plays for the player away longest offered, at the level asked."""
        if not self.check_action("stand_in", ()):
            return
        from ..dialogs.stand_in import StandIn

        assert self.latest is not None  # check_action said yes: an update is here
        seat = self.latest.may_stand_in[0]

        def chosen(level: str | None) -> None:
            if level is None:
                return
            try:
                self.table.hand_to_bot(seat, level)
            except Refused as exc:
                self.notify(exc.reason, severity="warning")

        self._show(StandIn(self.names[seat]), chosen)

    def action_rejoin(self) -> None:
        if self.lost:
            self.notify("Connecting to the table again…", timeout=2)
            self._rejoin()

    @work(exclusive=True, group="rejoin", thread=True)
    def _rejoin(self) -> None:
        """``j``: the table connects again (its next update, or why not, is told as
        any update is)."""
        try:
            self.table.rejoin()
        except Refused as exc:
            self.app.call_from_thread(self.notify, f"Could not rejoin: {exc.reason}",
                                      severity="warning")

    def action_help(self) -> None:
        from .help import HelpScreen
        self.app.push_screen(HelpScreen())

    def action_leave(self) -> None:
        self.unoduo.ask_to_leave(saved=self.table.saved)

    # -- the command palette ---------------------------------------------------------

    def palette_commands(self) -> Iterable[SystemCommand]:
        """A command for every binding valid now (the same declarations as the footer)."""
        for binding in self.BINDINGS:
            if not isinstance(binding, Binding):
                continue  # every one is declared as a Binding
            name = binding.action.split("(")[0]
            if name in _QUIET:
                continue
            if self.check_action(name, ()):
                help_text = f"{binding.tooltip} ({binding.key_display or binding.key})"
                yield SystemCommand(f"Game: {binding.description}", help_text,
                                    partial(self.run_action, binding.action))

