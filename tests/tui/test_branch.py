"""What-if branches: ``b`` in a replay starts a new practice match from exactly the
position shown — same hands, piles, colour, scores, seat to act and legal actions —
in a new file whose header names its parent; the parent's file is never touched, and
a match still being played cannot be branched (it would show its pile)."""

from __future__ import annotations

from engine import Match
from tests.tui.conftest import SIZE, make_app, settle
from tests.tui.test_replay import save, store  # noqa: F401  (the fixture)
from unoduo_tui.cli import main
from unoduo_tui.transcript import transcript_text
from unoduo_tui.dialogs import BranchDialog
from unoduo_tui.screens.game import GameScreen
from unoduo_tui.screens.menu import summary_line, summary_lines
from unoduo_tui.screens.replay import ReplayScreen
from unoduo_tui.table.local import LocalTable
from unoduo_tui.store import Store, parent_of, short_id


def observable(m: Match) -> tuple:
    """Everything the table can show of a position, both seats' hands included."""
    return (tuple(tuple(m.hand(s)) for s in range(m.rules.seats)), m.draw_pile,
            m.discard_pile, m.top, m.color, m.scores, m.round, m.to_act, m.phase,
            m.pending_draw, tuple(m.legal_actions()))


def where_seat_acts(screen: ReplayScreen, seat: int, after: int = 0) -> int:
    """A position past ``after`` where ``seat`` is to act (so no bot moves at once)."""
    cursor = screen.cursor
    for pos in range(after, cursor.count):
        if cursor.goto_copy(pos).to_act == seat:
            return pos
    raise AssertionError("no such position")


def test_a_branch_reproduces_the_parent_at_every_kind_of_point(store):  # noqa: F811
    ref = save(store, seed=5)
    loaded = store.open(ref, read_only=True)
    parent = loaded.path.read_bytes()
    cursor = ReplayScreen(loaded).cursor
    for pos in (0, 1, cursor.count // 3, cursor.count // 2, cursor.count - 1):
        there = cursor.goto_copy(pos)
        session = LocalTable.branch(store, loaded.header.rules, cursor.log_prefix(pos),
                                     loaded.header.seed, ("Ann", "Easy bot"),
                                     ("human", "bot:easy"), (ref, pos))
        try:
            assert observable(session.match) == observable(there)
            assert session.match.actions == there.actions
            header = session.handle.header
            assert parent_of(header) == (ref, pos) and header.match_id != ref
        finally:
            session.close()
        reopened = store.open(header.match_id, read_only=True)
        assert observable(reopened.match) == observable(there)
        assert f"What if: a branch of match {ref}, from after its action {pos}" in (
            transcript_text(reopened))
    assert loaded.path.read_bytes() == parent


async def test_b_branches_from_the_shown_position_and_opens_the_table(store):  # noqa: F811
    ref = save(store, seed=3)
    parent_path = store.resolve(ref)
    parent = parent_path.read_bytes()
    app = make_app(store, start="replay", replay=ref)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        pos = where_seat_acts(screen, 1, after=20)  # you take seat 2: it is your turn
        screen.cursor.goto(pos)
        screen.show()
        there = screen.cursor.goto_copy(pos)
        await pilot.press("b")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, BranchDialog) and dialog.seat_fixed is None
        await pilot.press("3", "s")  # normal bot; seat 2
        await pilot.pause()
        assert (dialog.levels[dialog.level], dialog.seat) == ("normal", 1)
        await pilot.press("enter")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        # the viewer `unoduo replay` started on gave way to the menu, under the table
        assert [type(x).__name__ for x in app.screen_stack] == ["MenuScreen", "GameScreen"]
        s = game.table
        assert s.kinds == ("bot:normal", "human") and s.practice
        assert observable(s.match) == observable(there)
        assert parent_of(s.handle.header) == (ref, pos)
        branch_id = s.handle.id
    assert parent_path.read_bytes() == parent
    summary = next(x for x in store.summaries() if x.id == branch_id)
    assert summary.parent == (ref, pos)
    assert f"branch of {short_id(ref)} @ {pos}" in summary_line(summary)


async def test_a_match_still_in_play_cannot_be_branched(store):  # noqa: F811
    # a branch replays the recorded deck, so drawing in it would show the live game's
    # draw pile: a match still being played (seen locked to its human) refuses b
    ref = save(store, seed=4, limit=30)
    parent_path = store.resolve(ref)
    parent = parent_path.read_bytes()
    before = {s.id for s in store.summaries()}
    app = make_app(store, start="replay", replay=ref)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.locked == 0
        pos = where_seat_acts(screen, 0, after=5)
        screen.cursor.goto(pos)
        screen.show()
        assert not screen.check_action("branch", ())
        await pilot.press("b")
        await pilot.pause()
        assert app.screen is screen and not isinstance(app.screen, BranchDialog)
        screen.action_branch()  # even called directly (the palette), it refuses
        await pilot.pause()
        assert app.screen is screen
    assert parent_path.read_bytes() == parent
    assert {s.id for s in store.summaries()} == before


async def test_b_is_off_at_the_end_of_a_finished_match_and_escape_cancels(store):  # noqa: F811
    ref = save(store, seed=3)
    count = len(list(store.matches_dir.iterdir()))
    app = make_app(store, start="replay", replay=ref)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.cursor.match.over and not screen.check_action("branch", ())
        await pilot.press("left", "b")
        await pilot.pause()
        assert isinstance(app.screen, BranchDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
    assert len(list(store.matches_dir.iterdir())) == count


def test_unoduo_list_shows_the_lineage(store, capsys):  # noqa: F811
    ref = save(store, seed=3)
    loaded = store.open(ref, read_only=True)
    session = LocalTable.branch(store, loaded.header.rules, loaded.match.actions[:40],
                                 loaded.header.seed, ("Ann", "Easy bot"),
                                 ("human", "bot:easy"), (ref, 17))
    session.close()
    assert main(["list", "--data-dir", str(store.data_dir)]) == 0
    assert f"branch of {short_id(ref)} @ 17" in capsys.readouterr().out


def test_a_header_without_a_readable_parent_is_no_branch(tmp_path):
    store = Store(tmp_path)
    ref = save(store)
    assert store.summaries()[0].parent is None
    assert parent_of(store.open(ref, read_only=True).header) is None


def long_named_branch(store: Store, undos: int = 0) -> tuple[str, str, int]:
    """A finished match and a practice branch of it, between long names: (parent id,
    branch id, the action it branched at)."""
    ref = save(store, seed=3, seats=(("Alexandra the Great", "human"),
                                     ("Maximilian the Tireless", "bot:random")))
    loaded = store.open(ref, read_only=True)
    pos = 57
    session = LocalTable.branch(store, loaded.header.rules,
                                 ReplayScreen(loaded).cursor.log_prefix(pos), loaded.header.seed,
                                 ("Alexandra the Great", "Maximilian the Tireless"),
                                 ("human", "bot:easy"), (ref, pos))
    for _ in range(undos):
        while session.match.to_act == 1 or not session.can_undo:
            session.apply(session.match.legal_actions()[0])
        assert session.undo()
    branch = session.handle.id
    session.close()
    return ref, branch, pos


def whole_on_a_line(text: str, label: str) -> bool:
    return any(label in line for line in text.splitlines())


async def test_the_lineage_label_is_whole_at_80_columns_everywhere(store):  # noqa: F811
    from unoduo_tui.screens.menu import MenuScreen
    from tests.tui.conftest import screen_text

    ref, branch, pos = long_named_branch(store, undos=2)
    label = f"branch of {short_id(ref)} @ {pos}"
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        text = screen_text(app)
        assert whole_on_a_line(text, label)  # the Resume line, its marks on a second line
        assert whole_on_a_line(text, "Resume   Alexandra")
        for where in ("saved", "replays"):
            app.screen.action_pick(where)
            await pilot.pause()
            text = screen_text(app)
            assert whole_on_a_line(text, label), text
            assert "practice (2 undos)" in text or "practice" in text
            assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
            await pilot.press("escape")
            await pilot.pause()
    app = make_app(store, start="replay", replay=branch)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        header = screen_text(app).splitlines()[0]
        assert header.strip() == f"What if: {label}"
        status = str(screen.query_one("#replay-status").render())
        assert status.rstrip().endswith("practice") and len(status) <= 80


def test_summary_lines_keep_the_lineage_whole_and_cut_the_names(store):  # noqa: F811
    ref, branch, pos = long_named_branch(store, undos=1)
    summary = next(s for s in store.summaries() if s.id == branch)
    label = f"branch of {short_id(ref)} @ {pos}"
    assert summary_lines(summary, 200) == [summary_line(summary)]
    for width in (24, 30, 38, 47, 60):
        lines = summary_lines(summary, width)
        assert all(len(line) <= width for line in lines)
        assert lines[-1].endswith(label)
        assert "…" in lines[0] and lines[0].endswith(" · ".join(
            ["round " + str(summary.round), "–".join(map(str, summary.scores))]))


def test_a_short_id_opens_the_match_it_names(store):  # noqa: F811
    ref = save(store, seed=3)
    assert len(short_id(ref)) == 6 and ref.endswith("-" + short_id(ref))
    assert store.resolve(short_id(ref)) == store.resolve(ref)
    assert short_id("broken") == "broken"
