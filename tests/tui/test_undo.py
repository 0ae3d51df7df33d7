"""Practice undo (z) and redo (y) against a bot: the log goes back to before your
previous decision, chance stays as recorded, the save file gets an undo record (never
a rewrite), and kill-and-resume lands on the same position."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Match, Rules
from tests.tui.conftest import SIZE, game, make_app, seated, settle, notifications
from unoduo_tui.screens.menu import summary_line
from unoduo_tui.screens.replay import ReplayScreen
from unoduo_tui.plan import MatchPlan
from unoduo_tui.table.local import LocalTable
from unoduo_tui.store import Store

DATA = Path(__file__).parent.parent / "data"


def start(store, seed: int = 5, kinds=("human", "bot:random")) -> LocalTable:
    return LocalTable.start(store, MatchPlan(("Ann", "Rando"), kinds, Rules(target=100), seed))


def step(s: LocalTable) -> None:
    """One decision: the bot's own choice, or the human's first legal action."""
    m = s.match
    seat = m.to_act
    s.apply(s.bots[seat].choose(m.view(seat)) if s.is_bot(seat) else m.legal_actions()[0])


def to_human(s: LocalTable) -> None:
    while not s.match.over and s.is_bot(s.match.to_act):
        step(s)


def human_moves(s: LocalTable, n: int) -> None:
    for _ in range(n):
        to_human(s)
        step(s)
    to_human(s)


def state(m: Match) -> tuple:
    return (m.actions, m.hand(0), m.hand(1), m.draw_pile, m.discard_pile, m.scores,
            m.round, m.phase, m.to_act, m.events)


def kill(s: LocalTable) -> None:
    """What a dropped connection leaves: the file as written, the lock gone with the
    process (the fd is closed without any final write)."""
    handle = s.handle
    handle.abandon()
    s.handle = None


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path)


def test_undo_goes_back_to_before_your_previous_decision_and_redo_returns(store):
    s = start(store)
    human_moves(s, 20)
    before = state(s.match)
    assert s.can_undo and s.undo()
    point = s.match.log_length
    assert point < len(before[0]) and s.match.to_act == 0
    assert state(s.match) == state(Match.replay(s.match.rules, before[0][:point],
                                                seed=s.match.seed))
    assert s.redo_stack and s.redo_stack[0] in s.match.legal_actions()
    assert s.redo()
    assert state(s.match) == before and not s.redo_stack
    s.close()


def test_chance_stays_as_recorded_after_an_undo(store):
    s = start(store)
    human_moves(s, 25)
    before = state(s.match)
    undone = list(s.redo_stack)
    for _ in range(3):
        s.undo()
    redo = list(s.redo_stack)
    assert len(redo) > len(undone)
    for decision in redo:  # the same decisions made again, not via y: the same cards come
        s.apply(decision)
    assert state(s.match) == before and not s.redo_stack
    s.close()


def test_a_new_decision_ends_redo(store):
    s = start(store)
    human_moves(s, 10)
    s.undo()
    assert s.redo_stack
    step(s)
    assert not s.redo_stack and not s.redo()
    s.close()


def test_undo_crosses_a_round_end_and_survives_kill_and_resume(store):
    s = start(store, seed=8)
    while s.match.round == 1:
        human_moves(s, 1)
    assert s.match.round == 2
    while s.match.round == 2:
        assert s.undo()
    assert s.match.round == 1 and s.undos >= 1
    s.redo()
    human_moves(s, 3)
    s.undo()
    expected, undos = state(s.match), s.undos
    match_id = s.handle.id
    kill(s)
    resumed = LocalTable.resume(store, match_id)
    try:
        assert state(resumed.match) == expected and resumed.undos == undos
        human_moves(resumed, 2)
        assert resumed.undo()
        written = state(resumed.match)
    finally:
        resumed.close()
    again = store.open(match_id, read_only=True)
    assert state(again.match) == written and again.undos == undos + 1
    summary = next(x for x in store.summaries() if x.id == match_id)
    assert summary.undos == undos + 1
    assert f"practice ({undos + 1} undos)" in summary_line(summary)
    from unoduo_tui.transcript import transcript_text
    assert f"Practice: {undos + 1} undos" in transcript_text(again)


def test_undo_is_off_for_hot_seat_and_for_format_1_files(store, tmp_path):
    hot = start(store, kinds=("human", "human"))
    human_moves(hot, 0)
    hot.apply(hot.match.legal_actions()[0])
    assert not hot.practice and not hot.can_undo and not hot.undo()
    hot.close()
    store.matches_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy(DATA / "format1_sample.unoduo", store.matches_dir / "old.unoduo")
    old = LocalTable.resume(store, "old")
    try:
        assert not old.practice and not old.undo()
    finally:
        old.close()


async def test_z_and_y_at_the_table(store):
    s = start(store, seed=6)
    human_moves(s, 12)
    async with seated(s, store) as (pilot, app):
        g = game(app)
        before = state(g.table.match)
        await pilot.press("z")
        await settle(pilot)
        assert g.table.undos == 1 and g.table.match.log_length < len(before[0])
        assert g.table.match.to_act == 0
        await pilot.press("y")
        await settle(pilot)
        assert state(g.table.match) == before
        assert not g.check_action("redo", ())


async def test_an_unfinished_practice_match_replays_with_all_hands(store):
    s = start(store, seed=6)
    human_moves(s, 12)
    s.undo()
    match_id = s.handle.id
    s.close()
    app = make_app(store, start="replay", replay=match_id)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.locked is None and screen.undos == 1
        assert "practice (1 undo)" in str(screen.query_one("#replay-status").render())


async def test_t_gives_the_hard_bots_hint_from_your_view_and_selects_the_card(store,
                                                                              monkeypatch):
    import unoduo_tui.table.local as local_table

    asked = []

    def suggest(view, think_ms):  # the real one is tested in tests/engine/test_bots.py
        asked.append(view)
        plays = [a for a in view.legal_actions if a.kind == "play"]
        return plays[-1] if plays else view.legal_actions[0]

    monkeypatch.setattr(local_table.engine_bots, "suggest", suggest)
    s = start(store, seed=6)
    human_moves(s, 12)
    while not any(a.kind == "play" for a in s.match.legal_actions()):
        human_moves(s, 1)
    async with seated(s, store) as (pilot, app):
        g = game(app)
        log = g.table.match.log_length
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        view = asked[-1]
        assert view.seat == 0 and type(view).__name__ == "PlayerView"  # a view, never the match
        hint = suggest(view, 0)
        assert g.hand.selected_card is hint.card
        shown = [n.message for n in notifications(app)]
        assert any(m.startswith(f"The hard bot would play {hint.card}") for m in shown), shown
        assert g.table.match.log_length == log  # a hint plays nothing


async def test_no_hint_in_hot_seat(store):
    s = start(store, seed=6, kinds=("human", "human"))
    async with seated(s, store) as (pilot, app):
        await pilot.press("enter")  # past the hand-off cover: a human decides now
        await settle(pilot)
        g = game(app)
        assert g._legal() and g.check_action("draw", ()) is not None
        assert not g.check_action("hint", ())


_FRESH_MATCH = """
import sys
from engine import Rules
from unoduo_tui.plan import MatchPlan
from unoduo_tui.store import Store
from unoduo_tui.table.local import LocalTable

s = LocalTable.start(Store(sys.argv[1]), MatchPlan(("Ann", "Rando"), ("human", "bot:random"),
                                                   Rules(target=100), 5))
seen = []
for turn in range(2):
    while s.is_bot(s.match.to_act):
        seat = s.match.to_act
        s.apply(s.bots[seat].choose(s.match.view(seat)))
    seen.append(("engine.replay" in sys.modules, s.can_undo))
    s.act(0, str(s.match.legal_actions()[0]))
s.close()
print(seen)
"""


def test_a_new_match_needs_no_undo_cursor_until_you_decide(tmp_path):
    """#22: before your first decision there is nothing to undo, so a new match's
    first frame does without the replay module (and a replay of its log); your first
    decision can be undone, as before."""
    out = subprocess.run([sys.executable, "-c", _FRESH_MATCH, str(tmp_path)], check=True,
                         capture_output=True, text=True, timeout=120).stdout
    assert out.strip() == "[(False, False), (True, True)]"


def test_a_resumed_match_can_undo_before_you_decide_again(store):
    s = start(store)
    human_moves(s, 3)
    expected = state(s.match)
    match_id = s.handle.id
    kill(s)
    resumed = LocalTable.resume(store, match_id)
    try:
        assert state(resumed.match) == expected
        assert resumed.can_undo and resumed.undo()  # the log's own decisions: no new one
        assert resumed.match.log_length < len(expected[0])
    finally:
        resumed.close()
