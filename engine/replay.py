"""A cursor over a saved log: any decision of a match, fast, in both directions.

Position ``i`` (0 … :attr:`ReplayCursor.count`) is the match after its first ``i``
decisions (chance outcomes are consumed where they fall, as in
:meth:`Match.replay_steps`).  The cursor replays the log once when built, keeping a
:meth:`Match.clone` every ``every`` decisions; going to any position clones the
nearest snapshot at or before it and replays at most ``every - 1`` decisions, so a
step back never replays from the start (and never ``deepcopy``\\s).

Hidden information stays explicit: :meth:`ReplayCursor.view` gives a seat's
:class:`PlayerView` (what it knew then) or, for ``"all"``, an
:class:`OmniscientView` that lists both hands and the draw pile.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Iterable, Sequence

from .actions import Action, Chance
from .cards import Card
from .events import Event
from .match import Match
from .phases import Phase
from .rules import Rules
from .view import PlayerView

__all__ = ["ReplayCursor", "OmniscientView", "MOMENTS", "moments_of", "ALL"]

ALL = "all"

#: the moments the jump keys find, each a test on one decision's events (the one list:
#: the replay viewer's keys and timeline marks are keyed by it)
MOMENTS = ("volley", "dump", "challenge", "catch", "round", "reverse", "skip")


def moments_of(rules: Rules) -> tuple[str, ...]:
    """The moments a match under ``rules`` can hold: a Reverse dump (A4) is UNO Duo's."""
    return tuple(k for k in MOMENTS if k != "dump" or rules.preset != "classic")


def _moment_kinds(events: Sequence[Event[object]]) -> frozenset[str]:
    kinds = set()
    for e in events:
        k = e.kind
        if k == "play" and e.cards and e.cards[0].rank == "+2":
            kinds.add("volley")  # every Draw 2 played starts or extends a volley (A1)
        elif k == "play" and e.cards and e.cards[0].rank == "R":
            kinds.add("reverse")  # A4, C6
        elif k == "play" and e.cards and e.cards[0].rank == "S":
            kinds.add("skip")  # A2, C6
        elif k == "dump":
            kinds.add("dump")
        elif k == "challenge":
            kinds.add("challenge")
        elif k == "catch":
            kinds.add("catch")
        elif k == "round_end":
            kinds.add("round")
    return frozenset(kinds)


@dataclass(frozen=True)
class OmniscientView:
    """Everything at one moment, nothing hidden (replays of finished matches only).

    ``seat`` is ``None``; ``hands`` holds every seat's hand and ``draw_pile`` is top
    first — the fields a :class:`PlayerView` keeps private."""

    hands: tuple[tuple[Card, ...], ...]
    draw_pile: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    top: Card | None
    color: str | None
    draw_size: int
    discard_size: int
    pending_draw: int
    scores: tuple[int, ...]
    round: int
    p1: int
    to_act: int | None
    phase: Phase
    over: bool
    winner: int | None
    legal_actions: tuple[Action, ...]
    exposed: int | None
    rules: Rules
    drawn: Card | None
    dump_colour: str | None
    rounds: tuple[tuple[int | None, tuple[int, ...]], ...]
    events: tuple[Event[object], ...]
    dealer: int | None = None
    direction: int = 1
    seat: None = None

    @classmethod
    def of(cls, m: Match) -> "OmniscientView":
        hands = tuple(tuple(m.hand(s)) for s in range(m.rules.seats))
        return cls(
            hands=hands, draw_pile=m.draw_pile, discard_pile=m.discard_pile,
            hand_sizes=tuple(len(h) for h in hands), top=m.top, color=m.color,
            draw_size=m.draw_size, discard_size=m.discard_size, pending_draw=m.pending_draw,
            scores=m.scores, round=m.round, p1=m.p1, to_act=m.to_act, phase=m.phase,
            over=m.over, winner=m.winner, legal_actions=m.legal_actions(), exposed=m.exposed,
            rules=m.rules, drawn=m.drawn, dump_colour=m.dump_colour, rounds=m.rounds,
            events=tuple(m.events), dealer=m.dealer, direction=m.direction)

    @property
    def event_count(self) -> int:
        return len(self.events)


class ReplayCursor:
    """A position in a match's log, movable to any decision (see the module doc)."""

    def __init__(self, rules: Rules, actions: "Iterable[object]", seed: int | None = 0,
                 every: int = 200) -> None:
        if every < 1:
            raise ValueError("every must be at least 1")
        self.rules = rules
        self.every = every
        self._snapshots: list[Match] = []
        self._actor: list[int | None] = []   # to_act at each position
        self._round: list[int] = []          # round at each position
        self._events_at: list[int] = []      # events so far at each position
        self._log_at: list[int] = []         # log entries consumed at each position
        self._decisions: list[Action] = []   # decision i leads from position i to i + 1
        last = None
        for i, m in enumerate(Match.replay_steps(rules, actions, seed)):
            if i % every == 0:
                self._snapshots.append(m.clone(history=False))  # O(cards), not O(log)
            self._actor.append(m.to_act)
            self._round.append(m.round)
            self._events_at.append(m.event_count)
            self._log_at.append(m.log_length)
            last = m
        assert last is not None
        log = self._log = last.actions
        self._decisions = [e for e in log if isinstance(e, Action)]
        self._events: list[Event[object]] = last.events
        self._moments: dict[str, list[int]] = {k: [] for k in MOMENTS}
        for pos in range(1, len(self._actor)):
            for kind in _moment_kinds(self._events[self._events_at[pos - 1]:self._events_at[pos]]):
                self._moments[kind].append(pos)
        self._round_starts = [0] + [p for p in range(1, len(self._round))
                                    if self._round[p] != self._round[p - 1]]
        self._turn_starts = [0] + [p for p in range(1, len(self._actor))
                                   if self._actor[p] != self._actor[p - 1]]
        self._pos = len(self._actor) - 1
        self._match = last
        self._stale = False  # the working match's queue ends before the log (after follow)

    @classmethod
    def of(cls, match: Match, every: int = 200) -> "ReplayCursor":
        """A cursor over ``match``'s log (the match itself is not touched)."""
        return cls(match.rules, match.actions, match.seed, every)

    # -- where we are ------------------------------------------------------------------

    @property
    def count(self) -> int:
        """How many decisions the log holds: positions run from 0 to ``count``."""
        return len(self._actor) - 1

    @property
    def position(self) -> int:
        return self._pos

    @property
    def match(self) -> Match:
        """The match at the cursor — read it, never apply to it (clone it for that)."""
        return self._match

    @property
    def final(self) -> Match:
        """The match after the whole log (the cursor stays where it is)."""
        return self.goto_copy(self.count)

    def decision(self, pos: int | None = None) -> Action | None:
        """The decision that led to position ``pos`` (default: here); ``None`` at 0."""
        pos = self._pos if pos is None else pos
        return self._decisions[pos - 1] if pos > 0 else None

    def actor(self, pos: int | None = None) -> int | None:
        """The seat that made :meth:`decision` ``pos``: the seat to act, or for a
        jump-in (H4) the jumper, out of turn."""
        pos = self._pos if pos is None else pos
        if pos <= 0:
            return None
        if self._decisions[pos - 1].kind == "jump":
            return next(e.seat for e in self.events_of(pos) if e.kind == "jump")
        return self._actor[pos - 1]

    def events_between(self, start: int, stop: int) -> list[Event[object]]:
        """The (omniscient) events from position ``start`` to ``stop``."""
        return self._events[self._events_at[start]:self._events_at[stop]]

    def events_of(self, pos: int | None = None) -> list[Event[object]]:
        """The (omniscient) events of :meth:`decision` ``pos``; at 0, the setup's."""
        pos = self._pos if pos is None else pos
        start = self._events_at[pos - 1] if pos > 0 else 0
        return self._events[start:self._events_at[pos]]

    def event_count(self, pos: int | None = None) -> int:
        """Events so far at position ``pos`` (default: here): the index of the first
        event of decision ``pos + 1`` (any seat's view lists the same events)."""
        return self._events_at[self._pos if pos is None else pos]

    def position_of_event(self, index: int) -> int:
        """The position just after the decision whose events include event ``index``
        (0 for the setup's events)."""
        return max(0, min(self.count, bisect_right(self._events_at, index)))

    def log_length(self, pos: int | None = None) -> int:
        """Log entries (decisions and chance) consumed by position ``pos``."""
        return self._log_at[self._pos if pos is None else pos]

    def log_prefix(self, pos: int | None = None) -> "list[Action | Chance]":
        """The log up to position ``pos`` (default: here): its decisions and the chance
        outcomes that followed them — ``Match.replay`` of it (same seed) is the match there,
        and a new match started from it (a what-if branch) carries on from there."""
        return self._log[:self.log_length(pos)]

    def round_at(self, pos: int) -> int:
        return self._round[pos]

    def moments(self, kind: str) -> tuple[int, ...]:
        """The positions just after each ``kind`` moment (see :data:`MOMENTS`)."""
        if kind not in self._moments:
            raise ValueError(f"no moment {kind!r}: one of {', '.join(MOMENTS)}")
        return tuple(self._moments[kind])

    # -- moving ------------------------------------------------------------------------

    def goto(self, pos: int) -> Match:
        """Move to position ``pos`` (clamped to 0 … count); returns the match there."""
        pos = max(0, min(int(pos), self.count))
        if pos == self._pos:
            return self._match
        base = pos // self.every * self.every
        if self._pos < pos and self._pos >= base and not self._stale:
            m = self._match  # forward within reach: carry on from here
        else:
            m = self._snapshot(pos // self.every)
            self._pos = base
        m.replay_more(pos - self._pos)
        self._pos, self._match, self._stale = pos, m, False
        return m

    def goto_copy(self, pos: int) -> Match:
        """The match at ``pos`` as an independent copy, without moving the cursor."""
        pos = max(0, min(int(pos), self.count))
        if pos == self._pos:
            return self._match.clone()
        m = self._snapshot(pos // self.every)
        m.replay_more(pos - pos // self.every * self.every)
        return m

    def _snapshot(self, k: int) -> Match:
        """A working copy of snapshot ``k``, its log, events and queue sliced back in
        from the whole match's (a snapshot keeps only the small state)."""
        m = self._snapshots[k].clone()
        pos = k * self.every
        m.restore_history(self._log[:self._log_at[pos]], self._events[:self._events_at[pos]],
                          self._log[self._log_at[pos]:])
        return m

    # -- a live match: growing and cutting back --------------------------------------

    def follow(self, match: Match) -> None:
        """Take in the decision ``match`` made past this cursor's end: ``match`` is the
        live match whose log extends the cursor's by one decision (and the chance
        outcomes after it).  Nothing is replayed: a table calls this after each
        decision so its practice undo never replays the whole log.  The cursor stays
        where it is."""
        start = self._log_at[-1]
        if match.log_length == start:
            return
        new = match.actions_from(start)
        decisions = [e for e in new if isinstance(e, Action)]
        if len(decisions) != 1:
            raise ValueError(f"follow takes one decision at a time, not {len(decisions)}")
        pos = len(self._actor)
        before = self._events_at[-1]
        self._log.extend(new)
        self._decisions.append(decisions[0])
        self._events.extend(match.events[before:])
        if pos % self.every == 0:
            self._snapshots.append(match.clone(history=False))
        self._actor.append(match.to_act)
        self._round.append(match.round)
        self._events_at.append(match.event_count)
        self._log_at.append(match.log_length)
        for kind in _moment_kinds(self._events[before:]):
            self._moments[kind].append(pos)
        if self._round[pos] != self._round[pos - 1]:
            self._round_starts.append(pos)
        if self._actor[pos] != self._actor[pos - 1]:
            self._turn_starts.append(pos)
        self._stale = True

    def cut(self, pos: int) -> Match:
        """Forget every position after ``pos`` (a practice undo took them back) and
        return the match there, an independent copy to play on from (nothing queued);
        a later :meth:`follow` of it carries the cursor on."""
        pos = max(0, min(int(pos), self.count))
        del self._log[self._log_at[pos]:]
        del self._events[self._events_at[pos]:]
        for name in ("_actor", "_round", "_events_at", "_log_at"):
            del getattr(self, name)[pos + 1:]
        del self._decisions[pos:]
        del self._snapshots[pos // self.every + 1:]
        for marks in self._moments.values():
            marks[:] = [p for p in marks if p <= pos]
        self._round_starts = [p for p in self._round_starts if p <= pos]
        self._turn_starts = [p for p in self._turn_starts if p <= pos]
        here = self._snapshot(pos // self.every)  # its queue now ends at ``pos``
        here.replay_more(pos - pos // self.every * self.every)
        self._pos, self._match, self._stale = pos, here.clone(), False
        return here

    def step(self, delta: int = 1) -> Match:
        return self.goto(self._pos + delta)

    def start(self) -> Match:
        return self.goto(0)

    def end(self) -> Match:
        return self.goto(self.count)

    def next_turn(self) -> Match:
        """To the first position where another seat is to act (the end of this turn)."""
        i = bisect_right(self._turn_starts, self._pos)
        return self.goto(self._turn_starts[i] if i < len(self._turn_starts) else self.count)

    def prev_turn(self) -> Match:
        """To the start of the turn before (or of this one, when inside it)."""
        i = bisect_left(self._turn_starts, self._pos)
        return self.goto(self._turn_starts[i - 1] if i > 0 else 0)

    def next_round(self) -> Match:
        i = bisect_right(self._round_starts, self._pos)
        return self.goto(self._round_starts[i] if i < len(self._round_starts) else self.count)

    def prev_round(self) -> Match:
        i = bisect_left(self._round_starts, self._pos)
        return self.goto(self._round_starts[i - 1] if i > 0 else 0)

    def next_moment(self, kind: str) -> Match | None:
        """To just after the next ``kind`` moment; ``None`` (staying put) if there is none."""
        marks = self.moments(kind)
        i = bisect_right(marks, self._pos)
        return self.goto(marks[i]) if i < len(marks) else None

    def prev_moment(self, kind: str) -> Match | None:
        marks = self.moments(kind)
        i = bisect_left(marks, self._pos)
        return self.goto(marks[i - 1]) if i > 0 else None

    # -- what is shown -------------------------------------------------------------------

    def view(self, perspective: "int | str" = ALL) -> "PlayerView | OmniscientView":
        """``"all"``: an :class:`OmniscientView`; a seat: its :class:`PlayerView` here."""
        if perspective == ALL:
            return OmniscientView.of(self._match)
        if isinstance(perspective, int) and not isinstance(perspective, bool):
            return self._match.view(perspective)
        raise ValueError(f"perspective is 'all' or a seat number, not {perspective!r}")
