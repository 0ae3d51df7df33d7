"""#22 The lobby under ``unoduo serve``: its tables pushed by the server's table service
(:mod:`unoduo_tui.net.hall`) — a table opened elsewhere appears with no key pressed —
a page at a time (``[`` / ``]``), searched (``/``), and joined from the list."""

from __future__ import annotations

import os

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

from textual.widgets import Input, OptionList  # noqa: E402

from tests.tui.conftest import SIZE, game, screen_text  # noqa: E402
from unoduo_tui.apps import lobby_app  # noqa: E402
from unoduo_tui.net.client import plan_to_json  # noqa: E402
from unoduo_tui.net import hall_link  # noqa: E402
from unoduo_tui.plan import HUMAN, MatchPlan  # noqa: E402
from unoduo_tui.screens.lobby import LobbyPlace, LobbyScreen  # noqa: E402
from unoduo_tui.screens.lobby_actions import SearchForm  # noqa: E402
from unoduo_tui.store import Store  # noqa: E402

from engine import Rules  # noqa: E402

from .helpers import until  # noqa: E402
from .test_hall import served  # noqa: E402,F401 - the fixture


def _open(s, n: int) -> str:
    plan = MatchPlan((f"Host{n}", "Player 2"), (HUMAN, HUMAN), Rules(preset="duo", seats=2))
    return hall_link.open_table(s.players / f"host{n}", "--plan", plan_to_json(plan))["code"]


def _ids(app) -> list[str]:
    menu = app.screen.query_one(OptionList)
    return [menu.get_option_at_index(i).id for i in range(menu.option_count)]


async def test_the_lobby_is_pushed_paged_searched_and_joins_from_its_list(served, env):
    s = served()
    codes = [_open(s, n) for n in range(20)]
    (env / "l").mkdir(mode=0o700)
    app = lobby_app(Store(s.players / "zoe"), LobbyPlace(env / "l", "Zoe"),
                    theme="textual-dark", bot_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                    and f"join:{codes[0]}" in _ids(app), "the first page")
        await until(pilot, lambda: "20 tables · page 1 of 3" in screen_text(app), "the pages")
        assert [i for i in _ids(app) if i.startswith("join:")] == [
            f"join:{c}" for c in codes[:8]]  # the oldest first, a page of them
        await pilot.press("]")
        await until(pilot, lambda: f"join:{codes[8]}" in _ids(app), "the second page")
        assert f"join:{codes[0]}" not in _ids(app) and "page 2 of 3" in screen_text(app)
        # a table opened elsewhere is pushed: on the last page, no key pressed
        await pilot.press("]")
        await until(pilot, lambda: "page 3 of 3" in screen_text(app), "the last page")
        late = _open(s, 20)
        await until(pilot, lambda: f"join:{late}" in _ids(app), "the new table pushed")
        assert "21 tables" in screen_text(app)
        # searched by the host's name
        await pilot.press("slash")
        await until(pilot, lambda: isinstance(app.screen, SearchForm), "the search form")
        app.screen.query_one(Input).value = "host13"
        await pilot.press("enter")
        await until(pilot, lambda: [i for i in _ids(app) if i.startswith("join:")]
                    == [f"join:{codes[13]}"], "only Host13's table")
        assert "1 tables matching 'host13'" in screen_text(app)
        await pilot.press("j")
        await until(pilot, lambda: game(app) is not None, "Zoe's seat")
        assert game(app).table.code == codes[13] and game(app).table.seat == 1
        (entry,) = [e for e in s.call(s.hall.entries) if e.code == codes[13]]
        assert entry.names == ("Host13", "Zoe") and entry.open == 0
        game(app).table.close()
