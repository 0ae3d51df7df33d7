"""The replay cursor: every position is Match.replay of the log prefix, both ways."""

import random

import pytest

from engine import Match, Rules
from engine.replay import ALL, MOMENTS, OmniscientView, ReplayCursor

from .helpers import random_match


def played(seed: int, target: int = 200, limit: int | None = None) -> Match:
    return random_match(seed, Rules(target=target), limit)


def state(m: Match) -> tuple:
    return (m.actions, [m.hand(s) for s in range(2)], m.draw_pile, m.discard_pile, m.scores,
            m.round, m.phase, m.to_act, m.color, m.over, m.winner, m.events,
            m.legal_actions())


def prefix(cursor: ReplayCursor, log: list, pos: int) -> Match:
    return Match.replay(cursor.rules, log[:cursor.log_length(pos)], seed=0)


@pytest.fixture(scope="module")
def match() -> Match:
    return played(3)


def test_every_position_equals_replay_of_the_log_prefix(match):
    log = match.actions
    cursor = ReplayCursor.of(match, every=7)
    assert cursor.count == sum(1 for e in log if not e.is_chance)
    every = [*range(min(cursor.count, 200) + 1), *range(200, cursor.count + 1, 23), cursor.count]
    for pos in every:
        assert state(cursor.goto(pos)) == state(prefix(cursor, log, pos))


def test_the_cursor_starts_at_the_end_and_the_match_is_untouched(match):
    before = state(match)
    cursor = ReplayCursor.of(match)
    assert cursor.position == cursor.count
    assert state(cursor.match) == before
    cursor.goto(0)
    assert state(match) == before


def test_stepping_back_and_forth_agrees_with_replay(match):
    log = match.actions
    cursor = ReplayCursor.of(match, every=10)
    rng = random.Random(5)
    for _ in range(150):
        cursor.step(rng.choice((-1, 1, -13, 25, -1, 1)))
        assert state(cursor.match) == state(prefix(cursor, log, cursor.position))
    assert cursor.goto(-5) is cursor.match and cursor.position == 0
    cursor.goto(10**9)
    assert cursor.position == cursor.count


def test_goto_copy_does_not_move_the_cursor(match):
    cursor = ReplayCursor.of(match, every=10)
    cursor.goto(15)
    copy = cursor.goto_copy(40)
    assert cursor.position == 15
    assert state(copy) == state(prefix(cursor, match.actions, 40))


def test_turns_change_the_seat_to_act(match):
    cursor = ReplayCursor.of(match)
    cursor.goto(30)
    seat = cursor.match.to_act
    cursor.next_turn()
    assert cursor.match.to_act != seat or cursor.position == cursor.count
    assert all(cursor.match.to_act is not None for _ in [0])
    here = cursor.position
    cursor.prev_turn()
    assert cursor.position < here


def test_rounds_jump_to_round_starts(match):
    cursor = ReplayCursor.of(match)
    cursor.start()
    assert cursor.match.round == 1
    cursor.next_round()
    if cursor.position < cursor.count:
        assert cursor.match.round == 2 and cursor.match.phase == "draft"
        assert cursor.round_at(cursor.position - 1) == 1
        cursor.step(3)
        cursor.prev_round()
        assert cursor.match.round == 2 and cursor.round_at(cursor.position - 1) == 1
        cursor.prev_round()
        assert cursor.position == 0


def test_moments_are_found_both_ways(match):
    cursor = ReplayCursor.of(match)
    assert cursor.moments("round"), "a whole match has round ends"
    for kind in MOMENTS:
        marks = cursor.moments(kind)
        cursor.start()
        seen = []
        while cursor.next_moment(kind) is not None:
            seen.append(cursor.position)
        assert tuple(seen) == marks
        back = []
        while cursor.prev_moment(kind) is not None:
            back.append(cursor.position)
        assert tuple(reversed(back)) == marks[:-1] if marks else back == []
    for pos in cursor.moments("round"):
        assert any(e.kind == "round_end" for e in cursor.events_between(pos - 1, pos))
    for pos in cursor.moments("dump"):
        assert cursor.decision(pos).kind == "dump"
    for pos in cursor.moments("catch"):
        assert cursor.decision(pos).kind == "catch"
    for pos in cursor.moments("challenge"):
        assert cursor.decision(pos).kind == "challenge"
    for pos in cursor.moments("volley"):
        d = cursor.decision(pos)
        assert d.kind == "play" and d.card.rank == "+2"
    with pytest.raises(ValueError):
        cursor.moments("nap")


def test_several_matches_have_every_kind_of_moment():
    found = set()
    for seed in range(1, 8):
        cursor = ReplayCursor.of(played(seed))
        found |= {k for k in MOMENTS if cursor.moments(k)}
    assert found == set(MOMENTS)


def test_the_omniscient_view_lists_both_hands_and_the_pile(match):
    cursor = ReplayCursor.of(match)
    cursor.goto(40)
    m = cursor.match
    view = cursor.view(ALL)
    assert isinstance(view, OmniscientView) and view.seat is None
    assert view.hands == (tuple(m.hand(0)), tuple(m.hand(1)))
    assert view.draw_pile == m.draw_pile and view.events == tuple(m.events)


def test_a_seat_perspective_is_that_seats_player_view(match):
    cursor = ReplayCursor.of(match)
    for pos in (5, 20, 60):
        cursor.goto(pos)
        for seat in (0, 1):
            view = cursor.view(seat)
            assert view.seat == seat and view.hand == tuple(cursor.match.hand(seat))
            assert not hasattr(view, "hands") and not hasattr(view, "draw_pile")
            other = 1 - seat
            for e in view.events:
                if e.private == other:
                    assert e.cards == ()
    with pytest.raises(ValueError):
        cursor.view("seat 1")


def test_an_unfinished_log_replays_to_where_it_stopped():
    m = played(4, limit=37)
    cursor = ReplayCursor.of(m)
    assert cursor.count == 37 and not cursor.final.over
    assert state(cursor.final) == state(m)


def test_a_log_prefix_carries_on_from_its_position_with_the_same_seed(match):
    """What-if branches: Match.replay of log_prefix(pos) with the match's seed is the
    match there, and it plays on (chance after the prefix comes from the same seed)."""
    cursor = ReplayCursor.of(match, every=9)
    for pos in (0, 1, 17, cursor.count // 2, cursor.count - 1):
        there = cursor.goto_copy(pos)
        branch = Match.replay(cursor.rules, cursor.log_prefix(pos), seed=match.seed)
        assert state(branch) == state(there)
        assert cursor.event_count(pos) == len(there.events)
        branch.apply(branch.legal_actions()[-1])
    cursor.goto(40)
    assert cursor.log_prefix() == match.actions[:cursor.log_length(40)]


def test_each_event_belongs_to_the_decision_that_made_it(match):
    cursor = ReplayCursor.of(match, every=9)
    assert all(cursor.position_of_event(i) == 0 for i in range(cursor.event_count(0)))
    for pos in range(1, cursor.count + 1, 7):
        for i in range(cursor.event_count(pos - 1), cursor.event_count(pos)):
            assert cursor.position_of_event(i) == pos


def _same_cursor(a: ReplayCursor, b: ReplayCursor) -> None:
    assert a.count == b.count and a.log_prefix(a.count) == b.log_prefix(b.count)
    for pos in range(b.count + 1):
        assert (a.decision(pos), a.actor(pos), a.round_at(pos), a.event_count(pos),
                a.log_length(pos)) == (b.decision(pos), b.actor(pos), b.round_at(pos),
                                       b.event_count(pos), b.log_length(pos))
    for kind in MOMENTS:
        assert a.moments(kind) == b.moments(kind)
    for pos in (0, b.count // 3, b.count - 1, b.count):
        assert state(a.goto(pos)) == state(b.goto(pos))


@pytest.mark.parametrize("preset", ["duo", "classic"])
def test_a_followed_cursor_equals_one_built_over_the_whole_log(preset):
    """follow takes in a live match's decisions one at a time, cut takes them back:
    the cursor then equals one built from scratch, and nothing is replayed."""
    rules = Rules(target=100) if preset == "duo" else Rules(preset="classic", seats=4,
                                                            target=100)
    m = Match.new(rules, seed=11)
    cursor = ReplayCursor.of(m, every=5)
    rng = random.Random(4)
    while not m.over and m.log_length < 400:
        m.apply(rng.choice(m.legal_actions()))
        cursor.follow(m)
    _same_cursor(cursor, ReplayCursor.of(m, every=5))
    back = cursor.count - 17
    again = cursor.cut(back)
    assert state(again) == state(cursor.goto_copy(back)) and cursor.position == back
    fresh = ReplayCursor(rules, again.actions, seed=11, every=5)
    _same_cursor(cursor, fresh)
    for _ in range(9):  # carry on from the cut
        again.apply(rng.choice(again.legal_actions()))
        cursor.follow(again)
    _same_cursor(cursor, ReplayCursor(rules, again.actions, seed=11, every=5))


def test_follow_refuses_more_than_one_decision(match):
    m = Match.new(Rules(), seed=2)
    cursor = ReplayCursor.of(m)
    m.apply(m.legal_actions()[0])
    m.apply(m.legal_actions()[0])
    with pytest.raises(ValueError):
        cursor.follow(m)
