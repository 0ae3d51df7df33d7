"""Properties over many seeded random matches (OpenSpiel's random_sim_test)."""

import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Action, IllegalAction, Match, Rules
from engine.cards import deck_cards
from engine.rng import Rng

from .helpers import check_conservation, observable

RULES = st.builds(
    Rules,
    deck=st.sampled_from(["duo112", "classic108"]),
    refill=st.sampled_from(["turn_over", "shuffle"]),
    wd4_guilty=st.sampled_from(["colour_match", "any_playable"]),
    target=st.sampled_from([50, 200]),
)
MAX_ACTIONS = 200_000  # far beyond any real match: a guard against endless loops


def _hidden_from(m: Match, seat: int) -> None:
    """view(seat) carries no card of the other seat's hand."""
    v = m.view(seat)
    assert v.hand == tuple(m.hand(seat))
    for e in v.events:
        if e.private is not None and e.private != seat:
            assert e.cards == ()
    assert not any(isinstance(getattr(v, name, None), Match) for name in dir(v))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**64), rules=RULES)
def test_random_playout_conformance(seed, rules):
    m = Match.new(rules, seed=seed)
    rng = Rng(seed, 7)
    size = len(deck_cards(rules.deck))
    snapshots = [observable(m)]
    n = 0
    while not m.over:
        legal = m.legal_actions()
        assert legal and m.to_act is not None  # never stuck
        assert len(set(legal)) == len(legal)
        if n % 97 == 0:
            _check_illegal_changes_nothing(m, rng)
            _check_every_legal_action_applies(m)
        if n % 251 == 0:
            _hidden_from(m, 0)
            _hidden_from(m, 1)
            check_conservation(m)
        m.apply(legal[rng.below(len(legal))])
        n += 1
        assert m.draw_size + m.discard_size + sum(len(m.hand(s)) for s in range(2)) == size  # D3
        assert all(m._masks[s] == m._hand_mask(s) for s in range(2))
        snapshots.append(observable(m))
        assert n < MAX_ACTIONS
    check_conservation(m)
    assert m.to_act is None and m.legal_actions() == () and max(m.scores) >= rules.target
    # replay reproduces the observable state after every decision, with no RNG
    replayed = [observable(r) for r in Match.replay_steps(rules, m.actions, seed=0)]
    assert replayed == snapshots


def _check_illegal_changes_nothing(m: Match, rng: Rng) -> None:
    legal = set(m.legal_actions())
    illegal = [a for a in Action.by_code if a not in legal]
    before = observable(m), len(m.actions), len(m.events)
    for _ in range(5):
        action = illegal[rng.below(len(illegal))]
        try:
            m.apply(action)
        except IllegalAction as exc:
            assert re.match(r"([DSTAUE]\d+: |it is seat )", str(exc)), str(exc)  # names the rule
        else:
            raise AssertionError(f"{action} was accepted but is not legal")
    assert (observable(m), len(m.actions), len(m.events)) == before


def _check_every_legal_action_applies(m: Match) -> None:
    for action in m.legal_actions():
        m.clone().apply(action)


def test_two_thousand_matches_end_and_conserve_cards():
    lengths = Counter()
    for seed in range(2000):
        m = Match.new(seed=seed)
        rng = Rng(seed, 3)
        n = 0
        while not m.over:
            legal = m.legal_actions()
            m.apply(legal[rng.below(len(legal))])
            n += 1
            assert n < MAX_ACTIONS
        check_conservation(m)
        lengths[m.round] += 1
        assert m.winner in (0, 1, None)
        if m.winner is not None:
            assert m.scores[m.winner] < m.scores[1 - m.winner]
    assert sum(lengths.values()) == 2000
