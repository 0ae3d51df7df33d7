"""The game table: the screen that owns the :class:`GameSession`.

Attributes down: after every move the screen hands each widget a fresh
``PlayerView`` of the seat it shows.  Messages up: widgets post intent
(``Hand.CardChosen``); only this screen calls the engine.  Bots think in a worker,
one move at a time with a short pause, so a human can follow them.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Iterable

from textual import work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from engine import Action, Card, Event, IllegalAction, PlayerView
from engine import bots as engine_bots

from ..plan import opponent_label
from ..session import GameSession
from ..words import article, hint_text
from ..text import printable
from ..widgets import (Discard, Footer, GameLog, Hand, Seats, ScoreSheet, StatusLine,
                       table_row)

__all__ = ["GameScreen"]

#: bindings that are only cursor movement: no footer entry, no palette command
_QUIET = {"move", "jump"}


#: the practice hint's thinking time (the hard bot's own budget is 500 ms)
HINT_MS = 400


class GameScreen(Screen[None]):
    """One match at the table (its session is closed when the screen goes)."""

    DEFAULT_CSS = """
    GameScreen #save-banner {
        dock: top; height: auto; padding: 0 1; display: none;
        background: $error; color: $text; text-style: bold;
    }
    """

    BINDINGS = [
        Binding("left,h", "move(-1)", "Select", id="game.left", key_display="←→",
                tooltip="Select the card to the left"),
        Binding("right,l", "move(1)", "Select", id="game.right", show=False,
                tooltip="Select the card to the right"),
        *[Binding(str(i), f"jump({i - 1})", f"Card {i}", id=f"game.jump{i}", show=False)
          for i in range(1, 10)],
        Binding("enter,space", "play", "Play", id="game.play", key_display="⏎",
                tooltip="Play the selected card"),
        Binding("k", "keep", "Keep", id="game.keep", tooltip="Draft: keep the card you drew"),
        Binding("r", "reject", "Reject", id="game.reject",
                tooltip="Draft: reject the card you drew (you must keep the next)"),
        Binding("d", "draw", "Draw", id="game.draw", tooltip="Draw (a card, or what you owe)"),
        Binding("p", "pass", "Pass", id="game.pass",
                tooltip="Keep the drawn card and end your turn (or pass when nothing is left)"),
        Binding("u", "uno", "UNO", id="game.uno", tooltip="Say UNO with your next play"),
        Binding("c", "challenge", "Challenge", id="game.challenge",
                tooltip="Challenge the Wild Draw 4"),
        Binding("x", "catch", "Catch", id="game.catch",
                tooltip="Catch your opponent without UNO: they draw 2"),
        Binding("z", "undo", "Undo", id="game.undo",
                tooltip="Practice: take back your last decision (and the bot's replies)"),
        Binding("y", "redo", "Redo", id="game.redo",
                tooltip="Practice: redo what you took back"),
        Binding("t", "hint", "Hint", id="game.hint",
                tooltip="Practice: what the hard bot would do here"),
        Binding("question_mark", "help", "Help", id="game.help", key_display="?",
                tooltip="Every key"),
        Binding("q", "leave", "Quit", id="game.quit", tooltip="Leave the table (already saved)"),
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session
        #: the seats' names as shown: a save file's are untrusted (escape sequences)
        self.names = tuple(printable(n) for n in session.names)
        self.viewer: int | None = None if session.hot_seat else session.home
        self.uno_armed = False
        self.thinking = False
        self._deferred = False
        self._waiting = False  # a dialog or hand-off cover is up: keys wait for it
        self._last_mine = False

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="save-banner", markup=False)
        yield Seats(id="seats")
        yield from table_row(GameLog(id="log"))
        yield Hand(id="hand")
        yield StatusLine(id="status")
        yield Footer(compact=True)  # every key valid now fits 80 columns (UNO, catch, hint…)

    def on_mount(self) -> None:
        names = self.names
        for widget in (self.query_one(Discard), self.query_one(GameLog),
                       self.query_one(ScoreSheet)):
            widget.name_seats(names)
        # hot-seat: the end of the match is told by name to the two at the keyboard
        self.query_one(StatusLine).name_seats(names, say_you=not self.session.hot_seat)
        for note in self.session.notes:
            self.notify(note, title="Save file", severity="warning", timeout=8)
        self.refresh_table()  # the first frame shows the table, not empty widgets
        self.call_after_refresh(self.advance)

    def on_unmount(self) -> None:
        self.session.close()

    @property
    def hand(self) -> Hand:
        return self.query_one(Hand)

    # -- the flow ----------------------------------------------------------------

    def my_view(self) -> PlayerView | None:
        return None if self.viewer is None else self.session.view(self.viewer)

    def refresh_table(self) -> None:
        """Give every widget the viewer's view (nothing at all before a hand-off)."""
        view = self.my_view()
        if view is None:
            return
        s = self.session
        seats = self.query_one(Seats)
        seats.name_seats(self.names, [opponent_label(k) if s.is_bot(i) else ""
                                      for i, k in enumerate(s.kinds)])
        hand = self.hand
        for widget in (seats, self.query_one(Discard), self.query_one(ScoreSheet), hand):
            widget.view = view
        self.query_one(GameLog).show(view)
        status = self.query_one(StatusLine)
        status.armed = self.uno_armed
        status.view = view
        hand.uno_armed = self.uno_armed
        if view.phase == "drawn" and view.drawn is not None:
            hand.select_card(view.drawn)
        self.refresh_bindings()

    def advance(self) -> None:
        """Show the state and hand the next decision to whoever makes it."""
        if getattr(self.app, "too_small", False) or not self.is_attached:
            self._deferred = True
            return
        self._deferred = False
        s = self.session
        m = s.match
        self._show_save_error()
        self.refresh_table()
        if m.over:
            self._show_match_over()
            return
        seat = m.to_act
        if s.is_bot(seat):
            self.bot_move(seat, s.view(seat), self.decision())
            return
        if seat != self.viewer:
            self._hand_off(seat)
            return
        view = self.my_view()
        legal = view.legal_actions
        # the dialogs are imported when first needed: not before the table's first frame
        from ..dialogs import ChallengePrompt, ColourPicker, DumpDialog

        if m.phase == "colour":
            self._wait(ColourPicker("The start card is a Wild: name the colour",
                                    can_cancel=False),
                       lambda colour: self.do(Action.parse(f"colour {colour}")))
        elif m.phase == "dump":
            self._wait(DumpDialog(view, self.uno_armed), self.do)
        elif m.phase == "wd4" and "challenge" in legal:
            self._wait(ChallengePrompt(view, self.names, self._challenge_hint(view)), self.do)

    def _show_save_error(self) -> None:
        """The banner, while the last save failed (a full disk): the moves are kept in
        memory and the next save writes them all."""
        error = self.session.save_error
        banner = self.query_one("#save-banner", Static)
        if error:
            banner.update(f"Not saving: {printable(error)}. Your moves are kept in memory "
                          "and will be saved when space is free.")
        banner.display = bool(error)

    def resume_deferred(self) -> None:
        """Called by the app when the terminal is big enough again."""
        if self._deferred:
            self.advance()

    def _wait(self, screen, then) -> None:
        self._waiting = True
        self.refresh_bindings()

        def done(result) -> None:
            self._waiting = False
            if result is None:
                self.advance()
            else:
                then(result)

        self.app.push_screen(screen, done)

    def _hand_off(self, seat: int) -> None:
        """Hot-seat: cover the table until the next player is at the keyboard."""

        # nothing of the last turn on the cover: the toasts shown, and those still on
        # their way (notify posts a message; this clear is queued after it)
        self.app.clear_notifications()
        self.app.call_later(self.app.clear_notifications)

        def uncovered(_: object) -> None:
            self._waiting = False
            self.viewer = seat
            self.uno_armed = False
            self.advance()

        from .handoff import HandOff

        self._waiting = True
        self.app.push_screen(HandOff(self.names[seat]), uncovered)

    def _challenge_hint(self, view: PlayerView) -> str:
        """The bots' estimate that the W+4 was guilty, once the engine offers one."""
        estimate = getattr(engine_bots, "wd4_guilty_probability", None)
        if estimate is None:
            return ""
        try:
            p = float(estimate(view))
        except Exception:  # the hint is optional; never let it break the prompt
            return ""
        percent = round(p * 100)
        opp = self.session.names[(view.seat + 1) % 2]
        return f"Hint: {article(percent)} {percent}% chance that {opp} is guilty."

    def do(self, action: Action | str) -> None:
        """Apply one decision (human or bot), save it, and move on."""
        try:
            events = self.session.apply(action)
        except IllegalAction as exc:
            self.app.bell()
            self.notify(str(exc), severity="warning")
            self.advance()
            return
        self.uno_armed = False  # UNO is said with one move (U1), never carried on
        shown = self._announce(events)
        ends = [e for e in events if e.kind == "round_end"]
        if ends:
            end = ends[-1]
            self.refresh_table()
            viewer = self.viewer if not self.session.hot_seat else None
            self._waiting = True
            from ..dialogs import RoundOver

            m = self.session.match
            self.app.push_screen(
                RoundOver(end.amount, end.seat, end.data, self.names, viewer,
                          m.rules, match_over=m.over, match_winner=m.winner),
                self._after_round)
            return
        if shown is not None:  # the challenged hand, for this turn only
            from ..dialogs import ShownHand

            self._wait(ShownHand(*shown), lambda _: None)
            return
        self.advance()

    def _after_round(self, _: object) -> None:
        self._waiting = False
        self.advance()

    def _announce(self, events: list[Event]) -> tuple[str, tuple[Card, ...]] | None:
        """Toasts for the moments a player must not miss (the log has everything);
        returns a hand shown to the viewer (whose, which cards): never in a toast,
        which could outlive the turn."""
        viewer = self.viewer
        names = self.names
        shown = None
        for e in events:
            if e.kind == "catch":
                who = "You" if e.seat == viewer else names[e.seat]
                whom = "you" if e.data == viewer else names[e.data]
                self.notify(f"{who} caught {whom} without UNO: +2 cards.", title="Caught!")
            elif e.kind == "challenge":
                by = "You" if e.seat == viewer else names[e.seat]
                verdict = "guilty — they draw 4" if e.data else "not guilty — challenger draws 6"
                self.notify(f"{by} challenged the W+4: {verdict}.", title="Challenge")
            elif e.kind == "reveal" and e.private == viewer and e.cards:
                shown = (names[e.seat], tuple(e.cards))
        return shown

    def _show_match_over(self) -> None:
        if self._waiting:
            return
        view = self.session.view(self.viewer if self.viewer is not None else 0)
        self._waiting = True
        from ..dialogs import MatchOver

        self.app.push_screen(MatchOver(view, self.names, self.session.hot_seat),
                             self._after_match)

    def _after_match(self, choice: str | None) -> None:
        self._waiting = False
        if choice == "quit":
            self.app.exit(0)
        elif choice == "new":
            self.app.leave_game(new_match=True)
        else:
            self.app.leave_game()

    def decision(self) -> tuple[object, int]:
        """The decision being made now, as a token: a worker that computed for one
        applies its result only while it is still the current one (a key, an undo or a
        new round may have moved on while it thought)."""
        match = self.session.match
        return match, match.log_length

    def _still(self, token: tuple[object, int]) -> bool:
        match, length = token
        return self.is_attached and self.session.match is match and match.log_length == length

    @work(exclusive=True, group="bot")
    async def bot_move(self, seat: int, view: PlayerView, token: tuple[object, int]) -> None:
        """A bot's move (``view``: its seat's, taken when the turn came): a pause a
        human can follow, then the choice in a thread."""
        s = self.session
        self._set_thinking(True)
        try:
            pause = getattr(self.app, "bot_pause", 0)
            if pause:
                await asyncio.sleep(pause)
            action = await asyncio.to_thread(s.bots[seat].choose, view)
        finally:
            self._set_thinking(False)
        if not self._still(token):
            return  # the moment has passed
        self.do(action)

    def _set_thinking(self, on: bool) -> None:
        self.thinking = on
        try:
            self.query_one(Seats).thinking = self.session.match.to_act if on else None
            self.query_one(StatusLine).thinking = on
        except Exception:  # the screen is going away
            pass

    # -- what a key may do now -----------------------------------------------------

    def _legal(self) -> tuple[Action, ...]:
        s = self.session
        if self._waiting or self.viewer is None or s.match.to_act != self.viewer:
            return ()
        return s.match.legal_actions()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("help", "leave"):
            return True
        legal = self._legal()
        if action in ("undo", "redo"):
            s = self.session
            if not s.undo_allowed:
                return False
            if action == "redo":  # shown only while there is something to redo
                return bool(s.redo_stack) and bool(legal)
            return True if legal and s.undo_point() is not None else None  # dimmed
        if action == "hint":
            return bool(legal) and self.session.undo_allowed
        kinds = {a.kind for a in legal}
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

    def play(self, card: Card) -> None:
        """Play ``card``: a Wild asks for its colour; UNO is said if armed."""
        legal = [a for a in self._legal() if a.kind == "play" and a.card is card]
        if not legal:
            self.app.bell()
            view = self.my_view()
            why = "Only the card you drew can be played now." if view and view.phase == "drawn" \
                else f"{card} does not fit now."
            self.notify(why, severity="warning", timeout=3)
            return
        armed = self.uno_armed

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
        if self.check_action("undo", ()) and self.session.undo():
            self._rewound(f"Undone (practice: {self.session.undos} "
                          f"undo{'s' * (self.session.undos != 1)}). y redoes.")

    def action_redo(self) -> None:
        if self.check_action("redo", ()) and self.session.redo():
            self._rewound("Redone.")

    def action_hint(self) -> None:
        if self.check_action("hint", ()):
            self.notify("Thinking about your move…", timeout=1)
            self._hint(self.my_view(), self.decision())

    @work(exclusive=True, group="hint")
    async def _hint(self, view: PlayerView, token: tuple[object, int]) -> None:
        """``t``: the hard bot's pick for the decision ``view`` (the seat's, taken when
        t was pressed) is at (:func:`engine.bots.suggest`), said in words; a card to
        play is selected — unless the moment has passed."""
        action = await asyncio.to_thread(engine_bots.suggest, view, HINT_MS)
        if not self._still(token):
            return  # the moment has passed
        if action.card is not None:
            self.hand.select_card(action.card)
        self.notify(f"The hard bot would {hint_text(action, view)}.", title="Hint",
                    timeout=8)

    def _rewound(self, note: str) -> None:
        self.uno_armed = False
        self.notify(note, timeout=3)
        self.advance()

    def action_uno(self) -> None:
        self.uno_armed = not self.uno_armed
        self.refresh_table()
        if self.uno_armed:
            self.notify("UNO! will be said with your next play.", timeout=2)

    def action_help(self) -> None:
        from .help import HelpScreen
        self.app.push_screen(HelpScreen())

    def action_leave(self) -> None:
        s = self.session
        self.app.ask_to_leave(saved=s.handle is not None and s.save_error is None)

    # -- the command palette ---------------------------------------------------------

    def palette_commands(self) -> Iterable[SystemCommand]:
        """A command for every binding valid now (the same declarations as the footer)."""
        for binding in self.BINDINGS:
            name = binding.action.split("(")[0]
            if name in _QUIET:
                continue
            if self.check_action(name, ()):
                help_text = f"{binding.tooltip} ({binding.key_display or binding.key})"
                yield SystemCommand(f"Game: {binding.description}", help_text,
                                    partial(self.run_action, binding.action))
