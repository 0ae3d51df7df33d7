"""T1, T2, A1, C6: the events of plays, turn draws and kept cards are shared values,
made once per (seat, next seat, action) as cards and actions are made once — each must
still say exactly what happened at every table size: the seat, the card, the colour
named, UNO, a Draw 2's total and the next seat in the direction of play."""

import pytest

from engine import Match, Rules
from engine.events import Draw, Event, Pass, Play
from engine.rng import Rng

#: UNO Duo, then classic at every size the conformance tests use, twice over, so each
#: table size reads shared events first made at another
TABLES = [Rules(), *(Rules(preset="classic", seats=n) for n in (2, 3, 4, 7, 10))] * 2


def _expected(m: Match, action) -> "Event | None":
    """The event ``action`` must yield, built afresh from the match before the move
    (None: a move whose events are not shared)."""
    seat, phase = m.to_act, m.phase
    if action.kind == "play":
        card = action.card
        total = m.pending_draw + 2 if phase == "volley" else 2 if card.rank == "+2" else 0
        nxt = (seat + m.direction) % m.seats
        return Play("play", seat, (card,), total, action.colour, action.uno, None, nxt)
    if action.kind == "pass" and phase == "drawn":
        return Pass("pass", seat, (), 0, None, False, None, "keep")
    return None


def _check_play(m: Match, rng: Rng) -> int:
    """Play ``m`` at random, checking each shared event; how many were checked."""
    checked = 0
    for _ in range(1500):
        if m.over:
            break
        legal = m.legal_actions()
        action = legal[rng.below(len(legal))]
        seat, phase = m.to_act, m.phase
        expected = _expected(m, action)
        events = m.apply(action)
        if expected is not None:
            assert events[0] == expected and type(events[0]) is type(expected), (action, events)
            checked += 1
        elif action.kind == "draw" and phase == "turn":
            drawn = [e for e in events if e.kind == "draw"]
            card = m.hand(seat)[-1]
            assert drawn == [Draw("draw", seat, (card,), 1, None, False, seat, "turn")]
            assert type(drawn[0]) is Draw
            checked += 1
    return checked


@pytest.mark.parametrize("stacking", [False, True])
def test_shared_play_draw_and_keep_events_say_what_happened_at_every_table_size(stacking):
    checked = 0
    for i, rules in enumerate(TABLES):
        if stacking and rules.preset == "classic":
            rules = Rules(preset="classic", seats=rules.seats, stacking=True)
        m = Match.new(rules, seed=100 + i)
        checked += _check_play(m, Rng(7, i))
    assert checked > 10_000

