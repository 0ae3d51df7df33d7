"""The replay viewer for classic UNO at 4 and 10 seats (issue #14): ``p`` cycles seat 1
… seat N then all hands; all hands lists every other hand up to 4 seats (at 80×24),
past that the seat to act's hand and the others' counts; the Reverse and Skip jump
keys; a seat's view never holds another hand."""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest

from engine import Match
from engine.replay import ALL
from tests.tui.classic_saves import NAMES, save_classic
from tests.tui.conftest import SIZE, clipped, make_app, screen_text
from unoduo_tui.screens.replay import MOMENT_KEYS, ReplayScreen
from unoduo_tui.store import Store
from unoduo_tui.widgets import Discard, GameLog, Hand, ScoreSheet, Seats
from unoduo_tui.widgets.other_hands import OtherHands


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path)


@asynccontextmanager
async def watching(store: Store, ref: str):
    app = make_app(store, start="replay", replay=ref)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        yield pilot, app.screen


def expected(screen: ReplayScreen) -> Match:
    cursor = screen.cursor
    return Match.replay(cursor.rules, screen.loaded.match.actions[:cursor.log_length()],
                        seed=screen.loaded.header.seed)


def check_seat_view(screen: ReplayScreen, seat: int) -> None:
    """Every widget holds ``seat``'s view: its own hand, the others only as counts."""
    m = expected(screen)
    assert screen.perspective == seat and screen.bottom == seat
    for widget in (Hand, Discard, ScoreSheet, Seats):
        view = screen.query_one(widget).view
        assert view.seat == seat and not hasattr(view, "hands")
    assert screen.query_one(GameLog).seat == seat
    assert screen.query_one(Hand).view.hand == tuple(m.hand(seat))
    assert screen.query_one(Seats).display and not screen.query_one(OtherHands).display
    assert screen.query_one(Seats).view.hand_sizes == tuple(len(m.hand(s))
                                                             for s in range(m.seats))
    assert "next " not in str(screen.query_one("#replay-status").render())  # no pile


@pytest.mark.parametrize("seats", [4, 10])
async def test_p_cycles_every_seat_then_all_hands(store, seats):
    async with watching(store, save_classic(store, seats)) as (pilot, screen):
        assert screen.perspective == ALL  # a finished match opens at all hands
        await pilot.press("home", *["right"] * 25)
        await pilot.pause()
        for seat in range(seats):
            await pilot.press("p")
            await pilot.pause()
            check_seat_view(screen, seat)
            status = str(screen.query_one("#replay-status").render())
            assert f"{NAMES[seat]}'s view" in status
        await pilot.press("p")
        await pilot.pause()
        assert screen.perspective == ALL
        assert "all hands" in str(screen.query_one("#replay-status").render())
        assert clipped(screen) == []


async def test_all_hands_at_4_seats_lists_the_three_other_hands_at_80x24(store):
    async with watching(store, save_classic(store, 4)) as (pilot, screen):
        await pilot.press("home", *["right"] * 25)
        await pilot.pause()
        m = expected(screen)
        others = screen.query_one(OtherHands)
        assert others.display and not screen.query_one(Seats).display
        assert screen.bottom == 0  # the human's hand at the bottom
        assert screen.query_one(Hand).view.hand == tuple(m.hand(0))
        lines = screen_text(pilot.app).splitlines()
        for seat in (1, 2, 3):
            cards = " ".join(c.text for c in m.hand(seat))
            line = next(line for line in lines[:4] if line.startswith(f" {NAMES[seat]} · "))
            assert f"{len(m.hand(seat))} card" in line and cards[:40] in line
        assert clipped(screen) == []
        assert len(lines) == SIZE[1] and lines[-1].lstrip().startswith("l Log")


async def test_all_hands_at_10_seats_shows_the_seat_to_act_and_the_others_counts(store):
    async with watching(store, save_classic(store, 10)) as (pilot, screen):
        await pilot.press("home", *["right"] * 7)
        await pilot.pause()
        m = expected(screen)
        assert screen.perspective == ALL and screen.bottom == m.to_act
        assert not screen.query_one(OtherHands).display
        seats = screen.query_one(Seats)
        assert seats.display and seats.view.seat == m.to_act
        assert not hasattr(seats.view, "hands")
        assert screen.query_one(Hand).view.hand == tuple(m.hand(m.to_act))
        assert "next " in str(screen.query_one("#replay-status").render())  # the pile
        await pilot.press("right")
        await pilot.pause()
        assert screen.bottom == expected(screen).to_act
        assert clipped(screen) == []


@pytest.mark.parametrize("seats", [4, 10])
@pytest.mark.parametrize("key,rank", [("r", "R"), ("k", "S")])
async def test_reverse_and_skip_jump_to_the_next_and_back(store, seats, key, rank):
    kind = {"R": "reverse", "S": "skip"}[rank]
    async with watching(store, save_classic(store, seats)) as (pilot, screen):
        cursor = screen.cursor
        marks = cursor.moments(kind)
        assert len(marks) >= 2, "the test needs two of them"
        await pilot.press("home", key)
        await pilot.pause()
        assert cursor.position == marks[0]
        decision = cursor.decision()
        assert decision.kind == "play" and decision.card.rank == rank
        await pilot.press(key)
        await pilot.pause()
        assert cursor.position == marks[1]
        await pilot.press(key.upper())
        await pilot.pause()
        assert cursor.position == marks[0]
        assert screen.query_one(Hand).view.hand == tuple(expected(screen).hand(screen.bottom))
        # every play of that rank is a mark, and nothing else is
        plays = [p for p in range(1, cursor.count + 1)
                 if (d := cursor.decision(p)).kind == "play" and d.card.rank == rank]
        assert list(marks) == plays


async def test_classic_offers_no_reverse_dump_and_says_draw_2(store):
    async with watching(store, save_classic(store, 4)) as (pilot, screen):
        assert screen.check_action("moment", ("dump", 1)) is None
        assert screen.check_action("moment", ("reverse", 1))
        labels = [label for _, _, _, label in screen.jumps]
        assert "Reverse dump" not in labels and "Draw 2" in labels
        assert {kind for _, kind, _, _ in MOMENT_KEYS} >= {"reverse", "skip"}
        await pilot.press("home", "v")
        await pilot.pause()
        assert screen.cursor.decision().card.rank == "+2"


async def test_an_unfinished_classic_match_stays_in_its_humans_view(store):
    ref = save_classic(store, 4, limit=40)
    async with watching(store, ref) as (pilot, screen):
        assert screen.locked == 0 and screen.perspective == 0
        await pilot.press("p")
        await pilot.pause()
        check_seat_view(screen, 0)
        assert not screen.query_one(OtherHands).display


def test_snapshot_replay_4_seats_all_hands(snap_compare, tmp_path):
    store = Store(tmp_path)
    ref = save_classic(store, 4)
    app = make_app(store, start="replay", replay=ref)
    assert snap_compare(app, terminal_size=SIZE, press=["home", *["right"] * 25])


async def test_b_says_what_if_branches_are_for_two_seats(store):
    async with watching(store, save_classic(store, 4)) as (pilot, screen):
        await pilot.press("home", "right", "right")
        await pilot.pause()
        assert screen.check_action("branch", ()) is None
        said = []
        screen.notify = lambda message, **kw: said.append(message)
        screen.action_branch()
        await pilot.pause()
        assert pilot.app.screen is screen  # no dialog
        assert said == ["What-if branches are for two-seat matches for now."]


async def test_all_hands_are_laid_out_again_when_the_terminal_widens(store):
    # seed 2: a random bot's hand reaches 26 cards (seed 7 did before C2's ruling
    # changed its tied dealer draw, and with it the deck)
    async with watching(store, save_classic(store, 4, seed=2)) as (pilot, screen):
        cursor = screen.cursor
        # a position where a hand listed at the top is too long for 80 columns
        pos = next(p for p in range(cursor.count)
                   if cursor.goto(p) and max(len(h) for h in cursor.view(ALL).hands[1:]) > 24)
        await pilot.press("home")
        screen.cursor.goto(pos)
        screen.show()
        await pilot.pause()
        others = screen.query_one(OtherHands)
        assert any(line.plain.endswith("…") for line in others.lines)
        await pilot.resize_terminal(140, 24)
        await pilot.pause()
        assert not any(line.plain.endswith("…") for line in others.lines)
        assert max(line.cell_len for line in others.lines) > 80
