"""A long match must not grow: what the table removes from the DOM is released.

Counted in objects (widgets alive outside any DOM, footer keys), never in bytes or time."""

from __future__ import annotations

import gc

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets._footer import FooterKey

from engine import Rules
from unoduo_tui.plan import MatchPlan
from unoduo_tui.table.local import LocalTable
from unoduo_tui.widgets import Footer

from .conftest import SIZE, make_app


def detached_widgets() -> list[Widget]:
    """Widgets still alive that are in no DOM (removed, yet referenced from somewhere)."""
    gc.collect()
    return [w for w in gc.get_objects() if isinstance(w, Widget) and not w.is_attached]


async def play(pilot, turns: int) -> None:
    """Keep in the draft, else play / draw / pass: every key lands on the table."""
    for _ in range(turns):
        for key in ("k", "enter", "d", "p"):
            await pilot.press(key)
    await pilot.pause()


async def test_a_long_match_releases_the_widgets_it_removes(store):
    session = LocalTable.start(store, MatchPlan(("You", "Bot"), ("human", "bot:random"),
                                                Rules(target=100_000), 3))
    app = make_app(store, table=session)
    async with app.run_test(size=SIZE) as pilot:
        await play(pilot, 5)
        leftover = len(detached_widgets())
        played = session.match.log_length
        await play(pilot, 5)
        assert session.match.log_length > played + 10  # the keys really played
        # the stock footer kept every key it ever showed (~18 a turn): Textual #6666
        assert len(detached_widgets()) <= leftover + 3  # slack: a dialog on its way out


class Toggling(Screen[None]):
    BINDINGS = [Binding("a", "a", "Alpha"), Binding("b", "b", "Beta"),
                Binding("c", "c", "Gamma")]
    shown = True

    def compose(self) -> ComposeResult:
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.shown if action == "a" else True


class FooterApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Toggling())


def footer_keys() -> list[FooterKey]:
    gc.collect()
    return [k for k in gc.get_objects() if isinstance(k, FooterKey)]


async def test_the_footer_shows_changing_keys_without_making_a_widget():
    app = FooterApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        footer = screen.query_one(Footer)
        for _ in range(10):  # "a" hidden / shown: the one line drawn again each time
            screen.shown = not screen.shown
            screen.refresh_bindings()
            await pilot.pause()
            assert [k.description for k in footer.shown][:2] == (
                ["Alpha", "Beta"] if screen.shown else ["Beta", "Gamma"])
        assert not footer.children
        assert footer_keys() == []  # the stock footer kept 10 sets of keys (Textual #6666)


async def test_every_screen_uses_the_one_line_footer(store):
    """Tabbing through the new-match form refreshes the bindings at each field; the
    stock footer kept ~4 keys per Tab."""
    from textual.widgets import Footer as StockFooter

    from unoduo_tui.screens.new_match import NewMatchScreen

    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(NewMatchScreen())
        await pilot.pause()
        assert app.screen.query(Footer)
        assert not [w for w in app.screen.walk_children() if isinstance(w, StockFooter)]
        for _ in range(16):
            await pilot.press("tab")
        await pilot.pause()
        assert footer_keys() == []
