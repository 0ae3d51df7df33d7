"""Card counting for classic UNO (C8), from one seat's view only.

Since the last deal or refill, every card of the discard pile is public: a seat
that has not seen a card in its own hand or on the pile knows it is in some other
hand or in the draw pile, all alike.  :func:`classic_wd4_guilty_probability` turns
that into the chance that a Wild Draw 4 just played on the viewer was illegal: that
its player, holding ``k`` cards, held one of the colour active before it.
"""

from __future__ import annotations

from collections import Counter
from math import comb
from typing import TYPE_CHECKING

from ..cards import deck_cards

if TYPE_CHECKING:  # pragma: no cover
    from typing import Iterable

    from ..cards import Card
    from ..view import PlayerView

__all__ = ["classic_wd4_guilty_probability", "guilty_odds", "unseen"]


def _pile_and_last_wd4(view: "PlayerView") -> "tuple[list[Card], str | None, int | None]":
    """(the discard pile since the last deal/refill, the colour active before the last
    play, the seat that made it)."""
    pile: list[Card] = []
    colour: str | None = None
    before: str | None = None
    player: int | None = None
    for e in view.events:
        kind = e.kind
        if kind == "deal":
            pile, colour = [], None
        elif kind == "start":
            pile = [e.cards[0]]
            colour = e.cards[0].colour
        elif kind == "colour":
            colour = e.colour
        elif kind in ("play", "jump"):
            before, player = colour, e.seat
            pile.append(e.cards[0])
            colour = e.colour or e.cards[0].colour
        elif kind == "refill":
            pile = pile[-1:]
    return pile, before, player


def unseen(view: "PlayerView") -> "Counter[Card]":
    """The card faces the viewer has not seen since the last deal or refill (in other
    hands or the draw pile), by face."""
    pile, _, _ = _pile_and_last_wd4(view)
    out = Counter(deck_cards(view.rules.deck))
    out.subtract(view.hand)
    out.subtract(pile)
    return +out


def classic_wd4_guilty_probability(view: "PlayerView") -> float:
    """The chance the Wild Draw 4 the viewer faces was played holding a card of the
    colour active before it (C8, colour match), its player's hand drawn uniformly from
    the unseen cards.  0 outside a Wild Draw 4 decision."""
    if view.phase != "wd4" or view.to_act != view.own_seat:
        return 0.0
    pile, before, player = _pile_and_last_wd4(view)
    if before is None or player is None:
        return 0.0
    return guilty_odds(view.rules.deck, view.hand, pile, before, view.hand_sizes[player])


def guilty_odds(deck: str, hand: "Iterable[Card]", pile: "Iterable[Card]", before: str,
                k: int) -> float:
    """C8: the chance that a hand of ``k`` cards drawn uniformly from the cards a seat
    has not seen (``deck`` less its ``hand`` and the ``pile`` since the last deal or
    refill) holds one of colour ``before``."""
    pool = Counter(deck_cards(deck))
    pool.subtract(hand)
    pool.subtract(pile)
    total = sum(n for n in pool.values() if n > 0)
    colour = sum(n for card, n in pool.items() if n > 0 and card.colour == before)
    if k <= 0 or total <= 0:
        return 0.0
    k = min(k, total)
    return 1.0 - comb(total - colour, k) / comb(total, k)
