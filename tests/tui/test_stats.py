"""The Stats screen (menu → Stats) and the match-over dialog's rating change (#24)."""

from __future__ import annotations

import pytest

from engine import Match, Rules
from tests.record.helpers import finished, play_and_save, save
from unoduo_tui.dialogs import MatchOver
from unoduo_tui.store import Seat, Store
from unoduo_tui.table.local import LocalTable

from .conftest import SIZE, Scripted, clipped, make_app, press, screen_text, settle


def _data(tmp_path) -> Store:
    store = Store(tmp_path / "data")
    for s in range(6):
        play_and_save(store, s * 9, winner=int(s in (1, 4)))
    save(store, finished(Rules(preset="classic", seats=3, target=60), 4),
         (Seat("Ann", "human"), Seat("Bob", "human"), Seat("Easy bot", "bot:easy")))
    return store


async def _stats(pilot) -> None:
    from unoduo_tui.screens.stats import StatsScreen

    menu = pilot.app.screen.query_one("#menu")
    menu.highlighted = next(i for i, o in enumerate(menu.options) if o.id == "stats")
    await press(pilot, "enter")
    assert isinstance(pilot.app.screen, StatsScreen)
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)


async def test_menu_stats_shows_the_record_its_tabs_and_each_player(tmp_path):
    store = _data(tmp_path)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _stats(pilot)
        text = screen_text(app)
        assert "Ann · UNO Duo (1 of 3: p for the next)" in text
        assert "6 matches, won 4" in text and "rating 1" in text
        assert clipped(app.screen) == []
        from textual.widgets import TabbedContent
        from textual_plotext import PlotextPlot

        tabs = app.screen.query_one(TabbedContent)
        await press(pilot, "right")
        assert tabs.active == "stats-rating"
        assert app.screen.query_one("#stats-rating-plot", PlotextPlot).display
        assert "Rating after each rated match" in screen_text(app)
        await press(pilot, "right")
        assert "Rounds by the points scored" in screen_text(app)
        await press(pilot, "right")
        assert tabs.active == "stats-opponents" and "Normal bot" in screen_text(app)
        await press(pilot, "p")  # Ann in classic: Bob and the easy bot
        text = screen_text(app)
        assert "Classic UNO (2 of 3" in text and "Bob" in text
        await press(pilot, "left", "left", "left")
        assert tabs.active == "stats-record"
        await press(pilot, "escape")
        assert type(app.screen).__name__ == "MenuScreen"


async def test_stats_with_no_matches_says_so(tmp_path):
    app = make_app(Store(tmp_path / "empty"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _stats(pilot)
        assert "No finished matches yet" in screen_text(app)
        await press(pilot, "right")
        assert "No rated match yet" in screen_text(app)
        assert not (tmp_path / "empty" / "record.sqlite").exists()


def _ending_table(store: Store) -> tuple[LocalTable, str]:
    """A real match (it replays from its save) one decision from its end, Ann's (seat
    0), which wins it: the table and that decision."""
    rules = Rules(target=40)
    for seed in range(200):
        m = finished(rules, seed, winner=0)
        before = Match.replay(rules, m.actions[:-1], seed=m.seed)
        if before.to_act == 0:
            break
    handle = store.new_match(before, (Seat("Ann", "human"), Seat("Bot", "bot:normal")))
    return (LocalTable(before, ("Ann", "Bot"), ("human", "bot:normal"), handle,
                       bots={1: Scripted()}), str(m.actions[-1]))


async def test_the_match_over_dialog_shows_the_rating_change(tmp_path):
    store = Store(tmp_path / "data")
    play_and_save(store, 3, winner=1)  # Ann lost one before
    at, last = _ending_table(store)
    app = make_app(store, table=at)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        at.act(0, last)
        await settle(pilot)
        await press(pilot, "enter")  # the round's end
        assert isinstance(app.screen, MatchOver)
        await app.workers.wait_for_complete()
        await settle(pilot)
        text = screen_text(app)
        line = next(ln for ln in text.splitlines() if "Ann: rating" in ln)
        before, after = (int(x) for x in line.split("rating ")[1].split(" (")[0].split(" → "))
        assert after > before and "provisional" in line
        assert clipped(app.screen) == []


# -- snapshots -----------------------------------------------------------------------

def _snap_app(tmp_path):
    return make_app(_data(tmp_path))


async def _open_stats(pilot) -> None:
    await settle(pilot)
    await _stats(pilot)


@pytest.mark.parametrize("tab", ["record", "rating", "points", "opponents"])
def test_stats_snapshot(tab, tmp_path, snap_compare):
    keys = ["right"] * [t for t in ("record", "rating", "points", "opponents")].index(tab)
    assert snap_compare(_snap_app(tmp_path), terminal_size=SIZE, press=keys,
                        run_before=_open_stats)


@pytest.mark.parametrize("tab", ["record", "rating"])
def test_stats_snapshot_no_color(tab, tmp_path, snap_compare, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    keys = ["right"] if tab == "rating" else []
    assert snap_compare(_snap_app(tmp_path), terminal_size=SIZE, press=keys,
                        run_before=_open_stats)
