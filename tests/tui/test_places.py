"""Texts that say where to go, said for where the app runs (issue #21, item 7): a
terminal of one's own (a shell: ``unoduo resume`` works), ``unoduo lobby`` (all an SSH
player has) or a browser tab of ``unoduo web`` (the menu, no shell, no Ctrl+P).
Nothing points to ``RULES.md`` (the player's rule book is the app's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Markdown, Static

import unoduo_tui

from unoduo_tui.app import UnoDuoApp
from unoduo_tui.dialogs.confirm import ConfirmLeave
from unoduo_tui.net.client import host_banner
from unoduo_tui.screens.help import HelpScreen
from unoduo_tui.screens.lobby import LobbyPlace
from unoduo_tui.screens.new_match import NewMatchScreen
from unoduo_tui.store import Store
from unoduo_tui.text.words import PLACES

from .conftest import SIZE, game, screen_text, settle


class WebApp(UnoDuoApp):
    """The app as a tab of ``unoduo web`` runs it (Textual's web driver says so)."""

    CSS_PATH = Path(unoduo_tui.__file__).parent / UnoDuoApp.CSS_PATH

    @property
    def is_web(self) -> bool:
        return True


def _app(place: str, root) -> UnoDuoApp:
    store = Store(root / "me")
    if place == "lobby":
        (root / "l").mkdir(mode=0o700)
        return UnoDuoApp(store, lobby=LobbyPlace(root / "l", "Me", None), bot_pause=0,
                         theme="textual-dark")
    cls = WebApp if place == "web" else UnoDuoApp
    return cls(store, bot_pause=0, theme="textual-dark")


async def _until(pilot, test, what: str) -> None:
    for _ in range(400):
        await pilot.pause()
        if test():
            return
    raise AssertionError(f"never: {what}")


@pytest.mark.parametrize("place", PLACES)
async def test_the_form_the_leave_dialog_and_the_help_point_where_this_player_can_go(
        place, tmp_path):
    app = _app(place, tmp_path)
    assert app.place == place
    said: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("n")  # the new-match form, from the menu or the lobby
        await _until(pilot, lambda: isinstance(app.screen, NewMatchScreen), "the form")
        said.append(screen_text(app))
        await pilot.press("ctrl+s")
        await _until(pilot, lambda: game(app) is not None, "the table")
        await settle(pilot)
        await pilot.press("q")
        await _until(pilot, lambda: isinstance(app.screen, ConfirmLeave), "the leave dialog")
        said += [str(w.render()) for w in app.screen.query(Static)]
        await pilot.press("n")
        await pilot.press("question_mark")
        await _until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        said.append(app.screen.query_one(Markdown).source)
    text = " ".join("\n".join(said).split())
    assert "RULES.md" not in text
    if place == "terminal":
        assert "'unoduo resume'" in text and "unoduo replay" in text
    else:
        assert "unoduo " not in text, text
    if place == "web":
        assert "Ctrl+P" not in text and "reload the page" in text
    if place == "lobby":
        assert "from the lobby (r)" in text


def test_the_host_s_banner_says_where_the_others_join():
    assert "unoduo join tide-wolf-17" in host_banner("tide-wolf-17")
    for place in ("lobby", "web"):
        line = host_banner("tide-wolf-17", place)
        assert "tide-wolf-17" in line and "unoduo " not in line
