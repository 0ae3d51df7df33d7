"""What the table says about the seats (issue #21, item 7): "UNO!" only for a seat that
said it, a seat that forgot is one to catch; what a seat owes is said as owed (a
Draw 2 without stacking is no volley)."""

from __future__ import annotations

import pytest

from engine import Match, Rules
from unoduo_tui.widgets import Discard, Seats, StatusLine

from .conftest import screen_text, seated, settle, table
from .harness import NAMES, TableApp, position

HAND7 = ["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"]
BOT7 = ["B9", "B8", "B7", "B6", "B5", "B4", "Y9"]


def _strip(app) -> str:
    widget = app.screen.query_one(Seats)
    rows = screen_text(app).splitlines()
    return " ".join(rows[widget.region.y:widget.region.bottom])


async def test_u2_an_opponent_who_forgot_uno_is_to_catch_not_marked_uno():
    s = table(HAND7, BOT7, "R1", script=["play R9"], hands=[HAND7, ["B9", "R9"]])
    async with seated(s) as (pilot, app):
        await pilot.press("1", "enter")  # R5; the bot plays R9 and forgets UNO
        await settle(pilot)
        assert len(s.match.hand(1)) == 1 and "catch" in s.match.legal_actions()
        strip = _strip(app)
        assert "catch! (x)" in strip
        assert "UNO!" not in strip.replace("no UNO", "")


async def test_u1_an_opponent_who_said_uno_is_marked_uno():
    s = table(HAND7, BOT7, "R1", script=["play R9 uno"], hands=[HAND7, ["B9", "R9"]])
    async with seated(s) as (pilot, app):
        await pilot.press("1", "enter")
        await settle(pilot)
        assert len(s.match.hand(1)) == 1 and "catch" not in s.match.legal_actions()
        strip = _strip(app)
        assert "UNO!" in strip and "catch" not in strip


def said_uno(view, seat: int) -> bool:
    """What the log tells: ``seat``'s last play or dump said UNO (the test's own reading)."""
    mine = [e for e in view.events if e.seat == seat and e.kind in ("play", "dump")]
    return bool(mine and mine[-1].uno)


def _one_card(said: bool):
    def stop(m: Match) -> bool:
        if m.to_act != 0 or m.phase != "turn":
            return False
        view = m.view(0)
        return any(n == 1 and said_uno(view, s) == said
                   for s, n in enumerate(view.hand_sizes) if s)
    return stop


async def test_u1_the_chain_marks_uno_only_where_it_was_said():
    for said in (False, True):
        m = position(4, _one_card(said))
        view = m.view(0)
        seat = next(s for s, n in enumerate(view.hand_sizes) if s and n == 1
                    and said_uno(view, s) == said)
        app = TableApp(view, NAMES[:4])
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            cells = _strip(app).split("→")
        cell = next(c for c in cells if NAMES[seat][:4] in c)
        assert ("UNO!" in cell) == said, (said, cell)


# -- what is owed is not an event, and no volley without stacking (C6) ----------------------


def _facing_draw2(m: Match) -> bool:
    return m.to_act == 0 and m.phase == "volley"


@pytest.mark.parametrize("stacking", [False, True])
async def test_c6_a_draw_2_without_stacking_is_no_volley(stacking):
    rules = Rules(preset="classic", seats=4, stacking=stacking)
    m = position(4, _facing_draw2, rules=rules)
    app = TableApp(m.view(0), NAMES[:4])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        discard = " ".join(str(line) for line in app.screen.query_one(Discard).render().renderables)
        status = str(app.screen.query_one(StatusLine).render())
    owed = m.view(0).pending_draw
    if stacking:
        assert f"+{owed} to you (volley)" in discard
    else:
        assert "volley" not in discard and f"+{owed} to you (Draw 2)" in discard
        assert "A Draw 2 on you: draw 2 (d)" in status


# -- what happened since your last turn (a lap at ten seats does not fit the log) -----------

_MOVES = ("play", "dump", "nodump", "draw", "pass", "challenge", "catch")


def _plays_since_mine(view) -> dict[int, str]:
    """The test's own reading of the log: each other seat whose last move since the
    viewer's own last move (this round) was a play, and the card it played."""
    events = list(view.events)
    start = max([i + 1 for i, e in enumerate(events)
                 if e.kind in ("round", "deal") or (e.seat == view.seat and e.kind in _MOVES)],
                default=0)
    last: dict[int, object] = {}
    for e in events[start:]:
        if e.kind in _MOVES and e.seat is not None and e.seat != view.seat:
            last[e.seat] = e
    return {s: e.cards[0].text for s, e in last.items() if e.kind == "play"}


def _a_lap_played(m: Match) -> bool:
    if m.to_act != 0 or m.phase != "turn":
        return False
    view = m.view(0)
    return (any(e.seat == 0 and e.kind in _MOVES for e in view.events[-40:])
            and len(_plays_since_mine(view)) >= 6)


async def test_at_ten_seats_each_seat_shows_what_it_played_since_your_last_turn():
    m = position(10, _a_lap_played)
    view = m.view(0)
    played = _plays_since_mine(view)
    app = TableApp(view, NAMES)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seats = app.screen.query_one(Seats)
        assert seats.region.height <= 3  # the table keeps its room
        cells = _strip(app).split("→")[1:]
    assert len(cells) == 9
    for seat, card in played.items():
        cell = next(c for c in cells if NAMES[seat][:3] in c)
        assert card in cell.split(), (seat, card, cell)
