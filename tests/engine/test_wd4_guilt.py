"""A6 / C8: a challenged Wild Draw 4 is guilty exactly as the rule reads on the hand it
left behind — checked against a plain reading of the cards, both presets, both
``wd4_guilty`` choices, over seeded random matches that challenge every Wild Draw 4."""

import random

import pytest

from engine import Match, Rules


def guilty_by_reading(rest, colour, top, rule) -> bool:
    if rule == "colour_match":
        return any(c.colour == colour for c in rest)
    return any(not c.is_wild and (c.colour == colour or c.rank == top.rank) for c in rest)


@pytest.mark.parametrize("preset,seats", [("duo", 2), ("classic", 2), ("classic", 4)])
@pytest.mark.parametrize("rule", ["colour_match", "any_playable"])
def test_a6_challenge_verdict_reads_the_hand_left_after_the_wild_draw_4(preset, seats, rule):
    rules = Rules(preset=preset, seats=seats, wd4_guilty=rule)
    checked = {True: 0, False: 0}
    for seed in range(12):
        m = Match.new(rules, seed=seed)
        pick = random.Random(seed)
        expected = None
        while not m.over and sum(checked.values()) < 400:
            legal = m.legal_actions()
            challenge = [a for a in legal if a.kind == "challenge"]
            action = challenge[0] if challenge else pick.choice(legal)
            if action.kind == "play" and action.card.rank == "W+4":
                rest = m.hand(m.to_act)
                rest.remove(action.card)
                expected = guilty_by_reading(rest, m.color, m.top, rule)
            events = m.apply(action)
            if action.kind == "challenge":
                verdict = next(e for e in events if e.kind == "challenge").guilty
                assert verdict == expected
                checked[verdict] += 1
    assert checked[True] > 10 and checked[False] > 10


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_c8_the_guilt_odds_of_a_classic_wild_draw_4_are_counted_at_any_seat_count(seats):
    """engine.bots.wd4_guilty_probability (the challenge hint) raised StopIteration on
    a 4-seat classic Wild Draw 4: it read the view with the 2-seat UNO Duo belief."""
    from engine.bots import wd4_guilty_probability
    from engine.bots.counting import classic_wd4_guilty_probability

    asked = 0
    for seed in range(20):
        m = Match.new(Rules(preset="classic", seats=seats), seed=seed)
        pick = random.Random(seed)
        while not m.over and m.round == 1:
            if m.phase == "wd4":
                view = m.view(m.to_act)
                p = wd4_guilty_probability(view)
                assert 0.0 <= p <= 1.0 and p == classic_wd4_guilty_probability(view)
                asked += 1
            m.apply(pick.choice(m.legal_actions()))
    assert asked >= 5
