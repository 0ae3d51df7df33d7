"""A turn: playing, drawing, passing, the refill — RULES.md T1–T5 — and saying
UNO / catching — U1–U3.

A layer of :class:`engine.match.Match` (above :mod:`.action_cards`).  ``_legal_*`` build the ordered legal
actions of each phase from precomputed action tables (this is the engine's hot
path: the hard bot's search runs it millions of times).
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

from .actions import (A_CATCH, A_CHALLENGE, A_DRAW, A_NODUMP, A_PASS, DUMPS, DUMPS_UNO,
                      PLAYS, PLAYS_UNO, Action, Chance)
from .action_cards import COLOUR_MASK
from .cards import ALL_CARDS, COLOURS
from .events import Draw, Pass, Play
from .events import new_event as ev
from .phases import Phase
from .rules import PRESETS
from .action_cards import ActionCards

_event = tuple.__new__
_PASSES = frozenset("0123456789") | {"W"}

if TYPE_CHECKING:  # pragma: no cover
    from typing import Iterable, Sequence

    from .cards import Card
    from .rng import Rng


class Turn(ActionCards):
    """T1–T5 and U1–U3 for :class:`Match`."""

    __slots__ = ()

    # -- legal actions ---------------------------------------------------------------

    def _with_catch(self, legal: "Iterable[Action]") -> "tuple[Action, ...]":
        """U2: the opponent of an exposed seat may catch it at its next decision."""
        out = tuple(legal)  # a tuple as it is
        exposed = self._exposed
        if exposed is not None and exposed != self._to_act and len(self._hands[exposed]) == 1:
            return out + (A_CATCH,)
        return out

    def _legal_drawn(self) -> "tuple[Action, ...]":
        """T2: only the drawn card may be played, or kept with ``pass``."""
        table = _DRAWN_UNO if len(self._hands[self._to_act]) == 2 else _DRAWN
        drawn = self._drawn
        assert drawn is not None  # set with the drawn phase
        return table[drawn.code]

    def _legal_volley(self) -> "tuple[Action, ...]":
        """A1: stack a Draw 2 or draw the total; S8: a start Draw 2 is only drawn."""
        if self._forced:
            return (A_DRAW,)
        seat = self._to_act
        return self._with_catch(
            _actions_for(self._masks[seat] & _DRAW2, len(self._hands[seat]) == 2, A_DRAW))

    def _legal_wd4(self) -> "tuple[Action, ...]":
        """A5/A6: draw 4 or challenge; S8: a start Wild Draw 4 is only drawn."""
        if self._forced:
            return (A_DRAW,)
        return self._with_catch([A_DRAW, A_CHALLENGE])

    def _legal_dump(self) -> "tuple[Action, ...]":
        """A4/S10: dump every card of the colour, choosing the last, or not."""
        seat = self._to_act
        hand = self._hands[seat]
        colour = self._dump_colour
        assert colour is not None  # set with the dump phase
        same = self._masks[seat] & COLOUR_MASK[colour]
        # says UNO: one card of another colour stays (twins count twice: the hand's)
        uno = len(hand) - sum(1 for c in hand if c.colour == colour) == 1
        cache = _DUMP_CACHES[uno]
        out = cache.get(same)
        if out is None:
            table = DUMPS_UNO if uno else DUMPS
            plays: list[Action] = []
            bits = same
            while bits:  # code order
                low = bits & -bits
                plays.extend(table[low.bit_length() - 1])
                bits ^= low
            plays.append(A_NODUMP)
            out = cache[same] = tuple(plays)
        return self._with_catch(out)

    def _turn_table(self) -> "_TurnTable":
        """T1's table for the active colour and the top card, looked up (and kept)."""
        colour = self._color
        assert colour is not None  # a turn has an active colour
        table = self._table = _TURN[colour][self._discard[-1].rank]
        return table

    # -- moves -----------------------------------------------------------------------

    def _moved(self, seat: int) -> None:
        """Any decision but a catch: ends another seat's exposure (U2) and a row of
        blocked passes (T4)."""
        if self._exposed is not None and self._exposed != seat:
            self._exposed = None
        self._blocked = 0

    def _after_shed(self, seat: int, action: "Action") -> int:
        """U1: a move that leaves one card must say UNO, or the seat is exposed."""
        left = len(self._hands[seat])
        if left == 1:
            self._exposed = None if action.uno else seat
        return left

    def _on_play(self, action: "Action") -> None:
        seat = self._to_act
        hand = self._hands[seat]
        card, colour, uno, effect, table = _PLAY_PARTS[action]
        phase = self._phase
        if phase == "drawn":
            hand.pop()  # T2: the drawn copy is the one played
        else:
            hand.remove(card)  # T2: otherwise the older copy of a twin leaves
        if card not in hand:
            self._masks[seat] ^= card.bit
        # A6: judged before the card changes the colour and the top card
        guilty = effect is _WD4 and self._wd4_is_guilty(hand)
        if self._exposed is not None and self._exposed != seat:
            self._exposed = None  # U2: any other move ends the opponent's exposure
        self._blocked = 0
        self._discard.append(card)
        self._color = colour  # the colour a Wild names, else the card's
        self._table = table
        left = len(hand)
        if left == 1:
            self._exposed = None if uno else seat  # U1
        # Match._next inlined here, in _on_draw and in _on_pass's keep: these run once a
        # decision in every rollout of the hard bot, where a method call per play counts
        nxt = (seat + self._direction) % self._seats
        if self._search:
            pass  # a search copy keeps no events (search_copy): none is looked up
        elif phase == "volley":  # a stacked Draw 2 (A1): the volley's total varies
            self._events.append(_event(Play, ("play", seat, card.alone, self._pending + 2,
                                              action.colour, uno, None, nxt)))
        else:  # one shared event per (action, seat, next seat): see _PLAYED
            self._events.append(_PLAYED[seat][nxt].get(action) or _played(action, seat, nxt))
        if left == 0:
            self._go_out(seat, card, self._pending + 2 if phase == "volley" else 2)
        elif effect is None:  # numbers and A3 Wild: the turn passes (no draw is pending
            self._to_act = nxt  # in a turn or after a draw: nothing to reset)
            self._phase = "turn"
        else:  # a Draw 2's total (A1, C6)
            self._card_effect(seat, card, self._pending + 2 if phase == "volley" else 2,
                              guilty, nxt)

    def _begin_turn(self, seat: int) -> None:
        self._to_act = seat
        self._phase = "turn"
        self._pending = 0
        self._forced = False

    def _await_draw(self, seat: int, phase: "Phase", amount: int, by: int,
                    forced: bool = False) -> None:
        """``seat`` faces a volley (A1) or a Wild Draw 4 (A5) played by ``by``."""
        self._to_act = seat
        self._phase = phase
        self._pending = amount
        self._forced = forced
        self._volley_by = by

    def _draw_into(self, seat: int, count: int, why: str) -> "list[Card]":
        """Draw up to ``count`` cards into ``seat``'s hand (T3 refill; T4 may yield fewer)."""
        hand = self._hands[seat]
        got = []
        for _ in range(count):
            if not self._draw:
                if len(self._discard) <= 1:
                    break
                self._refill()
            card = self._draw.pop()
            hand.append(card)
            got.append(card)
            self._masks[seat] |= card.bit
        if got and self._exposed == seat:
            self._exposed = None  # U2: no longer exactly one card
        self._events.append(_event(Draw, ("draw", seat, tuple(got), len(got), None, False, seat,
                                           why)))
        return got

    def _refill(self) -> None:
        """T3: set the top card aside; the rest of the discard pile, turned over (the
        oldest discard on top) or shuffled, becomes the draw pile."""
        top = self._discard.pop()
        rest = self._discard
        if self._rules.refill == "shuffle":
            order = self._take_chance("shuffle", lambda rng: self._random_shuffle(rest, rng),
                                      expect=rest).cards
            self._draw = list(reversed(order))
        else:
            self._draw = rest[::-1]
        self._discard = [top]
        self._emit(ev("refill", None, amount=len(rest), data=self._rules.refill))

    def _random_shuffle(self, cards: "Sequence[Card]", rng: Rng) -> Chance:
        order = sorted(cards, key=_CODE)
        rng.shuffle(order)
        return Chance.shuffle(order)

    def _on_draw(self, action: "Action") -> None:
        seat = self._to_act
        phase = self._phase
        self._blocked = 0
        if phase == "turn":  # T2: one card (there is one: else draw is not offered)
            self._exposed = None  # U2: another seat's exposure ends; this one's holds 2+
            draw = self._draw
            if draw:
                card = draw.pop()
                self._hands[seat].append(card)
                self._masks[seat] |= card.bit
                self._events.append(_TURN_DRAWS[seat][card.code])
            else:
                card = self._draw_into(seat, 1, "turn")[0]
            if card.bit & (self._table or self._turn_table()).playable:  # T1
                self._phase = "drawn"
                self._drawn = card
            else:
                self._to_act = (seat + self._direction) % self._seats
        else:  # facing a volley (A1) or a Wild Draw 4 (A5), or a start card (S8)
            if self._exposed is not None and self._exposed != seat:
                self._exposed = None
            self._draw_into(seat, self._pending, self._penalty_why(phase))
            self._begin_turn(self._volley_by)

    def _penalty_why(self, phase: "Phase") -> str:
        """The ``why`` of the draw that answers ``phase`` (a variant may name it)."""
        return phase

    def _on_pass(self, action: "Action") -> None:
        seat = self._to_act
        if self._phase == "drawn":  # T2: keep the drawn card
            self._moved(seat)
            self._events.append(_KEPT[seat])
            self._begin_turn((seat + self._direction) % self._seats)
            return
        blocked = self._blocked + 1  # T4: nothing to draw
        self._moved(seat)
        self._blocked = blocked
        self._emit(ev("pass", seat, data="blocked"))
        if blocked >= self._seats:
            self._end_round(None)  # E3
        else:
            self._begin_turn(self._next(seat))

    def _on_catch(self, action: "Action") -> None:
        """U2: the exposed seat draws 2; the catcher's decision is still to come."""
        exposed = self._exposed
        self._exposed = None
        self._emit(ev("catch", self._to_act, data=exposed))
        assert exposed is not None  # a catch is legal only while a seat is exposed
        self._draw_into(exposed, 2, "catch")


# The events of the commonest moves are made once and shared.  An event is an
# immutable value, as a card and an action are, so a match may hold the same one
# many times; a move that allocates no event also leaves the garbage collector
# nothing to do (with every play and draw allocating one, collections took ~13% of
# random play).

_SEATS = max(r[-1] for r in PRESETS.values())
#: a play's event (but a stacked Draw 2's: its total varies), by seat, next seat and action
_PLAYED: list[list[dict[Action, Play]]] = [[{} for _ in range(_SEATS)] for _ in range(_SEATS)]
#: the event of drawing ``card`` in a turn (T2), by seat and card code
_TURN_DRAWS = [[_event(Draw, ("draw", seat, card.alone, 1, None, False, seat, "turn"))
                for card in ALL_CARDS] for seat in range(_SEATS)]
#: the event of keeping the drawn card (T2), by seat
_KEPT = [_event(Pass, ("pass", seat, (), 0, None, False, None, "keep"))
         for seat in range(_SEATS)]


def _played(action: Action, seat: int, nxt: int) -> Play:
    """The shared event of ``seat`` playing ``action`` (not in a volley) before ``nxt``;
    a Draw 2 starts its total at 2."""
    card = action.card
    assert card is not None  # a play's
    event = _PLAYED[seat][nxt][action] = _event(
        Play, ("play", seat, card.alone, 2 if card.rank == "+2" else 0, action.colour,
               action.uno, None, nxt))
    return event


def _mask(cards: "Iterable[Card]") -> int:
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


_BLOCK = 13  # the card codes of one colour (cards.py: a colour's 13 ranks in a row)
_BLOCK_BITS = (1 << _BLOCK) - 1


class _TurnTable:
    """What a turn may play while ``colour`` is active on a card of ``rank`` (T1), and
    its legal actions from a hand's playable mask: in code order, the few playable
    cards of the colours before the active one (one rank each) and the wilds after
    it are a small set (a dict each), the active colour's 13 bits a list of 8192 —
    filled as they are met, so each is bounded, and a miss of the whole-mask cache
    costs two concatenations instead of a loop over its bits."""

    __slots__ = ("playable", "shift", "rest", "rests", "blocks")

    def __init__(self, colour: str, rank: str) -> None:
        self.playable = _mask(c for c in ALL_CARDS
                              if c.colour is None or c.colour == colour or c.rank == rank)
        self.shift = COLOURS.index(colour) * _BLOCK
        self.rest = self.playable & ~(_BLOCK_BITS << self.shift)
        #: per (says UNO, can draw): rest mask -> (the actions before the block, after it)
        self.rests: list[dict[int, tuple[tuple[Action, ...], tuple[Action, ...]]]] = [
            {}, {}, {}, {}]
        #: per says UNO: the active colour's block mask -> its play actions
        self.blocks = _COLOUR_BLOCKS[COLOURS.index(colour)]

    def rest_parts(self, rest: int, uno: bool, k: int
                   ) -> "tuple[tuple[Action, ...], tuple[Action, ...]]":
        """The actions of the playable cards outside the active colour's block (kept)."""
        low = (1 << self.shift) - 1
        parts = self.rests[k][rest] = (
            _actions_for(rest & low, uno, None),
            _actions_for(rest & ~low, uno, A_DRAW if k & 1 else A_PASS))
        return parts

    def block_plays(self, bits: int, uno: bool) -> "tuple[Action, ...]":
        """The plays of the active colour's cards in ``bits`` (its block, kept)."""
        block = self.blocks[uno][bits] = _actions_for(bits << self.shift, uno, None)
        return block


#: per colour, per says UNO: a block mask's play actions (filled as met)
_COLOUR_BLOCKS: "list[tuple[list[tuple[Action, ...] | None], list[tuple[Action, ...] | None]]]" = [
    ([None] * (1 << _BLOCK), [None] * (1 << _BLOCK)) for _ in COLOURS]
_DRAW2 = _mask(c for c in ALL_CARDS if c.rank == "+2")
#: the legal turn actions per playable mask, one dict per (says UNO, can draw)
_TURN_CACHES: list[dict[int, tuple[Action, ...]]] = [{}, {}, {}, {}]
#: the dump actions (A4) per mask of the colour's cards in hand, per says UNO
#: (bounded: a colour's 13 faces)
_DUMP_CACHES: "tuple[dict[int, tuple[Action, ...]], dict[int, tuple[Action, ...]]]" = ({}, {})
#: the legal actions after drawing a playable card (T2), per card code
_DRAWN = [(*plays, A_PASS) for plays in PLAYS]
_DRAWN_UNO = [(*plays, A_PASS) for plays in PLAYS_UNO]


def _actions_for(mask: int, uno: bool, last: "Action | None") -> "tuple[Action, ...]":
    """The play actions of the cards in ``mask`` (code order), then ``last`` (if any)."""
    table = PLAYS_UNO if uno else PLAYS
    out: list[Action] = []
    while mask:
        low = mask & -mask
        out.extend(table[low.bit_length() - 1])
        mask ^= low
    if last is not None:
        out.append(last)
    return tuple(out)


#: per active colour and top card's rank: its :class:`_TurnTable`
_TURN: "dict[str | None, dict[str, _TurnTable]]" = {colour: {rank: _TurnTable(colour, rank) for rank in {c.rank for c in ALL_CARDS}}
         for colour in COLOURS}

_CODE = attrgetter("code")
_WD4 = "W+4"


def _play_parts(action: Action) -> "tuple[Card, str | None, bool, str | None, _TurnTable | None]":
    """A play's (card, the colour it leaves active, says UNO, the card's effect: None
    when the turn simply passes — a number or a Wild, T1/A3 — else its rank, and the
    turn table it leaves: T1 for that colour on that card)."""
    card = action.card
    assert card is not None  # a play's
    colour = action.colour or card.colour  # the colour a Wild names, else the card's
    effect = None if card.rank in _PASSES else (_WD4 if card.rank == _WD4 else card.rank)
    return card, colour, action.uno, effect, _TURN[colour][card.rank] if colour else None


#: each play's parts (:func:`_play_parts`): one lookup for what the play handler reads
_PLAY_PARTS = {a: _play_parts(a) for a in Action.by_code if a.kind == "play" and a.card is not None}
