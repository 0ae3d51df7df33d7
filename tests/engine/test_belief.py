"""The belief model (engine/bots/belief.py) against the true match.

The tests peek at the match only to *check* the belief; the belief itself is
built from ``view(seat)`` alone.
"""

from collections import Counter

import pytest

from engine import Card, Match, Rules
from engine.bots import Belief, make
from engine.cards import deck_cards
from engine.rng import Rng

from .helpers import dealt


def check_belief(m: Match, belief: Belief) -> None:
    """Everything the belief claims is true of the match ``m``."""
    seat, opp = belief.seat, belief.opp
    assert Counter(belief.mine) == Counter(m.hand(seat))
    assert belief.discard == list(m.discard_pile)
    pile = m.draw_pile
    assert len(pile) == belief.pile_unknown + len(belief.pile_known)
    assert list(pile[belief.pile_unknown:]) == belief.pile_known  # S4 / T3: the known order
    hidden = Counter(m.hand(opp))
    known = Counter(belief.opponent_known)
    assert not known - hidden  # the opponent holds every card it is known to hold
    hidden -= known
    assert len(belief.slots) == sum(hidden.values())
    # the multiset of unseen cards is exactly the opponent's unknown cards and the unknown pile
    assert Counter(belief.unseen) == hidden + Counter(pile[:belief.pile_unknown])
    # a hard exclusion is never wrong: every hidden card fits some slot
    for card in hidden:
        assert any(s.allows(card, soft=False) for s in belief.slots), card


@pytest.mark.parametrize("rules", [Rules(), Rules(refill="shuffle"),
                                   Rules(deck="classic108", wd4_guilty="any_playable")],
                         ids=["duo", "shuffle", "classic-deck"])
@pytest.mark.parametrize("seed,levels", [(1, ("normal", "easy")), (2, ("random", "normal")),
                                         (3, ("random", "random"))])
def test_belief_is_exact_in_seeded_playouts(seed, levels, rules):
    m = Match.new(Rules(target=rules.target, refill=rules.refill, deck=rules.deck,
                        wd4_guilty=rules.wd4_guilty), seed=seed)
    players = [make(levels[0], seed=seed), make(levels[1], seed=seed + 1)]
    beliefs = [Belief(0, m.rules), Belief(1, m.rules)]
    n = 0
    kinds = Counter()
    while not m.over and n < 3000:
        seat = m.to_act
        for b in beliefs:
            b.update(m.view(b.seat))
            check_belief(m, b)
        kinds.update(e.kind for e in m.apply(players[seat].choose(m.view(seat))))
        n += 1
    assert n > 100
    if levels == ("random", "random"):  # long rounds: the refills (T3) are exercised too
        assert kinds["refill"] > 0


def test_belief_never_gives_the_opponent_a_card_seen_elsewhere():
    m = dealt(["R1", "R2", "R3", "G4", "G5", "B6", "W"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"],
              start="R9", first=1)
    b = Belief(0, m.rules).update(m.view(0))
    full = Counter(deck_cards("duo112"))
    seen = Counter(m.hand(0)) + Counter(m.discard_pile) + Counter(b.pile_known)
    assert Counter(b.unseen) == full - seen  # exact on a hand-built position
    assert len(b.pile_known) == 14 and b.pile_unknown == m.draw_size - 14  # S4
    rng = Rng(5)
    for _ in range(50):
        hand, pile = b.sample(rng)
        assert len(hand) == 7 and len(pile) == m.draw_size
        assert Counter(hand) + Counter(pile) + seen - Counter(b.pile_known) == full
        assert pile[-14:] == b.pile_known  # the known bottom stays where it is


def test_a_dump_tells_the_belief_the_opponent_holds_none_of_that_colour():
    m = dealt(["R1", "R2", "G3", "Y4", "Y5", "G6", "B7"],
              ["BR", "B1", "B2", "W+4", "G1", "Y1", "Y2"], start="B5", first=0)
    m.apply("play BR")
    m.apply("dump B2")  # A4
    b = Belief(0, m.rules).update(m.view(0))
    assert not any(b.may_hold(Card.parse(c)) for c in ("B0", "B3", "B9", "BS", "B+2"))
    assert b.may_hold(Card.parse("G9")) and b.may_hold(Card.parse("W"))
    rng = Rng(1)
    for _ in range(30):
        hand, _ = b.sample(rng)
        assert not any(c.colour == "B" for c in hand)


def test_taking_a_volley_makes_holding_a_draw_2_unlikely_not_impossible():
    m = dealt(["R+2", "R5", "G7", "Y3", "B4", "B8", "Y9"],
              ["G+2", "G1", "G2", "Y1", "B1", "B2", "R9"], start="G3", first=0)
    m.apply("play G+2")  # seat 1 starts a volley (A1)
    m.apply("draw")  # seat 0 takes it, though it holds R+2: stacking is never compulsory
    b = Belief(1, m.rules).update(m.view(1))
    r2 = Card.parse("R+2")
    assert len(b.slots) == 9
    assert all(s.soft & r2.bit and not s.hard & r2.bit for s in b.slots[:7])  # soft: A1
    assert not any(s.soft for s in b.slots[7:])  # the two cards just drawn are unconstrained
    assert b.may_hold(r2)
