"""C11 / the view: a :class:`PlayerView` is a self-contained value — it reaches no card
the seat has not seen, nothing that happens after it was taken, and it round-trips
through plain data (msgpack) for remote play."""

import gc
import types

import msgpack
import pytest

from engine import Card, Event, Match, PlayerView, Rules, bots, describe
from engine.bots.belief import Belief
from engine.rng import Rng

from .helpers import dealt

P1 = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
P2 = ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]

_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, types.CodeType)


def _reachable(root) -> list:
    """Every object reachable from ``root`` through ``gc.get_referents``, not going
    into classes, modules or functions (a class reaches every card through its tables)."""
    seen: set[int] = set()
    out = []
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _OPAQUE):
            continue
        seen.add(id(obj))
        out.append(obj)
        stack.extend(gc.get_referents(obj))
    return out


def _play(m: Match, seed: int, decisions: int) -> Match:
    rng = Rng(seed, 7)
    for _ in range(decisions):
        if m.over:
            break
        legal = m.legal_actions()
        m.apply(legal[rng.below(len(legal))])
    return m


def _seen_faces(m: Match, seat: int) -> set[Card]:
    """The card faces ``seat`` may know of: its hand, the discard pile, its redacted events."""
    faces = set(m.hand(seat)) | set(m.discard_pile)
    for e in m.events:
        e = e.seen_by(seat)
        faces.update(e.cards)
        if e.kind == "round_end":
            faces.update(c for hand in e.hands for c in hand)
    return faces


def _cards_reached(view: PlayerView) -> set[Card]:
    found = set()
    for obj in _reachable(view):
        if isinstance(obj, Card):
            found.add(obj)
        elif isinstance(obj, str) and not isinstance(obj, Card):
            try:
                found.add(Card.parse(obj))
            except ValueError:
                pass
    return found


@pytest.mark.parametrize("decisions", [0, 1, 2, 5])
def test_c11_a_view_reaches_no_card_of_another_hand_the_seat_has_not_seen(decisions):
    m = dealt(P1, P2, "Y5", draws=["G8", "G9", "Y7", "B1", "Y8"])
    _play(m, 3, decisions)
    view = m.view(0)
    hidden = set(m.hand(1)) - _seen_faces(m, 0)
    assert hidden, "the test needs cards seat 0 has not seen in the other hand"
    reached = _cards_reached(view) | _cards_reached(PlayerView.from_dict(view.to_dict()))
    assert not reached & hidden
    assert reached <= _seen_faces(m, 0) | set(m.draw_pile)  # nothing from another hand


def test_events_appended_after_the_view_was_taken_are_not_reachable():
    m = dealt(P1, P2, "Y5", draws=["G8", "G9", "Y7", "B1", "Y8"])
    view = m.view(0)
    count = m.event_count
    _play(m, 4, 6)
    later = m.events[count:]
    assert later
    ids = {id(obj) for obj in _reachable(view)}
    assert not any(id(e) in ids for e in later)
    assert len(view.events) == view.event_count == count


def test_the_view_of_a_long_match_is_the_redacted_event_list():
    m = _play(Match.new(seed=8), 5, 3000)
    for seat in (0, 1):
        view = m.view(seat)
        assert view.events == tuple(e.seen_by(seat) for e in m.events)
        assert view.event_count == len(m.events)
        for start in (0, 1, 255, 256, 257, 700, len(m.events) - 1, len(m.events)):
            assert view.events_from(start) == view.events[start:]
    # a fresh view (no events built yet) slices the same
    view = m.view(1)
    assert view.events_from(300) == tuple(e.seen_by(1) for e in m.events[300:])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_view_round_trips_through_plain_data_and_msgpack(seed):
    m = Match.new(seed=seed)
    players = [bots.make("normal", seed=seed), bots.make("random", seed=seed)]
    checked = 0
    while not m.over and checked < 400:
        for seat in (0, 1):
            view = m.view(seat)
            data = view.to_dict()
            back = PlayerView.from_dict(msgpack.unpackb(msgpack.packb(data)))
            assert back == view and back.to_dict() == data
            assert back.events == view.events and back.hand == view.hand
            assert back.legal_actions == view.legal_actions and back.rules == view.rules
        checked += 1
        m.apply(players[m.to_act].choose(m.view(m.to_act)))


def test_a_view_of_a_finished_match_round_trips():
    m = _play(Match.new(seed=12), 9, 100_000)
    assert m.over
    view = m.view(1)
    back = PlayerView.from_dict(msgpack.unpackb(msgpack.packb(view.to_dict())))
    assert back == view and back.rounds == m.rounds and back.winner == m.winner
    ends = [e for e in back.events if e.kind == "round_end"]
    assert ends and all(isinstance(c, Card) for e in ends for h in e.hands for c in h)


@pytest.mark.parametrize("bad", [None, [], {"seat": 0}, "view"])
def test_malformed_view_data_is_refused_with_a_value_error(bad):
    with pytest.raises(ValueError):
        PlayerView.from_dict(bad)


def test_a_view_with_a_bad_card_or_event_is_refused():
    data = Match.new(seed=1).view(0).to_dict()
    with pytest.raises(ValueError, match="card"):
        PlayerView.from_dict({**data, "hand": ["R5", "Q9"]})
    with pytest.raises(ValueError, match="event"):
        PlayerView.from_dict({**data, "events": [["draw", 0]]})
    with pytest.raises(ValueError):
        Event.from_data(["draw", 0, ["ZZ"], 1, None, False, 0, "turn"])


def test_every_match_has_its_own_id_and_clones_and_replays_are_other_matches():
    a, b = Match.new(seed=987_654_321), Match.new(seed=987_654_321)
    assert a.id != b.id and a.view(0).match_id == a.id
    assert a.clone().id != a.id
    assert Match.replay(a.rules, a.actions).id != a.id
    assert str(a.seed) not in a.id and f"{a.seed:x}" not in a.id


def test_belief_starts_again_for_a_new_match_with_a_reused_bot():
    bot = bots.make("normal", seed=1)
    first = _play(Match.new(seed=5), 1, 60)
    belief = bot.belief(first.view(0))
    assert belief.match_id == first.id
    # the same deal, played differently and further: only the id tells it is another match
    second = _play(Match.new(seed=5), 2, 90)
    view = second.view(0)
    reused = bot.belief(view)
    fresh = Belief(0, Rules()).update(view)
    assert reused.match_id == second.id
    assert sorted(reused.mine, key=Card.sort_key) == sorted(view.hand, key=Card.sort_key)
    assert reused.unseen == fresh.unseen and reused.opponent_known == fresh.opponent_known
    assert [s.pool for s in reused.slots] == [s.pool for s in fresh.slots]


def test_belief_reads_a_view_that_came_over_the_wire():
    m = _play(Match.new(seed=6), 3, 150)
    view = m.view(1)
    wire = PlayerView.from_dict(msgpack.unpackb(msgpack.packb(view.to_dict())))
    a, b = Belief(1, Rules()).update(view), Belief(1, Rules()).update(wire)
    assert a.unseen == b.unseen and a.mine == b.mine


def test_a_dump_lists_its_cards_in_the_log():
    m = dealt(P1, ["BR", "B5", "G2", "B+2", "W", "B5", "BS"], "B9", draws=["Y1", "Y2"])
    m.apply("play BR")
    events = m.apply("dump B5")
    dump = next(e for e in events if e.kind == "dump")
    assert describe(dump, ("Ann", "Bob"), 0) == "Bob dumps B5 B+2 BS B5 (B5 last)."
    assert describe(dump, ("Ann", "Bob"), 1) == "You dump B5 B+2 BS B5 (B5 last)."


@pytest.mark.parametrize("rules", [Rules(), Rules(preset="classic", seats=4, target=100)])
def test_every_event_is_a_typed_value_of_its_kind_with_named_fields(rules):
    from engine.events import EVENT_TYPES

    m = _play(Match.new(rules, seed=21), 5, 100_000)
    kinds = set()
    for e in m.events:
        assert type(e) is EVENT_TYPES[e.kind]
        kinds.add(e.kind)
        back = Event.from_data(e.to_data())
        assert back == e and type(back) is type(e)
        assert type(e.seen_by(0)) is type(e)
        if e.kind == "draw":
            assert (e.why, e.ncards) == (e.data, e.amount)
        elif e.kind == "round_end":
            assert (e.hands, e.points, e.totals, e.blocked) == e.data
        elif e.kind == "challenge":
            assert e.guilty is e.data
        elif e.kind == "play":
            assert (e.card, e.total, e.next_seat) == (e.cards[0], e.amount, e.data)
    assert {"play", "draw", "round_end", "match_end"} <= kinds
