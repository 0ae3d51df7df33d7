"""One match being played at the table: the match, its save handle, the bots, the names.

The game screen owns exactly one :class:`GameSession`; widgets never see it (they are
given :class:`~engine.view.PlayerView` snapshots).  Every decision goes through
:meth:`GameSession.apply`, which appends it to the save file at once, so a dropped
connection costs at most the action in flight.

"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from engine import Action, Event, Match, PlayerView, Rules
from engine import bots as engine_bots


__all__ = ["GameSession"]

@dataclass
class GameSession:
    """A match at the table: ``names``/``kinds`` per seat, the save ``handle`` (or
    ``None``: unsaved, tests only) and a bot for each ``bot:<level>`` seat."""

    match: Match
    names: tuple[str, str]
    kinds: tuple[str, str]
    handle: Any = None
    notes: list[str] = field(default_factory=list)
    think_ms: int | None = None
    bots: dict[int, Any] = field(default_factory=dict)
    #: why the last save failed (None: it succeeded); the table shows it in a banner
    save_error: str | None = None
    undos: int = 0  # practice undos so far (the file records each one)
    redo_stack: list[Action] = field(default_factory=list)  # decisions z took back, in order

    def __post_init__(self) -> None:
        self._make_bots()

    def _make_bots(self, fresh: bool = False) -> None:
        """A bot for each ``bot:<level>`` seat (``fresh``: replace the ones made here,
        so an undo also takes back what they had learnt)."""
        made = self.__dict__.setdefault("_made_bots", set())
        for seat, kind in enumerate(self.kinds):
            if kind.startswith("bot:") and (seat not in self.bots or (fresh and seat in made)):
                seed = (self.match.seed * 2 + seat) & ((1 << 64) - 1)
                self.bots[seat] = engine_bots.make(kind[4:], seed=seed, think_ms=self.think_ms)
                made.add(seat)

    # -- construction ----------------------------------------------------------------

    @classmethod
    def start(cls, store: Any, names: Sequence[str], kinds: Sequence[str],
              rules: Rules | None = None, seed: int | None = None,
              deck: Sequence | None = None, first: int | None = None,
              think_ms: int | None = None) -> "GameSession":
        """A new match, saved through ``store`` (``None``: not saved)."""
        match = Match.new(rules or Rules(), seed=seed, deck=deck, first=first)
        handle = None
        if store is not None:
            from .store import Seat
            handle = store.new_match(match, tuple(Seat(n, k) for n, k in zip(names, kinds)))
        return cls(match, tuple(names), tuple(kinds), handle, think_ms=think_ms)

    @classmethod
    def branch(cls, store: Any, rules: Rules, log_prefix: Sequence, seed: int,
               names: Sequence[str], kinds: Sequence[str], parent: tuple[str, int],
               think_ms: int | None = None) -> "GameSession":
        """A what-if branch: a new match that replays ``log_prefix`` (a saved match's log
        up to a position, with the same ``seed``), so it starts exactly where that match
        stood, saved as a new file whose header names ``parent`` (its id and the number
        of decisions taken over).  The parent's file is never touched."""
        match = Match.replay(rules, log_prefix, seed=seed)
        if match.over:
            raise ValueError("the match is over at that point: there is nothing to play")
        handle = None
        if store is not None:
            from .store import Seat
            handle = store.new_match(match, tuple(Seat(n, k) for n, k in zip(names, kinds)),
                                     extra={"parent": [parent[0], int(parent[1])]})
        return cls(match, tuple(names), tuple(kinds), handle, think_ms=think_ms)

    @classmethod
    def resume(cls, store: Any, ref: str, think_ms: int | None = None) -> "GameSession":
        """Reopen a saved match (``SaveFileError`` / ``LockedError`` pass through)."""
        loaded = store.open(ref)
        seats = loaded.seats
        return cls(loaded.match, tuple(s.name for s in seats), tuple(s.kind for s in seats),
                   loaded.handle, notes=list(loaded.notes), think_ms=think_ms,
                   undos=loaded.undos)

    # -- seats -----------------------------------------------------------------------

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and seat in self.bots

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(s for s in range(len(self.kinds)) if not self.is_bot(s))

    @property
    def hot_seat(self) -> bool:
        """Two humans at one keyboard: the table must hide each hand from the other."""
        return len(self.humans) > 1

    @property
    def home(self) -> int:
        """The seat the table shows when there is a single human (or watching bots)."""
        humans = self.humans
        return humans[0] if humans else 0

    def view(self, seat: int) -> PlayerView:
        return self.match.view(seat)

    # -- moves -----------------------------------------------------------------------

    def apply(self, action: Action | str) -> list[Event]:
        """Apply one decision and append it to the save file at once (a human's new
        decision ends what ``y`` could redo)."""
        actor = self.match.to_act
        events = self.match.apply(action)
        if not self.is_bot(actor):
            self.redo_stack.clear()
        self.sync()
        return events

    # -- practice undo ----------------------------------------------------------------

    @property
    def undo_allowed(self) -> bool:
        """Practice undo: one human against bots, in a file that can record it."""
        if len(self.humans) != 1 or len(self.bots) == 0:
            return False
        return self.handle is None or self.handle.can_undo

    def undo_point(self) -> int | None:
        """The log length before the human's previous decision (None: nothing to undo)."""
        if not self.undo_allowed or self.match.over:
            return None
        m0 = self.match
        key = (id(m0), m0.log_length)
        cached = self.__dict__.get("_undo_cache")
        if cached is not None and cached[0] == key:
            return cached[1]
        total, point = m0.log_length, None
        try:
            for m in Match.replay_steps(m0.rules, m0.actions, m0.seed):
                if m.log_length >= total:
                    break
                if m.to_act is not None and not self.is_bot(m.to_act):
                    point = m.log_length
        except ValueError:  # a position set up by hand (tests): no log to go back along
            point = None
        self.__dict__["_undo_cache"] = (key, point)
        return point

    def undo(self) -> bool:
        """Back to before the human's previous decision (the bots' replies go with it).
        The save file gets an "undo to action N" record; chance stays as recorded."""
        point = self.undo_point()
        if point is None:
            return False
        m0 = self.match
        undone = [e for e in m0.actions_from(point) if not e.is_chance]
        self.match = Match.replay(m0.rules, m0.actions[:point], seed=m0.seed)
        self.redo_stack[:0] = undone
        self.undos += 1
        self._make_bots(fresh=True)  # a bot's memory of the undone moves goes with them
        if self.handle is not None:
            try:
                self.handle.undo(self.match)
            except OSError as exc:
                self.save_error = _reason(exc)
            else:
                self.save_error = None
        return True

    def redo(self) -> bool:
        """Replay the human's next undone decision and the bots' replies to it."""
        if not self.redo_stack:
            return False
        m = self.match
        first = True
        while self.redo_stack and (first or self.is_bot(m.to_act)):
            try:
                m.apply(self.redo_stack[0])
            except ValueError:  # cannot happen with chance as recorded; never wedge
                self.redo_stack.clear()
                break
            self.redo_stack.pop(0)
            first = False
        self.sync()
        return not first

    def sync(self) -> None:
        if self.handle is None:
            return
        try:
            self.handle.sync(self.match)
        except OSError as exc:  # a full disk must not end the game: the next sync retries
            self.save_error = _reason(exc)
        else:
            self.save_error = None

    def bot_choice(self, seat: int) -> Action:
        """The bot's decision from its view only (may take a while: run it in a worker)."""
        return self.bots[seat].choose(self.match.view(seat))

    def close(self) -> None:
        if self.handle is not None:
            try:
                self.handle.close()
            finally:
                self.handle = None


def _reason(exc: OSError) -> str:
    """A failed save in a few words ("No space left on device")."""
    return exc.strerror or str(exc) or type(exc).__name__
