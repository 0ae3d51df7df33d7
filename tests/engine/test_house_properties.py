"""H — every combination of the five house rules at 3, 4, 6 and 10 seats over seeded
random matches (OpenSpiel's random_sim_test): cards conserved after every action,
legal never empty for the seat to act, illegal changes nothing, views hide every
other hand, replay equals the live match, the save file round-trips; and 1,000
seeded matches with every option on end."""

import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Action, IllegalAction, Match, PlayerView, Rules
from engine.rng import Rng
from engine.savefile import Encoder, Header, load

from .helpers import check_conservation, observable

MAX_ACTIONS = 200_000

#: (seven_zero, stack_draw4, draw_until, jump_in, teams): all 48
COMBINATIONS = list(itertools.product((False, True), ("off", "same", "any"), (False, True),
                                      (False, True), ("off", "partners")))
CASES = [(seats, combo) for seats in (3, 4, 6, 10) for combo in COMBINATIONS
         if combo[4] == "off" or seats % 2 == 0]


def _rules(seats: int, combo, stacking: bool, target: int = 150) -> Rules:
    seven_zero, stack_draw4, draw_until, jump_in, teams = combo
    return Rules(preset="classic", seats=seats, seven_zero=seven_zero,
                 stacking=stacking or stack_draw4 == "any", stack_draw4=stack_draw4,
                 draw_until=draw_until, jump_in=jump_in, teams=teams, target=target)


def _jumps(m: Match) -> list:
    """Every seat's jump-ins (H4), as (seat, action)."""
    return [(s, a) for s in range(m.seats) if s != m.to_act for a in m.legal_actions(s)]


def _step(m: Match, rng: Rng) -> None:
    """A seeded player for every seat: jumps in half the time it can, plays a card
    three times in four when it can (so rounds end), else any legal action."""
    jumps = _jumps(m)
    if jumps and rng.below(2):
        seat, action = jumps[rng.below(len(jumps))]
        m.apply(action, seat=seat)
        return
    legal = m.legal_actions()
    plays = [a for a in legal if a.kind == "play"]
    pick = plays if plays and rng.below(4) else legal
    m.apply(pick[rng.below(len(pick))])


def _hidden_from(m: Match, seat: int) -> None:
    v = m.view(seat)
    assert v.hand == tuple(m.hand(seat)) and v.hand_sizes == m.hand_sizes
    for e in v.events:
        if e.private is not None and e.private != seat:
            assert e.cards == ()
    assert v.legal_actions == m.legal_actions(seat)
    assert PlayerView.from_dict(v.to_dict()) == v


def _check_illegal_changes_nothing(m: Match, rng: Rng) -> None:
    legal = set(m.legal_actions()) | {a for _, a in _jumps(m)}
    illegal = [a for a in Action.by_code if a not in legal]
    before = observable(m), len(m.actions), len(m.events), _jumps(m)
    for _ in range(6):
        action = illegal[rng.below(len(illegal))]
        seat = rng.below(m.seats) if action.kind == "jump" else None
        with pytest.raises(IllegalAction) as info:
            m.apply(action, seat=seat)
        assert re.match(r"([CDSTAUEH]\d+(/U3)?: |it is seat )", str(info.value)), str(info.value)
    assert (observable(m), len(m.actions), len(m.events), _jumps(m)) == before


@pytest.mark.parametrize("seats,combo", CASES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**64), stacking=st.booleans())
def test_h_every_combination_random_playout_conformance(seats, combo, seed, stacking):
    rules = _rules(seats, combo, stacking)
    m = Match.new(rules, seed=seed)
    rng = Rng(seed, 11)
    snapshots = [(observable(m), _jumps(m))]
    n = 0
    while not m.over:
        legal = m.legal_actions()
        assert legal and m.to_act is not None and len(set(legal)) == len(legal)
        if n % 53 == 0:
            _check_illegal_changes_nothing(m, rng)
            for action in legal:
                m.clone().apply(action)
            for seat, action in _jumps(m):
                m.clone().apply(action, seat=seat)
        if n % 71 == 0:
            for seat in range(seats):
                _hidden_from(m, seat)
        _step(m, rng)
        n += 1
        assert m.draw_size + m.discard_size + sum(m.hand_sizes) == rules.deck_size  # D3
        if n % 17 == 0:
            check_conservation(m)
        snapshots.append((observable(m), _jumps(m)))
        assert n < MAX_ACTIONS
    check_conservation(m)
    assert m.to_act is None and m.legal_actions() == ()
    replayed = [(observable(r), _jumps(r)) for r in Match.replay_steps(rules, m.actions, seed=0)]
    assert replayed == snapshots
    header = Header("house", rules, seed, tuple((f"P{s}", "bot:random") for s in range(seats)),
                    "2026-12-02T00:00:00+00:00", "0.1.0")
    enc = Encoder()
    decoded, again = load(enc.start(header) + enc.entries(m.actions))
    assert decoded.header.rules == rules and decoded.entries == m.actions
    assert again.events == m.events and again.scores == m.scores and again.winner == m.winner


def test_one_thousand_seeded_matches_with_every_house_rule_on_end():
    for seed in range(1000):
        seats = (3, 4, 6, 10)[seed % 4]
        combo = (True, "any", True, True, "partners" if seats % 2 == 0 else "off")
        m = Match.new(_rules(seats, combo, True, target=100), seed=seed)
        rng = Rng(seed, 3)
        n = 0
        while not m.over:
            _step(m, rng)
            n += 1
            assert n < MAX_ACTIONS
        assert len(m.hand_sizes) == seats and m.rounds
        if m.winner is not None:
            assert m.scores[m.winner] >= 100 or m.rules.scoring == "own_hand"
