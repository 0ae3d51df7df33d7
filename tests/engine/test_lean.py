"""The hard bot's lean rollout simulator plays the same game as ``Match`` + ``policy``.

Thousands of mid-round positions (from seeded matches between mixed bots, so
forgotten UNOs, volleys, dumps, Wild Draw 4s, refills and blocked rounds all
occur) are played out twice from the same first action: by ``Match`` with the
normal policy for both seats, and by :func:`engine.bots.lean.play_out`.  The
round must end the same way: same winner, same final hands, same points.
"""

import pytest

from engine import Match, Rules
from engine.bots import make
from engine.bots.lean import Position, play_out
from engine.bots.normal import policy
from engine.rng import Rng

MID_ROUND = ("turn", "drawn", "volley", "wd4", "dump", "colour")


def reference(m: Match, first) -> tuple:
    """Play the round out with ``Match`` and the normal policy (as the hard bot did)."""
    start = m.round
    m.apply(first)
    for _ in range(600):
        if m.round != start or m.over:
            break
        legal = m.legal_actions()
        seat = m.to_act
        top = m.top
        m.apply(policy(m.hand(seat), legal, m.phase, top, m.color, len(m.hand(1 - seat)),
                       m.dump_colour))
    end = next(e for e in reversed(m.events) if e.kind == "round_end")
    hands, points, _, _ = end.data
    return end.seat, hands, points


def positions(seed: int, levels: tuple[str, str], every: int, rules: Rules):
    """Mid-round positions of one match (every ``every``-th decision), with a first action."""
    m = Match.new(rules, seed=seed)
    bots = [make(levels[0], seed), make(levels[1], seed + 1)]
    pick = Rng(seed, 0x7E57)
    n = 0
    while not m.over:
        seat = m.to_act
        legal = m.legal_actions()
        if m.phase in MID_ROUND and n % every == 0:
            first = legal[pick.below(len(legal))]
            if first.kind != "challenge":
                yield m.clone(), first
        m.apply(bots[seat].choose(m.view(seat)))
        n += 1


@pytest.mark.parametrize("rules", [Rules(), Rules(wd4_guilty="any_playable")],
                         ids=["default", "any_playable"])
def test_lean_rollouts_end_every_round_like_match(rules):
    checked = 0
    for seed in range(24):
        levels = [("normal", "easy"), ("random", "normal"), ("easy", "random")][seed % 3]
        for m, first in positions(seed, levels, every=7, rules=rules):
            pos = Position.from_match(m)
            lean = play_out(pos, first)
            winner, hands, points = reference(m, first)
            assert lean.finished
            assert (lean.winner, lean.hands, lean.points) == (winner, hands, points), (seed, first)
            assert sum(map(len, (*pos.hands, pos.draw, pos.discard))) == rules.deck_size  # D3
            checked += 1
    assert checked > 1000


def test_lean_blocked_round_scores_both_hands_like_match():
    """T4/E3: nothing to draw and nothing playable: both pass, both score."""
    m = Match.from_position(Rules(), hands=[["R1", "G2"], ["B3", "G4"]], draw_pile=[],
                            discard_pile=["Y5"], to_act=0, phase="turn", colour="Y", p1=0)
    lean = play_out(Position.from_match(m), m.legal_actions()[0])
    assert (lean.winner, lean.points) == (None, (3, 7))
    assert (lean.winner, lean.hands, lean.points) == reference(m, m.legal_actions()[0])


def test_lean_copy_is_independent():
    m = Match.new(seed=5)
    while m.phase == "draft" or m.phase not in MID_ROUND:
        m.apply(m.legal_actions()[0])
    pos = Position.from_match(m)
    before = (pos.hands[0][:], pos.hands[1][:], pos.draw[:], pos.discard[:])
    play_out(pos.copy())
    assert (pos.hands[0], pos.hands[1], pos.draw, pos.discard) == before


def test_lean_rollouts_with_shuffled_refills_keep_every_card():
    """refill=shuffle (T3 option): the lean copy shuffles with its own stream, so only
    D3 can be compared — every card stays in a hand, the draw pile or the discard pile."""
    rules = Rules(refill="shuffle")
    played = 0
    for seed in range(6):
        for m, first in positions(seed, ("random", "normal"), every=11, rules=rules):
            pos = Position.from_match(m)
            end = play_out(pos, first)
            assert end.finished
            assert len(pos.hands[0]) + len(pos.hands[1]) + len(pos.draw) + len(pos.discard) \
                == rules.deck_size
            played += 1
    assert played > 100
