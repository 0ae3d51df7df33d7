"""H1–H5 in the bots: every level plays the house rules through views only."""

import pytest

from engine import Action, Match, Rules, bots
from engine.bots.arena import run_arena

ALL = dict(seven_zero=True, stacking=True, stack_draw4="any", draw_until=True, jump_in=True)


def classic(seats=4, **options) -> Rules:
    return Rules(preset="classic", seats=seats, **options)


def position(rules, hands, to_act, top="B5", colour="B", phase="turn", **kw) -> Match:
    return Match.from_position(rules, hands=hands, draw_pile=[f"G{i}" for i in range(1, 10)],
                               discard_pile=[top], to_act=to_act, phase=phase, colour=colour,
                               p1=0, **kw)


def test_h1_normal_swaps_with_the_seat_closest_to_going_out():
    m = position(classic(seven_zero=True), [["B7", "R1", "R2", "R3", "R4"], ["Y1", "Y2", "Y3"],
                                            ["Y4"], ["Y5", "Y6"]], to_act=0)
    assert bots.make("normal").choose(m.view(0)) == "play B7 swap 2"


def test_h1_normal_keeps_its_7_when_its_hand_is_the_smallest():
    m = position(classic(seven_zero=True), [["B7", "B1"], ["Y1", "Y2", "Y3"], ["Y4", "Y5", "Y6"],
                                            ["Y7", "Y8", "Y9"]], to_act=0)
    assert bots.make("normal").choose(m.view(0)) == "play B1 uno"


def test_h1_normal_never_swaps_with_its_partner():
    m = position(classic(seven_zero=True, teams="partners"),
                 [["B7", "R1", "R2", "R3", "R4"], ["Y1", "Y2", "Y3"], ["Y4"], ["Y5", "Y6"]],
                 to_act=0)
    assert bots.make("normal").choose(m.view(0)) == "play B7 swap 3"  # seat 2 is the partner


def test_h5_normal_never_feeds_a_draw2_to_its_partner_when_another_play_is_there():
    # four seats, stacking: seat 1 hit by seat 0's Draw 2 may stack it onto seat 2
    hands = [["B+2", "B1", "R5", "R6"], ["Y1", "Y2", "Y3"], ["Y4", "Y5", "Y6"], ["G1", "G2"]]
    alone = position(classic(4, stacking=True), hands, to_act=0)
    assert bots.make("normal").choose(alone.view(0)) == "play B+2"  # no partner: it hits
    m = position(classic(4, stacking=True, teams="partners"), hands, to_act=0)
    pick = bots.make("normal").choose(m.view(0))
    assert pick.kind == "play" and pick.card.rank != "+2"
    # a Wild Draw 4 that the next seat may stack (H2) is kept off the partner alike
    hands = [["W+4", "R5", "R6", "R7"], ["Y1", "Y2", "Y3"], ["Y4", "Y5", "Y6"], ["G1", "G2"]]
    alone = position(classic(4, stack_draw4="same"), hands, to_act=0)
    assert bots.make("normal").choose(alone.view(0)) == "play W+4 R"  # no partner: it hits
    m = position(classic(4, stack_draw4="same", teams="partners"), hands, to_act=0)
    assert bots.make("normal").choose(m.view(0)) == "play R5"


def test_h2_normal_stacks_a_wild_draw_4_naming_its_colour_and_challenges_only_a_lone_one():
    rules = classic(4, stacking=True, stack_draw4="any")
    hands = [["W+4", "R1", "R2"], ["Y1", "Y2"], ["Y3", "Y4"], ["G1", "G2"]]
    m = position(rules, hands, to_act=0, top="W+4", colour="G", phase="wd4", pending=8, by=2)
    assert bots.make("normal").choose(m.view(0)) == "play W+4 R"
    m = position(rules, [["B+2", "W+4", "R1"]] + hands[1:], to_act=0, top="Y+2", colour="Y",
                 phase="volley", pending=2, by=2)
    assert bots.make("normal").choose(m.view(0)) == "play B+2"  # a Draw 2 first
    m = position(rules, [["R1", "R2"]] + hands[1:], to_act=0, top="W+4", colour="G",
                 phase="wd4", pending=8, by=2)
    assert bots.make("normal").choose(m.view(0)) == "draw"


def test_h4_normal_jumps_in_at_once_saying_uno_easy_now_and_then():
    rules = classic(4, jump_in=True)
    m = position(rules, [["G1", "G2"], ["B9", "B1"], ["Y1", "Y2"], ["B9", "R1"]], to_act=1)
    m.apply("play B9 uno")
    view = m.view(3)
    assert bots.make("normal").jump(view) == "jump B9 uno"
    assert bots.make("normal").jump(m.view(0)) is None
    easy = bots.make("easy", seed=1)
    seen = {easy.jump(view) for _ in range(20)}
    assert None in seen and (seen - {None}) <= set(view.legal_actions) and len(seen) > 1


@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
def test_h_every_level_plays_every_house_rule_through_views(level, monkeypatch):
    seen = []
    real = Match.view

    def spy(self, seat):
        seen.append(seat)
        return real(self, seat)

    monkeypatch.setattr(type(Match.new(classic(4, **ALL), seed=1)), "view", spy)
    rules = classic(4, teams="partners", target=100, **ALL)
    result = run_arena((level, "easy", level, "easy"), 1, 3, rules=rules, simulations=2)
    assert result.matches == 1 and result.rounds >= 1 and seen
    assert sum(s.wins for s in result.sides) in (0, 2)  # partners share a win


def test_h_hard_searches_a_swap_with_the_options_on():
    rules = classic(4, **ALL)
    m = Match.new(rules, seed=5)
    hard = bots.make("hard", seed=1, simulations=8)
    searched = 0
    for _ in range(400):
        if m.over:
            break
        view = m.view(m.to_act)
        action = hard.choose(view)
        assert action in view.legal_actions
        searched += hard.last_worlds > 0
        m.apply(action)
    assert searched > 0


def test_h5_the_hard_bot_and_the_review_count_a_partners_win_as_their_own():
    from engine.bots.hard_classic import MATCH_WEIGHT, WIN_WEIGHT, outcome_value, round_value
    from engine.review import Reviewer

    rules = classic(4, teams="partners", target=100)
    # seat 2 went out: seats 0 and 2 score 40 — seat 0's partner won
    assert outcome_value(2, (40, 0, 40, 0), 0, 4, rules, (0, 0, 0, 0)) == pytest.approx(
        WIN_WEIGHT + 0.4)
    assert outcome_value(2, (40, 0, 40, 0), 1, 4, rules, (0, 0, 0, 0)) == pytest.approx(
        -WIN_WEIGHT - 0.4)
    # the round takes the team to the target: the match is won by both partners
    assert outcome_value(2, (40, 0, 40, 0), 2, 4, rules, (70, 0, 70, 0)) == MATCH_WEIGHT
    assert outcome_value(2, (40, 0, 40, 0), 0, 4, rules, (70, 0, 70, 0)) == MATCH_WEIGHT
    assert outcome_value(2, (40, 0, 40, 0), 3, 4, rules, (70, 0, 70, 0)) == -MATCH_WEIGHT
    m = position(rules, [["G1", "G2"], ["R1", "R2", "R3"], ["B9"], ["Y1"]], to_act=2)
    m = m.search_copy()  # as a review's rollout: it ends with the round
    m.push(Action.parse("play B9"))  # seat 2 goes out
    assert [Reviewer(rules).win_chance(m, m.view(s)) for s in range(4)] == [1.0, 0.0, 1.0, 0.0]
    cut = position(rules, [["G1", "G2"], ["R7", "R8", "R9"], ["B9"], ["Y1"]], to_act=2)
    # a rollout cut short counts each team's hands together: 3 + 9 against 24 + 1
    assert round_value(cut, 0, cut.round) == pytest.approx((25 - 12) / 400)
    assert round_value(cut, 3, cut.round) == pytest.approx((12 - 25) / 400)
