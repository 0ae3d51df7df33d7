"""Setting up a round: the cut, the draft and the start card — RULES.md S1–S11.

A layer of :class:`engine.match.Match` (above :mod:`.turn`); it reads and writes the match's state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Chance, IllegalAction
from .cards import ALL_CARDS, Card
from .events import EVENT_TYPES, Event
from .events import new_event as ev
from .rules import PRESETS
from .turn import Turn

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .rng import Rng

HAND_SIZE = 7


class Draft(Turn):
    """The setup and the draft (S1–S11) of :class:`Match`: the cut, the shuffle, the
    draft of keeps and rejects, the start card."""

    __slots__ = ()

    def _start_match(self) -> None:
        """S1: decide the first drafter (cut, or given), then shuffle and draft."""
        first = self._given_first()
        if first is not None:
            self._emit(ev("first", first))
        else:
            first = self._cut()
        self._start_round(first, self._shuffle_all())

    def _cut(self) -> int:
        """S1: each seat cuts; highest number card drafts first; ties cut again."""
        seats = self._seats
        full = self._full_deck
        while True:
            entry = self._take_chance("cut", self._random_cut)
            values = [c.cut_value for c in entry.cards]
            best = max(values)
            winner = values.index(best) if values.count(best) == 1 else None
            self._emit(ev("cut", None, entry.cards, data=winner))
            if winner is not None:
                return winner
            if len(full) < seats:  # pragma: no cover - decks are far larger
                raise IllegalAction("S1: too few cards to cut")

    def _random_cut(self, rng: Rng) -> Chance:
        indices = list(range(len(self._full_deck)))
        picked = []
        for i in range(self._seats):
            j = i + rng.below(len(indices) - i)
            indices[i], indices[j] = indices[j], indices[i]
            picked.append(self._full_deck[indices[i]])
        return Chance.cut(picked)

    def _start_round(self, p1: int, order: "tuple[Card, ...]") -> None:
        """S3: the shuffled deck (``order``, top first) becomes the draw pile; draft."""
        self._p1 = p1
        self._draw = list(reversed(order))
        self._discard = []
        self._reset_round()
        self._emit(ev("round", p1, amount=self._round))
        self._begin_draft_step()

    def _drafter(self) -> int:
        return (self._p1 + self._step) % self._seats

    def _begin_draft_step(self) -> None:
        """S3: the drafter draws the top card and sees it (it is now its newest card)."""
        seat = self._drafter()
        card = self._draw.pop()
        self._hands[seat].append(card)
        self._masks[seat] |= card.bit
        self._events.append(_DRAFTED[seat][card.code])
        self._to_act = seat
        self._phase = "draft"

    def _on_keep(self, action: "Action") -> None:
        seat = self._to_act
        turned = self._draw.pop()
        self._discard.append(turned)
        self._events.append(_KEPT[seat][turned.code])
        self._end_draft_step()

    def _on_reject(self, action: "Action") -> None:
        seat = self._to_act
        hand = self._hands[seat]
        rejected = hand.pop()
        self._discard.append(rejected)
        self._events.append(_REJECTED[seat][rejected.code])
        card = self._draw.pop()
        hand.append(card)
        self._masks[seat] = self._hand_mask(seat)
        self._events.append(_FORCED[seat][card.code])
        self._end_draft_step()

    def _end_draft_step(self) -> None:
        self._step += 1
        if self._step < HAND_SIZE * self._seats:
            self._begin_draft_step()
        else:
            self._finish_draft()

    def _finish_draft(self) -> None:
        """S4: the draft discards go, turned over and unshuffled, under the draw pile;
        S5: the top card starts the discard pile; S6–S11: what the start card does."""
        under = self._discard
        self._draw = under[::-1] + self._draw
        self._discard = []
        self._emit(ev("under", None, amount=len(under)))
        start = self._draw.pop()
        self._discard.append(start)
        self._emit(ev("start", None, (start,)))
        p1 = self._p1
        p2 = self._next(p1)
        rank = start.rank
        self._color = start.colour
        self._table = None
        if rank == "S":  # S7
            self._begin_turn(p1)
        elif rank == "+2":  # S8: a forced draw of 2, no volley
            self._await_draw(p2, "volley", 2, by=p1, forced=True)
        elif rank in ("W", "W+4"):  # S8, S9: P1 names the colour first
            self._to_act = p1
            self._phase = "colour"
        elif rank == "R":  # S10: P2 may dump that colour
            colour = start.colour
            assert colour is not None  # a Reverse has one
            self._offer_dump(p2, colour, at_start=True)
        else:  # S6, S11
            self._begin_turn(p2)

    def _on_colour(self, action: "Action") -> None:
        """S8/S9: P1 names the start Wild's colour."""
        seat = self._to_act
        self._color = action.colour
        self._table = None
        self._emit(ev("colour", seat, colour=action.colour))
        p2 = self._next(seat)
        if self._discard[-1].rank == "W+4":
            self._wd4_by = seat
            self._wd4_guilty = False
            self._await_draw(p2, "wd4", 4, by=seat, forced=True)
        else:
            self._begin_turn(p2)


# A draft step's events, made once per (seat, card) and shared, as turn.py shares a
# turn's draw: events are immutable values (a round's draft is 14 steps of two each)
_SEATS = max(r[-1] for r in PRESETS.values())


def _table(kind: str, amount: int, private: bool) -> "list[list[Event[object]]]":
    cls = EVENT_TYPES[kind]
    return [[tuple.__new__(cls, (kind, seat, card.alone, amount, None, False,
                                 seat if private else None, None))
             for card in ALL_CARDS] for seat in range(_SEATS)]


_DRAFTED = _table("draft", 1, True)
_KEPT = _table("keep", 0, False)
_REJECTED = _table("reject", 0, False)
_FORCED = _table("forced_keep", 1, True)
