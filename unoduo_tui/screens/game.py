"""The game table: a client of one :class:`~unoduo_tui.table.Table` (#14).

The screen receives :class:`~unoduo_tui.table.TableUpdate` values (a fresh
``PlayerView`` for each seat it shows) and sends action texts for the seat whose turn
it is; it never touches the match, the store or the bots — the table runs the bots
and saves every decision, locally now, over a socket later.  Attributes down: after
every update the screen hands each widget the viewer's view.  Messages up: widgets
post intent (``Hand.CardChosen``); only this screen talks to the table.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING, Iterable, cast

from textual import work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from engine import Action, Card, Event, PlayerView

from ..plan import opponent_label
from ..table import Refused, Table, TableUpdate
from ..words import article, hint_text
from ..text import printable
from ..widgets.status import wd4_player
from ..widgets import (Discard, Footer, GameLog, Hand, Seats, ScoreSheet, StatusLine,
                       table_row)

if TYPE_CHECKING:
    from ..app import UnoDuoApp

__all__ = ["GameScreen"]

#: bindings that are only cursor movement: no footer entry, no palette command
_QUIET = {"move", "jump"}


class GameScreen(Screen[None]):
    """One match at a table (the table is closed when the screen goes)."""

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

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        #: the seats' names as shown: a save file's are untrusted (escape sequences)
        self.names = tuple(printable(n) for n in table.names)
        self.kinds = tuple(table.kinds)
        #: the seats played at this keyboard; more than one is hot-seat
        self.mine = tuple(table.mine)
        self.hot_seat = len(self.mine) > 1
        self.viewer: int | None = None if self.hot_seat else self.mine[0]
        self.latest: TableUpdate | None = None  # the last update taken
        self.uno_armed = False
        self.thinking = False
        self._announced = 0  # events already told (toasts, dialogs)
        self._deferred = False
        self._waiting = False  # a dialog or hand-off cover is up: keys wait for it
        self._in_flight = False  # an action sent, its update not yet here

    @property
    def unoduo(self) -> "UnoDuoApp":
        """The app, typed (the screen needs its size flag, the leave/new-match flow)."""
        return cast("UnoDuoApp", self.app)

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
        # hot-seat: the end of the match is told by name to those at the keyboard
        self.query_one(StatusLine).name_seats(names, say_you=not self.hot_seat)
        for note in self.table.notes:
            self.notify(note, title="Save file", severity="warning", timeout=8)
        self._app = self.app  # for the listener, which may run in the bots' thread
        self.latest = self.table.subscribe(self._told)
        self._announced = self.latest.views[self.mine[0]].event_count
        self.refresh_table()  # the first frame shows the table, not empty widgets
        self.call_after_refresh(self._catch_up)

    def on_unmount(self) -> None:
        self.table.unsubscribe(self._told)
        self.table.close()

    def _told(self, update: TableUpdate) -> None:
        """The table's listener: any thread, never blocks.  The update is taken in the
        app's own queue, where keys arrive: a key pressed after the table moved on is
        read against the new state, never the old one."""
        self._app.call_later(self._take, update)

    def _take(self, update: TableUpdate) -> None:
        if not self.is_attached:
            return
        if self.latest is not None and update.seq <= self.latest.seq:
            return  # an older state than the one shown: each update is the whole state
        self.latest = update
        self._in_flight = False
        if update.refused:
            self.app.bell()
            self.notify(update.refused, severity="warning")
        self._catch_up()

    @property
    def hand(self) -> Hand:
        return self.query_one(Hand)

    @property
    def over(self) -> bool:
        return self.latest is not None and self.latest.over

    # -- the flow ----------------------------------------------------------------

    def my_view(self) -> PlayerView | None:
        if self.viewer is None or self.latest is None:
            return None
        return self.latest.views.get(self.viewer)

    def _any_view(self) -> PlayerView:
        """The viewer's view, or (nobody uncovered yet) the first seat's: for public facts."""
        assert self.latest is not None
        return self.my_view() or self.latest.views[self.mine[0]]

    def refresh_table(self) -> None:
        """Give every widget the viewer's view (nothing at all before a hand-off)."""
        view = self.my_view()
        if view is None:
            return
        seats = self.query_one(Seats)
        seats.name_seats(self.names, [opponent_label(k) if k.startswith("bot:") else ""
                                      for k in self.kinds])
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

    def _catch_up(self) -> None:
        """Tell what happened since the last look (toasts, a round's end, a shown hand),
        then show the state and hand the next decision to whoever makes it."""
        if self._waiting or self.latest is None:
            return
        if self.unoduo.too_small or not self.is_attached:
            self._deferred = True
            return
        self._deferred = False
        update = self.latest
        view = self._any_view()
        since = self._announced
        if update.cause in ("undo", "redo") or view.event_count < since:
            since = view.event_count  # a rewind tells nothing
        self._announced = view.event_count
        new = view.events_from(since)
        self._announce(new)
        ends = [e for e in new if e.kind == "round_end"]
        if ends:
            end = ends[-1]
            self.refresh_table()
            from ..dialogs import RoundOver

            viewer = self.viewer if not self.hot_seat else None
            self._show(RoundOver(end.amount, end.seat, end.data, self.names, viewer,
                                 view.rules, match_over=view.over,
                                 match_winner=view.winner))
            return
        if self.viewer is not None:
            shown = self.table.challenged_hand(self.viewer, since)
            if shown is not None:  # the challenged hand, for this turn only
                from ..dialogs import ShownHand

                self._show(ShownHand(self.names[shown[0]], shown[1]))
                return
        self.advance()

    def advance(self) -> None:
        """Show the state and hand the next decision to whoever makes it."""
        update = self.latest
        if update is None or self._waiting:
            return
        self._show_save_error(update.save_error)
        self._set_thinking(update.thinking)
        if update.over:
            self.refresh_table()
            self._show_match_over()
            return
        seat = update.to_act
        if seat in self.mine and seat != self.viewer:
            self._hand_off(seat)
            return
        self.refresh_table()
        view = self.my_view()
        if seat is None or seat != self.viewer or view is None:
            return
        legal = view.legal_actions
        # the dialogs are imported when first needed: not before the table's first frame
        from ..dialogs import ChallengePrompt, ColourPicker, DumpDialog

        if view.phase == "colour":
            self._wait(ColourPicker("The start card is a Wild: name the colour",
                                    can_cancel=False),
                       lambda colour: self.do(Action.parse(f"colour {colour}")))
        elif view.phase == "dump":
            self._wait(DumpDialog(view, self.uno_armed), self.do)
        elif view.phase == "wd4" and "challenge" in legal:
            self._wait(ChallengePrompt(view, self.names, self._challenge_hint(view)), self.do)

    def _show_save_error(self, error: str | None) -> None:
        """The banner, while the last save failed (a full disk): the moves are kept in
        memory and the next save writes them all."""
        banner = self.query_one("#save-banner", Static)
        if error:
            banner.update(f"Not saving: {printable(error)}. Your moves are kept in memory "
                          "and will be saved when space is free.")
        banner.display = bool(error)

    def resume_deferred(self) -> None:
        """Called by the app when the terminal is big enough again."""
        if self._deferred:
            self._catch_up()

    def _show(self, screen, then=None) -> None:
        """Put ``screen`` over the table; the bots wait until it goes, then ``then``
        gets its result and the table catches up."""
        self._waiting = True
        self.table.hold(True)
        self.refresh_bindings()

        def done(result) -> None:
            self._waiting = False
            self.table.hold(False)
            if then is not None:
                then(result)
            if not self._waiting and not self._in_flight:
                self._catch_up()

        self.app.push_screen(screen, done)

    def _wait(self, screen, then) -> None:
        """A decision's dialog: ``then`` gets its answer (none: cancelled)."""
        self._show(screen, lambda result: None if result is None else then(result))

    def _hand_off(self, seat: int) -> None:
        """Hot-seat: cover the table until the next player is at the keyboard."""

        # nothing of the last turn on the cover: the toasts shown, and those still on
        # their way (notify posts a message; this clear is queued after it)
        self.app.clear_notifications()
        self.app.call_later(self.app.clear_notifications)

        def uncovered(_: object) -> None:
            self.viewer = seat
            self.uno_armed = False

        from .handoff import HandOff

        self.viewer = None  # nobody's hand while the cover is up
        self._show(HandOff(self.names[seat]), uncovered)

    def _challenge_hint(self, view: PlayerView) -> str:
        """The bots' estimate that the W+4 was guilty, once the table offers one."""
        p = self.table.guilt_estimate(view.seat)
        by = wd4_player(view)
        if p is None or by is None:
            return ""
        percent = round(p * 100)
        return f"Hint: {article(percent)} {percent}% chance that {self.names[by]} is guilty."

    def do(self, action: Action | str) -> None:
        """Send the viewer's decision to the table; its update moves the screen on."""
        if self.viewer is None:
            return
        try:
            self.table.act(self.viewer, str(action))
        except Refused as exc:
            self.app.bell()
            self.notify(exc.reason, severity="warning")
            self.advance()
            return
        self.uno_armed = False  # UNO is said with one move (U1), never carried on
        self._in_flight = True
        self.refresh_bindings()

    def _announce(self, events: Iterable[Event]) -> None:
        """Toasts for the moments a player must not miss (the log has everything)."""
        viewer = self.viewer
        names = self.names
        for e in events:
            if e.kind == "catch":
                who = "You" if e.seat == viewer else names[e.seat]
                whom = "you" if e.data == viewer else names[e.data]
                self.notify(f"{who} caught {whom} without UNO: +2 cards.", title="Caught!")
            elif e.kind == "challenge":
                by = "You" if e.seat == viewer else names[e.seat]
                verdict = "guilty — they draw 4" if e.data else "not guilty — challenger draws 6"
                self.notify(f"{by} challenged the W+4: {verdict}.", title="Challenge")

    def _show_match_over(self) -> None:
        if self._waiting:
            return
        from ..dialogs import MatchOver

        self._waiting = True
        self.app.push_screen(MatchOver(self._any_view(), self.names, self.hot_seat),
                             self._after_match)

    def _after_match(self, choice: str | None) -> None:
        self._waiting = False
        if choice == "quit":
            self.app.exit(0)
        elif choice == "new":
            self.unoduo.leave_game(new_match=True)
        else:
            self.unoduo.leave_game()

    def decision(self) -> tuple[str, int] | None:
        """The decision being made now, as a token: a worker that computed for one
        uses its result only while it is still the current one."""
        view = self.my_view()
        return None if view is None else (view.match_id, view.event_count)

    def _set_thinking(self, seat: int | None) -> None:
        """``seat``: the bot thinking now, as the table says (``None``: nobody)."""
        self.thinking = seat is not None
        try:
            self.query_one(Seats).thinking = seat
            self.query_one(StatusLine).thinking = seat is not None
        except Exception:  # the screen is going away
            pass

    # -- what a key may do now -----------------------------------------------------

    def _legal(self) -> tuple[Action, ...]:
        """What the viewer may do now (nothing under a dialog or while an action is
        on its way to the table)."""
        view = self.my_view()
        if self._waiting or self._in_flight or view is None or view.to_act != self.viewer:
            return ()
        return view.legal_actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("help", "leave"):
            return True
        legal = self._legal()
        if action in ("undo", "redo"):
            if not self.table.practice or self.latest is None:
                return False
            if action == "redo":  # shown only while there is something to redo
                return self.latest.can_redo and bool(legal)
            return True if legal and self.latest.can_undo else None  # dimmed
        if action == "hint":
            return bool(legal) and self.table.practice
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
        if not self.is_attached or view is None or self.decision() != token:
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

    def action_help(self) -> None:
        from .help import HelpScreen
        self.app.push_screen(HelpScreen())

    def action_leave(self) -> None:
        self.unoduo.ask_to_leave(saved=self.table.saved)

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

