"""#15 / C11 for spectators: :meth:`Match.public_view` is the view of a seat that holds
none of the cards — no hand, no legal actions, no drawn card, every private event
redacted — and it round-trips through plain data like a seat's view."""

import msgpack
import pytest

from engine import Card, Match, PlayerView, Rules
from engine.view import SeatEvents

from .test_view import _cards_reached, _play

PRESETS = [Rules(), Rules(preset="classic", seats=4)]


def _public_faces(m: Match) -> set[Card]:
    """The faces anyone at the table may know of: the discard pile and the cards of
    events private to no seat (a round's end shows every hand)."""
    faces = set(m.discard_pile)
    for e in m.events:
        if e.private is None:
            faces.update(e.cards)
        if e.kind == "round_end":
            faces.update(c for hand in e.hands for c in hand)
    return faces


@pytest.mark.parametrize("rules", PRESETS, ids=["duo", "classic4"])
@pytest.mark.parametrize("decisions", [0, 1, 5, 40, 400])
def test_a_public_view_reaches_no_card_of_any_hand_never_made_public(rules, decisions):
    m = _play(Match.new(rules, seed=31 + decisions), 3, decisions)
    view = m.public_view()
    hidden = set().union(*(set(m.hand(s)) for s in range(m.seats))) - _public_faces(m)
    if decisions <= 40:  # later, every face in a hand may have been played once already
        assert hidden, "the test needs cards no one has shown"
    reached = _cards_reached(view) | _cards_reached(PlayerView.from_dict(view.to_dict()))
    assert not reached & hidden
    assert view.seat is None and view.hand == () and view.legal_actions == ()
    assert view.drawn is None and view.hand_sizes == tuple(len(m.hand(s))
                                                           for s in range(m.seats))


@pytest.mark.parametrize("rules", PRESETS, ids=["duo", "classic4"])
def test_every_private_event_is_redacted_for_a_spectator(rules):
    m = _play(Match.new(rules, seed=5), 9, 600)
    view = m.public_view()
    assert view.event_count == len(m.events) == len(view.events)
    private = 0
    for seen, e in zip(view.events, m.events):
        if e.private is None:
            assert seen == e
        else:
            private += 1
            assert seen.cards == () and seen[3:] == e[3:] and seen.kind == e.kind
    assert private, "the match must have had private events"


@pytest.mark.parametrize("rules", PRESETS, ids=["duo", "classic4"])
def test_a_public_view_round_trips_and_is_what_every_seat_sees_in_public(rules):
    m = _play(Match.new(rules, seed=8), 4, 120)
    view = m.public_view()
    data = view.to_dict()
    back = PlayerView.from_dict(msgpack.unpackb(msgpack.packb(data)))
    assert back == view and back.to_dict() == data and back.seat is None
    seat = m.view(0)
    for name in ("top", "color", "draw_size", "discard_size", "scores", "round", "to_act",
                 "phase", "over", "winner", "exposed", "rules", "dealer", "direction",
                 "hand_sizes"):
        assert getattr(view, name) == getattr(seat, name), name
    assert 0 <= view.next_seat < m.seats


def test_a_public_view_is_a_value_later_moves_do_not_reach():
    m = _play(Match.new(seed=2), 1, 10)
    view = m.public_view()
    count = view.event_count
    _play(m, 2, 30)
    assert view.event_count == len(view.events) == count


@pytest.mark.parametrize("rules", PRESETS, ids=["duo", "classic4"])
def test_a_kept_public_event_list_gives_the_same_views_as_a_fresh_one(rules):
    m = Match.new(rules, seed=13)
    kept = SeatEvents(-1)
    for steps in (0, 1, 7, 40, 200):
        _play(m, steps + 1, steps)
        assert m.public_view(kept) == m.public_view()
    with pytest.raises(ValueError):
        m.public_view(SeatEvents(0))
