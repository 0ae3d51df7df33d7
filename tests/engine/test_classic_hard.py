"""The hard bot for classic UNO at N seats: its belief (T1/T2, C8), rollouts and values (C10)."""

from collections import Counter

import pytest

from engine import Match, Rules, bots
from engine.bots.classic_belief import ClassicBelief
from engine.bots.hard_classic import (MATCH_WEIGHT, POINT_SCALE, WIN_WEIGHT, _challenges,
                                      classic_rollout, classic_world, outcome_value,
                                      round_value)
from engine.bots.normal import policy
from engine.cards import deck_cards
from engine.classic import CARD_POINTS
from engine.rng import Rng

from .test_classic import dealt, filler


def _samples(view, count=60, seed=1):
    belief = ClassicBelief(view.seat, view.rules).update(view)
    assert belief.consistent(view)
    pool = belief.unseen(view)
    rng = Rng(seed, 7)
    return belief, [belief.sample(view, rng, list(pool)) for _ in range(count)]


def test_t1_t2_a_seat_that_drew_and_did_not_play_holds_nothing_that_followed():
    # seat 0 plays R1; seat 1 (greens 2-8) cannot follow: it draws B9, which cannot
    # either, and the turn moves on
    m = dealt([filler(0, "R"), filler(1, "G"), filler(2, "B")], "R9", dealer=2,
              draws=("B9",))
    m.apply("play R1")
    m.apply("draw")
    view = m.view(2)
    assert view.to_act == 2
    _, worlds = _samples(view)
    for hands, _ in worlds:
        held = hands[1]
        assert len(held) == 8
        assert not [c for c in held if c.colour == "R" or c.rank == "1"]
        assert not [c for c in held if c.is_wild]


def test_a_sampled_world_deals_exactly_the_unseen_cards_to_the_right_counts():
    m = Match.new(Rules(preset="classic", seats=5), seed=9)
    players = [bots.make("normal", seed=s) for s in range(5)]
    for _ in range(60):
        m.apply(players[m.to_act].choose(m.view(m.to_act)))
    view = m.view(3)
    belief, worlds = _samples(view, count=5)
    pile = Counter(belief.pile)
    for hands, draw in worlds:
        assert [len(h) for h in hands] == list(view.hand_sizes)
        assert len(draw) == view.draw_size
        assert hands[3] == list(view.hand)
        total = Counter(draw) + pile
        for h in hands:
            total.update(h)
        assert total == Counter(deck_cards(view.rules.deck))


def test_c8_a_challenged_hand_is_known_and_not_guilty_means_none_of_the_colour():
    m = dealt([["W+4"] + filler(0, "G")[:6], filler(1, "B"), filler(2, "Y")], "R5", dealer=2)
    m.apply("play W+4 B")
    m.apply("challenge")  # not guilty: seat 0 held no red; its hand is shown to seat 1
    shown = sorted(c.text for c in m.hand(0))
    _, worlds = _samples(m.view(1), count=10)
    assert all(sorted(c.text for c in hands[0]) == shown for hands, _ in worlds)
    belief, worlds = _samples(m.view(2), count=40)  # seat 2 saw the verdict only
    assert all(hard for hard, _ in belief.slots[0])
    assert all(c.colour != "R" for hands, _ in worlds for c in hands[0])


@pytest.mark.parametrize("seats", [2, 3, 4, 7, 10])
def test_a_rollout_scores_the_round_as_playing_it_out_in_the_engine(seats):
    """The rollout stops when a seat plays its last card; its value is the same as
    the engine's own end of the round."""
    rules = Rules(preset="classic", seats=seats)
    points = CARD_POINTS["classic"]
    compared = 0
    for seed in range(6):
        m = Match.new(rules, seed=seed)
        players = [bots.make("normal", seed=s) for s in range(seats)]
        for k in range(5 * seats + 40):
            if m.over or (k >= 5 * seats and m.phase == "turn"):
                break
            m.apply(players[m.to_act].choose(m.view(m.to_act)))
        if m.phase != "turn":
            continue
        view = m.view(m.to_act)
        world = classic_world(view, Rng(seed, 1))
        assert world is not None
        for option in view.legal_actions:
            if option.kind == "catch":
                continue
            full = world.clone(history=False)
            start = full.round
            by, before = view.seat, full.color
            full.apply(option)
            while full.round == start and not full.over:
                s = full.to_act
                nxt = (s + full.direction) % seats
                legal = full.legal_actions()
                challenge = full.phase == "wd4" and _challenges(full, s, by, before)
                action = policy(full.hand(s), legal, full.phase, full.top, full.color,
                                full.hand_sizes[nxt], challenge=challenge, points=points)
                if action.kind == "play":
                    by, before = s, full.color
                full.apply(action)
            expected = round_value(full, view.seat, start)
            assert classic_rollout(world, option, view.seat) == pytest.approx(expected)
            compared += 1
    assert compared > 0


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_c8_rollouts_challenge_a_wild_draw_4_as_the_normal_bot_does(seats):
    """The rollouts' opponents answer a Wild Draw 4 from the same counting as the
    normal bot (a guilty one is not free)."""
    rules = Rules(preset="classic", seats=seats)
    answered = challenged = 0
    for seed in range(12):
        m = Match.new(rules, seed=seed)
        players = [bots.make("normal", seed=s) for s in range(seats)]
        by = before = None
        for _ in range(400):
            if m.over:
                break
            seat = m.to_act
            view = m.view(seat)
            action = players[seat].choose(view)
            if m.phase == "wd4" and len(view.legal_actions) > 1:
                wants = _challenges(m, seat, by, before)
                assert wants == (action.kind == "challenge")
                answered += 1
                challenged += wants
            if action.kind == "play":
                by, before = seat, m.color
            m.apply(action)
    assert answered > 0 and challenged > 0


def test_c10_a_rollout_is_valued_in_points_and_a_round_that_ends_the_match_decides():
    rules = Rules(preset="classic", seats=4)  # winner_takes, to 500
    assert outcome_value(0, (60, 0, 0, 0), 0, 4, rules, (0, 0, 0, 0)) == pytest.approx(
        WIN_WEIGHT + 60 / POINT_SCALE)
    assert outcome_value(1, (0, 60, 0, 0), 0, 4, rules, (0, 0, 0, 0)) == pytest.approx(
        -WIN_WEIGHT / 3 - 20 / POINT_SCALE)
    assert outcome_value(0, (60, 0, 0, 0), 0, 4, rules, (450, 0, 0, 0)) == MATCH_WEIGHT
    assert outcome_value(1, (0, 60, 0, 0), 0, 4, rules, (0, 480, 0, 0)) == -MATCH_WEIGHT / 3
    assert outcome_value(None, (0, 0, 0, 0), 0, 4, rules, (0, 0, 0, 0)) == 0.0


@pytest.mark.parametrize("seats,options", [(2, {}), (4, {"stacking": True}),
                                           (10, {"scoring": "own_hand"})])
def test_the_belief_accounts_for_every_hand_and_the_pile_through_a_whole_match(seats, options):
    """The belief read from events matches the view's counts at every decision (a
    mismatch would make the hard bot fall back to the normal move)."""
    rules = Rules(preset="classic", seats=seats, **options)
    m = Match.new(rules, seed=seats)
    players = [bots.make("normal", seed=s) for s in range(seats)]
    belief = ClassicBelief(0, rules)
    checked = 0
    for _ in range(3000):
        if m.over:
            break
        view = m.view(m.to_act)
        if view.seat == 0:
            assert belief.update(view).consistent(view)
            checked += 1
        m.apply(players[view.seat].choose(view))
    assert checked > 50
