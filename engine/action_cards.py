"""What action cards do — RULES.md A1–A6.

A layer of :class:`engine.match.Match` (above :mod:`.scoring`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import ALL_CARDS, COLOURS
from .events import new_event as ev
from .scoring import Scoring

#: the bits (Card.bit) of every card face of each colour
COLOUR_MASK = {colour: sum(c.bit for c in ALL_CARDS if c.colour == colour) for colour in COLOURS}
#: the bits of every card face of each rank, and of the wilds
RANK_MASK = {rank: sum(c.bit for c in ALL_CARDS if c.rank == rank)
             for rank in {c.rank for c in ALL_CARDS}}
WILD_MASK = sum(c.bit for c in ALL_CARDS if c.is_wild)

if TYPE_CHECKING:  # pragma: no cover
    from .cards import Card
    from .actions import Action


class ActionCards(Scoring):
    """A1–A6 for :class:`Match`."""

    __slots__ = ()

    def _card_effect(self, seat: int, card: "Card", total: int, guilty: bool,
                     nxt: int) -> None:
        """The effect of ``card``, just played by ``seat``, which still holds cards
        (``nxt``: the seat after it)."""
        rank = card.rank
        if rank == "+2":  # A1: start or extend the volley
            self._await_draw(nxt, "volley", total, by=seat)
        elif rank == "S":  # A2: play again
            self._begin_turn(seat)
        elif rank == "R":  # A4: a Reverse only offers the dump
            colour = card.colour
            assert colour is not None  # a Reverse has one
            self._offer_dump(seat, colour, at_start=False)
        elif rank == "W+4":  # A5
            self._wd4_by = seat
            self._wd4_guilty = guilty
            self._await_draw(nxt, "wd4", 4, by=seat)
        else:  # numbers and A3 Wild: the turn passes
            self._begin_turn(nxt)

    def _offer_dump(self, seat: int, colour: str, at_start: bool) -> None:
        """A4 / S10: a dump decision only when the seat holds a card of the colour."""
        if self._masks[seat] & COLOUR_MASK[colour]:
            self._to_act = seat
            self._phase = "dump"
            self._dump_colour = colour
            self._dump_start = at_start
        else:
            self._begin_turn(seat if at_start else self._next(seat))

    def _on_dump(self, action: "Action") -> None:
        """A4: every card of the colour goes down in hand order, the chosen one last
        (of twins, the copy last in hand); only the last card's action counts."""
        seat = self._to_act
        hand = self._hands[seat]
        colour = self._dump_colour
        last = action.card
        assert last is not None and colour is not None  # a dump's, in the dump phase
        dumped = [c for c in hand if c.colour == colour]
        hand[:] = [c for c in hand if c.colour != colour]
        self._masks[seat] &= ~COLOUR_MASK[colour]  # A4: every card of the colour goes
        at = len(dumped) - 1 - dumped[::-1].index(last)
        dumped.append(dumped.pop(at))
        self._moved(seat)
        self._discard.extend(dumped)
        self._color = colour
        self._table = None
        left = self._after_shed(seat, action)
        self._emit(ev("dump", seat, tuple(dumped), len(dumped), colour, action.uno,
                      data=self._next(seat)))
        if left == 0:
            self._go_out(seat, last, 2)
        elif last.rank == "+2":
            self._await_draw(self._next(seat), "volley", 2, by=seat)
        elif last.rank == "S":
            self._begin_turn(seat)
        else:
            self._begin_turn(self._next(seat))

    def _on_nodump(self, action: "Action") -> None:
        seat = self._to_act
        self._moved(seat)
        self._emit(ev("nodump", seat))
        # S10: declining the start dump leaves P2 an ordinary first turn
        self._begin_turn(seat if self._dump_start else self._next(seat))

    def _wd4_is_guilty(self, rest: "list[Card]") -> bool:
        """A6: judged on the hand *after* the Wild Draw 4 leaves it, when it is played
        (read from the seat's mask of faces, which ``rest`` already matches)."""
        colour = self._color
        held = self._masks[self._to_act]
        top = self._discard[-1]
        if colour is None:  # no active colour (never in play; kept exact all the same)
            if self._rules.wd4_guilty == "colour_match":
                return any(c.colour is None for c in rest)
            return any(not c.is_wild and c.rank == top.rank for c in rest)
        if self._rules.wd4_guilty == "colour_match":
            return bool(held & COLOUR_MASK[colour])
        return bool(held & (COLOUR_MASK[colour] | RANK_MASK[top.rank]) & ~WILD_MASK)

    def _on_challenge(self, action: "Action") -> None:
        """A6 / C8: the Wild Draw 4's player shows its hand to the challenger only.
        Guilty: it draws 4 and the challenger takes its turn; not guilty: the challenger
        draws 6 and loses its turn (with two seats, the player plays again)."""
        seat = self._to_act
        player = self._wd4_by
        guilty = self._wd4_guilty
        self._moved(seat)
        self._emit(ev("reveal", player, tuple(self._hands[player]), len(self._hands[player]),
                      private=seat))
        self._emit(ev("challenge", seat, data=guilty))
        if guilty:
            self._draw_into(player, 4, "challenge")
            self._begin_turn(seat)
        else:
            self._draw_into(seat, 6, "challenge")
            self._begin_turn(self._next(seat))
