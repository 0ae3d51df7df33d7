"""#15: "Host a table", "Join a table" and "Watch a table" from the menu — the same
path as ``unoduo host`` / ``join`` / ``watch``; the host's screen shows the code."""

from __future__ import annotations

import os

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

from textual.widgets import Input, OptionList, Static  # noqa: E402

from tests.tui.conftest import SIZE, game, screen_text, notifications  # noqa: E402
from unoduo_tui.app import UnoDuoApp  # noqa: E402
from unoduo_tui.net.codes import socket_path  # noqa: E402
from unoduo_tui.dialogs.table_forms import HostForm, JoinForm  # noqa: E402
from unoduo_tui.net.remote import RemoteTable  # noqa: E402
from unoduo_tui.store import Store  # noqa: E402

from .helpers import Served, plan, until  # noqa: E402
from .test_cli import _end  # noqa: E402



async def _pick(pilot, app, option: str) -> None:
    """Highlight the menu's ``option`` and press Enter on it."""
    await until(pilot, lambda: app.screen.query(OptionList), "the menu")
    await pilot.pause()  # the menu fills itself again as it comes back
    menu = app.screen.query_one(OptionList)
    menu.focus()
    menu.highlighted = menu.get_option_index(option)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, (HostForm, JoinForm)), "the form")


async def test_host_a_table_from_the_menu_opens_the_host_s_seat_and_shows_the_code(env):
    app = UnoDuoApp(Store(env / "d"), "menu", theme="textual-dark")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await _pick(pilot, app, "host")
            assert isinstance(app.screen, HostForm)
            app.screen.query_one("#name", Input).focus()
            await pilot.press("A", "n", "n", "enter")
            await until(pilot, lambda: game(app) is not None, "the host's table")
            g = game(app)
            table = g.table
            assert isinstance(table, RemoteTable) and table.seat == 0
            code = table.code
            banner = g.query_one("#table-banner", Static)
            assert code in str(banner.render()) and f"unoduo join {code}" in str(banner.render())
            await pilot.pause()
            assert f"Join code: {code}" in screen_text(app)
            # a second terminal joins with that code, as `unoduo join` would
            bob = RemoteTable.connect(code, name="Bob")
            try:
                assert bob.seat == 1 and bob.names[0] == "Ann"
                await until(pilot, lambda: g.query_one("Seats").away == frozenset(),
                             "Bob at the table")
            finally:
                bob.close()
    finally:
        _end(env / "d")


async def test_a_host_form_that_cannot_make_a_table_says_why_and_stays_on_the_menu(env):
    app = UnoDuoApp(Store(env / "d"), "menu", theme="textual-dark")
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        await _pick(pilot, app, "host")
        app.screen.query_one("#vs", Input).value = "grandmaster"
        app.screen.query_one("#name", Input).focus()
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is menu, "the menu again")
        assert any("not a bot level" in n.message for n in notifications(app))
        assert not list((env / "d").glob("tables/*.json"))  # no table was started


async def test_7_the_host_form_s_away_time_is_the_table_s(env):
    from pathlib import Path

    from .test_cli import _serving

    app = UnoDuoApp(Store(env / "d"), "menu", theme="textual-dark")
    try:
        async with app.run_test(size=SIZE) as pilot:
            menu = app.screen
            await _pick(pilot, app, "host")
            app.screen.query_one("#away", Input).value = "a while"
            app.screen.query_one("#name", Input).focus()
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is menu, "the menu again")
            assert any("away time" in n.message for n in notifications(app))
            await _pick(pilot, app, "host")
            assert app.screen.query_one("#away", Input).value == "3"  # the default
            app.screen.query_one("#away", Input).value = "0.5"
            app.screen.query_one("#name", Input).focus()
            await pilot.press("enter")
            await until(pilot, lambda: game(app) is not None, "the host's table")
            [pid] = _serving(env / "d")
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            assert argv[argv.index(b"--away") + 1] == b"0.5"
    finally:
        _end(env / "d")


async def test_join_and_watch_a_table_from_the_menu(env):
    served = Served(plan(seed=47))
    try:
        (env / "s").chmod(0o700)
        os.symlink(served.path, socket_path(served.code, env / "s"))
        host = served.client(name="Ann")
        app = UnoDuoApp(Store(env / "d"), "menu", theme="textual-dark")
        async with app.run_test(size=SIZE) as pilot:
            await _pick(pilot, app, "join")
            assert isinstance(app.screen, JoinForm)
            await pilot.press(*served.code, "enter", "B", "o", "b", "enter")
            await until(pilot, lambda: game(app) is not None, "the joiner's table")
            g = game(app)
            assert g.table.seat == 1 and g.mine == (1,)
            host.wait(lambda u: host.table.names[1] == "Bob", "Bob's arrival, by name")
            assert not g.query_one("#table-banner").display  # only the host reads out the code
            app.leave_game()
            await until(pilot, lambda: game(app) is None, "the menu")
            # a wrong code: one toast, the menu stays
            await _pick(pilot, app, "watch")
            await pilot.press(*"tide-wolf-99", "enter")
            await until(pilot, lambda: any("no table" in n.message
                                            for n in notifications(app)), "the toast")
            assert game(app) is None
            await _pick(pilot, app, "watch")
            await pilot.press(*served.code, "enter")
            await until(pilot, lambda: game(app) is not None, "the watcher's table")
            assert game(app).spectator
    finally:
        served.stop()
