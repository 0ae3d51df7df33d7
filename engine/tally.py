"""A finished match counted from its log: per seat, what a player's record is made of.

:func:`tally` walks a replayed match's events (never a save file's header or footer:
the result is what the moves made) and counts, for each seat, the points of every
round, the rounds it went out and how, and the game's moments — Wild Draw 4
challenges (A6 / C8), UNO catches (U2 / C9), volleys (A1), dumps (A4).  Pure: the
record's index (:mod:`unoduo_tui.record`) stores what this returns.

This is the one module that reads the engine's events for the record, through
their named fields (``Play.card``, ``Play.total``, ``Draw.why``, ``Dump.last``,
``Challenge.guilty``, ``Catch.caught``, ``RoundEnd.points``…): when the events'
types change, this is the place to follow them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from .events import Catch, Challenge, Draw, Dump, Event, Jump, Play, RoundEnd
from .match import Match
from .rules import Rules

if TYPE_CHECKING:  # pragma: no cover
    from .cards import Card

__all__ = ["SeatTally", "Tally", "tally", "places"]

#: the draws that take a volley (A1; classic without stacking: a single Draw 2)
_VOLLEY_DRAWS = ("volley", "draw2")


@dataclass(frozen=True)
class SeatTally:
    """One seat's part of a finished match."""

    points: tuple[int, ...]  # the points it scored, round by round (E2–E3, C10)
    rounds_won: int = 0  # rounds it went out
    action_outs: int = 0  # … of them going out on an action card (not a number)
    challenges: int = 0  # Wild Draw 4s it challenged (A6, C8)
    challenges_won: int = 0  # … that were guilty
    catches: int = 0  # UNO catches it made (U2, C9)
    caught: int = 0  # … it suffered
    volley_taken: int = 0  # the biggest volley it drew (A1)
    volley_dealt: int = 0  # the biggest volley whose last Draw 2 it played
    dumps: int = 0  # Reverse dumps (A4)
    dumped: int = 0  # cards those dumps put down
    biggest_dump: int = 0


@dataclass(frozen=True)
class Tally:
    """A match's result and its seats' counts.  ``places``: each seat's place, 0 the
    best, tied seats sharing one (a draw: every seat 0)."""

    over: bool
    winner: int | None
    scores: tuple[int, ...]
    rounds: int
    places: tuple[int, ...]
    seats: tuple[SeatTally, ...]


def places(rules: Rules, scores: Sequence[int]) -> tuple[int, ...]:
    """Each seat's place by its total (E4 / C10): the lowest total is best, except
    under classic ``winner_takes`` scoring, where it is the highest.  A seat's place
    is the number of seats strictly better than it."""
    sign = -1 if rules.scoring == "winner_takes" else 1
    keys = [sign * s for s in scores]
    return tuple(sum(1 for other in keys if other < mine) for mine in keys)


class _Counts:
    points: list[int]
    rounds_won: int
    action_outs: int
    challenges: int
    challenges_won: int
    catches: int
    caught: int
    volley_taken: int
    volley_dealt: int
    dumps: int
    dumped: int
    biggest_dump: int

    __slots__ = tuple(__annotations__)

    def __init__(self) -> None:
        self.points = []
        for name in self.__slots__[1:]:
            setattr(self, name, 0)

    def frozen(self) -> SeatTally:
        return SeatTally(tuple(self.points), *(getattr(self, n) for n in self.__slots__[1:]))


def tally(match: Match) -> Tally:
    """Count ``match`` (replayed from its log, so its events are all there)."""
    return count_events(match.rules, match.events, match.over, match.winner, match.scores,
                        match.round)


def count_events(rules: Rules, events: Sequence[Event[object]], over: bool, winner: int | None,
                 scores: Sequence[int], rounds: int) -> Tally:
    """:func:`tally` from the omniscient events themselves."""
    seats = [_Counts() for _ in range(rules.seats)]
    last_card: "dict[int, Card]" = {}  # each seat's last card down: how it went out
    volley_by: int | None = None
    volley_total = 0
    last_rank: str | None = None
    for e in events:
        seat = e.seat
        if isinstance(e, RoundEnd):
            for s, points in enumerate(e.points):
                seats[s].points.append(points)
            if not e.blocked and e.seat is not None:
                seats[e.seat].rounds_won += 1
                card = last_card.get(e.seat)
                if card is not None and not card.is_number:
                    seats[e.seat].action_outs += 1
            last_card.clear()
            volley_by, volley_total, last_rank = None, 0, None
        elif seat is None:  # every other event counted here has an acting seat
            continue
        elif isinstance(e, (Play, Jump)):  # H4: a jump-in is a card down out of turn
            card = e.card
            if card is None:
                continue
            last_card[seat] = card
            last_rank = card.rank
            if isinstance(e, Play) and (card.rank == "+2" or (card.rank == "W+4"
                                                             and e.total > 4)):
                volley_by, volley_total = seat, e.total  # H2: a stacked W+4's too
        elif isinstance(e, Dump):
            size = len(e.cards)
            c = seats[seat]
            c.dumps += 1
            c.dumped += size
            c.biggest_dump = max(c.biggest_dump, size)
            if e.cards:
                last_card[seat] = e.last
                last_rank = e.last.rank
                if e.last.rank == "+2":  # a last Draw 2 counts (A4): a volley of 2
                    volley_by, volley_total = seat, 2
        elif isinstance(e, Draw):
            why = e.why
            # E1: the last card's draw, a Draw 2's or (H2) a stacked Wild Draw 4's
            if (why in _VOLLEY_DRAWS or (why == "last" and last_rank in ("+2", "W+4"))) \
                    and volley_by is not None:
                size = volley_total or e.ncards
                taker = seats[seat]
                taker.volley_taken = max(taker.volley_taken, size)
                dealer = seats[volley_by]
                dealer.volley_dealt = max(dealer.volley_dealt, size)
                volley_by, volley_total = None, 0
        elif isinstance(e, Challenge):
            c = seats[seat]
            c.challenges += 1
            c.challenges_won += bool(e.guilty)
        elif isinstance(e, Catch):
            seats[seat].catches += 1
            seats[e.caught].caught += 1
    scores = tuple(scores)
    return Tally(over, winner, scores, rounds, places(rules, scores) if over else
                 (0,) * len(scores), tuple(c.frozen() for c in seats))
