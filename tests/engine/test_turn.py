"""T — a turn: matching, drawing, the refill, the blocked round, Wild colours."""

import pytest

from engine import Card, IllegalAction, MalformedAction, Rules
from engine.cards import hand_points

from .helpers import arrange, check_conservation, dealt, observable, texts

P1 = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]


def test_t1_plays_match_colour_number_or_symbol_or_are_wild():
    p2 = ["B9", "G5", "Y5", "W", "W+4", "GS", "B+2"]
    m = dealt(P1, p2, "B5")
    assert texts(m.legal_actions()) == [
        "play Y5", "play G5", "play B9", "play B+2",  # code order: R Y G B, then wilds
        "play W R", "play W Y", "play W G", "play W B",
        "play W+4 R", "play W+4 Y", "play W+4 G", "play W+4 B", "draw",
    ]


def test_t1_symbol_matches_symbol():
    m = dealt(P1, ["GS", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8"], "BS", first=1)
    # P1 is seat 1 and plays first after a start Skip; seat 0 must answer a skip later
    assert m.to_act == 1


def test_t1_a_card_that_does_not_match_is_illegal_and_changes_nothing():
    m = dealt(P1, ["G1", "G2", "G3", "G4", "G5", "G6", "G7"], "B9")
    before = observable(m), m.actions
    with pytest.raises(IllegalAction, match="T1: G1 does not match B9"):
        m.apply("play G1")
    with pytest.raises(IllegalAction, match="T1: you hold no R5"):
        m.apply("play R5")
    assert (observable(m), m.actions) == before


def test_t1_playing_is_never_compulsory():
    m = dealt(P1, ["B1", "G2", "G3", "G4", "G5", "G6", "G7"], "B9", draws=["Y3"])
    assert "draw" in m.legal_actions()
    m.apply("draw")
    assert m.hand(1)[-1] == Card("Y3") and m.to_act == 0  # Y3 does not match: turn ends


def test_t2_a_playable_drawn_card_may_be_played_at_once_only_it():
    m = dealt(P1, ["B1", "G2", "G3", "G4", "G5", "G6", "G7"], "B9", draws=["B3"])
    m.apply("draw")
    assert m.phase == "drawn" and m.to_act == 1
    assert texts(m.legal_actions()) == ["play B3", "pass"]
    with pytest.raises(IllegalAction, match="T2"):
        m.apply("play B1")
    m.apply("play B3")
    assert m.top == Card("B3") and m.to_act == 0


def test_t2_pass_keeps_the_drawn_card_and_ends_the_turn():
    m = dealt(P1, ["B1", "G2", "G3", "G4", "G5", "G6", "G7"], "B9", draws=["B3"])
    m.apply("draw")
    m.apply("pass")
    assert m.hand(1)[-1] == Card("B3") and m.to_act == 0 and m.phase == "turn"


def test_t2_the_drawn_copy_of_a_twin_is_the_one_played():
    m = dealt(P1, ["B3", "G2", "G3", "G4", "G5", "G6", "G7"], "B9", draws=["B3"])
    m.apply("draw")
    m.apply("play B3")
    assert m.hand(1)[0] == Card("B3")  # the older copy stays at the front


def test_t2_playing_from_hand_the_older_copy_of_a_twin_leaves():
    m = dealt(P1, ["B3", "G2", "B3", "G4", "G5", "G6", "G7"], "B9")
    m.apply("play B3")
    assert texts(m.hand(1)) == ["G2", "B3", "G4", "G5", "G6", "G7"]


def test_t2_a_drawn_reverse_may_dump():
    m = dealt(P1, ["B1", "G2", "B4", "G4", "G5", "G6", "G7"], "B9", draws=["BR"])
    m.apply("draw")
    m.apply("play BR")
    assert m.phase == "dump" and texts(m.legal_actions()) == ["dump B1", "dump B4", "nodump"]


def test_t3_refill_turns_the_discard_pile_over_keeping_the_top_card():
    m = dealt(P1, ["G2", "G3", "G4", "G5", "G6", "G7", "G8"], "B9")
    arrange(m, hands=[["R1"], ["G2", "G3"]], draw=[], discard=["Y1", "B9", "B1", "R9"],
            spare="hand0")
    m.apply("draw")  # seat 1 must draw from an empty pile: refill first
    assert texts(m.discard_pile) == ["R9"]
    # the oldest discard (Y1) is the top of the new draw pile, so it was drawn
    assert m.hand(1)[-1] == Card("Y1") and texts(m.draw_pile) == ["B9", "B1"]
    refill = next(e for e in m.events if e.kind == "refill")
    assert refill.ncards == 3 and refill.how == "turn_over"
    check_conservation(m)


def test_t3_no_refill_before_a_card_must_be_drawn():
    m = dealt(P1, ["G2", "G3", "G4", "G5", "G6", "G7", "G8"], "B9")
    arrange(m, hands=[["R1"], ["B2", "G3"]], draw=[], discard=["Y1", "B9"], spare="hand0")
    m.apply("play B2")  # the pile is empty, but nobody draws: nothing happens to it
    assert m.draw_size == 0 and texts(m.discard_pile) == ["Y1", "B9", "B2"]


def test_t3_refill_shuffle_option_records_the_shuffle():
    m = dealt(P1, ["G2", "G3", "G4", "G5", "G6", "G7", "G8"], "B9", rules=Rules(refill="shuffle"))
    arrange(m, hands=[["R1"], ["G2", "G3"]], draw=[], discard=["Y1", "B9", "B1", "R9"])
    before = len(m.actions)
    m.apply("draw")
    chance = m.actions[before + 1]
    assert chance.is_chance and chance.kind == "shuffle"
    assert sorted(texts(chance.cards)) == ["B1", "B9", "Y1"]
    assert texts(m.discard_pile) == ["R9"] and m.draw_size == 2


def test_t3_a_wilds_colour_is_forgotten_when_it_returns_to_the_draw_pile():
    m = dealt(P1, ["W", "G2", "G3", "G4", "G5", "G6", "G7"], "B9")
    m.apply("play W G")
    arrange(m, hands=[["R1", "G8"], ["G2", "G3"]], draw=[], discard=["B9", "W"])
    assert m.color == "G"
    m.apply("play G8")
    m.apply("draw")  # refill: B9 and W go back face down; G8 stays on top
    assert m.color == "G" and m.top == Card("G8")
    assert m.hand(1)[-1] == Card("B9") and texts(m.draw_pile) == ["W"]


def test_t4_nothing_to_draw_offers_pass_even_with_playable_cards():
    m = dealt(P1, ["B1", "G2", "G3", "G4", "G5", "G6", "G7"], "B9")
    arrange(m, draw=[], spare="hand0")
    assert texts(m.legal_actions()) == ["play B1", "pass"]
    with pytest.raises(IllegalAction, match="T4"):
        m.apply("draw")


def test_t4_two_passes_in_a_row_block_the_round_and_both_score_own_hand():
    m = dealt(P1, ["G1", "G2", "G3", "G4", "G5", "G6", "G7"], "B9", rules=Rules(target=5000))
    arrange(m, hands=[["R1", "R2"], ["G1", "G9"]], draw=[], spare="hand0")
    own = (hand_points(m.hand(0)), 10)
    m.apply("pass")
    assert m.round == 1 and m.to_act == 0
    m.apply("pass")
    end = next(e for e in m.events if e.kind == "round_end")
    assert end.seat is None and end.blocked is True  # blocked: no winner
    assert end.points == own and m.scores == own  # E3: each its own hand
    assert m.round == 2 and m.rounds == ((None, own),)


def test_t4_the_pass_after_a_draw_does_not_count_toward_a_block():
    m = dealt(P1, ["B1", "G2", "G3", "G4", "G5", "G6", "G7"], "B9")
    arrange(m, hands=[["R1", "R2"], ["G1", "G9"]], draw=["B3"], spare="hand0")
    m.apply("draw")
    m.apply("pass")  # T2 pass: keeps B3
    m.apply("pass")  # seat 0: T4 pass (row of 1)
    assert m.round == 1 and m.to_act == 1


def test_t4_a_catch_between_passes_does_not_break_the_row():
    m = dealt(P1, ["B1", "G2", "G3", "G4", "G5", "G6", "G7"], "B9", rules=Rules(target=5000))
    arrange(m, hands=[["R1", "R2"], ["G2"]], draw=[], spare="hand0")
    # Set-up only: seat 1 is exposed with nothing left to draw.  (With two seats no
    # legal sequence gets here — a play always leaves two discards, so something
    # can be drawn — but the rule's mechanism must hold for every seat count.)
    m._exposed = 1
    m.apply("pass")  # seat 1: T4 pass, a row of 1
    assert m.to_act == 0 and "catch" in m.legal_actions()
    m.apply("catch")  # nothing left to draw: the catch yields nothing
    assert m.round == 1
    m.apply("pass")  # a row of 2: blocked
    assert m.round == 2 and m.rounds[0][0] is None


def test_t4_facing_a_volley_with_nothing_left_draw_yields_fewer():
    m = dealt(P1, ["B1", "G2", "G3", "G4", "G5", "G6", "G7"], "B9")
    arrange(m, hands=[["R+2", "R2"], ["B+2", "G3", "G4"]], draw=["Y5"], spare="hand0")
    m.apply("play B+2")
    m.apply("play R+2")
    assert m.to_act == 1 and m.pending_draw == 4
    m.apply("draw")  # Y5, then the refill gives B9 and B+2; then nothing is left
    draw = [e for e in m.events if e.kind == "draw"][-1]
    assert draw.ncards == 3 and texts(draw.cards) == ["Y5", "B9", "B+2"]
    assert m.draw_size == 0 and texts(m.discard_pile) == ["R+2"]
    assert m.to_act == 0 and m.phase == "turn"  # A1: the last Draw 2's player goes next


def test_t5_a_wild_names_the_colour_in_the_same_move():
    m = dealt(P1, ["W", "G2", "G3", "G4", "G5", "G6", "G7"], "B9")
    with pytest.raises(MalformedAction):
        m.apply("play W")
    with pytest.raises(IllegalAction, match="T5"):
        m.apply("colour R")
    m.apply("play W Y")
    assert m.color == "Y" and m.top == Card("W")


def _t1_playable(m, seat) -> set:
    """T1 from first principles: the seat's cards that match the top card or are wild."""
    top, colour = m.top, m.color
    return {c for c in m.hand(seat) if c.colour is None or c.colour == colour
            or c.rank == top.rank}


@pytest.mark.parametrize("rules", [
    Rules(target=100), Rules(refill="shuffle", target=100),
    Rules(preset="classic", seats=2, target=100),
    Rules(preset="classic", seats=4, stacking=True, target=100),
    Rules(preset="classic", seats=4, seven_zero=True, jump_in=True, draw_until=True,
          target=100),
    Rules(preset="classic", seats=6, stack_draw4="any", stacking=True, teams="partners",
          target=100),
], ids=["duo", "duo-shuffle", "classic-2", "classic-4-stacking", "house-7-0-jump-until",
        "house-partners-stack-any"])
def test_t1_the_table_a_match_keeps_is_the_one_the_colour_and_top_card_give(rules):
    """The turn's table (what T1 makes playable) is kept in the match between moves
    and set by each play; after every decision of random matches it is the table of
    the active colour and the top card (or none, to be looked up), and a turn offers
    exactly the plays T1 gives."""
    import random

    from engine import Match
    from engine.turn import _TURN

    choice = random.Random(7).choice
    for seed in range(4):
        m = Match.new(rules, seed=seed)
        turns = 0
        while not m.over:
            kept = m._table
            if kept is not None:
                assert kept is _TURN[m.color][m.top.rank]
            if m.phase == "turn":
                turns += 1
                seat = m.to_act
                plays = {a.card for a in m.legal_actions() if a.kind == "play"}
                assert plays == _t1_playable(m, seat)
            m.apply(choice(m.legal_actions()))
        assert turns > 100
