"""Chance outcomes and the log being replayed: the lowest layer of
:class:`~engine.match.Match`, above :class:`~engine.state.MatchState`.

Chance is an action (OpenSpiel): the cut, the dealer draw and every shuffle are log
entries.  A new match draws each from its own random stream (:class:`~engine.rng.Rng`,
seeded by the match seed and the outcome's index); a replay takes them from the queued
log instead, checked against what the rules allow, and never calls a random generator.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import TYPE_CHECKING, Iterable, Sequence

from .actions import ActionError, Chance, IllegalAction
from .rng import Rng
from .state import MatchState
from .view import SeatEvents

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .cards import Card
    from .events import Event
    from .state import Generate

__all__ = ["ChanceLog"]


class ChanceLog(MatchState):
    """Taking chance outcomes and replaying a queued log, for :class:`Match`."""

    __slots__ = ()

    def _replay_one(self, entry: "Action | Chance") -> None:
        self._consumed += 1
        if entry.is_chance:
            raise IllegalAction(f"a chance outcome ({entry.kind}) where a decision was due")
        self.apply(entry)

    def _replay_error(self, exc: ActionError) -> IllegalAction:
        err = IllegalAction(f"log entry {self._consumed - 1}: {exc}")
        err.index = self._consumed - 1
        return err

    def _take_chance(self, kind: str, generate: "Generate | None", expect: Sequence[Card] | None = None,
                     count: int | None = None) -> Chance:
        """The next chance outcome: from the queued log when replaying, else drawn
        from this outcome's own random stream; validated and logged either way."""
        if self._queue:
            entry = self._queue[0]
            if not isinstance(entry, Chance) or entry.kind != kind:
                self._consumed += 1
                raise IllegalAction(f"expected a {kind} outcome, found {str(entry)!r}")
            self._queue.popleft()
            self._consumed += 1
            self._check_chance(entry, expect, count)
        elif generate is None:  # an outcome only a log gives (S1's ``first``): none left
            raise IllegalAction(f"no {kind} outcome in the log")
        else:
            entry = generate(Rng(self._seed, self._nchance))
        self._nchance += 1
        self._log.append(entry)
        return entry

    def _given_first(self) -> int | None:
        """S1 / C2: the seat the log's ``first`` outcome gives when the queued log starts
        with one (checked to be a seat); else ``None``: the cut or the dealer draw decides."""
        queued = self._queue[0] if self._queue else None
        if not isinstance(queued, Chance) or queued.kind != "first":
            return None
        seat = self._take_chance("first", None).seat
        if seat is None:  # never: _check_chance refuses a ``first`` without a seat
            raise IllegalAction("a first outcome names no seat")
        return seat

    def _check_chance(self, entry: Chance, expect: Sequence[Card] | None,
                      count: int | None = None) -> None:
        if entry.kind == "first":
            if entry.seat is None or not 0 <= entry.seat < self._seats:
                raise IllegalAction(f"S1: no seat {entry.seat}")
        elif entry.kind == "cut":
            deck = Counter(c.code for c in self._full_deck)
            want = self._seats if count is None else count
            if len(entry.cards) != want or Counter(c.code for c in entry.cards) - deck:
                raise IllegalAction(f"{str(entry)!r} is not one card per seat ({want}) "
                                    "from the deck")
        else:
            have = self._full_deck if expect is None else expect
            if Counter(c.code for c in entry.cards) != Counter(c.code for c in have):
                raise IllegalAction(f"the shuffle is not a permutation of the {len(have)} "
                                    "cards being shuffled")

    def _shuffle_all(self) -> "tuple[Card, ...]":
        """S3: the whole deck, shuffled (a chance outcome)."""
        def generate(rng: Rng) -> Chance:
            order = list(self._full_deck)
            rng.shuffle(order)
            return Chance.shuffle(order)
        return self._take_chance("shuffle", generate).cards

    def restore_history(self, log: "list[Action | Chance]", events: "list[Event[object]]",
                        queue: "Iterable[Action | Chance]") -> None:
        """Give a copy made with ``clone(history=False)`` its log and events so far and
        the log entries still to replay (the replay cursor's snapshots keep only the
        small state)."""
        self._log, self._events, self._queue = log, events, deque(queue)
        self._seen = [SeatEvents(s) for s in range(self._seats)]

    def replay_more(self, steps: int) -> None:
        """Replay the next ``steps`` decisions of the queued log."""
        queue = self._queue
        for _ in range(steps):
            self._replay_one(queue.popleft())
