"""engine.tally: a finished match counted from its events (the record's facts)."""

import random

import pytest

from engine import Card, Match, Rules
from engine.events import new_event as ev
from engine.tally import count_events, places, tally


def _played(rules: Rules, seed: int) -> Match:
    rng = random.Random(seed)
    m = Match.new(rules, seed=seed)
    while not m.over:
        m.apply(rng.choice(m.legal_actions()))
    return m


def _end(seat, points=(0, 10), totals=(0, 10)):
    return ev("round_end", seat, amount=1, data=(((), ()), points, totals, seat is None))


def _count(events, seats=2):
    return count_events(Rules(), events, True, 0, (0, 10), 1).seats


@pytest.mark.parametrize("preset,seats", [("duo", 2), ("classic", 2), ("classic", 5)])
def test_e2_every_rounds_points_add_up_to_the_totals(preset, seats):
    for seed in range(3):
        m = _played(Rules(preset=preset, seats=seats), seed)
        t = tally(m)
        assert t.over and t.winner == m.winner and t.rounds == m.round
        assert tuple(sum(s.points) for s in t.seats) == m.scores
        assert all(len(s.points) == m.round for s in t.seats)
        assert sum(s.rounds_won for s in t.seats) == sum(1 for w, _ in m.rounds if w is not None)
        if m.winner is not None:
            assert t.places[m.winner] == 0 and sorted(t.places)[1] > 0


def test_e4_places_lowest_total_first_and_winner_takes_highest_first():
    assert places(Rules(), (205, 30)) == (1, 0)
    assert places(Rules(preset="classic", seats=3, scoring="winner_takes"), (0, 520, 90)) == (2, 0, 1)
    assert places(Rules(preset="classic", seats=3, scoring="own_hand"), (40, 40, 600)) == (0, 0, 2)


def test_a1_a_volley_is_taken_by_the_drawer_and_dealt_by_the_last_draw_2():
    two = Card.parse("R+2")
    events = [ev("play", 0, (two,), 2, data=1), ev("play", 1, (Card.parse("G+2"),), 4, data=0),
              ev("play", 0, (Card.parse("B+2"),), 6, data=1),
              ev("draw", 1, (), 6, private=1, data="volley")]
    s = _count(events)
    assert (s[1].volley_taken, s[0].volley_dealt) == (6, 6)
    assert (s[0].volley_taken, s[1].volley_dealt) == (0, 0)


def test_a6_u2_challenges_and_catches_count_for_who_made_and_who_suffered_them():
    events = [ev("challenge", 1, data=True), ev("challenge", 1, data=False),
              ev("catch", 0, data=1), ev("catch", 1, data=0), ev("catch", 1, data=0)]
    s = _count(events)
    assert (s[1].challenges, s[1].challenges_won, s[0].challenges) == (2, 1, 0)
    assert (s[0].catches, s[0].caught, s[1].catches, s[1].caught) == (1, 2, 2, 1)


def test_a4_dumps_count_their_cards_and_going_out_on_one_is_an_action_out():
    dump = [Card.parse(c) for c in ("R3", "R7", "RS")]
    events = [ev("play", 0, (Card.parse("RR"),), 0, data=1), ev("dump", 0, tuple(dump), 3, data=0),
              _end(0)]
    s = _count(events)
    assert (s[0].dumps, s[0].dumped, s[0].biggest_dump) == (1, 3, 3)
    assert (s[0].rounds_won, s[0].action_outs) == (1, 1)  # the Skip went last


def test_e1_going_out_on_a_number_is_not_an_action_out_and_a_blocked_round_wins_nothing():
    events = [ev("play", 1, (Card.parse("G5"),), 0, data=0), _end(1, (10, 0), (10, 0)),
              ev("play", 0, (Card.parse("W"),), 0, colour="R", data=1), _end(None)]
    s = _count(events)
    assert (s[1].rounds_won, s[1].action_outs) == (1, 0)
    assert (s[0].rounds_won, s[0].action_outs) == (0, 0)


def test_e1_a_last_draw_2_is_a_volley_taken():
    events = [ev("play", 0, (Card.parse("Y+2"),), 2, data=1),
              ev("draw", 1, (), 2, private=1, data="last"), _end(0)]
    s = _count(events)
    assert (s[1].volley_taken, s[0].volley_dealt, s[0].action_outs) == (2, 2, 1)
