"""A — action cards: Draw 2 volleys, Skip, Wild, Reverse dumps, Wild Draw 4, challenges."""

import pytest

from engine import Card, IllegalAction, Rules

from .helpers import arrange, dealt, texts

P1 = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
P2 = ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]


def test_a1_draw2_opponent_may_stack_any_colour_or_draw_the_total():
    m = dealt(["Y+2", "R2", "R3", "R4", "R5", "R6", "R7"],
              ["B+2", "G+2", "G3", "G4", "G5", "G6", "G7"], "B9", draws=["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"])
    m.apply("play B+2")
    assert m.to_act == 0 and m.phase == "volley" and m.pending_draw == 2
    assert texts(m.legal_actions()) == ["play Y+2", "draw"]
    with pytest.raises(IllegalAction, match="A1"):
        m.apply("play R2")
    m.apply("play Y+2")  # any colour stacks
    assert m.to_act == 1 and m.pending_draw == 4 and m.color == "Y"
    assert texts(m.legal_actions()) == ["play G+2", "draw"]
    m.apply("play G+2")
    assert m.pending_draw == 6
    m.apply("draw")  # seat 0 takes the whole volley; that ends its turn
    assert texts(m.hand(0)[-6:]) == ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]
    assert m.to_act == 1 and m.phase == "turn"  # the last Draw 2's player goes next
    assert m.pending_draw == 0


def test_a2_skip_plays_again():
    m = dealt(P1, ["BS", "G2", "G3", "G4", "G5", "G6", "G7"], "B9")
    m.apply("play BS")
    assert m.to_act == 1 and m.phase == "turn"


def test_a3_wild_names_the_colour_and_the_turn_passes():
    m = dealt(P1, ["W", "G2", "G3", "G4", "G5", "G6", "G7"], "B9")
    m.apply("play W R")
    assert m.color == "R" and m.to_act == 0
    assert "play R1" in m.legal_actions()


def test_a4_reverse_dump_goes_in_hand_order_with_the_chosen_card_last():
    m = dealt(P1, ["BR", "B5", "G2", "B+2", "W", "B5", "BS"], "B9", draws=["Y1", "Y2"])
    m.apply("play BR")
    assert m.phase == "dump" and m.to_act == 1
    # one action per distinct card; Wilds are not of any colour
    assert texts(m.legal_actions()) == ["dump B5", "dump BS", "dump B+2", "nodump"]
    m.apply("dump B5")
    # the Reverse first, then hand order; of the twin B5s, the copy last in hand goes last
    assert texts(m.discard_pile) == ["B9", "BR", "B5", "B+2", "BS", "B5"]
    assert texts(m.hand(1)) == ["G2", "W"]
    assert m.to_act == 0 and m.phase == "turn"  # a last number passes the turn


def test_a4_last_draw2_starts_a_volley_last_skip_plays_again():
    m = dealt(P1, ["BR", "B5", "G2", "B+2", "G4", "G5", "G6"], "B9")
    m.apply("play BR")
    m.apply("dump B+2")
    assert m.to_act == 0 and m.phase == "volley" and m.pending_draw == 2
    m = dealt(P1, ["BR", "B5", "G2", "BS", "G4", "G5", "G6"], "B9")
    m.apply("play BR")
    m.apply("dump BS")
    assert m.to_act == 1 and m.phase == "turn"


def test_a4_last_reverse_passes_the_turn_and_a_reverse_never_skips():
    m = dealt(P1, ["BR", "BR", "G2", "G3", "G4", "G5", "G6"], "B9")
    m.apply("play BR")
    m.apply("dump BR")
    assert m.to_act == 0 and m.phase == "turn"
    m = dealt(P1, ["BR", "G1", "G2", "G3", "G4", "G5", "G6"], "B9")
    m.apply("play BR")  # no other blue: no dump decision at all, the turn passes
    assert m.to_act == 0 and m.phase == "turn"


def test_a4_declining_the_dump_passes_the_turn():
    m = dealt(P1, ["BR", "B5", "G2", "G3", "G4", "G5", "G6"], "B9")
    m.apply("play BR")
    m.apply("nodump")
    assert m.to_act == 0 and m.phase == "turn" and Card("B5") in m.hand(1)
    with pytest.raises(IllegalAction, match="A4"):
        m.apply("dump R1")


def test_a4_uno_belongs_to_the_move_that_leaves_one_card():
    m = dealt(P1, ["BR", "B5", "G2", "B7", "G4", "G5", "G6"], "B9")
    arrange(m, hands=[P1, ["BR", "B5", "B7", "G2"]])
    m.apply("play BR")
    assert texts(m.legal_actions()) == ["dump B5", "dump B5 uno", "dump B7", "dump B7 uno",
                                        "nodump"]
    m.apply("dump B7 uno")
    assert m.hand(1) == [Card("G2")] and m.exposed is None
    m = dealt(P1, P2, "B9")
    arrange(m, hands=[P1, ["BR", "B5"]])
    assert "play BR uno" in m.legal_actions()  # the Reverse itself leaves one card
    m.apply("play BR uno")
    assert texts(m.legal_actions()) == ["dump B5", "nodump"]  # a dump here goes out


def test_a5_wild_draw4_opponent_draws_four_and_the_player_goes_again():
    m = dealt(P1, ["W+4", "G2", "G3", "G4", "G5", "G6", "G7"], "B9", draws=["Y1", "Y2", "Y3", "Y4"])
    m.apply("play W+4 R")
    assert m.color == "R" and m.to_act == 0 and m.phase == "wd4" and m.pending_draw == 4
    assert texts(m.legal_actions()) == ["draw", "challenge"]
    m.apply("draw")
    assert texts(m.hand(0)[-4:]) == ["Y1", "Y2", "Y3", "Y4"]
    assert m.to_act == 1 and m.phase == "turn" and m.color == "R"


def test_a6_challenge_guilty_player_draws_four_challenger_plays():
    # when it played the Wild Draw 4, seat 1 held B2: a card of the active colour (blue)
    m = dealt(P1, ["W+4", "B2", "G3", "G4", "G5", "G6", "G7"], "B9", draws=["Y1", "Y2", "Y3", "Y4"])
    m.apply("play W+4 G")
    events = m.apply("challenge")
    assert [e.kind for e in events][:2] == ["reveal", "challenge"] and events[1].guilty is True
    assert texts(m.hand(1)[-4:]) == ["Y1", "Y2", "Y3", "Y4"] and len(m.hand(0)) == 7
    assert m.to_act == 0 and m.phase == "turn" and m.color == "G"  # the colour stands


def test_a6_challenge_innocent_challenger_draws_six_player_goes_again():
    m = dealt(P1, ["W+4", "G2", "G3", "G4", "G5", "G6", "G7"], "B9")
    m.apply("play W+4 R")
    m.apply("challenge")
    assert len(m.hand(0)) == 13 and len(m.hand(1)) == 6
    assert m.to_act == 1 and m.phase == "turn" and m.color == "R"


def test_a6_only_the_challenger_sees_the_shown_hand():
    m = dealt(P1, ["W+4", "G2", "G3", "G4", "G5", "G6", "G7"], "B9")
    m.apply("play W+4 R")
    m.apply("challenge")
    reveal0 = [e for e in m.view(0).events if e.kind == "reveal"][0]
    assert texts(reveal0.cards) == ["G2", "G3", "G4", "G5", "G6", "G7"]
    # the shown cards are private to the challenger: any other viewer gets none
    assert reveal0.private == 0 and reveal0.seen_by(1).cards == ()
    assert reveal0.seen_by(2).cards == ()


def test_a6_colour_match_ruling_ignores_number_matches():
    m = dealt(P1, ["W+4", "G9", "G3", "G4", "G5", "G6", "G7"], "B9")
    m.apply("play W+4 R")  # G9 matches B9 by number, not by colour: not guilty
    m.apply("challenge")
    assert len(m.hand(0)) == 13


def test_a6_any_playable_option_counts_number_matches():
    m = dealt(P1, ["W+4", "G9", "G3", "G4", "G5", "G6", "G7"], "B9",
              rules=Rules(wd4_guilty="any_playable"))
    m.apply("play W+4 R")
    m.apply("challenge")
    assert len(m.hand(1)) == 10 and len(m.hand(0)) == 7  # guilty


def test_a6_cards_drawn_after_the_wild_draw4_never_count():
    m = dealt(P1, P2, "B9", draws=["B1", "B2"])
    arrange(m, hands=[P1, ["W+4", "G2"]], draw=["B1", "B2"])
    m.apply("play W+4 R")  # leaves G2 and says no UNO: exposed
    m.apply("catch")  # seat 1 draws B1, B2 — blue, but drawn later
    assert texts(m.hand(1)) == ["G2", "B1", "B2"]
    m.apply("challenge")
    assert len(m.hand(1)) == 3  # not guilty: the challenger drew 6


def test_a6_challenge_is_only_for_a_wild_draw4():
    m = dealt(P1, P2, "B9")
    with pytest.raises(IllegalAction, match="A6"):
        m.apply("challenge")
