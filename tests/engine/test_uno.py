"""U — saying UNO, being exposed, being caught."""

import pytest

from engine import IllegalAction

from .helpers import arrange, dealt, texts

P1 = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
P2 = ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]


def _two_left(**kw):
    m = dealt(P1, P2, "B9", draws=["Y1", "Y2", "Y3"])
    return arrange(m, hands=[P1, ["B1", "G2"]], draw=["Y1", "Y2", "Y3"], **kw)


def test_u1_a_move_leaving_one_card_is_offered_with_and_without_uno():
    m = _two_left()
    assert texts(m.legal_actions()) == ["play B1", "play B1 uno", "draw"]
    m.apply("play B1 uno")
    assert m.exposed is None and "catch" not in m.legal_actions()


def test_u2_forgetting_uno_exposes_and_the_opponent_may_catch_first():
    m = _two_left()
    m.apply("play B1")
    assert m.exposed == 1 and m.to_act == 0
    assert m.legal_actions()[-1] == "catch"
    events = m.apply("catch")
    assert [e.kind for e in events] == ["catch", "draw"]
    assert texts(m.hand(1)) == ["G2", "Y1", "Y2"]
    # the catch does not use up the catcher's decision
    assert m.to_act == 0 and m.phase == "turn" and "catch" not in m.legal_actions()


def test_u2_catch_is_allowed_when_facing_a_volley_or_a_wild_draw4():
    m = dealt(P1, P2, "B9")
    arrange(m, hands=[["R+2"] + P1[1:], ["B+2", "G2"]], spare="under")
    m.apply("play B+2")
    assert texts(m.legal_actions()) == ["play R+2", "draw", "catch"]
    m = dealt(P1, P2, "B9")
    arrange(m, hands=[P1, ["W+4", "G2"]], spare="under")
    m.apply("play W+4 Y")
    assert texts(m.legal_actions()) == ["draw", "challenge", "catch"]


def test_u2_exposure_ends_when_the_opponent_makes_any_other_move():
    m = _two_left()
    m.apply("play B1")
    m.apply("draw")  # seat 0 moves on instead of catching
    assert m.exposed is None
    m.apply("pass") if m.phase == "drawn" else None
    assert "catch" not in m.legal_actions()


def test_u2_exposure_ends_when_the_hand_is_no_longer_one_card():
    m = dealt(P1, P2, "B9")
    arrange(m, hands=[P1, ["BS", "G2"]], draw=["Y1"])
    m.apply("play BS")  # exposed, plays again at once (A2)
    assert m.exposed == 1 and m.to_act == 1
    m.apply("draw")  # now two cards: the forgotten UNO goes unpunished
    assert m.exposed is None
    assert "catch" not in m.legal_actions()


def test_u2_skip_ruling_a_forgotten_uno_on_a_skip_goes_unpunished_when_going_out():
    m = dealt(P1, P2, "B9")
    arrange(m, hands=[P1, ["BS", "B2"]])
    m.apply("play BS")
    m.apply("play B2")  # out before seat 0 ever decides
    assert m.rounds[0][0] == 1


def test_u3_uno_is_not_offered_unless_one_card_is_left_and_catch_needs_an_exposed_seat():
    m = dealt(P1, ["B1", "B2", "G3", "G4", "G5", "G6", "G7"], "B9")
    assert "play B1 uno" not in m.legal_actions()
    with pytest.raises(IllegalAction, match="U3"):
        m.apply("play B1 uno")
    with pytest.raises(IllegalAction, match="U3"):
        m.apply("catch")
