"""S — setup of each round: the cut, the draft, the start card."""

from collections import Counter

import pytest

from engine import Card, Match
from engine.cards import deck_cards

from .helpers import dealt, stacked_deck, texts

P1 = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
P2 = ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]


def _cuts(m):
    return [e for e in m.actions if e.is_chance and e.kind == "cut"]


def test_s1_higher_cut_drafts_first_symbols_count_zero():
    for seed in range(40):
        m = Match.new(seed=seed)
        cut = _cuts(m)[-1]
        values = [c.cut_value for c in cut.cards]
        assert values[m.p1] > values[1 - m.p1]
        assert m.to_act == m.p1 and m.phase == "draft"
        for card in cut.cards:
            assert card.cut_value == (int(card.rank) if card.is_number else 0)


def test_s1_equal_cuts_are_cut_again_and_every_cut_is_recorded():
    seed = next(s for s in range(500) if len(_cuts(Match.new(seed=s))) > 1)
    m = Match.new(seed=seed)
    cuts = _cuts(m)
    for cut in cuts[:-1]:
        assert cut.cards[0].cut_value == cut.cards[1].cut_value
    assert cuts[-1].cards[0].cut_value != cuts[-1].cards[1].cut_value
    assert [e.kind for e in m.events if e.kind == "cut"] == ["cut"] * len(cuts)


def test_s1_cut_cards_go_back_before_the_shuffle():
    m = Match.new(seed=7)
    shuffle = next(e for e in m.actions if e.is_chance and e.kind == "shuffle")
    assert Counter(c.code for c in shuffle.cards) == Counter(c.code for c in deck_cards("duo112"))


def test_s2_first_drafter_alternates_from_round_two():
    m = dealt(["R1", "R2", "R3", "R4", "R5", "R6", "R7"], P2, "R9", first=1)
    assert m.p1 == 1
    # seat 1 (P1) holds the reds; P2 (seat 0) moves first and is stuck; play it out fast
    seen = {1: 1}
    while not m.over and m.round < 4:
        before = m.round
        m.apply(m.legal_actions()[0])
        if m.round != before:
            seen[m.round] = m.p1
    assert seen[2] == 0 and seen[3] == 1


def test_s3_keep_turns_up_the_next_card_and_reject_discards_and_forces_the_next():
    deck = stacked_deck(P1, P2, "B5")
    m = Match.new(seed=0, deck=deck, first=0)
    assert m.to_act == 0 and m.hand(0) == [Card("R1")]
    m.apply("keep")
    assert m.top == deck[1] and m.hand(0) == [Card("R1")]
    assert m.to_act == 1 and m.hand(1) == [Card("G1")]  # P2 drafts next and sees its card
    m.apply("reject")
    assert m.discard_pile == (deck[1], Card("G1"))  # the rejected card goes face up
    assert m.hand(1) == [deck[3]]  # ... and the next card must be kept
    assert m.to_act == 0


def test_s3_the_other_seat_does_not_see_drafted_cards_but_sees_every_discard():
    m = Match.new(seed=5)
    for i in range(14):
        m.apply("reject" if i % 2 else "keep")
    for seat in range(2):
        mine = other = 0
        for e in m.view(seat).events:
            if e.kind in ("draft", "forced_keep"):
                if e.seat == seat:
                    assert len(e.cards) == 1
                    mine += 1
                else:
                    assert e.cards == () and e.amount == 1
                    other += 1
            if e.kind in ("keep", "reject"):
                assert len(e.cards) == 1  # everyone sees what reaches the discard pile
        assert mine >= 7 and other >= 7


def test_s3_fourteen_steps_alternate_and_leave_seven_each():
    m = Match.new(seed=9, first=1)
    order = []
    for _ in range(14):
        order.append(m.to_act)
        m.apply("keep")
    assert order == [1, 0] * 7
    assert [len(m.hand(s)) for s in range(2)] == [7, 7]


def test_s4_draft_discards_go_under_the_draw_pile_in_order_unshuffled():
    under = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "B1", "B2", "B3", "B4", "B6"]
    m = dealt(P1, P2, "B5", under=under)
    # the first card discarded becomes the top of the flipped pile, under the rest
    assert texts(m.draw_pile[-14:]) == under
    assert m.draw_size == 112 - 14 - 1


def test_s5_the_top_card_of_the_draw_pile_starts_the_discard_pile():
    m = dealt(P1, P2, "B5")
    assert m.discard_pile == (Card("B5"),) and m.color == "B"


def test_s6_s11_number_start_p2_takes_an_ordinary_first_turn():
    m = dealt(P1, P2, "R9", first=1)
    assert m.p1 == 1 and m.to_act == 0 and m.phase == "turn"


def test_s7_start_skip_player1_goes_first():
    m = dealt(P1, P2, "BS")
    assert m.to_act == 0 and m.phase == "turn" and m.color == "B"


def test_s8_start_draw2_p2_draws_two_without_volley_then_p1_plays():
    m = dealt(P1, ["G+2", "G2", "G3", "G4", "G5", "G6", "G7"], "B+2", draws=["Y1", "Y2"])
    assert m.to_act == 1 and m.phase == "volley" and m.pending_draw == 2
    assert texts(m.legal_actions()) == ["draw"]  # no stacking on the start card
    with pytest.raises(ValueError, match="S8"):
        m.apply("play G+2")
    m.apply("draw")
    assert texts(m.hand(1)[-2:]) == ["Y1", "Y2"]
    assert m.to_act == 0 and m.phase == "turn"


def test_s8_start_wild_draw4_p1_names_colour_p2_draws_four_no_challenge():
    m = dealt(P1, P2, "W+4", draws=["Y1", "Y2", "Y3", "Y4"])
    assert m.to_act == 0 and m.phase == "colour" and m.color is None
    m.apply("colour G")
    assert m.color == "G" and m.to_act == 1 and m.phase == "wd4"
    assert texts(m.legal_actions()) == ["draw"]
    with pytest.raises(ValueError, match="S8"):
        m.apply("challenge")
    m.apply("draw")
    assert len(m.hand(1)) == 11 and m.to_act == 0 and m.phase == "turn"


def test_s9_start_wild_p1_names_colour_then_p2_plays():
    m = dealt(P1, P2, "W")
    assert m.phase == "colour" and m.to_act == 0
    assert texts(m.legal_actions()) == ["colour R", "colour Y", "colour G", "colour B"]
    m.apply("colour R")
    assert m.color == "R" and m.to_act == 1 and m.phase == "turn"


def test_s10_start_reverse_p2_may_dump_that_colour():
    p2 = ["B1", "G2", "B7", "G4", "B+2", "G6", "G7"]
    m = dealt(P1, p2, "BR", draws=["Y1", "Y2"])
    assert m.to_act == 1 and m.phase == "dump"
    assert texts(m.legal_actions()) == ["dump B1", "dump B7", "dump B+2", "nodump"]
    m.apply("dump B+2")  # A4's last-card rule: the last Draw 2 starts a volley
    assert texts(m.discard_pile) == ["BR", "B1", "B7", "B+2"]
    assert m.to_act == 0 and m.phase == "volley" and m.pending_draw == 2


def test_s10_start_reverse_declined_gives_p2_an_ordinary_turn():
    p2 = ["B1", "G2", "G3", "G4", "G5", "G6", "G7"]
    m = dealt(P1, p2, "BR")
    m.apply("nodump")
    assert m.to_act == 1 and m.phase == "turn"


def test_s10_start_reverse_without_that_colour_is_an_ordinary_turn():
    m = dealt(P1, P2, "BR")
    assert m.to_act == 1 and m.phase == "turn"


def test_deck_argument_must_be_a_permutation():
    with pytest.raises(ValueError, match="permutation"):
        Match.new(seed=0, deck=["R1"] * 112)
    with pytest.raises(ValueError):
        Match.new(seed=0, deck=["Z1"])


def test_deck_without_first_means_seat_zero_and_first_alone_still_shuffles():
    deck = stacked_deck(P1, P2, "B5")
    assert Match.new(deck=deck).to_act == 0
    a, b = Match.new(seed=1, first=1), Match.new(seed=2, first=1)
    assert a.p1 == b.p1 == 1
    assert a.hand(1) != b.hand(1) or a.top != b.top
    assert not any(e.is_chance and e.kind == "cut" for e in a.actions)
