"""H — house rules and team play for classic UNO, one test per clause on stacked decks
(and O's new rows).  Seats are dealt by ``dealt`` (dealer 0: seat 1 plays first)."""

import pytest

from engine import ActionError, IllegalAction, Match, Rules, describe
from engine.house import HouseMatch
from engine.savefile import Encoder, Header, load

from .helpers import check_conservation, texts
from .test_classic import classic, dealt

NAMES = ("A", "B", "C", "D", "E", "F")


def four(seat1=(), seat2=(), seat3=(), seat0=()) -> list:
    """Four hands of seven: the given cards first, then harmless numbers (seat 0 green,
    1 blue, 2 yellow, 3 red fives-to-nines: nobody can follow anybody by accident)."""
    fill = {0: ["G1", "G2", "G3", "G4", "G6", "G8", "G9"], 1: ["B1", "B2", "B3", "B4", "B6", "B8", "B9"],
            2: ["Y1", "Y2", "Y3", "Y4", "Y6", "Y8", "Y9"], 3: ["R1", "R2", "R3", "R4", "R6", "R8", "R9"]}
    out = []
    for s, given in enumerate((seat0, seat1, seat2, seat3)):
        out.append(list(given) + fill[s][:7 - len(given)])
    return out


# -- O: the new options --------------------------------------------------------------

def test_o_house_rules_are_classic_only_and_uno_duo_refuses_them():
    for name, value in (("seven_zero", True), ("stack_draw4", "same"), ("draw_until", True),
                        ("jump_in", True), ("teams", "partners")):
        with pytest.raises(ValueError, match="only exists in the classic preset"):
            Rules(**{name: value})
    assert type(Match.new(Rules(), seed=1)) is Match
    assert type(Match.new(classic(4), seed=1)) is not HouseMatch


def test_o_stack_draw4_any_needs_stacking_and_partners_need_an_even_table():
    with pytest.raises(ValueError, match="needs stacking=on"):
        classic(4, stack_draw4="any")
    assert classic(4, stack_draw4="any", stacking=True).stack_draw4 == "any"
    for seats in (2, 3, 5, 7, 9):
        with pytest.raises(ValueError, match="4, 6, 8 or 10 players"):
            classic(seats, teams="partners")
    for seats in (4, 6, 8, 10):
        assert classic(seats, teams="partners").partner(0) == seats // 2
    with pytest.raises(ValueError, match="stack_draw4"):
        classic(4, stack_draw4="all")


def test_o_house_rules_are_stored_only_when_on_and_round_trip():
    plain = classic(4)
    assert not {"seven_zero", "stack_draw4", "draw_until", "jump_in", "teams"} & set(plain.to_dict())
    rules = classic(4, seven_zero=True, stacking=True, stack_draw4="any", draw_until=True,
                    jump_in=True, teams="partners")
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict(plain.to_dict()) == plain and not plain.house and rules.house


# -- H1: Seven-O ---------------------------------------------------------------------

def test_h1_a_7_swaps_hands_with_the_seat_chosen_one_action_per_other_seat():
    hands = four(seat1=["B7"])
    m = dealt(hands, "B5", seven_zero=True)
    legal = texts(m.legal_actions())
    assert [a for a in legal if a.startswith("play B7")] == [
        "play B7 swap 0", "play B7 swap 2", "play B7 swap 3"]
    with pytest.raises(IllegalAction, match="H1"):
        m.apply("play B7")
    before1, before3 = m.hand(1), m.hand(3)
    m.apply("play B7 swap 3")
    assert m.hand(1) == before3 and m.hand(3) == before1[1:]  # a received hand keeps its order
    assert m.to_act == 2 and m.top.text == "B7"
    check_conservation(m)


def test_h1_a_swap_is_public_as_counts_each_seat_sees_only_the_hand_it_holds():
    m = dealt(four(seat1=["B7"]), "B5", seven_zero=True)
    m.apply("play B7 swap 3")
    for seat in range(4):
        v = m.view(seat)
        assert v.hand == tuple(m.hand(seat))
        for e in v.events:
            if e.kind == "receive" and e.seat != seat:
                assert e.cards == ()
    text = [describe(e, NAMES, 0) for e in m.view(0).events[-3:]]
    assert text == ["B swaps hands with D.", "B now holds D's hand (7 cards).",
                    "D now holds B's hand (6 cards)."]
    mine = describe(m.view(3).events[-1], NAMES, 3)
    assert mine.startswith("You now hold B's hand: B1 ")


def test_h1_a_0_passes_every_hand_on_in_the_direction_of_play():
    m = dealt(four(seat1=["B0"]), "B5", seven_zero=True)
    assert "play B0" in m.legal_actions()
    before = [m.hand(s) for s in range(4)]
    before[1] = before[1][1:]
    m.apply("play B0")
    for s in range(4):
        assert m.hand((s + 1) % 4) == before[s]
    assert m.direction == 1 and m.to_act == 2
    assert describe(m.events[-5], NAMES) == "B plays a 0: every hand passes to the left."


def test_h1_a_7_or_0_that_is_the_last_card_goes_out_without_a_swap():
    m = Match.from_position(classic(3, seven_zero=True), hands=[["B7"], ["Y1", "Y2"], ["G1"]],
                            draw_pile=["R1"] * 1, discard_pile=["B5"], to_act=0, phase="turn",
                            colour="B", p1=0)
    assert texts(m.legal_actions()) == ["play B7", "draw"]
    m.apply("play B7")
    assert m.rounds[-1][0] == 0


def test_h1_nobody_is_exposed_after_a_swap_and_uno_is_never_part_of_it():
    m = Match.from_position(classic(3, seven_zero=True), hands=[["B7", "B0"], ["Y1"], ["G1", "G2"]],
                            draw_pile=["R1"], discard_pile=["B5"], to_act=0, phase="turn",
                            colour="B", p1=0)
    assert not any(a.uno for a in m.legal_actions())  # both cards move hands
    m.apply("play B7 swap 1")
    assert m.hand_sizes == (1, 1, 2) and m.exposed is None
    assert "catch" not in m.legal_actions()


# -- H2: stacking Wild Draw 4s --------------------------------------------------------

def test_h2_same_a_wild_draw_4_is_stacked_on_a_wild_draw_4_and_the_last_seat_draws_all():
    m = dealt(four(seat1=["W+4"], seat2=["W+4"]), "B5", stack_draw4="same")
    m.apply("play W+4 R")
    assert m.phase == "wd4" and "play W+4 G" in m.legal_actions() and "challenge" in m.legal_actions()
    m.apply("play W+4 G")
    assert m.to_act == 3 and m.pending_draw == 8 and m.color == "G"
    assert "challenge" not in m.legal_actions()  # once stacked, nobody may challenge
    with pytest.raises(IllegalAction, match="H2: once a Wild Draw 4 is stacked on"):
        m.apply("challenge")
    assert describe(m.events[-1], NAMES) == "C stacks W+4 and names green — volley at 8."
    m.apply("draw")
    assert len(m.hand(3)) == 15 and m.to_act == 0
    assert "takes the volley" in describe(m.events[-1], NAMES)


def test_h2_a_lone_wild_draw_4_may_be_challenged_as_c8():
    m = dealt(four(seat1=["W+4", "B2"], seat2=["W+4"]), "B5", stack_draw4="same")
    m.apply("play W+4 R")  # guilty: seat 1 held blue
    m.apply("challenge")
    assert len(m.hand(1)) == 6 + 4 and m.to_act == 2 and m.phase == "turn"


def test_h2_any_a_wild_draw_4_goes_on_a_draw2_volley_never_a_draw2_on_a_wild_draw_4():
    m = dealt(four(seat1=["B+2"], seat2=["W+4"], seat3=["R+2", "W+4"]), "B5", stacking=True,
              stack_draw4="any")
    m.apply("play B+2")
    assert "play W+4 Y" in m.legal_actions()
    m.apply("play W+4 Y")
    assert m.phase == "wd4" and m.pending_draw == 6 and m.to_act == 3
    legal = texts(m.legal_actions())
    assert "play R+2" not in legal and "play W+4 R" in legal and "challenge" not in legal
    with pytest.raises(IllegalAction, match="H2: a Draw 2 is never stacked"):
        m.apply("play R+2")


def test_h2_same_never_puts_a_wild_draw_4_on_a_draw2():
    m = dealt(four(seat1=["B+2"], seat2=["W+4"]), "B5", stacking=True, stack_draw4="same")
    m.apply("play B+2")
    assert not any(a.card is not None and a.card.rank == "W+4" for a in m.legal_actions())


def test_h2_going_out_on_a_stacked_wild_draw_4_makes_the_next_seat_draw_the_total():
    m = Match.from_position(classic(3, stack_draw4="same", target=10_000),
                            hands=[["G1", "G2"], ["W+4"], ["Y1", "Y2"]],
                            draw_pile=["R1"] * 0 + [f"B{i}" for i in range(1, 10)],
                            discard_pile=["B5", "W+4"], to_act=1, phase="wd4", colour="R",
                            p1=0, pending=4, by=2)
    m.apply("play W+4 G")
    last = [e for e in m.events if e.kind == "draw" and e.why == "last"]
    assert m.rounds[-1][0] == 1 and [(e.seat, e.ncards) for e in last] == [(2, 8)]


# -- H3: draw until playable ---------------------------------------------------------

def test_h3_a_turns_draw_goes_on_until_a_playable_card_each_its_own_draw():
    m = dealt(four(), "B5", draws=["R1", "G2", "Y3", "B7"], draw_until=True)
    events = m.apply("draw")
    draws = [e for e in events if e.kind == "draw"]
    assert [e.cards[0].text for e in draws] == ["R1", "G2", "Y3", "B7"]
    assert m.phase == "drawn" and m.drawn.text == "B7" and texts(m.legal_actions()) == [
        "play B7", "pass"]
    assert [e.cards for e in m.view(0).events[-4:]] == [()] * 4  # others see only counts


def test_h3_penalty_draws_stay_exact():
    m = dealt(four(seat1=["B+2"]), "B5", draws=["R1", "G2", "Y3"], draw_until=True)
    m.apply("play B+2")
    m.apply("draw")
    assert len(m.hand(2)) == 9


def test_h3_when_the_cards_run_out_the_turn_passes_at_once():
    m = Match.from_position(classic(3, draw_until=True), hands=[["G1", "G2"], ["Y1"], ["Y2"]],
                            draw_pile=["R1", "R2"], discard_pile=["B5"], to_act=0, phase="turn",
                            colour="B", p1=0)
    m.apply("draw")
    assert m.hand_sizes == (4, 1, 1) and m.to_act == 1 and m.phase == "turn"
    assert m.blocked_passes == 0


# -- H4: jump-in ---------------------------------------------------------------------

def test_h4_a_seat_holding_the_identical_card_jumps_in_and_play_goes_on_from_it():
    m = dealt(four(seat1=["B9"], seat3=["B9"]), "B5", jump_in=True)
    m.apply("play B9")
    assert m.to_act == 2
    assert texts(m.legal_actions(3)) == ["jump B9"]
    assert m.view(3).legal_actions == m.legal_actions(3)
    assert m.legal_actions(0) == () and m.view(0).legal_actions == ()
    events = m.apply("jump B9", seat=3)
    assert events[0].kind == "jump" and describe(events[0], NAMES) == "D jumps in with B9."
    assert m.to_act == 0 and m.top.text == "B9"  # seat 2 lost its turn
    check_conservation(m)


def test_h4_the_window_closes_with_the_next_decision_too_late_after():
    m = dealt(four(seat1=["B9"], seat0=["B9"]), "B5", jump_in=True)
    m.apply("play B9")
    assert texts(m.legal_actions(0)) == ["jump B9"]
    m.apply("draw")  # seat 2's decision
    assert m.legal_actions(0) == ()
    with pytest.raises(IllegalAction, match="too late"):
        m.apply("jump B9", seat=0)


def test_h4_never_on_a_wild_or_with_a_draw_pending_nor_by_the_seat_to_act():
    m = dealt(four(seat1=["B+2"], seat3=["B+2"]), "B5", jump_in=True)
    m.apply("play B+2")
    assert m.legal_actions(3) == ()  # seat 2 faces the Draw 2
    m2 = dealt(four(seat1=["B9"], seat2=["B9"]), "B5", jump_in=True)
    m2.apply("play B9")
    assert "play B9" in m2.legal_actions() and not any(a.kind == "jump" for a in m2.legal_actions())
    m3 = dealt(four(seat1=["W"], seat3=["W"]), "B5", jump_in=True)
    m3.apply("play W R")
    assert m3.legal_actions(3) == ()
    with pytest.raises(ActionError, match="not an action"):
        m3.apply("jump W", seat=3)  # a Wild has no jump action at all


def test_h4_a_jumped_skip_skips_the_seat_after_the_jumper_a_jumped_reverse_turns_play():
    m = dealt(four(seat1=["BS"], seat3=["BS"]), "B5", jump_in=True)
    m.apply("play BS")
    assert m.to_act == 3 and texts(m.legal_actions(2)) == []  # seat 3 holds the twin, acts
    m = dealt(four(seat1=["BS"], seat0=["BS"]), "B5", jump_in=True)
    m.apply("play BS")  # skips seat 2; seat 0 may jump, and so may the skipped seat
    m.apply("jump BS", seat=0)
    assert m.to_act == 2
    m = dealt(four(seat1=["BR"], seat3=["BR"]), "B5", jump_in=True)
    m.apply("play BR")
    assert m.to_act == 0
    m.apply("jump BR", seat=3)
    assert m.direction == 1 and m.to_act == 0


def test_h4_a_jump_leaving_one_card_says_uno_or_is_caught_from_the_jumper_on():
    m = Match.from_position(classic(4, jump_in=True),
                            hands=[["G1", "G2"], ["B9", "B1", "B2"], ["Y1", "Y2"], ["B9", "R1"]],
                            draw_pile=["R2", "R3", "R4"], discard_pile=["B5"], to_act=1,
                            phase="turn", colour="B", p1=1)
    m.apply("play B9")
    assert texts(m.legal_actions(3)) == ["jump B9", "jump B9 uno"]
    m.apply("jump B9", seat=3)
    assert m.to_act == 0 and "catch" in m.legal_actions()
    m.apply("catch")
    assert len(m.hand(3)) == 3


def test_h4_a_catch_does_not_close_the_window_a_jump_closes_the_catch_window():
    m = Match.from_position(classic(4, jump_in=True),
                            hands=[["G1", "G2"], ["B9", "B1"], ["Y1", "Y2"], ["B9", "R1", "R2"]],
                            draw_pile=["R3", "R4", "R5"], discard_pile=["B5"], to_act=1,
                            phase="turn", colour="B", p1=1)
    m.apply("play B9")  # seat 1 forgets UNO
    assert "catch" in m.legal_actions() and m.to_act == 2
    m.apply("jump B9", seat=3)
    assert m.exposed is None and "catch" not in m.legal_actions()
    m = Match.from_position(classic(4, jump_in=True),
                            hands=[["G1", "G2"], ["B9", "B1"], ["Y1", "Y2"], ["B9", "R1", "R2"]],
                            draw_pile=["R3", "R4", "R5"], discard_pile=["B5"], to_act=1,
                            phase="turn", colour="B", p1=1)
    m.apply("play B9")
    m.apply("catch")
    assert texts(m.legal_actions(3)) == ["jump B9"]


def test_h4_a_replay_of_a_jump_in_rebuilds_the_same_match():
    m = dealt(four(seat1=["B9"], seat3=["B9"]), "B5", jump_in=True)
    m.apply("play B9")
    m.apply("jump B9", seat=3)
    again = Match.replay(m.rules, m.actions, seed=m.seed)
    assert again.events == m.events and again.to_act == m.to_act


# -- H5: partners --------------------------------------------------------------------

def test_h5_partners_score_as_a_team_the_winner_is_its_lower_seat():
    m = Match.from_position(classic(4, teams="partners", target=50),
                            hands=[["G1", "G2"], ["B9"], ["Y1", "Y2"], ["R9", "R8"]],
                            draw_pile=["R3"], discard_pile=["B5"], to_act=1, phase="turn",
                            colour="B", p1=1)
    m.apply("play B9")
    # team of seats 1 and 3 scores seats 0 and 2's cards, never the partner's
    assert m.rounds[-1][1] == (0, 6, 0, 6) and m.scores == (0, 6, 0, 6)
    m2 = Match.from_position(classic(4, teams="partners", target=5),
                             hands=[["G1", "G2"], ["B9"], ["Y1", "Y2"], ["R9", "R8"]],
                             draw_pile=["R3"], discard_pile=["B5"], to_act=1, phase="turn",
                             colour="B", p1=1, seed=3)
    m2.apply("play B9")
    assert m2.over and m2.winner == 1


def test_h5_own_hand_each_team_adds_both_partners_hands():
    m = Match.from_position(classic(4, teams="partners", scoring="own_hand"),
                            hands=[["G1", "G2"], ["B9"], ["Y1", "Y2"], ["R9", "R8"]],
                            draw_pile=["R3"], discard_pile=["B5"], to_act=1, phase="turn",
                            colour="B", p1=1)
    m.apply("play B9")
    assert m.rounds[-1][1] == (6, 17, 6, 17)


def test_h5_a_partners_hand_stays_hidden():
    m = dealt(four(), "B5", teams="partners")
    v = m.view(0)
    partner = m.rules.partner(0)
    for e in v.events:
        if e.kind == "dealt" and e.seat == partner:
            assert e.cards == ()


# -- the save file -------------------------------------------------------------------

def test_h_a_match_with_every_house_rule_saves_and_loads_exactly():
    m = dealt(four(seat1=["B7", "B9"], seat3=["B9"]), "B5", seven_zero=True, stacking=True,
              stack_draw4="any", draw_until=True, jump_in=True, teams="partners")
    m.apply("play B9")
    m.apply("jump B9", seat=3)
    m.apply("draw")
    header = Header("house", m.rules, m.seed, tuple((n, "human") for n in NAMES[:4]),
                    "2026-12-02T00:00:00+00:00", "0.1.0")
    enc = Encoder()
    decoded, again = load(enc.start(header) + enc.entries(m.actions))
    assert decoded.header.rules == m.rules and decoded.entries == m.actions
    assert again.events == m.events


# -- H6: the rulings where H1–H5 are thin --------------------------------------------

def test_h6_h1_a_drawn_7_is_played_only_with_a_swap():
    m = dealt(four(), "B5", draws=["B7"], seven_zero=True)
    m.apply("draw")
    assert m.phase == "drawn" and texts(m.legal_actions()) == [
        "play B7 swap 0", "play B7 swap 2", "play B7 swap 3", "pass"]


def test_h6_h1_a_jumped_7_swaps_too_and_a_partner_may_be_swapped_with():
    m = dealt(four(seat1=["B7"], seat3=["B7"]), "B5", seven_zero=True, jump_in=True,
              teams="partners")
    assert "play B7 swap 3" in texts(m.legal_actions())  # seat 3 is seat 1's partner
    m.apply("play B7 swap 2")
    assert texts(m.legal_actions(3)) == ["jump B7 swap 0", "jump B7 swap 1", "jump B7 swap 2"]
    with pytest.raises(IllegalAction, match="H1"):
        m.apply("jump B7", seat=3)
    before = m.hand(0)
    m.apply("jump B7 swap 0", seat=3)
    assert m.hand(3) == before and m.to_act == 0 and len(m.hand(0)) == 6


def test_h6_h2_nothing_is_stacked_on_a_start_card_draw2():
    m = dealt(four(seat1=["B+2", "W+4"]), "G+2", stacking=True, stack_draw4="any")
    assert m.to_act == 1 and m.phase == "volley" and texts(m.legal_actions()) == ["draw"]


def test_h6_h2_the_victim_of_a_lone_wild_draw_4_may_stack_challenge_draw_or_catch_first():
    m = Match.from_position(classic(4, stack_draw4="same"),
                            hands=[["G1", "G2"], ["W+4", "B1"], ["Y1", "Y2", "W+4"], ["R1", "R2"]],
                            draw_pile=[f"R{i}" for i in range(3, 10)], discard_pile=["B5"],
                            to_act=1, phase="turn", colour="B", p1=1)
    m.apply("play W+4 R")  # seat 1 forgets UNO
    legal = texts(m.legal_actions())
    assert {"play W+4 G", "draw", "challenge", "catch"} <= set(legal)
    m.apply("catch")
    assert len(m.hand(1)) == 3 and "challenge" in texts(m.legal_actions())


def test_h6_h3_a_drawn_wild_is_playable_and_stops_the_drawing():
    m = dealt(four(), "B5", draws=["R1", "W", "B7"], draw_until=True)
    m.apply("draw")
    assert m.phase == "drawn" and m.drawn.text == "W" and len(m.hand(1)) == 9
    assert "play W G" in texts(m.legal_actions()) and m.draw_pile[0].text == "B7"


def test_h6_h4_the_window_opens_after_a_drawn_cards_play_never_on_the_start_card():
    m = dealt(four(seat2=["B5"]), "B5", jump_in=True)
    assert m.to_act == 1 and m.legal_actions(2) == ()  # the start card opens no window
    m = dealt(four(seat3=["B7"]), "B5", draws=["B7"], jump_in=True)
    m.apply("draw")
    m.apply("play B7")  # T2: the drawn card
    assert texts(m.legal_actions(3)) == ["jump B7"]


def test_h6_h4_with_two_seats_the_other_seat_may_jump_after_a_skip_or_a_reverse():
    for card in ("BS", "BR"):
        m = Match.from_position(classic(2, jump_in=True), hands=[[card, "G1", "G2"], [card, "Y1"]],
                                draw_pile=["R3", "R4", "R5"], discard_pile=["B5"], to_act=0,
                                phase="turn", colour="B", p1=0)
        m.apply(f"play {card}")
        assert m.to_act == 0 and texts(m.legal_actions(1)) == [f"jump {card}", f"jump {card} uno"]
        m.apply(f"jump {card} uno", seat=1)
        assert m.hand_sizes == (2, 1) and m.to_act == 1  # the jumper's own effect: again


def test_h6_h4_a_jump_in_that_empties_the_hand_goes_out():
    m = Match.from_position(classic(4, jump_in=True, target=10_000),
                            hands=[["G1", "G2"], ["B9", "B1", "B2"], ["Y1", "Y2"], ["B9"]],
                            draw_pile=["R3", "R4", "R5"], discard_pile=["B5"], to_act=1,
                            phase="turn", colour="B", p1=1)
    m.apply("play B9")
    assert texts(m.legal_actions(3)) == ["jump B9"]  # no "uno": it leaves no card
    m.apply("jump B9", seat=3)
    assert m.rounds[-1] == (3, (0, 0, 0, 9)) and m.round == 2


def test_h6_h4_a_seat_not_to_act_is_offered_its_jump_ins_only_never_a_catch():
    m = Match.from_position(classic(4, jump_in=True),
                            hands=[["G1", "G2"], ["B9", "B1"], ["Y1", "Y2"], ["B9", "R1", "R2"]],
                            draw_pile=["R3", "R4", "R5"], discard_pile=["B5"], to_act=1,
                            phase="turn", colour="B", p1=1)
    m.apply("play B9")  # seat 1 forgets UNO: seat 2, to act, may catch
    assert "catch" in texts(m.legal_actions())
    assert texts(m.legal_actions(3)) == ["jump B9"] and m.legal_actions(0) == ()
    with pytest.raises(IllegalAction):
        m.apply("catch", seat=3)


def test_h6_h5_a_blocked_round_scores_nothing_under_winner_takes():
    m = Match.from_position(classic(4, teams="partners"),
                            hands=[["G1", "G2"], ["B1", "B2"], ["Y3", "Y4"], ["G3", "B4"]],
                            draw_pile=[], discard_pile=["R5"], to_act=0, phase="turn",
                            colour="R", p1=0, dealer=3)
    for _ in range(4):
        m.apply("pass")
    assert m.rounds[0] == (None, (0, 0, 0, 0)) and m.scores == (0, 0, 0, 0)


def test_h6_h5_under_own_hand_teams_tied_for_lowest_share_the_win():
    m = Match.from_position(classic(4, teams="partners", scoring="own_hand", target=10),
                            hands=[["G1", "G2"], ["B1", "B2"], ["Y3", "Y4"], ["G3", "B4"]],
                            draw_pile=[], discard_pile=["R5"], to_act=0, phase="turn",
                            colour="R", p1=0, dealer=3)
    for _ in range(4):
        m.apply("pass")
    assert m.scores == (10, 10, 10, 10) and m.over and m.winner is None


def test_h6_h5_the_next_seat_is_an_opponent_whose_e1_draw_counts_for_the_scoring_team():
    for seats in (4, 6, 8, 10):
        rules = classic(seats, teams="partners")
        assert all(rules.team(s) != rules.team((s + 1) % seats) for s in range(seats))
    m = Match.from_position(classic(4, teams="partners", target=10_000),
                            hands=[["G1", "G2"], ["B+2"], ["Y1", "Y2"], ["R9", "R8"]],
                            draw_pile=["R3", "R4", "R5"], discard_pile=["B5"], to_act=1,
                            phase="turn", colour="B", p1=1)
    m.apply("play B+2")
    # seat 2 drew R3 R4 (E1): seats 1 and 3 score seats 0 and 2's 3 + 3 + 7 points
    assert m.rounds[-1] == (1, (0, 13, 0, 13))


def test_h4_the_replay_cursor_names_the_jumper_as_the_seat_that_decided():
    from engine.replay import ReplayCursor

    m = dealt(four(seat1=["B9"], seat3=["B9"]), "B5", jump_in=True)
    m.apply("play B9")
    m.apply("jump B9", seat=3)
    m.apply("draw")
    cursor = ReplayCursor.of(m)
    assert [str(cursor.decision(p)) for p in range(1, cursor.count + 1)] == [
        "play B9", "jump B9", "draw"]
    assert [cursor.actor(p) for p in range(1, cursor.count + 1)] == [1, 3, 0]


def test_h2_h4_the_record_counts_a_stacked_wild_draw_4_volley_and_a_jump_in_going_out():
    from engine.tally import tally

    m = dealt(four(seat1=["W+4"], seat2=["W+4"]), "B5", stack_draw4="same", target=10_000)
    m.apply("play W+4 R")
    m.apply("play W+4 G")
    m.apply("draw")  # seat 3 takes the volley of 8
    counts = tally(m).seats
    assert (counts[3].volley_taken, counts[2].volley_dealt) == (8, 8)
    m = Match.from_position(classic(4, jump_in=True, target=10_000),
                            hands=[["BS"], ["BS", "B1", "B2"], ["Y1", "Y2"], ["G1", "G2"]],
                            draw_pile=["R3", "R4", "R5"], discard_pile=["B5"], to_act=1,
                            phase="turn", colour="B", p1=1)
    m.apply("play BS")
    m.apply("jump BS", seat=0)  # seat 0 goes out on an action card, out of turn
    counts = tally(m).seats
    assert (counts[0].rounds_won, counts[0].action_outs) == (1, 1)
