"""What the table's first frame does not need is not imported with the app (#22):
the dialogs (imported when one is first shown), the replay module (the replay viewer's
and practice undo's, once there is a decision to undo), the bots' process pool's
multiprocessing (imported when a pool starts: ``serve --workers``) and ``attrs``,
which the game log's ``RichLog`` would import through ``rich.pretty``; and the collector
paused while ``unoduo`` starts (:mod:`unoduo_tui.startup`), on again for every command
and after a drawing one's first frame."""

from __future__ import annotations

import gc
import subprocess
import sys

from tests.tui.conftest import SIZE, make_app
from tests.waiting import until_async

DEFERRED = ("attr", "multiprocessing", "concurrent.futures.process", "unoduo_tui.dialogs",
            "unoduo_tui.dialogs.base", "unoduo_tui.dialogs.decisions",
            "unoduo_tui.dialogs.results", "unoduo_tui.dialogs.confirm", "engine.replay")


def test_importing_the_app_and_the_game_screen_leaves_the_dialogs_and_the_pool_for_later():
    code = ("import sys, unoduo_tui.app, unoduo_tui.screens.game\n"
            f"print(','.join(m for m in {DEFERRED!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""


def test_a_dialog_asked_for_is_there_and_an_unknown_name_is_an_attribute_error():
    import pytest

    import unoduo_tui.dialogs as dialogs
    from unoduo_tui.dialogs import RoundOver
    from unoduo_tui.dialogs.results import RoundOver as where

    assert RoundOver is where and set(dialogs.__all__) == set(dialogs._HOME)
    with pytest.raises(AttributeError):
        dialogs.NoSuchDialog  # noqa: B018 - the attribute access is the test


def test_attrs_still_imports_after_the_log_and_rich_log_is_textuals():
    code = ("import unoduo_tui.widgets.gamelog as g, sys\n"
            "from textual.widgets import RichLog\n"
            "assert 'attr' not in sys.modules and g.RichLog is RichLog\n"
            "import attr\n"
            "print(attr.define.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "define"


def test_the_entry_point_alone_imports_neither_the_engine_nor_textual():
    # what `unoduo` imports before main() pauses the collector
    code = ("import sys, unoduo_tui.cli\n"
            "print(','.join(m for m in ('engine', 'textual', 'unoduo_tui.commands')"
            " if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""


def test_the_collector_is_off_while_the_command_line_is_parsed_and_on_when_it_runs(
        monkeypatch, tmp_path):
    import unoduo_tui.commands.list as listing
    from unoduo_tui.cli import main

    seen = []
    real = listing.add_parser

    def add_parser(sub, common):
        seen.append(("parse", gc.isenabled()))
        real(sub, common)

    def run(args):
        seen.append(("run", gc.isenabled()))
        return 0

    monkeypatch.setattr(listing, "add_parser", add_parser)
    monkeypatch.setattr(listing, "run", run)
    assert gc.isenabled()
    assert main(["--data-dir", str(tmp_path), "list"]) == 0
    assert seen == [("parse", False), ("run", True)] and gc.isenabled()


async def test_the_app_turns_the_collector_back_on_once_its_first_frame_is_up(store):
    from unoduo_tui import startup
    from unoduo_tui.plan import play_plan
    from unoduo_tui.screens.game import GameScreen
    from unoduo_tui.table.local import LocalTable

    with startup.paused():
        assert not gc.isenabled()
        app = make_app(store, table=LocalTable.start(store, play_plan(vs=("random",),
                                                                      seed=1)))
        async with app.run_test(size=SIZE):
            await until_async(gc.isenabled, "the collector on again")
            assert isinstance(app.screen, GameScreen) and app.screen.query("#hand")
    assert gc.isenabled()


def test_a_pause_leaves_a_collector_someone_else_turned_off_alone():
    from unoduo_tui import startup

    gc.disable()
    try:
        with startup.paused():
            startup.resume()
            assert not gc.isenabled()
        assert not gc.isenabled()  # theirs to turn on
    finally:
        gc.enable()
