"""The replay viewer at 80×24: every key moves to the position Match.replay of the log
prefix gives, the widgets show that position, and a seat's perspective never shows the
other seat's hand (an unfinished match opens locked in its human's perspective)."""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest

from engine import Match, Rules, bots
from engine.replay import ALL
from tests.engine.helpers import random_match
from tests.net.helpers import until
from tests.tui.conftest import SIZE, clipped, make_app, screen_text
from unoduo_tui.dialogs import MatchOver
from unoduo_tui.screens.menu import MenuScreen
from unoduo_tui.dialogs.goto import GoToAction
from unoduo_tui.screens.replay import MOMENT_KEYS, ReplayScreen
from unoduo_tui.screens.replay_list import ReplayListScreen
from unoduo_tui.widgets.replay_log import ReplayLog
from unoduo_tui.store import Seat, Store
from unoduo_tui.widgets import Discard, GameLog, Hand, Seats, ScoreSheet


def save(store: Store, seed: int = 3, target: int = 100, limit: int | None = None,
         seats=(("Ann", "human"), ("Rando", "bot:random"))) -> str:
    m = random_match(seed, Rules(target=target), limit)
    with store.new_match(m, tuple(Seat(*s) for s in seats)) as handle:
        return handle.id


def replay_app(store: Store, ref: str):
    return make_app(store, start="replay", replay=ref)


@asynccontextmanager
async def watching(store: Store, ref: str | None = None):
    """``unoduo replay`` of ``ref`` (by default a finished random match, :func:`save`)
    at 80×24, settled: yields the pilot and the replay screen."""
    app = replay_app(store, save(store) if ref is None else ref)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        yield pilot, app.screen


def expected(screen: ReplayScreen) -> Match:
    cursor = screen.cursor
    log = screen.loaded.match.actions
    return Match.replay(cursor.rules, log[:cursor.log_length()], seed=0)


def check_shown(screen: ReplayScreen) -> None:
    """The widgets show exactly Match.replay of the prefix, from the perspective."""
    m = expected(screen)
    c = screen.cursor.match
    assert c.actions == m.actions and c.events == m.events
    seat = screen.bottom
    hand = screen.query_one(Hand).view
    assert hand.seat == seat and hand.hand == tuple(m.hand(seat))
    assert screen.query_one(Discard).view.top == m.top
    assert screen.query_one(ScoreSheet).view.scores == m.scores
    status = str(screen.query_one("#replay-status").render())
    assert f"{screen.cursor.position}/{screen.cursor.count}" in status


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path)


async def test_replay_opens_at_the_end_of_a_finished_match_with_all_hands(store):
    async with watching(store) as (pilot, screen):
        assert isinstance(screen, ReplayScreen)
        assert screen.cursor.position == screen.cursor.count
        assert screen.perspective == ALL and screen.locked is None
        assert screen.cursor.match.over
        check_shown(screen)


@pytest.mark.parametrize("keys", [
    ("home", "right", "right", "right"),
    ("left", "left"),
    ("home", "shift+right", "shift+right"),
    ("home", "pagedown"),
    ("pagedown", "pageup", "pageup"),
    ("home", "end", "left"),
    ("home", "v"), ("home", "o"), ("home", "c"), ("home", "x"), ("home", "e"),
    ("V",), ("E", "E"), ("home", "e", "e", "E"),
    ("home", "shift+right", "shift+left"),
])
async def test_every_key_moves_to_the_replayed_position(store, keys):
    async with watching(store, save(store, seed=3)) as (pilot, screen):
        positions = []
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
            positions.append(screen.cursor.position)
            check_shown(screen)
        cursor = screen.cursor
        if keys[:2] == ("home", "right"):
            assert positions == [0, 1, 2, 3]
        if keys == ("home", "pagedown"):
            assert cursor.match.round == 2 and cursor.match.phase == "draft"
        if keys[-1] in ("v", "o", "c", "x", "e") and keys[0] == "home":
            kind = {"v": "volley", "o": "dump", "c": "challenge", "x": "catch",
                    "e": "round"}[keys[-1]]
            marks = cursor.moments(kind)
            assert cursor.position == (marks[0] if marks else 0)


async def test_g_goes_to_an_action_number(store):
    async with watching(store) as (pilot, screen):
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(pilot.app.screen, GoToAction)
        await pilot.press("4", "2", "enter")
        await pilot.pause()
        assert pilot.app.screen is screen and screen.cursor.position == 42
        check_shown(screen)


async def test_space_autoplays_and_plus_speeds_it_up(store):
    async with watching(store) as (pilot, screen):
        await pilot.press("home", "space", "plus", "plus", "plus")
        assert screen.speed == 5
        await pilot.pause(0.5)
        assert screen.cursor.position > 0
        await pilot.press("space")
        here = screen.cursor.position
        await pilot.pause(0.3)
        assert screen.cursor.position == here
        await pilot.press("minus")
        check_shown(screen)


async def test_perspectives_never_show_the_other_seats_hand(store):
    async with watching(store) as (pilot, screen):
        await pilot.press("home", *["right"] * 60)
        await pilot.pause()
        m = expected(screen)
        assert screen.query_one("#others").display
        for seat in (0, 1):
            await pilot.press("p")
            await pilot.pause()
            assert screen.perspective == seat
            other = 1 - seat
            for widget in (Hand, Discard, ScoreSheet, Seats):
                view = screen.query_one(widget).view
                assert view.seat == seat and not hasattr(view, "hands")
            assert screen.query_one(GameLog).seat == seat
            assert not screen.query_one("#others").display
            assert screen.query_one(Seats).display
            assert screen.query_one(Hand).view.hand == tuple(m.hand(seat))
            text = screen_text(pilot.app)
            assert "next " not in text.splitlines()[-2]  # no draw-pile preview
            for e in screen.query_one(Hand).view.events:
                if e.private == other:
                    assert e.cards == ()
        await pilot.press("p")
        assert screen.perspective == ALL


async def test_an_unfinished_match_opens_only_in_its_humans_perspective(store):
    ref = save(store, seed=4, limit=60, seats=(("Rando", "bot:random"), ("Ann", "human")))
    async with watching(store, ref) as (pilot, screen):
        assert isinstance(screen, ReplayScreen)
        assert screen.locked == 1 and screen.perspective == 1
        await pilot.press("p")
        assert screen.perspective == 1
        for key in ("home", "right", "right", "pagedown", "end", "left"):
            await pilot.press(key)
            await pilot.pause()
            check_shown(screen)
            m = expected(screen)
            rando = {c.text for c in m.hand(0)} - {c.text for c in m.hand(1)}
            top = screen_text(pilot.app).splitlines()[0]
            assert not any(f" {code}" in top for code in rando)
            assert screen.query_one(Seats).view.seat == 1
        assert "(unfinished)" in str(screen.query_one("#replay-status").render())


async def test_an_unfinished_hot_seat_match_is_refused(store):
    ref = save(store, limit=40, seats=(("Ann", "human"), ("Bea", "human")))
    app = replay_app(store, ref)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, ReplayScreen)
        assert isinstance(app.screen, MenuScreen)


async def test_q_leaves_the_replay_and_the_app_when_it_was_started_alone(store):
    async with watching(store) as (pilot, _):
        await pilot.press("q")
        await pilot.pause()
    assert pilot.app.return_code == 0


async def test_the_menu_lists_replays_and_opens_one(store):
    save(store)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        from textual.widgets import OptionList
        options = menu.query_one(OptionList)
        index = next(i for i in range(options.option_count)
                     if options.get_option_at_index(i).id == "replays")
        assert not options.get_option_at_index(index).disabled
        menu.action_pick("replays")
        await pilot.pause()
        assert isinstance(app.screen, ReplayListScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ReplayListScreen)


async def test_match_over_offers_to_watch_the_replay(store):
    from unoduo_tui.table.local import LocalTable

    from unoduo_tui.plan import MatchPlan

    session = LocalTable.start(store, MatchPlan(("Ann", "Rando"), ("human", "bot:random"),
                                                Rules(target=100), 3))
    m = session.match
    players = [bots.make("random", seed=1), bots.make("random", seed=2)]
    while not m.over:
        seat = m.to_act
        session.apply(players[seat].choose(m.view(seat)))
    app = make_app(store, table=session)
    async with app.run_test(size=SIZE) as pilot:
        # the dialog, composed (a busy machine: its buttons come a frame later)
        await until(pilot, lambda: isinstance(app.screen, MatchOver)
                    and bool(app.screen.query("#watch")), "the match-over dialog")
        assert clipped(app.screen) == []  # four buttons
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        assert app.screen.cursor.match.over
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


def test_unoduo_replay_refuses_a_dumb_terminal(store, monkeypatch, capsys):
    from unoduo_tui.cli import main

    ref = save(store)
    monkeypatch.setenv("TERM", "dumb")
    assert main(["replay", ref, "--data-dir", str(store.data_dir)]) == 2
    assert "full-screen terminal" in capsys.readouterr().err


async def test_saved_matches_replays_a_finished_one_and_marks_practice(store):
    from textual.widgets import DataTable

    from unoduo_tui.screens.saved import SavedScreen
    from unoduo_tui.table.local import LocalTable

    save(store)
    from unoduo_tui.plan import MatchPlan

    s = LocalTable.start(store, MatchPlan(("Ann", "Rando"), ("human", "bot:random"), seed=6))
    while s.match.to_act == 1 or not s.can_undo:
        s.apply(s.match.legal_actions()[0])
    assert s.undo()
    s.close()
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.action_pick("saved")
        await pilot.pause()
        saved = app.screen
        assert isinstance(saved, SavedScreen)
        assert "practice (1 undo)" in screen_text(app)
        finished = next(i for i, x in enumerate(saved.summaries) if x.status == "finished")
        saved.query_one(DataTable).move_cursor(row=finished)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.cursor.match.over
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is saved


async def test_question_mark_lists_every_replay_key_on_a_screen_that_scrolls_at_80x24(store):
    """The replay's key help was a toast cut off at 80×24: it is a screen of its own
    that fits and scrolls to its last row, read from the bindings."""
    async with watching(store) as (pilot, screen):
        await pilot.press("question_mark")
        await pilot.pause()
        shown = pilot.app.screen
        assert shown is not screen and not clipped(shown)
        seen = screen_text(pilot.app)
        for _ in range(6):
            await pilot.press("pagedown")
            await pilot.pause()
            seen += screen_text(pilot.app)
        flat = " ".join(seen.split())
        for _, _kind, _, label in screen.jumps:
            assert f"previous {label}" in flat, label
        for words in ("One action forward", "Go to an action number", "Leave the replay",
                      "Escape, q or ? goes back."):
            assert words in flat, words
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen


def test_the_help_lists_every_replay_key_and_undo():
    from unoduo_tui.screens.help import HELP

    assert "| z / y |" in HELP
    for key in ("Shift+→", "PgDn", "Home / End", "| g |", "| b |", "| p |"):
        assert key in HELP
    for key, _, _, _ in MOMENT_KEYS:
        assert f"| {key} / {key.upper()} |" in HELP


async def test_spoiler_free_hides_the_length_the_future_and_the_final_scores(store):
    async with watching(store) as (pilot, screen):
        count = screen.cursor.count
        final = screen.cursor.match.scores
        await pilot.press("s")
        await pilot.pause()
        assert screen.spoiler_free and screen.cursor.position == 0  # away from the end
        assert screen.query_one(ScoreSheet).view.scores != final or final == (0, 0)
        await pilot.press("pagedown")
        await pilot.pause()
        pos = screen.cursor.position
        status = str(screen.query_one("#replay-status").render())
        assert f"/{count}" not in status and "spoiler-free" in status
        timeline = str(screen.query_one("#timeline").render())
        assert timeline.rstrip().endswith("?")
        future = {mark for _, kind, mark, _ in MOMENT_KEYS for p in screen.cursor.moments(kind)
                  if p > pos}
        past = {mark for _, kind, mark, _ in MOMENT_KEYS for p in screen.cursor.moments(kind)
                if p <= pos}
        for mark in future - past - {"─"}:
            assert mark not in timeline
        assert screen.check_action("moment", ("volley", 1))  # never says what lies ahead
        await pilot.press("s")
        await pilot.pause()
        assert not screen.spoiler_free and screen.cursor.position == pos
        assert f"{pos}/{count}" in str(screen.query_one("#replay-status").render())
        check_shown(screen)


def drawn(log) -> list:
    """Every line of the log as it is drawn (the highlight is drawn, not written)."""
    top = int(log.scroll_offset.y)
    return [log.render_line(row - top) for row in range(len(log.lines))]


async def test_the_log_highlights_the_current_action_and_only_it(store):
    from engine import describe

    async with watching(store) as (pilot, screen):
        log = screen.query_one(GameLog)
        for keys in (("home",), ("right",), ("right", "right"), ("pagedown",), ("left",)):
            await pilot.press(*keys)
            await pilot.pause()
            cursor = screen.cursor
            pos = cursor.position
            if pos == 0:
                assert log.highlighted is None
                continue
            assert log.highlighted == cursor.event_count(pos - 1)
            mine = [describe(e, screen.names, None) for e in cursor.events_of(pos)
                    if e.kind != "first"]
            lit = [strip.text.rstrip() for strip in drawn(log)
                   if any(seg.style and seg.style.reverse for seg in strip)]
            assert lit and " ".join(lit).split() == " ".join(mine).split()


async def test_clicking_a_log_line_goes_to_the_action_it_tells(store):
    async with watching(store) as (pilot, screen):
        log = screen.query_one(GameLog)
        # the log maps its lines once it has drawn them (a loaded machine: not yet)
        await until(pilot, lambda: log.line_events is not None, "the log drawn")
        assert len(log.line_events) == len(log.lines)
        screen.cursor.goto(60)
        screen.show()
        await pilot.pause()
        mapping = log.line_events
        assert mapping is not None and len(mapping) == len(log.lines)
        top = int(log.scroll_offset.y)
        line = top + 1  # the second line on screen: an earlier action
        clicked = mapping[line]
        assert clicked < log.highlighted
        await pilot.click("#log", offset=(3, 1 + line - top))  # 1: the border
        await pilot.pause()
        pos = screen.cursor.position
        assert pos < 60 and pos == screen.cursor.position_of_event(clicked)
        assert screen.cursor.event_count(pos - 1) <= clicked < screen.cursor.event_count(pos)
        assert log.highlighted == screen.cursor.event_count(pos - 1)
        check_shown(screen)


async def test_l_then_up_and_enter_pick_a_log_line_and_go_to_its_action(store):
    async with watching(store) as (pilot, screen):
        log = screen.query_one(ReplayLog)
        screen.cursor.goto(60)
        screen.show()
        await pilot.pause()
        assert not log.has_focus
        await pilot.press("l")
        await pilot.pause()
        assert log.has_focus and log.picked == log.line_events[-1]  # the newest line
        await pilot.press("up", "up", "up", "down", "up", "up")
        await pilot.pause()
        picked = log.picked
        assert picked < log.highlighted  # a line of an earlier action
        rows = log.rows_of(picked)
        assert rows and all(log.line_events[r] == picked for r in rows)
        top = int(log.scroll_offset.y)
        assert top <= rows[0] and rows[-1] < top + log.scrollable_content_region.height
        strip = log.render_line(rows[0] - top)  # drawn picked: not reversed, underlined
        assert any(seg.style and seg.style.underline for seg in strip)
        await pilot.press("enter")
        await pilot.pause()
        pos = screen.cursor.position
        assert pos < 60 and pos == screen.cursor.position_of_event(picked)
        assert screen.cursor.event_count(pos - 1) <= picked < screen.cursor.event_count(pos)
        check_shown(screen)  # the position is Match.replay of the log's prefix
        assert log.has_focus and log.picked == picked  # still there: pick on from here
        await pilot.press("left")  # ← → still step while the log has the keys
        await pilot.pause()
        assert screen.cursor.position == pos - 1 and log.has_focus
        check_shown(screen)
        await pilot.press("escape")  # hands the keys back; closes nothing
        await pilot.pause()
        assert pilot.app.screen is screen and not log.has_focus and not log.can_focus
        before = screen.cursor.position
        await pilot.press("up", "enter")  # ↑ alone starts picking, one line up
        await pilot.pause()
        assert log.has_focus and screen.cursor.position <= before
        check_shown(screen)
        await pilot.press("tab")
        await pilot.pause()
        assert not log.has_focus


async def test_the_log_cannot_be_picked_before_the_first_action(store):
    async with watching(store) as (pilot, screen):
        await pilot.press("home")
        await pilot.pause()
        assert screen.check_action("log", ()) is None  # shown disabled in the footer
        await pilot.press("l")
        await pilot.pause()
        assert not screen.query_one(ReplayLog).has_focus


def test_the_log_keys_are_in_the_help_and_the_footer():
    from unoduo_tui.screens.help import HELP

    assert "| l or Tab (or ↑) |" in HELP and "go to the action the picked line" in HELP
    keys = {b.id: b for b in ReplayLog.BINDINGS}
    assert keys["replay.log.up"].show and keys["replay.log.jump"].show
    assert keys["replay.log.done"].show and "escape" in keys["replay.log.done"].key
    assert any(b.id == "replay.log" and b.show for b in ReplayScreen.BINDINGS)


def spoiler_free_text_is_clean(app, final, count: int) -> None:
    """Nothing on screen gives the end away: no final scores, no winner, no length."""
    text = screen_text(app)
    screen = app.screen
    names = screen.names
    assert "–".join(map(str, final.scores)) not in text
    assert "Match over" not in text and " wins" not in text and " won" not in text
    if final.winner is not None:
        assert f"{names[final.winner]} wins" not in text
    assert f"/{count}" not in text
    assert screen.query_one(ScoreSheet).view.scores != final.scores


async def test_a_replay_opened_spoiler_free_starts_at_the_start_and_shows_no_result(store):
    ref = save(store)
    final = store.open(ref, read_only=True).match
    assert final.over
    app = make_app(store, start="replay", replay=ref, spoiler_free=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.spoiler_free
        assert screen.cursor.position == 0
        count = screen.cursor.count
        spoiler_free_text_is_clean(app, final, count)
        await pilot.press("pagedown", "right", "right")
        await pilot.pause()
        assert screen.cursor.position < count
        spoiler_free_text_is_clean(app, final, count)
        assert "spoiler-free" in str(screen.query_one("#replay-status").render())


@pytest.mark.parametrize("where", ["replays", "saved"])
async def test_s_in_the_lists_hides_the_results_and_enter_watches_spoiler_free(store, where):
    from textual.widgets import DataTable

    from unoduo_tui.screens.saved import SavedScreen

    ref = save(store)
    final = store.open(ref, read_only=True).match
    result = "–".join(map(str, final.scores))
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.action_pick(where)
        await pilot.pause()
        listing = app.screen
        assert isinstance(listing, ReplayListScreen if where == "replays" else SavedScreen)
        assert result in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        text = screen_text(app)
        assert listing.spoiler_free and "spoiler-free" in text
        assert result not in text and f"round {final.round}" not in text
        assert listing.query_one(DataTable).get_row_at(0)[3] == "—"  # nor its length
        listing.query_one(DataTable).move_cursor(row=0)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.spoiler_free
        assert screen.cursor.position == 0
        spoiler_free_text_is_clean(app, final, screen.cursor.count)
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is listing
        await pilot.press("s")  # and back: the results again, Enter opens at the end
        await pilot.pause()
        assert result in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert not app.screen.spoiler_free and app.screen.cursor.match.over


async def test_the_log_tells_exactly_the_events_so_far_however_the_cursor_moves(store):
    # a step writes (or drops) only its own lines: after any mix of moves the log
    # still reads as the events up to the cursor, each line mapped to its event
    from engine import describe

    async with watching(store) as (pilot, screen):
        log = screen.query_one(ReplayLog)
        moves = [("home",), ("right",) * 7, ("left",) * 3, ("pagedown",), ("left",) * 40,
                 ("right",) * 90, ("p",), ("left",) * 2, ("p", "p"), ("end",), ("left",) * 5,
                 ("E",), ("right",) * 3]
        for keys in moves:
            await pilot.press(*keys)
            await pilot.pause()
            cursor = screen.cursor
            pos = cursor.position
            if pos == 0:
                continue
            mapping = log.line_events
            assert mapping is not None and len(mapping) == len(log.lines)
            assert list(mapping) == sorted(mapping)
            events = (cursor.view(ALL) if screen.perspective == ALL
                      else cursor.view(screen.perspective)).events
            assert len(events) == cursor.event_count(pos) and log.events_shown == len(events)
            first = mapping[0]
            # a replay names every seat, whoever's view it shows: no "you"
            told = [describe(e, screen.names, None) for e in events[first:]
                    if e.kind != "first"]
            shown = " ".join(strip.text for strip in log.lines)
            assert shown.split() == " ".join(told).split()
            assert "you" not in shown.lower().replace(".", " ").split()
            assert log.highlighted == cursor.event_count(pos - 1)
            assert len(log.lines) <= 400


async def test_the_log_wraps_its_lines_again_when_the_terminal_is_resized(store):
    async with watching(store) as (pilot, screen):
        log = screen.query_one(ReplayLog)
        await pilot.press("home", *["right"] * 30)
        await pilot.pause()
        narrow = log.scrollable_content_region.width
        await pilot.resize_terminal(120, 30)
        for _ in range(3):
            await pilot.pause()
        wide = log.scrollable_content_region.width
        assert wide > narrow and log.wrapped_to == wide
        assert all(strip.cell_length <= wide for strip in log.lines)
        assert any(strip.cell_length > narrow for strip in log.lines)
        assert len(log.line_events) == len(log.lines)
        check_shown(screen)
