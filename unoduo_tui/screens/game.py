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

from typing import TYPE_CHECKING, Callable, Iterable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from engine import Action, Event, PlayerView
from engine.events import Catch, Challenge

from ..plan import opponent_label
from .game_keys import Answer, GameKeys
from ..table import Refused, Table, TableUpdate, save_wait
from ..app_link import unoduo
from ..text.words import article, hint_text
from ..text import printable
from ..textual_compat import is_pruning
from ..widgets.status import wd4_player
from ..widgets import (Discard, Footer, GameLog, Hand, Seats, ScoreSheet, StatusLine,
                       table_row)

if TYPE_CHECKING:
    from ..app import UnoDuoApp

__all__ = ["GameScreen"]


class GameScreen(GameKeys, Screen[None]):
    """One match at a table (the table is closed when the screen goes)."""

    DEFAULT_CSS = """
    GameScreen #save-banner {
        height: auto; padding: 0 1; display: none;
        background: $error; color: $text; text-style: bold;
    }
    GameScreen #lost-banner {
        height: auto; padding: 0 1; display: none;
        background: $warning; color: $text; text-style: bold;
    }
    GameScreen #away-banner {
        height: auto; padding: 0 1; display: none;
        background: $secondary; color: $text;
    }
    GameScreen #banners { dock: top; height: auto; }
    GameScreen #table-banner {
        height: 1; padding: 0 1; background: $primary; color: $text; display: none;
        text-style: bold;
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
        Binding("b", "stand_in", "Bot for away", id="game.stand_in",
                tooltip="Let a bot play for a player who has been away, until they are back"),
        Binding("j", "jump_in", "Jump in", id="game.jump_in",
                tooltip="Jump-in: play your card identical to the top card, out of turn"),
        Binding("j", "rejoin", "Rejoin", id="game.rejoin",
                tooltip="Connect to the table again (the connection was lost)"),
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
        #: no seat here: a watcher at a shared table sees the public view (seat None)
        self.spectator = not self.mine
        self._first = self.mine[0] if self.mine else None  # the view for public facts
        self.viewer: int | None = None if self.hot_seat or self.spectator else self.mine[0]
        self.latest: TableUpdate | None = None  # the last update taken
        self.uno_armed = False
        self.thinking = False
        self._announced = 0  # events already told (toasts, dialogs)
        self._deferred = False
        self._waiting = False  # a dialog or hand-off cover is up: keys wait for it
        self._in_flight = False  # an action sent, its update not yet here
        self._banners: dict[str, str] = {}  # what each banner at the top says now
        self._hand: Hand | None = None

    @property
    def unoduo(self) -> "UnoDuoApp":
        """The app, typed (the screen needs its size flag, the leave/new-match flow)."""
        return unoduo(self)

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="banners"):  # one dock for all: docked apart, they overlap
            yield Static(id="save-banner", markup=False)
            yield Static(id="lost-banner", markup=False)
            yield Static(id="away-banner", markup=False)
            yield Static(id="table-banner", markup=False)  # a shared table's join code
        yield Seats(id="seats")
        yield from table_row(GameLog(id="log"))
        yield Hand(id="hand")
        yield StatusLine(id="status")
        yield Footer(compact=True)  # every key valid now fits 80 columns (UNO, catch, hint…)

    def on_mount(self) -> None:
        self._name_widgets()
        for note in self.table.notes:
            self.notify(note, title="Save file", severity="warning", timeout=8)
        self._app = self.app  # for the listener, which may run in the bots' thread
        self.latest = self.table.subscribe(self._told)
        self._show_presence(self.latest, None)
        self._announced = self.latest.views[self._first].event_count
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

    @property
    def live(self) -> bool:
        """Whether the screen is shown or may be again: not leaving (popped, or the app
        closing), when its widgets are being removed and a late update must not look
        for them."""
        return self.is_attached and not is_pruning(self)

    def _take(self, update: TableUpdate) -> None:
        if not self.live:
            return
        if self.latest is not None and update.seq <= self.latest.seq:
            return  # an older state than the one shown: each update is the whole state
        before, self.latest = self.latest, update
        self._show_presence(update, before)
        self._in_flight = False
        self._show_save_error(update.save_error)  # under a dialog too
        self._show_lost(update.lost)
        self._show_away(update)
        if update.refused:
            self.app.bell()
            self.notify(update.refused, severity="warning")
        self._catch_up()

    @property
    def hand(self) -> Hand:
        if self._hand is None:  # looked up once: the keys ask on every binding
            self._hand = self.query_one(Hand)
        return self._hand

    @property
    def acting(self) -> bool:
        """A decision of this screen's is on its way: its update is not here yet."""
        return self._in_flight

    @property
    def over(self) -> bool:
        return self.latest is not None and self.latest.over

    # -- the flow ----------------------------------------------------------------

    def my_view(self) -> PlayerView | None:
        """The viewer's view (a watcher's: the public one, ``seat=None``)."""
        if self.latest is None or (self.viewer is None and not self.spectator):
            return None
        return self.latest.views.get(self.viewer)

    def _any_view(self) -> PlayerView:
        """The viewer's view, or (nobody uncovered yet) the first seat's: for public facts."""
        assert self.latest is not None
        return self.my_view() or self.latest.views[self._first]

    @property
    def say_you(self) -> bool:
        """The viewer's seat is "you": not to a watcher (nobody at the table), nor at
        hot-seat, where "you" is whoever holds the keyboard — every seat by its name,
        so the screen says whose turn it is."""
        return not self.spectator and not self.hot_seat

    def _name_widgets(self) -> None:
        names = self.names
        for widget in (self.query_one(Discard), self.query_one(GameLog),
                       self.query_one(StatusLine)):
            widget.name_seats(names, say_you=self.say_you)
        # the sheet underlines the seat whose hand is shown (it says no "you")
        self.query_one(ScoreSheet).name_seats(names, say_you=not self.spectator)

    def rename_seats(self, names: Iterable[str]) -> None:
        """The seats' names changed: a player took a hosted table's seat under theirs."""
        new = tuple(printable(n) for n in names)
        if new == self.names or len(new) != len(self.names):
            return
        self.names = new
        self._name_widgets()
        self.refresh_table()

    def refresh_table(self) -> None:
        """Give every widget the viewer's view (nothing at all before a hand-off)."""
        view = self.my_view()
        if view is None:
            return
        seats = self.query_one(Seats)
        seats.name_seats(self.names, self.say_you, labels=[
            opponent_label(k) if k.startswith("bot:") else "" for k in self.kinds])
        hand = self.hand
        hand.owner = self.names[view.seat] if self.hot_seat and view.seat is not None else None
        # each redraws only if what it shows changed (a bot's "thinking" changes none)
        for widget in (seats, self.query_one(Discard), self.query_one(ScoreSheet), hand):
            widget.take_view(view)
        self.query_one(GameLog).show(view)
        status = self.query_one(StatusLine)
        status.armed = self.uno_armed
        status.take_view(view)
        hand.uno_armed = self.uno_armed
        if view.phase == "drawn" and view.drawn is not None:
            hand.select_card(view.drawn)
        elif view.to_act != view.seat and view.legal_actions:  # H4: the twin to jump in with
            card = view.legal_actions[0].card
            if card is not None:
                hand.select_card(card)
        self.refresh_bindings()

    def _catch_up(self) -> None:
        """Tell what happened since the last look (toasts, a round's end, a shown hand),
        then show the state and hand the next decision to whoever makes it."""
        if self._waiting or self.latest is None:
            return
        if self.unoduo.too_small or not self.live:
            self._deferred = True
            return
        self._deferred = False
        update = self.latest
        self._set_thinking(update.thinking)  # before any dialog: no spinner under it
        view = self._any_view()
        since = self._announced
        if update.cause in ("undo", "redo") or view.event_count < since:
            since = view.event_count  # a rewind tells nothing
        self._announced = view.event_count
        new = view.events_from(since)
        self._announce(new)
        ends = [e for e in new if e.kind == "round_end"]
        if ends:
            # the round's end, alone on the screen: the table under it is already the
            # next round's (its draft, its deal), shown once the dialog is dismissed
            end = ends[-1]
            from ..dialogs import RoundOver

            viewer = self.viewer if not self.hot_seat else None
            self._show(RoundOver(end, self.names, viewer,
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
            hint = (lambda: self._challenge_hint(view)) if self.table.practice else None
            def answered(what: str) -> None:
                if what == "stack":  # H2: the W+4 goes on, its colour asked as any Wild's
                    self.play(next(a.card for a in legal if a.kind == "play" and a.card is not None))
                else:
                    self.do(what)

            self._wait(ChallengePrompt(view, self.names, hint), answered)

    def _show_save_error(self, error: str | None) -> None:
        """The banner, while the table cannot save (a full disk): it takes no move
        until it can, and goes on by itself."""
        self._banner("save", save_wait(printable(error)) if error else "")

    def _show_lost(self, why: str | None) -> None:
        """The banner while the connection to the table is lost: what is shown is the
        last position the table told, and ``j`` connects again."""
        if self._banner("lost", f"Disconnected from the table: {printable(why)}. "
                        "j rejoins, q leaves." if why else ""):
            self.refresh_bindings()  # under a dialog too: j, and nothing else

    def _show_presence(self, update: TableUpdate, before: TableUpdate | None) -> None:
        """A shared table's news, as its updates bring it: the join-code banner, the
        seats' names now, the seats whose player is not connected marked away, who
        came and went, and a chat line — each a toast."""
        self._banner("table", printable(update.banner or ""))
        if update.names is not None:
            self.rename_seats(update.names)
        if update.connected is not None:
            humans = {s for s, kind in enumerate(self.kinds) if not kind.startswith("bot:")}
            self.query_one(Seats).away = frozenset(humans - set(update.connected))
            was = None if before is None else before.connected
            if was is not None:
                names = update.names or self.names
                for seat in sorted(set(was) - set(update.connected)):
                    self.notify(f"{printable(names[seat])} disconnected — waiting"[:240])
                for seat in sorted(set(update.connected) - set(was)):
                    self.notify(f"{printable(names[seat])} is at the table"[:240])
        if update.cause == "chat" and update.said is not None:
            _, name, text = update.said
            self.notify(f"{printable(name)}: {printable(text)}"[:240])

    def _show_away(self, update: TableUpdate) -> None:
        """Who is away long enough to hand to a bot (``b``), and whom a bot plays for."""
        said = [f"{opponent_label(kind)} plays for {self.names[seat]} until they are back"
                for seat, kind in sorted(update.stand_ins.items())]
        if update.may_stand_in and not self.spectator:
            who = " and ".join(self.names[s] for s in update.may_stand_in)
            said.append(f"{who} {'is' if len(update.may_stand_in) == 1 else 'are'} away: "
                        "b lets a bot play until they are back")
        self._banner("away", " · ".join(said))

    def _banner(self, name: str, text: str) -> bool:
        """``text`` in the banner ``name`` at the top (empty: hidden); True when that
        changed what it shows (an update that changes nothing redraws nothing)."""
        if self._banners.get(name, "") == text:
            return False
        self._banners[name] = text
        banner = self.query_one(f"#{name}-banner", Static)
        banner.update(text)
        banner.display = bool(text)
        return True

    @property
    def lost(self) -> bool:
        """The connection to the table is lost (until a rejoin)."""
        return self.latest is not None and self.latest.lost is not None

    def resume_deferred(self) -> None:
        """Called by the app when the terminal is big enough again."""
        if self._deferred:
            self._catch_up()

    def _show(self, screen: Screen[Answer], then: Callable[[Answer | None], object] | None = None
              ) -> None:
        """Put ``screen`` over the table; the bots wait until it goes, then ``then``
        gets its result and the table catches up."""
        self._waiting = True
        self.table.hold(True)
        self.refresh_bindings()

        def done(result: Answer | None) -> None:
            self._waiting = False
            self.table.hold(False)
            if then is not None:
                then(result)
            if not self._waiting and not self._in_flight:
                self._catch_up()

        self.app.push_screen(screen, done)

    def _wait(self, screen: Screen[Answer], then: Callable[[Answer], object]) -> None:
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
        """``t`` at the challenge prompt (slow: off the event loop): the bots' estimate
        that the W+4 was guilty, or, when they have none, the hard bot's pick — the
        same for both games, and only when asked."""
        assert view.seat is not None  # a seat's challenge decision
        p = self.table.guilt_estimate(view.seat)
        by = wd4_player(view)
        if p is not None and by is not None:
            percent = round(p * 100)
            return f"Hint: {article(percent)} {percent}% chance that {self.names[by]} is guilty."
        action = Action.parse(self.table.hint(view.seat))
        return f"Hint: the hard bot would {hint_text(action, view)}."

    def do(self, action: Action | str) -> None:
        """Send the viewer's decision to the table; its update moves the screen on (a
        watcher's is refused there, with the reason shown).

        A table's ``act`` returns once the decision is saved (a local table's
        ``fdatasync``, a remote table's send): in an app that shares its event loop
        with many others (``unoduo serve``'s workers) it runs on a thread instead, so
        the other players' screens go on meanwhile; the keys wait for its update as
        they wait for a remote table's."""
        if self.viewer is None and not self.spectator:
            return
        viewer, text, armed = self.viewer, str(action), self.uno_armed
        if self.unoduo.shared_loop:
            self.uno_armed = False
            self._in_flight = True
            self.refresh_bindings()
            self.run_worker(self._act_on_thread(viewer, text, armed), group="act")
            return
        try:
            self.table.act(viewer, text)
        except Refused as exc:
            self._refused(exc)
            return
        self.uno_armed = False  # UNO is said with one move (U1), never carried on
        self._in_flight = True
        self.refresh_bindings()

    async def _act_on_thread(self, viewer: int | None, text: str, armed: bool) -> None:
        try:
            await asyncio.to_thread(self.table.act, viewer, text)
        except Refused as exc:
            if self.live:
                self._in_flight = False
                self.uno_armed = armed
                self._refused(exc)

    def _refused(self, exc: Refused) -> None:
        self.app.bell()
        self.notify(exc.reason, severity="warning")
        self.advance()

    def _announce(self, events: Iterable[Event]) -> None:
        """Toasts for the moments a player must not miss (the log has everything)."""
        viewer = self.viewer
        names = self.names
        for e in events:
            if e.seat is None:
                continue  # a catch and a challenge are a seat's
            if isinstance(e, Catch):
                who = "You" if e.seat == viewer else names[e.seat]
                whom = "you" if e.caught == viewer else names[e.caught]
                self.notify(f"{who} caught {whom} without UNO: +2 cards.", title="Caught!")
            elif isinstance(e, Challenge):
                by = "You" if e.seat == viewer else names[e.seat]
                verdict = "guilty — they draw 4" if e.guilty else "not guilty — challenger draws 6"
                self.notify(f"{by} challenged the W+4: {verdict}.", title="Challenge")

    def _show_match_over(self) -> None:
        if self._waiting:
            return
        from ..dialogs import MatchOver

        self._waiting = True
        self.app.push_screen(MatchOver(self._any_view(), self.names,
                                       self.hot_seat or self.spectator),
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
