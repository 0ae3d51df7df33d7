"""Stacked decks: build a match whose round 1 is exactly the one a test needs."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from engine import Card, Match, Rules
from engine.cards import deck_cards


def stacked_deck(p1: Sequence[str], p2: Sequence[str], start: str, draws: Sequence[str] = (),
                 under: Sequence[str] | None = None, rules: Rules | None = None) -> list[Card]:
    """Round 1's deck, top first, for a draft in which both seats keep every card.

    ``p1``/``p2``: the 7 cards each seat drafts (in order); ``under``: the 14 cards
    turned up during the draft (default: taken from what is left); ``start``: the
    start card; ``draws``: the next cards of the draw pile, in order.
    """
    rules = rules or Rules()
    pool = Counter(c.code for c in deck_cards(rules.deck))

    def take(text: str) -> Card:
        card = Card.parse(text)
        if pool[card.code] <= 0:
            raise AssertionError(f"the deck has no more {card}")
        pool[card.code] -= 1
        return card

    assert len(p1) == 7 and len(p2) == 7
    hand1, hand2 = [take(c) for c in p1], [take(c) for c in p2]
    first_up = take(start)
    nexts = [take(c) for c in draws]
    if under is None:
        turned = []
        for card in reversed(Card.by_code):  # plain high numbers/wilds last: keep them out
            while len(turned) < 14 and pool[card.code] > 0 and card.is_number:
                pool[card.code] -= 1
                turned.append(card)
    else:
        turned = [take(c) for c in under]
    assert len(turned) == 14
    rest = [c for c in Card.by_code for _ in range(pool[c.code])]
    deck: list[Card] = []
    for i in range(7):
        deck += [hand1[i], turned[2 * i], hand2[i], turned[2 * i + 1]]
    return deck + [first_up] + nexts + rest


def dealt(p1: Sequence[str], p2: Sequence[str], start: str, draws: Sequence[str] = (),
          first: int = 0, rules: Rules | None = None, **kw) -> Match:
    """A match past its draft: seat ``first`` holds ``p1``, the other ``p2``."""
    m = Match.new(rules=rules or Rules(), seed=0,
                  deck=stacked_deck(p1, p2, start, draws, rules=rules, **kw), first=first)
    for _ in range(14):
        m.apply("keep")
    return m


def texts(items) -> list[str]:
    return [str(x) for x in items]


def observable(m: Match) -> tuple:
    """Everything a replay must reproduce."""
    return (
        tuple(tuple(m.hand(s)) for s in range(m.seats)), m.draw_pile, m.discard_pile, m.top, m.color,
        m.scores, m.round, m.to_act, m.phase, m.pending_draw, m.exposed, m.over, m.winner,
        tuple(m.legal_actions()),
    )


def check_conservation(m: Match) -> None:
    """D3: every card in exactly one place; the total is the deck size."""
    everywhere = Counter(c.code for c in m.draw_pile)
    everywhere.update(c.code for c in m.discard_pile)
    for s in range(m.seats):
        everywhere.update(c.code for c in m.hand(s))
    assert everywhere == Counter(c.code for c in deck_cards(m.rules.deck))


def arrange(m: Match, hands: Sequence[Sequence[str]] | None = None, draw: Sequence[str] = (),
            discard: Sequence[str] | None = None, spare: str = "hand0") -> Match:
    """Set the piles mid-round (test set-up only; the match's decision state is kept).

    ``hands`` per seat, ``draw`` top first, ``discard`` bottom first (default: the
    current top card).  Every other card of the deck goes to ``spare``: ``"hand0"``
    / ``"hand1"`` (the end of that hand) or ``"under"`` (under the discard pile's
    top card), so D3 still holds.
    """
    pool = Counter(c.code for c in deck_cards(m.rules.deck))

    def take(texts_: Sequence[str]) -> list[Card]:
        out = []
        for text in texts_:
            card = Card.parse(text)
            assert pool[card.code] > 0, f"no {card} left to place"
            pool[card.code] -= 1
            out.append(card)
        return out

    hands_ = [take(h) for h in hands] if hands is not None else [take(map(str, m.hand(s)))
                                                                 for s in range(2)]
    discard_ = take(discard if discard is not None else [str(m.top)])
    draw_ = take(draw)
    rest = [c for c in Card.by_code for _ in range(pool[c.code])]
    if spare == "under":
        discard_ = rest + discard_
    else:
        hands_[int(spare[-1])] += rest
    m._hands = hands_
    m._masks = [m._hand_mask(s) for s in range(2)]
    m._draw = list(reversed(draw_))
    m._discard = discard_
    m._legal = None
    m._table = None  # T1's table follows the new top card
    check_conservation(m)
    return m


def random_match(seed: int, rules: Rules | None = None, limit: int | None = None) -> Match:
    """A match between two random bots (seeds ``seed`` and ``seed + 1``), played to its
    end or for ``limit`` decisions."""
    from engine import bots

    m = Match.new(rules or Rules(), seed=seed)
    players = [bots.make("random", seed=seed), bots.make("random", seed=seed + 1)]
    n = 0
    while not m.over and (limit is None or n < limit):
        m.apply(players[m.to_act].choose(m.view(m.to_act)))
        n += 1
    return m
