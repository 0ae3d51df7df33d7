"""The hard bot's one rollout design (#23): ``Match.search_copy`` + ``push`` play the
same game as the checked ``apply`` — the rules live once, in the engine.

Mid-round positions of seeded matches between mixed bots (forgotten UNOs, volleys,
dumps, Wild Draw 4s, refills and blocked rounds all occur), both presets, are played
out twice from the same first action: by :func:`engine.bots.rollout.play_round` and by
a full ``clone`` with ``apply`` and the normal policy.  The round must end the same
way (E1–E3, C10): same winner, same points, same final hands.
"""

import pytest

from engine import Match, Rules
from engine.bots import make
from engine.bots.hard_classic import _challenges
from engine.bots.normal import policy
from engine.bots.rollout import play_round
from engine.classic import CARD_POINTS
from engine.rng import Rng

MID_ROUND = ("turn", "drawn", "volley", "wd4", "dump", "colour")


def reference(m: Match, first, challenger) -> tuple:
    """The round played out with the checked apply and the normal policy."""
    m = m.clone()
    start, points = m.round, CARD_POINTS[m.rules.preset]
    by, before = m.to_act, m.color
    m.apply(first)
    while m.round == start and not m.over:
        seat, phase, legal = m.to_act, m.phase, m.legal_actions()
        challenge = (challenger is not None and phase == "wd4" and len(legal) > 1
                     and challenger(m, seat, by, before))
        nxt = (seat + m.direction) % m.seats
        action = policy(m.hand(seat), legal, phase, m.top, m.color, m.hand_sizes[nxt],
                        m.dump_colour, challenge=challenge, points=points)
        if action.kind == "play":
            by, before = seat, m.color
        m.apply(action)
    end = next(e for e in reversed(m.events) if e.kind == "round_end")
    return end.seat, end.points, end.hands


def positions(rules: Rules, seed: int, every: int):
    m = Match.new(rules, seed=seed)
    levels = ("normal", "easy", "random")
    players = [make(levels[(seed + s) % 3], seed + s) for s in range(rules.seats)]
    pick = Rng(seed, 0x7E57)
    n = 0
    while not m.over:
        legal = m.legal_actions()
        if m.phase in MID_ROUND and n % every == 0:
            first = legal[pick.below(len(legal))]
            if first.kind != "challenge":
                yield m, first
        m.apply(players[m.to_act].choose(m.view(m.to_act)))
        n += 1


@pytest.mark.parametrize("rules,challenger", [
    (Rules(), None), (Rules(wd4_guilty="any_playable", refill="shuffle"), None),
    (Rules(preset="classic", seats=2), _challenges),
    (Rules(preset="classic", seats=4, stacking=True), _challenges),
    (Rules(preset="classic", seats=7, scoring="own_hand"), _challenges)],
    ids=["duo", "duo-shuffle", "classic-2", "classic-4-stacking", "classic-7-own-hand"])
def test_search_copy_and_push_end_every_round_as_apply_does(rules, challenger):
    checked = 0
    for seed in range(8):
        for m, first in positions(rules, seed, every=9):
            log, events = m.log_length, len(m.events)
            end = play_round(m, first, challenger)
            assert (m.log_length, len(m.events)) == (log, events)  # the world is untouched
            assert end.over and end.log_length == 0 and end.events == []
            winner, points = end.rounds[-1]
            hands = tuple(tuple(end.hand(s)) for s in range(end.seats))
            assert (winner, points, hands) == reference(m, first, challenger), (seed, first)
            checked += 1
    assert checked > 100


def test_e3_a_blocked_round_in_a_search_copy_scores_both_hands():
    """T4/E3: nothing to draw and nothing playable: both pass, both score."""
    m = Match.from_position(Rules(), hands=[["R1", "G2"], ["B3", "G4"]], draw_pile=[],
                            discard_pile=["Y5"], to_act=0, phase="turn", colour="Y", p1=0)
    end = play_round(m, m.legal_actions()[0])
    assert end.over and end.rounds[-1] == (None, (3, 7)) and end.scores == (3, 7)
    assert m.phase == "turn" and m.scores == (0, 0)  # the position itself is as it was


def test_play_out_on_a_match_records_its_moves_and_replays():
    """``Match.play_out`` is ``push`` in a loop: on a match that keeps its log, the
    moves are in it and the log replays to the same match."""
    m = Match.new(Rules(), seed=3)
    pick = Rng(3, 1)
    m.play_out(lambda seat, hand, legal, *rest: legal[pick.below(len(legal))], 200)
    assert m.log_length > 200
    again = Match.replay(m.rules, m.actions, seed=m.seed)
    assert (again.hand(0), again.hand(1), again.phase, again.scores) == (
        m.hand(0), m.hand(1), m.phase, m.scores)
