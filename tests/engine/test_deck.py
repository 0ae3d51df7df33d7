"""D — deck and card values."""

from collections import Counter

import pytest

from engine import Card, Match, Rules
from engine.cards import ALL_CARDS, deck_cards, hand_points

from .helpers import check_conservation, dealt


def test_d1_duo_deck_has_112_cards_with_eight_wilds():
    deck = deck_cards("duo112")
    counts = Counter(str(c) for c in deck)
    assert len(deck) == 112
    for colour in "RYGB":
        assert counts[colour + "0"] == 1
        for rank in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"]:
            assert counts[colour + rank] == 2
        assert sum(n for text, n in counts.items() if text[0] == colour and text != "W+4") == 25
    assert counts["W"] == 8 and counts["W+4"] == 4


def test_d1_classic108_option_drops_the_four_extra_wilds():
    deck = deck_cards("classic108")
    assert len(deck) == 108
    assert Counter(str(c) for c in deck)["W"] == 4
    m = Match.new(Rules(deck="classic108"), seed=3)
    check_conservation(m)
    assert m.draw_size + m.discard_size + sum(len(m.hand(s)) for s in range(2)) == 108


@pytest.mark.parametrize("text,points", [
    ("R0", 0), ("Y7", 7), ("B9", 9), ("G+2", 10), ("RR", 10), ("BS", 10), ("W", 15), ("W+4", 20),
])
def test_d2_card_points(text, points):
    assert Card.parse(text).points == points


def test_d2_hand_points_add_up():
    assert hand_points([Card("R5"), Card("W"), Card("G+2"), Card("W+4")]) == 50


def test_d3_cards_are_conserved_and_a_drafted_card_is_in_the_hand():
    m = Match.new(seed=11)
    for step in range(14):
        check_conservation(m)
        drafter = m.to_act
        # while deciding, the drafted card is already the seat's newest card
        assert len(m.hand(drafter)) == step // 2 + 1
        view = m.view(drafter)
        assert view.events[-1].kind == "draft" and view.events[-1].cards == (view.hand[-1],)
        m.apply("reject" if step % 3 else "keep")
        check_conservation(m)
    assert [len(m.hand(s)) for s in range(2)] == [7, 7]


def test_card_notation_round_trips_and_bad_text_is_named():
    for card in ALL_CARDS:
        assert Card.parse(str(card)) is card
    assert str(Card.parse("r+2")) == "R+2"
    with pytest.raises(ValueError, match="'X9'"):
        Card.parse("X9")
    with pytest.raises(ValueError):
        Card.parse("W+2")


def test_cards_are_immutable_values():
    card = Card("R5")
    assert card == Card.parse("R5") and hash(card) == hash(Card("R5"))
    with pytest.raises(AttributeError):
        card.rank = "6"


def test_d3_conservation_through_a_dealt_round():
    m = dealt(["R1"] * 2 + ["R2"] * 2 + ["R3"] * 2 + ["R4"],
              ["G1", "G2", "G3", "G4", "G5", "G6", "G7"], "R9")
    check_conservation(m)
