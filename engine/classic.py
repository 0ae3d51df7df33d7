"""Classic UNO for 2–10 seats — RULES.md section C (C1–C11).

:class:`ClassicMatch` is a variant of :class:`~engine.match.Match` (as python-chess's
variants subclass ``Board``): it owns what the classic preset does differently — the
dealer draw and the deal instead of the cut and the draft (C2, C3, C7), what Draw 2,
Skip, Reverse and Wild Draw 4 do around a table of N seats (C6, C8), and scoring (C10).
Everything else — a turn, drawing, the refill, UNO and the catch — is the shared
code of the match, read with "the opponent" as "the next seat in the direction of play".
"""

from __future__ import annotations

from functools import partial
from typing import Iterable

from .actions import A_CATCH, A_DRAW, Action, Chance
from .cards import ALL_CARDS, Card
from .events import new_event as ev
from .match import Match, handlers, legal_by_phase
from .phases import Phase
from .rng import Rng
from .rules import PRESETS

__all__ = ["CARD_POINTS", "ClassicMatch", "classic_points"]

HAND_SIZE = 7

#: C1: points of a card left in hand
_POINTS = {"S": 20, "R": 20, "+2": 20, "W": 50, "W+4": 50}
#: C6 without stacking: a Draw 2 is drawn (and, U2, an exposed seat may be caught)
_DRAW_ONLY, _DRAW_OR_CATCH = (A_DRAW,), (A_DRAW, A_CATCH)


#: the points of a card left in hand, per preset, indexed by card code (D2, C1)
CARD_POINTS = {
    "duo": tuple(c.points for c in ALL_CARDS),
    "classic": tuple(int(c.rank) if c.is_number else _POINTS[c.rank] for c in ALL_CARDS),
}


def classic_points(cards: "Iterable[Card]") -> int:
    """C1: the points of ``cards`` (a number its number; Draw 2, Reverse, Skip 20;
    Wild and Wild Draw 4 50)."""
    table = CARD_POINTS["classic"]
    return sum(table[c.code] for c in cards)


class ClassicMatch(Match):
    """One classic UNO match (see the module doc); build it with ``Match.new(Rules(
    preset="classic", seats=N))``."""

    __slots__ = ()

    min_seats = PRESETS["classic"][0]
    max_seats = PRESETS["classic"][-1]

    # -- C2: the dealer ------------------------------------------------------------

    def _start_match(self) -> None:
        dealer = self._given_first()
        if dealer is not None:
            self._emit(ev("dealer", dealer))
        else:
            dealer = self._draw_for_dealer()
        self._start_round(dealer, self._shuffle_all())

    def _draw_for_dealer(self) -> int:
        """C2: every seat draws a card; the highest number deals; the seats tied for
        highest draw again among themselves, from the cards still left in that same
        deck (each draw a chance outcome).

        A replay takes each draw from the log, checked to be cards of the deck: saves
        written before the C2 ruling drew a tie's cards from the whole deck again, and
        nothing in them tells the two apart, so they load and verify as recorded."""
        candidates = list(range(self._seats))
        left = list(self._full_deck)
        while True:
            k = len(candidates)
            deck = tuple(left)
            entry = self._take_chance("cut", partial(self._random_draws, k=k, deck=deck), count=k)
            for card in entry.cards:
                if card in left:
                    left.remove(card)
            values = [c.cut_value for c in entry.cards]
            best = max(values)
            tied = [s for s, v in zip(candidates, values) if v == best]
            winner = tied[0] if len(tied) == 1 else None
            self._emit(ev("dealer_draw", None, entry.cards, data=(tuple(candidates), winner)))
            if winner is not None:
                return winner
            candidates = tied

    @staticmethod
    def _random_draws(rng: Rng, k: int, deck: "tuple[Card, ...]") -> Chance:
        """``k`` cards drawn from ``deck`` (the cards not yet drawn, in deck order)."""
        indices = list(range(len(deck)))
        picked = []
        for i in range(k):
            j = i + rng.below(len(indices) - i)
            indices[i], indices[j] = indices[j], indices[i]
            picked.append(deck[indices[i]])
        return Chance.cut(picked)

    # -- C3, C7: the deal and the start card ---------------------------------------

    def _start_round(self, dealer: int, order: "tuple[Card, ...]") -> None:
        n = self._seats
        self._dealer = dealer
        self._p1 = (dealer + 1) % n
        self._draw = list(reversed(order))
        self._discard = []
        self._reset_round()
        self._emit(ev("deal", dealer, amount=self._round))
        draw, hands, masks = self._draw, self._hands, self._masks
        for k in range(HAND_SIZE * n):  # C3: card k to seat (D + 1 + k) mod n
            seat = (dealer + 1 + k) % n
            card = draw.pop()
            hands[seat].append(card)
            masks[seat] |= card.bit
        for seat in range(n):
            self._emit(ev("dealt", seat, tuple(hands[seat]), HAND_SIZE, private=seat))
        self._turn_up_start()

    def _turn_up_start(self) -> None:
        """C7: the next card starts the discard pile; a Wild Draw 4 goes back into the
        draw pile, which is shuffled (a chance outcome), until the start card is not one."""
        while True:
            start = self._draw.pop()
            self._emit(ev("start", None, start.alone))
            if start.rank != "W+4":
                break
            self._draw.append(start)
            pile = self._draw[::-1]  # top first
            order = self._take_chance(
                "shuffle", partial(self._random_shuffle, pile), expect=pile).cards
            self._draw = list(reversed(order))
            self._emit(ev("reshuffle", None, start.alone, amount=len(pile)))
        self._discard.append(start)
        self._color = start.colour
        self._table = None
        left = self._p1
        rank = start.rank
        if rank == "+2":  # draws 2 and loses its turn; nobody played it: no stacking
            self._await_draw(left, "volley", 2, by=self._next(left), forced=True)
        elif rank == "S":
            self._begin_turn(self._next(left))
        elif rank == "R":  # the dealer (the seat before p1) plays first, counter-clockwise
            self._direction = -1
            self._begin_turn((left - 1) % self._seats)
        elif rank == "W":  # the seat to the dealer's left names the colour, then plays
            self._to_act = left
            self._phase = "colour"
        else:
            self._begin_turn(left)

    def _on_colour(self, action: "Action") -> None:
        """C7: the start Wild's colour, named by the seat that then plays its turn."""
        seat = self._to_act
        self._color = action.colour
        self._table = None
        self._emit(ev("colour", seat, colour=action.colour))
        self._begin_turn(seat)

    # -- C6, C8: action cards --------------------------------------------------------

    def _card_effect(self, seat: int, card: "Card", total: int, guilty: bool, nxt: int) -> None:
        rank = card.rank
        after = (nxt + self._direction) % self._seats  # the seat after the next one
        if rank == "+2":  # the next seat draws (or, stacking on, stacks) and loses its turn
            self._await_draw(nxt, "volley", total, by=after)
        elif rank == "S":
            self._begin_turn(after)
        elif rank == "R":  # reverses; with two seats it acts as a Skip
            self._direction = -self._direction
            self._begin_turn(seat if self._seats == 2 else self._next(seat))
        elif rank == "W+4":
            self._wd4_by = seat
            self._wd4_guilty = guilty
            self._await_draw(nxt, "wd4", 4, by=after)
        else:
            self._begin_turn(nxt)

    def _legal_volley(self) -> "tuple[Action, ...]":
        """C6: a Draw 2 is drawn, unless ``stacking`` is on (then as A1)."""
        if self._forced:
            return (A_DRAW,)
        if self._rules.stacking:
            return Match._legal_volley(self)
        exposed = self._exposed
        if exposed is not None and exposed != self._to_act and len(self._hands[exposed]) == 1:
            return _DRAW_OR_CATCH  # U2
        return _DRAW_ONLY

    def _penalty_why(self, phase: "Phase") -> str:
        """C6: without ``stacking`` a Draw 2 is simply drawn — no volley to take."""
        return "draw2" if phase == "volley" and not self._rules.stacking else phase

    # -- C10: scoring and the end ----------------------------------------------------

    def _round_points(self, winner: int | None, own: "tuple[int, ...]") -> "tuple[int, ...]":
        """C10: each seat's points for the round (``own``: the points of each hand)."""
        if self._rules.scoring == "own_hand":
            return own
        if winner is None:  # a blocked round scores nothing under winner_takes
            return (0,) * self._seats
        return tuple(sum(own) if s == winner else 0 for s in range(self._seats))

    def _hand_value(self, hand: "tuple[Card, ...]") -> int:
        return classic_points(hand)  # C1

    def _next_round_start(self) -> int:
        return self._p1  # C2: the deal passes left (to p1)


ClassicMatch._HANDLERS = handlers(ClassicMatch)
ClassicMatch._LEGAL_BY_PHASE = legal_by_phase(ClassicMatch)
