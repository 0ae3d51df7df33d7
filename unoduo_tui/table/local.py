"""The local table: a match in this process, its save file and its bots' thread.

:class:`LocalTable` is the only owner of the :class:`~engine.Match`: every decision
(a client's :meth:`~LocalTable.act` or a bot's) is applied under one lock and appended
to the save file at once, and only then told to the clients — a decision anyone saw
is in the file, so a killed process loses at most the decision in flight, never one
that was shown.  A save that fails (a full disk) sets ``save_error``: the clients are
told the table waits (their screens keep the last position they saw; the decision
that could not be saved is not shown), it takes no decision and the bots wait, and
the save is tried again with a growing pause (:data:`RETRY_FIRST` … :data:`RETRY_MAX`
seconds) until it succeeds — then the table goes on by itself.  Bots move in
one thread, one at a time with ``bot_pause`` seconds before each (so a human can
follow them), choosing from their own view only.  Practice undo walks a
:class:`~engine.replay.ReplayCursor` that follows the match, never replaying the
whole log.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from engine import Action, Match, PlayerView, Rules
from engine import bots as engine_bots
from engine.view import SeatEvents

from ..plan import MatchPlan
from . import (Cause, Listener, Refused, ShownHand, TableUpdate, guilt_estimate, save_wait,
               shown_hand)
from .thinking import Hint, Thinker, think_here

if TYPE_CHECKING:
    from engine.replay import ReplayCursor
    from engine.bots import Bot

    from ..savehandle import SaveHandle
    from ..store import Saves

__all__ = ["LocalTable", "HINT_MS", "RETRY_FIRST", "RETRY_MAX"]

#: seconds before a failed save is tried again, doubling up to RETRY_MAX between tries
RETRY_FIRST, RETRY_MAX = 0.25, 8.0

#: the practice hint's thinking time (the hard bot's own budget is 500 ms)
HINT_MS = 400

#: the undo cursor keeps a snapshot every this many decisions (an undo replays fewer)
UNDO_EVERY = 32
#: H4: while the jump-in window is open at a table with a human not to act, the bots'
#: next move waits this many pauses — whether or not anyone holds the twin (a longer
#: wait only then would tell that someone does)
JUMP_WAIT = 2.5


class LocalTable:
    """A match at this keyboard (see the module doc).  ``handle``: its save file
    (``None``: unsaved, tests only); ``bots``: a bot per bot seat, made from the
    kinds unless given; ``bot_pause``: seconds before each bot move."""

    def __init__(self, match: Match, names: Sequence[str], kinds: Sequence[str],
                 handle: SaveHandle | None = None, *, notes: Sequence[str] = (), undos: int = 0,
                 bots: dict[int, Bot] | None = None, think_ms: int | None = None,
                 bot_pause: float = 0.0, thinker: Thinker | None = None) -> None:
        if len(names) != match.seats or len(kinds) != match.seats:
            raise ValueError(f"a name and a kind for each of the {match.seats} seats")
        self.match = match
        self.names = tuple(names)
        self.kinds = tuple(kinds)
        self.handle = handle
        self.notes = tuple(notes)
        self.banner: str | None = None  # a line for the top of the screen (Table.banner)
        self.undos = undos  # practice undos so far (the file records each one)
        self.think_ms = think_ms
        self.bot_pause = bot_pause
        #: where the bots think (:mod:`.thinking`): this table's thread by default
        self.thinker: Thinker = thinker or think_here
        self.save_error: str | None = None  # why the last save failed (None: it did not)
        self.redo_stack: list[Action] = []  # decisions z took back, in order
        self.bots: dict[int, Bot] = dict(bots or {})
        #: human seats a bot plays for their away player (seat -> "bot:<level>")
        self.stand_ins: dict[int, str] = {}
        self._stand_in_bots: dict[int, Bot] = {}
        self._made: set[int] = set()  # the bots made here (an undo makes them afresh)
        self._make_bots()
        self._lock = threading.RLock()
        self._public_seen: tuple[Match, SeatEvents] | None = None
        self._wake = threading.Condition(self._lock)
        self._listeners: list[Listener] = []
        self._seq = 0
        self._held = False
        self._closed = False
        self._thinking: int | None = None
        #: H4: the log length at which the bots last passed on a jump-in (asked once)
        self._jumps_asked = -1
        self._driver: threading.Thread | None = None
        self._retrier: threading.Thread | None = None  # tries a failed save again
        self._retry = threading.Condition(self._lock)  # wakes it (a close)
        #: the last update told: while a save fails, the position the clients keep
        self._shown: TableUpdate | None = None
        self._cursor: ReplayCursor | None = None
        self._no_cursor = False  # a position set up by hand (tests): no log to walk back
        #: whether a human may have decided in this match's log: until one has, there is
        #: nothing to undo and no cursor is built (a new match's first frame does without
        #: the replay module and a replay of its log: #22)
        self._human_may_have_moved = any(not a.is_chance for a in match.actions)
        if getattr(handle, "pending", False):  # opened with the file behind (full disk)
            with self._lock:
                self._write()

    # -- construction ----------------------------------------------------------------

    @classmethod
    def start(cls, store: Saves | None, plan: MatchPlan, *, deck: Sequence | None = None,
              first: int | None = None, think_ms: int | None = None,
              bot_pause: float = 0.0, extra: dict | None = None,
              thinker: Thinker | None = None) -> "LocalTable":
        """A new match as ``plan`` describes, saved through ``store`` (``None``: not
        saved; ``extra``: more header fields).  ``deck``/``first`` fix the deal (tests)."""
        match = Match.new(plan.rules, seed=plan.seed, deck=deck, first=first)
        handle = None
        if store is not None:
            from ..store import Seat
            handle = store.new_match(match, tuple(Seat(n, k) for n, k in
                                                  zip(plan.names, plan.kinds)), extra=extra)
        return cls(match, plan.names, plan.kinds, handle, think_ms=think_ms,
                   bot_pause=bot_pause, thinker=thinker)

    @classmethod
    def branch(cls, store: Saves | None, rules: Rules, log_prefix: Sequence, seed: int,
               names: Sequence[str], kinds: Sequence[str], parent: tuple[str, int],
               think_ms: int | None = None, bot_pause: float = 0.0,
               thinker: Thinker | None = None) -> "LocalTable":
        """A what-if branch: a new match that replays ``log_prefix`` (a saved match's log
        up to a position, with the same ``seed``), saved as a new file whose header
        names ``parent`` (its id and the number of decisions taken over).  The
        parent's file is never touched."""
        match = Match.replay(rules, log_prefix, seed=seed)
        if match.over:
            raise ValueError("the match is over at that point: there is nothing to play")
        handle = None
        if store is not None:
            from ..store import Seat
            handle = store.new_match(match, tuple(Seat(n, k) for n, k in zip(names, kinds)),
                                     extra={"parent": [parent[0], int(parent[1])]})
        return cls(match, names, kinds, handle, think_ms=think_ms, bot_pause=bot_pause,
                   thinker=thinker)

    @classmethod
    def resume(cls, store: Saves, ref: str, think_ms: int | None = None,
               bot_pause: float = 0.0, thinker: Thinker | None = None) -> "LocalTable":
        """Reopen a saved match, of either preset (``SaveFileError`` / ``LockedError``
        pass through)."""
        loaded = store.open(ref)
        seats = loaded.seats
        table = cls(loaded.match, [s.name for s in seats], [s.kind for s in seats],
                    loaded.handle, notes=loaded.notes, undos=loaded.undos, think_ms=think_ms,
                    bot_pause=bot_pause, thinker=thinker)
        for seat in range(table.seats):  # a bot that was playing for an away player
            kind = loaded.stand_in(seat, loaded.match.log_length)
            if kind is not None and not table.is_bot(seat):
                table._stand_in(seat, kind)
        return table

    def _make_bots(self, fresh: bool = False) -> None:
        """A bot for each ``bot:<level>`` seat (``fresh``: replace the ones made here,
        so an undo also takes back what they had learnt)."""
        for seat, kind in enumerate(self.kinds):
            if kind.startswith("bot:") and (seat not in self.bots
                                            or (fresh and seat in self._made)):
                seed = (self.match.seed * 2 + seat) & ((1 << 64) - 1)
                self.bots[seat] = engine_bots.make(kind[4:], seed=seed, think_ms=self.think_ms)
                self._made.add(seat)

    # -- seats -------------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.match.seats

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and seat in self.bots

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.seats) if not self.is_bot(s))

    @property
    def mine(self) -> tuple[int, ...]:
        """Every human seat (all at this keyboard); with none, seat 0 is watched."""
        return self.humans or (0,)

    @property
    def practice(self) -> bool:
        """Practice undo: one human against bots, in a file that can record it."""
        if len(self.humans) != 1 or not self.bots:
            return False
        return self.handle is None or self.handle.can_undo

    @property
    def saved(self) -> bool:
        return self.handle is not None and self.save_error is None

    @property
    def save_ref(self) -> str | None:
        return None if self.handle is None else self.handle.ref

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def seq(self) -> int:
        """The number of the last update sent."""
        return self._seq

    @property
    def lock(self) -> threading.RLock:
        """Held while a decision is applied, saved and told: whoever holds it reads the
        match between two decisions (tools and tests)."""
        return self._lock

    @property
    def held(self) -> bool:
        """The bots wait: a client holds them (:meth:`hold`) or a round just ended."""
        return self._held

    @property
    def idle(self) -> bool:
        """Nothing for the table to do until a client acts: no bot is to move (or the
        bots are held), or the match is over or closed."""
        with self._lock:
            return self._closed or not self._bot_due()

    @property
    def waiting(self) -> bool:
        """A save failed: the table takes no decision until one succeeds."""
        return self.save_error is not None

    # -- what a table's authority needs (:class:`unoduo_tui.table.HostedTable`) ---------

    def public_view(self) -> PlayerView:
        """The match's public view (no hidden card: a watcher's), its events redacted
        once per match, not once per call."""
        with self._lock:
            match = self.match
            if self._public_seen is None or self._public_seen[0] is not match:
                self._public_seen = (match, SeatEvents(-1))
            return match.public_view(self._public_seen[1])

    @property
    def preset(self) -> str:
        return self.match.rules.preset

    def wait_saved(self) -> None:
        """Return once every decision told so far is durable.  Listeners are called
        with a decision once it is written, before it is made durable, all under the
        table's lock (:meth:`_commit`): this waits for that lock."""
        with self._lock:
            pass

    def name_seat(self, seat: int, name: str) -> None:
        """``seat``'s player sat down as ``name`` (a joiner at a hosted table): the table
        names it so and the save file records it (a file of format 3)."""
        with self._lock:
            if self.names[seat] == name:
                return
            names = list(self.names)
            names[seat] = name
            self.names = tuple(names)
            self._record_seat(seat)

    def stand_in(self, seat: int, kind: str | None) -> None:
        """A bot of ``kind`` (``"bot:normal"``) plays ``seat`` for its away player from
        now on (``None``: the player is back and plays it again); the save file records
        who plays each decision (a seat record).  ``Refused`` for a seat that is a bot's
        or a level that is not one."""
        with self._lock:
            if type(seat) is not int or not 0 <= seat < self.seats or self.is_bot(seat):
                raise Refused("only a player's seat can be handed to a bot")
            if kind is not None and (not kind.startswith("bot:")
                                     or kind[4:] not in engine_bots.LEVELS):
                raise Refused(f"{kind!r:.30} is not a bot level")
            if self.stand_ins.get(seat) == kind:
                return
            self._stand_in(seat, kind)
            self._record_seat(seat)
            self._emit("seats")
            if kind is not None and self._driver is None and not self._closed:
                self._driver = threading.Thread(target=self._drive, daemon=True,
                                                name="unoduo-bots")
                self._driver.start()
            self._wake.notify_all()

    def _stand_in(self, seat: int, kind: str | None) -> None:
        if kind is None:
            self.stand_ins.pop(seat, None)
            self._stand_in_bots.pop(seat, None)
            return
        self.stand_ins[seat] = kind
        seed = (self.match.seed * 2 + seat + self.match.log_length) & ((1 << 64) - 1)
        self._stand_in_bots[seat] = engine_bots.make(kind[4:], seed=seed,
                                                     think_ms=self.think_ms)

    def plays_itself(self, seat: int | None) -> bool:
        """A bot makes ``seat``'s decisions now: a bot's seat, or one a bot plays for its
        away player."""
        return seat is not None and (seat in self.bots or seat in self.stand_ins)

    def _record_seat(self, seat: int) -> None:
        """A seat record for ``seat`` (its name, who plays it now) in the save file, if
        it can hold one; a failed write waits like a decision's."""
        handle = self.handle
        if handle is None or not getattr(handle, "can_name", False):
            return
        try:
            handle.seat(self.match, seat, self.names[seat],
                        self.stand_ins.get(seat, self.kinds[seat]))
        except OSError as exc:
            self._failed(exc)
            self._emit_waiting()

    def view(self, seat: int) -> PlayerView:
        """``seat``'s view as the clients were last told it (a decision that could not
        be saved yet is not shown, nor what it revealed)."""
        with self._lock:
            shown = self._shown
            if self.waiting and shown is not None and seat in shown.views:
                return shown.views[seat]
            return self.match.view(seat)

    # -- clients -----------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> TableUpdate:
        """Updates to ``listener`` from now on (from this thread or the bots'); the
        bots start moving once there is someone to tell."""
        with self._lock:
            self._listeners.append(listener)
            if self.waiting and self._shown is not None:
                now = replace(self._shown, seq=self._seq, cause="start")
            else:
                now = self._shown = self._update("start")
            if self.bots and self._driver is None and not self._closed:
                self._driver = threading.Thread(target=self._drive, daemon=True,
                                                name="unoduo-bots")
                self._driver.start()
            return now

    def unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def hold(self, on: bool) -> None:
        """While on, the bots wait.  The table holds by itself at the end of each round
        (every player sees it before the next deal): ``hold(False)`` lets go."""
        with self._lock:
            self._held = bool(on)
            self._wake.notify_all()

    def act(self, seat: int | None, text: str) -> None:
        """A human seat's decision: applied, saved and told to every client at once;
        :class:`Refused` (match unchanged) when the seat may not make it now.

        The save runs on the caller's thread — locally that is Textual's event loop:
        the decision is written to the file before any client is told of it, then made
        durable (``fdatasync``) before this returns, so a slow disk holds the screen
        for that long; a write the disk refuses tells nothing and the table waits."""
        with self._lock:
            if self._closed:
                raise Refused("the table is closed")
            if self.waiting:
                raise Refused(save_wait(self.save_error or ""))
            if type(seat) is not int or not 0 <= seat < self.seats:
                raise Refused(f"there is no seat {seat!r:.20}")
            if not isinstance(text, str):
                raise Refused("an action is text, such as 'play R5' or 'draw'")
            if self.is_bot(seat):
                raise Refused(f"{self.names[seat]} is a bot: it plays by itself")
            if seat in self.stand_ins:
                raise Refused(f"a bot plays for {self.names[seat]} until they are back")
            m = self.match
            if m.over:
                raise Refused("the match is over")
            if m.to_act != seat and not text.strip().lower().startswith("jump"):
                raise Refused(self._not_your_turn(seat))
            try:  # a jump-in (H4) out of turn: the engine says when it is too late
                events = m.apply(text, seat=seat)
            except ValueError as exc:  # engine.ActionError: IllegalAction and MalformedAction
                raise Refused(str(exc)) from None
            self.redo_stack.clear()  # a new decision ends what could be redone
            self._human_may_have_moved = True
            self._after_decision(events)

    def _not_your_turn(self, seat: int) -> str:
        """Why ``seat`` may not move now: not its turn — or (H4) a jump-in that reached
        the table first took it: its move came too late."""
        m = self.match
        last = next((a for a in reversed(m.actions) if not a.is_chance), None)
        jump = next((e for e in reversed(m.events) if e.kind == "jump"), None)
        if last is not None and last.kind == "jump" and jump is not None \
                and jump.seat is not None:
            return f"too late — {self.names[jump.seat]} jumped in with {jump.cards[0]}"
        return f"it is not {self.names[seat]}'s turn"

    def apply(self, action: Action | str) -> None:
        """Whoever is to act makes ``action`` (tests and tools stepping a match by hand;
        clients call :meth:`act`).  ``IllegalAction`` passes through."""
        with self._lock:
            actor = self.match.to_act
            events = self.match.apply(action)
            if not self.is_bot(actor):
                self.redo_stack.clear()
                self._human_may_have_moved = True
            self._after_decision(events)

    def _after_decision(self, events: Sequence, cause: Cause = "move") -> None:
        if any(e.kind == "round_end" for e in events) and not self.match.over:
            self._held = True  # a round's end: the bots wait until a client has shown it
        if self._cursor is not None:
            self._cursor.follow(self.match)
        self._commit(cause)

    def _commit(self, cause: Cause, undo: bool = False) -> None:
        """Write the decision, then tell the clients (a key pressed as the file shows a
        bot's move finds the screen told too), then make it durable.  A write that
        fails tells nothing of it: the clients hear that the table waits."""
        if undo or cause == "redo":
            self._jumps_asked = -1  # H4: the same log length may be another position
        if self._write(undo):
            # a bot to move next is shown thinking in this very update, not in one of
            # its own a moment later (#22: a screen update fewer per bot's move)
            m = self.match
            if self.plays_itself(m.to_act) and self._bot_due():
                self._thinking = m.to_act
            self._emit(cause)
            self._flush()
        else:
            self._emit_waiting()
        self._wake.notify_all()

    def _write(self, undo: bool = False) -> bool:
        """The decisions (or the undo) into the file; False: the disk refused
        (``save_error`` says why and the save is tried again by itself)."""
        if self.handle is None:
            return True
        try:
            if undo:
                self.handle.undo(self.match)
            else:
                self.handle.write(self.match)
        except OSError as exc:
            self._failed(exc)
            return False
        return True

    def _flush(self) -> None:
        """What was written made durable; a failure is told as a "save" update (the
        decisions are in the file; the table waits until the disk takes them)."""
        if self.handle is None:
            return
        try:
            self.handle.flush()
        except OSError as exc:
            self._failed(exc)
            self._emit_waiting()

    def _failed(self, exc: OSError) -> None:
        self.save_error = exc.strerror or str(exc) or type(exc).__name__
        if self._retrier is None and not self._closed:
            self._retrier = threading.Thread(target=self._retry_saves, daemon=True,
                                             name="unoduo-save-retry")
            self._retrier.start()

    def _emit_waiting(self) -> None:
        """Tell every client the table waits for its save: the position they were told
        last, with why (the first position, when nothing was told yet)."""
        self._seq += 1
        shown = self._shown
        if shown is None:
            self._shown = self._update("save")
        else:
            self._shown = replace(shown, seq=self._seq, cause="save",
                                  save_error=self.save_error, thinking=None, refused=None)
        for listener in list(self._listeners):
            listener(self._shown)

    def _retry_saves(self) -> None:
        """The save-retry thread: the failed save again after RETRY_FIRST seconds, then
        twice as long each time up to RETRY_MAX, until it succeeds (then everything
        since is told and the table goes on) or the table closes."""
        delay = RETRY_FIRST
        with self._lock:
            try:
                while not self._closed and self.waiting:
                    self._retry.wait(delay)
                    if self._closed or self.handle is None:
                        return
                    delay = min(delay * 2, RETRY_MAX)
                    before = self.save_error
                    try:
                        self.handle.sync(self.match)
                    except OSError as exc:
                        self.save_error = exc.strerror or str(exc) or type(exc).__name__
                        if self.save_error != before:
                            self._emit_waiting()
                        continue
                    self.save_error = None
                    self._emit("move")  # what could not be shown until now
                    self._wake.notify_all()
            finally:
                self._retrier = None

    def _update(self, cause: Cause, refused: str | None = None) -> TableUpdate:
        m = self.match
        point = self._undo_point() if self.practice else None
        return TableUpdate(
            seq=self._seq, cause=cause, views={s: m.view(s) for s in self.mine},
            to_act=m.to_act, over=m.over, thinking=self._thinking,
            save_error=self.save_error, refused=refused,
            can_undo=point is not None, can_redo=bool(self.redo_stack), undos=self.undos,
            stand_ins=dict(self.stand_ins), banner=self.banner)

    def _emit(self, cause: Cause) -> None:
        """Tell every client (under the lock: they see the updates in order)."""
        self._seq += 1
        update = self._shown = self._update(cause)
        for listener in list(self._listeners):
            listener(update)

    # -- the bots ----------------------------------------------------------------------

    def _bot_due(self) -> bool:
        m = self.match
        return (not m.over and (self.plays_itself(m.to_act) or self._jump_due())
                and not self._held and not self.waiting)

    def _jump_due(self) -> bool:
        """H4: a bot seat not to act may jump in, and the bots were not asked yet."""
        m = self.match
        return bool(m.rules.jump_in and self._jumps_asked != m.log_length
                and any(self.plays_itself(s) and m.legal_actions(s)
                        for s in range(m.seats) if s != m.to_act))

    def _bot_jump(self) -> bool:
        """H4: the bots decide at once whether to jump in, in seat order from the seat
        to act (after the pause that leaves a human time to be first); True: one did."""
        m = self.match
        self._jumps_asked = m.log_length
        first = m.to_act
        if first is None:  # over: nobody jumps in
            return False
        for step in range(1, m.seats):
            seat = (first + step) % m.seats
            if not (self.plays_itself(seat) and m.legal_actions(seat)):
                continue
            bot = self.bots.get(seat) or self._stand_in_bots[seat]
            jump = getattr(bot, "jump", None)  # a bot without a jump-in never jumps
            action = jump(m.view(seat)) if jump is not None else None
            if action is not None and action in m.legal_actions(seat):
                self._after_decision(m.apply(action, seat=seat))
                return True
        return False

    def _drive(self) -> None:
        """The bots' thread: one move at a time, each after ``bot_pause`` seconds."""
        while True:
            with self._lock:
                while not self._closed and not self._bot_due():
                    self._wake.wait()
                if self._closed:
                    return
                seat, m = self.match.to_act, self.match
                assert seat is not None  # _bot_due: a bot's decision is pending
                token = (m, m.log_length)
                pause = self.bot_pause * (JUMP_WAIT if self._human_may_jump() else 1)
                if self._jump_due():  # H4: first the bots' jump-ins, after the pause
                    self._pause(token, pause)
                    if (m, m.log_length) == token and not self._held and not self._closed:
                        if self._bot_jump() or not self.plays_itself(seat):
                            continue
                    else:
                        continue
                    pause = 0.0  # waited already
                bot = self.bots.get(seat) or self._stand_in_bots[seat]
                view = m.view(seat)
                if self._thinking != seat:  # not told with the last decision
                    self._thinking = seat
                    self._emit("thinking")
                self._pause(token, pause)
            try:  # from its view only, outside the lock
                action, thought = self.thinker(bot, view)
            except Exception:  # a bot that fails must not wedge the table
                action, thought = None, bot
            with self._lock:
                self._thinking = None
                if self._closed:
                    return
                if (self._held or (self.match, self.match.log_length) != token
                        or (self.bots.get(seat) or self._stand_in_bots.get(seat)) is not bot):
                    self._emit("thinking")  # the moment passed (an undo, a hold, a return)
                    continue
                legal = self.match.legal_actions()
                if action not in legal:
                    action = legal[0]
                if self.bots.get(seat) is bot:
                    self.bots[seat] = thought  # what it learnt (a pool sends a copy back)
                self._after_decision(self.match.apply(action))

    def _human_may_jump(self) -> bool:
        """H4: the jump-in window is open and a human other than the seat to act is at
        the table (the time a human needs to see the card and press j)."""
        m = self.match
        return m.jump_open and any(not self.plays_itself(s)
                                   for s in range(m.seats) if s != m.to_act)

    def _pause(self, token: tuple, seconds: float) -> None:
        """``seconds`` (holding the lock only between waits), cut short by a close or by
        the moment passing (an undo, a human's jump-in)."""
        deadline = time.monotonic() + seconds
        while not self._closed and (self.match, self.match.log_length) == token:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self._wake.wait(left)

    # -- practice undo -----------------------------------------------------------------

    def _cursor_now(self) -> ReplayCursor | None:
        """The undo cursor, built from the log once (it then follows every decision)."""
        if self._cursor is None and not self._no_cursor and self._human_may_have_moved:
            from engine.replay import ReplayCursor  # practice undo only: not a new match's start

            m = self.match
            try:
                self._cursor = ReplayCursor(m.rules, m.actions, m.seed, every=UNDO_EVERY)
            except ValueError:  # a position set up by hand: no log to go back along
                self._no_cursor = True
        return self._cursor

    def _undo_point(self) -> int | None:
        """The position before the human's previous decision (None: nothing to undo)."""
        if self.match.over:
            return None
        cursor = self._cursor_now()
        if cursor is None:
            return None
        for pos in range(cursor.count - 1, -1, -1):
            if not self.is_bot(cursor.actor(pos + 1)):
                return pos
        return None

    @property
    def can_undo(self) -> bool:
        with self._lock:
            return self.practice and self._undo_point() is not None

    def undo(self) -> bool:
        """Back to before the human's previous decision (the bots' replies go with it).
        The save file gets an "undo to action N" record; chance stays as recorded."""
        with self._lock:
            point = self._undo_point() if self.practice and not self.waiting else None
            if point is None:
                return False
            cursor = self._cursor
            assert cursor is not None
            undone: list[Action] = []
            for p in range(point + 1, cursor.count + 1):
                decision = cursor.decision(p)
                assert decision is not None  # every position after 0 has its decision
                undone.append(decision)
            self.match = cursor.cut(point)  # the match there, to play on from
            self.redo_stack[:0] = undone
            self.undos += 1
            self._make_bots(fresh=True)  # a bot's memory of the undone moves goes with them
            self._commit("undo", undo=True)
            return True

    def redo(self) -> bool:
        """The human's next undone decision again, and the bots' replies to it."""
        with self._lock:
            if not self.redo_stack or self.waiting:
                return False
            m, first = self.match, True
            # the bots' replies go with it; a jump-in (H4) is its jumper's, not to_act's
            while self.redo_stack and (first or self.is_bot(m.decider(self.redo_stack[0]))):
                try:
                    m.apply(self.redo_stack[0])
                except ValueError:  # cannot happen with chance as recorded; never wedge
                    self.redo_stack.clear()
                    break
                self.redo_stack.pop(0)
                first = False
                if self._cursor is not None:
                    self._cursor.follow(m)
            self._commit("redo")
            return not first

    # -- what needs more than a view ---------------------------------------------------

    def hint(self, seat: int) -> str:
        """The hard bot's pick for ``seat`` now (:func:`engine.bots.suggest`); practice
        matches only."""
        if not self.practice or seat not in self.humans:
            raise Refused("hints are for a practice match against bots")
        view = self.view(seat)
        if not view.legal_actions:
            raise Refused(f"it is not {self.names[seat]}'s turn")
        return str(self.thinker(Hint(HINT_MS), view)[0])

    def guilt_estimate(self, seat: int) -> float | None:
        """The bots' estimate that the Wild Draw 4 ``seat`` faces was played illegally."""
        return guilt_estimate(self.view(seat))

    def challenged_hand(self, seat: int, since: int = 0) -> ShownHand | None:
        """The hand ``seat``'s challenge made the W+4's player show it (A6 / C8) among
        the events after the first ``since``; the last such, or ``None``."""
        return shown_hand(self.view(seat), since)

    def hand_to_bot(self, seat: int, level: str) -> None:
        """A bot of ``level`` plays ``seat`` for its away player (:meth:`stand_in`)."""
        self.stand_in(seat, f"bot:{level}")

    def rejoin(self) -> None:
        """Nothing to do: a table in this process is never lost."""

    def close(self) -> None:
        """Stop the bots, close the save file (its lock released)."""
        with self._lock:
            self._closed = True
            self._listeners.clear()
            self._wake.notify_all()
            self._retry.notify_all()
            if self.handle is not None:
                try:
                    self.handle.close()
                finally:
                    self.handle = None

