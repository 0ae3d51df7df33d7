"""Rough edges in the replay viewer and the lists (issue #12): the status line's round
and words, ``v`` on a single Draw 2, a jump with nowhere to go, the log-pick footer
at 80 columns, and deleting a saved match from the Saved and Replays lists."""

from __future__ import annotations

import pytest

from engine import Rules
from tests.engine.helpers import random_match
from tests.tui.conftest import SIZE, make_app, screen_text, notifications
from tests.tui.test_replay import save, watching
from unoduo_tui.screens.replay import ReplayScreen
from unoduo_tui.screens.replay_list import ReplayListScreen
from unoduo_tui.screens.saved import SavedScreen
from unoduo_tui.store import Store


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path)


def status_of(screen) -> str:
    return str(screen.query_one("#replay-status").render())


def footer(app) -> str:
    return screen_text(app).splitlines()[-1]


def first_seed(test) -> int:
    """The first seed whose random match (target 100) passes ``test(cursor)``."""
    from engine.replay import ReplayCursor

    for seed in range(1, 60):
        if test(ReplayCursor.of(random_match(seed, Rules(target=100), None))):
            return seed
    raise AssertionError("no seed")


# -- the status line -----------------------------------------------------------------------


async def test_the_action_that_ends_round_1_is_labelled_round_1(store):
    async with watching(store) as (pilot, screen):
        end = screen.cursor.moments("round")[0]
        screen.cursor.goto(end)
        screen.show()
        await pilot.pause()
        assert screen.cursor.match.round == 2  # the position after it is in round 2
        assert " · round 1 · " in status_of(screen)


async def test_the_status_line_says_the_decision_in_the_logs_words(store):
    seed = first_seed(lambda c: any(c.decision(p) == "nodump" for p in range(1, c.count + 1)))
    ref = save(store, seed=seed)
    async with watching(store, ref) as (pilot, screen):
        cursor = screen.cursor
        pos = next(p for p in range(1, cursor.count + 1) if cursor.decision(p) == "nodump")
        cursor.goto(pos)
        screen.show()
        await pilot.pause()
        status = status_of(screen)
        who = screen.names[cursor.actor()]
        assert "nodump" not in status and f"{who} keeps the rest of the" in status
        assert status.rstrip().endswith("all hands") and len(status) <= SIZE[0]


# -- moments ----------------------------------------------------------------------------------


def _single_draw_2(cursor) -> int | None:
    """The position after a Draw 2 that nobody stacked on (and that was not stacked)."""
    for p in range(1, cursor.count):
        d = cursor.decision(p)
        if d.kind == "play" and d.card.rank == "+2" and any(
                e.kind == "play" and e.amount == 2 for e in cursor.events_of(p)):
            return p
    return None


async def test_a1_v_finds_a_single_draw_2(store):
    seed = first_seed(lambda c: _single_draw_2(c) is not None)
    async with watching(store, save(store, seed=seed)) as (pilot, screen):
        single = _single_draw_2(screen.cursor)
        assert single in screen.cursor.moments("volley")
        screen.cursor.goto(single - 1)
        screen.show()
        await pilot.press("v")
        await pilot.pause()
        assert screen.cursor.position == single


async def test_a_jump_with_nowhere_to_go_says_so_on_the_status_line(store):
    async with watching(store) as (pilot, screen):
        assert screen.cursor.position == screen.cursor.count
        screen.cursor.start()
        screen.show()
        await pilot.press("V")  # no earlier volley than the start
        await pilot.pause()
        assert "no earlier Draw 2 volley" in status_of(screen)
        await pilot.press("right")
        await pilot.pause()
        assert "no earlier" not in status_of(screen)  # said once


# -- the footer while a log line is picked ------------------------------------------------


async def test_the_log_pick_footer_fits_80_columns(store):
    async with watching(store) as (pilot, screen):
        await pilot.press("l")
        await pilot.pause()
        keys = footer(pilot.app)
        assert "esc Done" in keys and "q Close" in keys and "^p palette" in keys
        await pilot.press("g")  # waits while a line is picked: no dialog
        await pilot.pause()
        assert isinstance(pilot.app.screen, ReplayScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert "g Go to" in footer(pilot.app)


# -- deleting from the lists --------------------------------------------------------------


@pytest.mark.parametrize("screen_type", [SavedScreen, ReplayListScreen])
async def test_the_lists_delete_a_match_once_confirmed(store, screen_type):
    keep, gone = save(store, seed=3), save(store, seed=4)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(screen_type())
        await pilot.pause()
        listing = app.screen
        assert "d Delete" in footer(app)
        titles = {c.title for c in app.get_system_commands(listing)}
        assert any(t.endswith(": Delete") for t in titles)
        row = next(i for i, s in enumerate(listing.summaries) if s.id == gone)
        listing.query_one("DataTable").move_cursor(row=row)
        await pilot.press("d")
        await pilot.pause()
        assert type(app.screen).__name__ == "ConfirmDelete"
        await pilot.press("n")  # kept
        await pilot.pause()
        assert app.screen is listing and len(store.list()) == 2
        await pilot.press("delete")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.screen is listing
        assert [s.id for s in store.list()] == [keep]
        assert [s.id for s in listing.summaries] == [keep]


async def test_deleting_a_match_open_elsewhere_says_why_and_keeps_it(store, monkeypatch):
    from unoduo_tui.store import LockedError

    ref = save(store, seed=3)

    def locked(ref):
        raise LockedError("open", pid=4242, host="here")

    monkeypatch.setattr(store, "delete", locked)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(SavedScreen())
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        said = [n.message for n in notifications(app)]
        assert any("process 4242" in m for m in said), said
        assert [s.id for s in store.list()] == [ref]


async def test_the_confirmation_shows_its_own_keys(store):
    save(store, seed=3)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(SavedScreen())
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        keys = footer(app)
        assert "y Delete" in keys and "n Keep" in keys and "s Spoiler" not in keys
