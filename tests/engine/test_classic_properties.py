"""Classic UNO for 2–10 seats over many seeded random matches (OpenSpiel's
random_sim_test): conservation after every action, legal never empty, illegal changes
nothing, views hide every other hand, replay equals the live match."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Action, IllegalAction, Match, PlayerView, Rules
from engine.cards import deck_cards
from engine.rng import Rng

from .helpers import check_conservation, observable

MAX_ACTIONS = 200_000


def _hidden_from(m: Match, seat: int) -> None:
    v = m.view(seat)
    assert v.hand == tuple(m.hand(seat)) and v.hand_sizes == m.hand_sizes
    assert (v.dealer, v.direction) == (m.dealer, m.direction)
    for e in v.events:
        if e.private is not None and e.private != seat:
            assert e.cards == ()
    assert PlayerView.from_dict(v.to_dict()) == v


def _check_illegal_changes_nothing(m: Match, rng: Rng) -> None:
    legal = set(m.legal_actions())
    illegal = [a for a in Action.by_code if a not in legal]
    before = observable(m), len(m.actions), len(m.events)
    for _ in range(5):
        action = illegal[rng.below(len(illegal))]
        with pytest.raises(IllegalAction) as info:
            m.apply(action)
        assert re.match(r"([CDSTAUE]\d+: |it is seat )", str(info.value)), str(info.value)
    assert (observable(m), len(m.actions), len(m.events)) == before


@pytest.mark.parametrize("seats", [2, 3, 4, 7, 10])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**64),
       stacking=st.booleans(), scoring=st.sampled_from(["winner_takes", "own_hand"]),
       refill=st.sampled_from(["shuffle", "turn_over"]))
def test_classic_random_playout_conformance(seats, seed, stacking, scoring, refill):
    rules = Rules(preset="classic", seats=seats, stacking=stacking, scoring=scoring,
                  refill=refill, target=150)
    m = Match.new(rules, seed=seed)
    rng = Rng(seed, 7)
    size = len(deck_cards(rules.deck))
    snapshots = [observable(m)]
    n = 0
    while not m.over:
        legal = m.legal_actions()
        assert legal and m.to_act is not None
        assert len(set(legal)) == len(legal)
        if n % 97 == 0:
            _check_illegal_changes_nothing(m, rng)
            for action in legal:
                m.clone().apply(action)
        if n % 151 == 0:
            for seat in range(seats):
                _hidden_from(m, seat)
        m.apply(legal[rng.below(len(legal))])
        n += 1
        assert m.draw_size + m.discard_size + sum(m.hand_sizes) == size  # C1 / D3
        if n % 31 == 0:
            check_conservation(m)
        snapshots.append(observable(m))
        assert n < MAX_ACTIONS
    check_conservation(m)
    assert m.to_act is None and m.legal_actions() == () and max(m.scores) >= rules.target
    replayed = [observable(r) for r in Match.replay_steps(rules, m.actions, seed=0)]
    assert replayed == snapshots


def test_one_thousand_seeded_classic_matches_end():
    for seed in range(1000):
        seats = 2 + seed % 9
        m = Match.new(Rules(preset="classic", seats=seats, target=100), seed=seed)
        rng = Rng(seed, 3)
        n = 0
        while not m.over:
            legal = m.legal_actions()
            m.apply(legal[rng.below(len(legal))])
            n += 1
            assert n < MAX_ACTIONS
        assert m.winner is None or m.scores[m.winner] >= 100
        assert len(m.hand_sizes) == seats
