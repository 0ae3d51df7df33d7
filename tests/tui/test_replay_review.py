"""The replay viewer's review (#25) at 80×24: ``a`` computes it off the event loop and
shows each decision as it comes (label, loss and best move on the status line, the
curve in the timeline's place), ``m`` / ``M`` go to the mistakes, spoiler-free draws
the curve only up to the cursor, and ``a`` while computing stops it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.review_words import action_words
from tests.net.helpers import until
from tests.tui.conftest import SIZE, screen_text
from tests.tui.test_replay import replay_app, save
from unoduo_tui.store import Store


@pytest.fixture(autouse=True)
def _small_budget(monkeypatch):
    import engine.review

    monkeypatch.setattr(engine.review, "BUDGET", 32)


async def test_a_shows_the_review_as_it_comes_and_m_goes_to_the_mistakes(tmp_path):
    store = Store(tmp_path)
    app = replay_app(store, save(store, seed=4, target=20))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert not screen.query_one("#review-row").display
        await pilot.press("a")
        assert screen.review_on and screen.query_one("#review-row").display
        assert not screen.query_one("#timeline").display
        await until(pilot, lambda: screen.review_done, "the review's end", timeout=300)
        assert screen.reviewed and not screen.query_one("#review-progress").display
        # the cursor is at the end: the last decision's words
        last = screen.reviewed.get(screen.cursor.position - 1)
        status = str(screen.query_one("#replay-status").render())
        if last is not None:
            assert f" · {last.label}" in status
        await pilot.press("home")
        marks = screen.mistake_positions()
        assert marks, "a random bot makes mistakes"
        await pilot.press("m")
        assert screen.cursor.position == marks[0]
        d = screen.reviewed[marks[0] - 1]
        status = str(screen.query_one("#replay-status").render())
        assert f"{d.label} −{d.loss:.0f}, best: {action_words(d.best)}" in status
        await pilot.press("end", "M")
        assert screen.cursor.position == marks[-1]
        curve = str(screen.query_one("#review-curve").render())
        assert any(bar in curve for bar in "▁▂▃▄▅▆▇█")
        await pilot.press("a")  # off: the timeline is back
        assert not screen.review_on and screen.query_one("#timeline").display
        assert "Review" in screen_text(app)


async def test_spoiler_free_draws_the_curve_only_up_to_the_cursor(tmp_path):
    store = Store(tmp_path)
    app = replay_app(store, save(store, seed=4, target=20))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("a")
        await until(pilot, lambda: screen.review_done, "the review's end", timeout=300)
        await pilot.press("s")  # spoiler-free: back to the start
        for _ in range(60):
            await pilot.press("right")
        here = screen.cursor.position

        def curve() -> str:
            screen.show()
            return str(screen.query_one("#review-curve").render())

        before = curve()
        future = {step: d for step, d in screen.reviewed.items() if d.step + 1 > here}
        assert future
        # what lies ahead changes: the spoiler-free curve does not
        def flipped(d):
            return replace(d, win_after=100.0 - d.win_after,
                           match_after=None if d.match_after is None else 100.0 - d.match_after)

        screen.reviewed.update({step: flipped(d) for step, d in future.items()})
        assert curve() == before
        await pilot.press("s")  # spoilers shown: the whole match's curve, the future too
        shown = curve()
        screen.reviewed.update(future)
        assert curve() != shown


def test_snapshot_of_the_review_at_a_mistake(snap_compare, monkeypatch):
    """80×24: the curve in the timeline's place, the mistake's label, loss and best move
    on the status line (the replay scene of ``tests.screenshots``, fixed seeds)."""
    import engine.review
    from tests.screenshots import scene_app

    for name, value in (("BUDGET", 8), ("MIN_WORLDS", 4), ("MAX_WORLDS", 8)):
        monkeypatch.setattr(engine.review, name, value)  # the plumbing, not the values

    async def reviewed(pilot) -> None:
        screen = pilot.app.screen
        await pilot.press("a")
        await until(pilot, lambda: screen.review_done, "the review's end", timeout=300)
        await pilot.press("home", "m")
        await pilot.pause()

    assert snap_compare(scene_app("replay", "textual-dark"), terminal_size=(80, 24),
                        run_before=reviewed)


async def test_a_while_computing_stops_the_review_and_spoiler_free_it_has_no_total(
        tmp_path, monkeypatch):
    """``a`` while the review is computed stops it.  Before that: the total of
    decisions to review is the match's length, so spoiler-free the progress bar has no
    total and the status line says only that it is working."""
    from textual.widgets import ProgressBar

    import engine.review

    monkeypatch.setattr(engine.review, "BUDGET", 400)
    store = Store(tmp_path)
    app = replay_app(store, save(store, seed=3, target=100))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("s", "a")  # spoiler-free, at the start; the review on
        await until(pilot, lambda: len(screen.reviewed) >= 1, "a first decision", timeout=300)
        assert not screen.review_done
        await pilot.pause()
        status = str(screen.query_one("#replay-status").render())
        bar = screen.query_one("#review-progress", ProgressBar)
        assert "reviewing…" in status and f"/{screen.review_total}" not in status
        assert bar.total is None
        await pilot.press("s")  # spoilers shown: the total too
        status = str(screen.query_one("#replay-status").render())
        assert bar.total == screen.review_total and f"{screen.cursor.count}" in status
        await pilot.press("a")  # stopped
        assert not screen.review_on and not screen.review_running
        assert "review stopped" in str(screen.query_one("#replay-status").render())


async def test_the_status_line_keeps_room_for_the_decision_beside_the_review(tmp_path):
    """80 columns, spoiler-free, all hands, a blunder: the label, loss and best move and
    the spoiler-free mark stay, and the decision's sentence keeps room (the perspective
    gives way, the hands on screen tell it)."""
    from engine.review import Decision

    store = Store(tmp_path)
    app = replay_app(store, save(store, seed=4, target=20))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("s")  # spoiler-free, at the start
        for _ in range(30):
            await pilot.press("right")
        step = screen.cursor.position - 1
        seat = screen.cursor.actor()
        assert seat is not None
        screen.reviewed = {step: Decision(step + 2, step, seat, 1, "draw", "play W+4 B",
                                          "blunder", 32.0, 47.0, 15.0)}
        screen.review_on = screen.review_done = True
        screen.show()
        status = str(screen.query_one("#replay-status").render())
        head = f" {screen.cursor.position} · round 1 · "
        words = " · blunder −32, best: W+4 naming blue · spoiler-free"
        assert status.startswith(head) and status.endswith(words), status
        assert len(status) <= 80 and len(status) - len(head) - len(words) >= 12, status
        await pilot.press("a")  # the review off: the perspective is back
        assert "all hands · spoiler-free" in str(screen.query_one("#replay-status").render())
