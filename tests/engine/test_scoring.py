"""E — end of round, scoring, end of match."""

from engine import Card, Match, Rules
from engine.cards import hand_points

from .helpers import arrange, check_conservation, dealt, texts

P1 = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
P2 = ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]


def test_e1_going_out_ends_the_round_at_once_and_the_next_round_is_set_up():
    m = dealt(P1, P2, "B9")
    arrange(m, hands=[["R1", "W"], ["B1"]], spare="under")
    events = m.apply("play B1")
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["play", "round_end"] and "round" in kinds
    end = events[1]
    assert end.seat == 1 and end.hands[1] == () and texts(end.hands[0]) == ["R1", "W"]
    assert m.round == 2 and m.phase == "draft" and m.scores == (16, 0)
    check_conservation(m)


def test_e1_a_last_draw2_is_still_drawn_no_stacking():
    m = dealt(P1, P2, "B9", draws=["Y1", "Y2"])
    arrange(m, hands=[["R+2", "R1"], ["B+2"]], draw=["Y1", "Y2"], spare="under")
    events = m.apply("play B+2")
    draw = next(e for e in events if e.kind == "draw")
    assert draw.seat == 0 and draw.why == "last" and texts(draw.cards) == ["Y1", "Y2"]
    assert m.scores == (10 + 1 + 1 + 2, 0)


def test_e1_a_stacked_last_draw2_draws_the_whole_volley():
    m = dealt(P1, P2, "B9")
    arrange(m, hands=[["R+2", "R1"], ["B+2", "G+2"]], draw=["Y1", "Y2", "Y3", "Y4", "Y5"],
            spare="under")
    m.apply("play B+2 uno")
    m.apply("play R+2")
    events = m.apply("play G+2")
    draw = next(e for e in events if e.kind == "draw")
    assert draw.ncards == 6 and texts(draw.cards[:5]) == ["Y1", "Y2", "Y3", "Y4", "Y5"]
    assert m.rounds[0] == (1, (1 + 15 + draw.cards[5].points, 0))  # R1 + the volley


def test_e1_a_last_wild_draw4_is_drawn_without_challenge():
    m = dealt(P1, P2, "B9")
    arrange(m, hands=[["R1"], ["W+4"]], draw=["Y1", "Y2", "Y3", "Y4"], spare="under")
    events = m.apply("play W+4 R")
    assert [e.kind for e in events][:3] == ["play", "draw", "round_end"]
    assert m.scores == (1 + 1 + 2 + 3 + 4, 0)


def test_e1_a_last_card_dump_with_draw2_last_is_drawn():
    m = dealt(P1, P2, "B9")
    arrange(m, hands=[["R1"], ["BR", "B3", "B+2"]], draw=["Y1", "Y2"], spare="under")
    m.apply("play BR")
    m.apply("dump B+2")
    assert m.rounds[0] == (1, (1 + 1 + 2, 0))


def test_e2_the_seat_that_went_out_scores_zero_points_add_over_rounds():
    m = dealt(P1, P2, "B9")
    arrange(m, hands=[["R5", "W+4", "GS"], ["B1"]], spare="under")
    m.apply("play B1")
    assert m.scores == (35, 0)
    assert m.rounds == ((1, (35, 0)),)


def test_e3_blocked_round_each_scores_own_hand_covered_in_t4():
    # see test_turn.test_t4_two_passes_in_a_row_block_the_round_and_both_score_own_hand
    m = dealt(P1, P2, "B9", rules=Rules(target=10_000))
    arrange(m, hands=[["R1", "R2"], ["G3"]], draw=[], spare="hand1")
    pts = (3, hand_points(m.hand(1)))
    m.apply("pass")
    m.apply("pass")
    assert m.rounds == ((None, pts),) and m.scores == pts


def test_e4_the_match_ends_when_a_seat_reaches_the_target_lower_total_wins():
    m = dealt(P1, P2, "B9", rules=Rules(target=30))
    arrange(m, hands=[["R5", "W+4", "GS"], ["B1"]], spare="under")
    events = m.apply("play B1")
    assert m.over and m.winner == 1 and m.to_act is None and m.legal_actions() == ()
    assert events[-1].kind == "match_end" and events[-1].seat == 1
    assert m.phase == "over"


def test_e4_equal_totals_after_a_blocked_round_are_a_draw():
    m = dealt(P1, P2, "B9", rules=Rules(target=5))
    # every card but the top (B0) in the hands, 400 points each; nothing to draw
    half = [str(c) for c in Card.by_code if c.rank != "0"]
    wilds = ["W"] * 3 + ["W+4"]  # plus the W and W+4 already in `half`
    arrange(m, hands=[half + wilds + ["R0", "Y0", "G0"], half + wilds], draw=[],
            discard=["B0"])
    assert hand_points(m.hand(0)) == hand_points(m.hand(1)) == 400
    m.apply("pass")
    m.apply("pass")
    assert m.over and m.winner is None and m.scores == (400, 400)
    assert "a draw" in Match.describe(m, m.events[-1], ["A", "B"])
