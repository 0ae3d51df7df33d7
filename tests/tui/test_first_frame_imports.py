"""What the table's first frame does not need is not imported with the app (#22):
the dialogs (imported when one is first shown), the bots' process pool's
multiprocessing (imported when a pool starts: ``serve --workers``) and ``attrs``,
which the game log's ``RichLog`` would import through ``rich.pretty``."""

from __future__ import annotations

import subprocess
import sys

DEFERRED = ("attr", "multiprocessing", "concurrent.futures.process", "unoduo_tui.dialogs.decisions",
            "unoduo_tui.dialogs.results", "unoduo_tui.dialogs.confirm")


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
