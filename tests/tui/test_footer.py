"""The footer is one line drawn by one widget (#22: the stock footer's key widgets,
recomposed after each move, were a second screen update and most of the relayouts of a
key at the table), and still shows exactly the keys valid now, phase by phase."""

from __future__ import annotations

from engine import Rules
from unoduo_tui.table.local import LocalTable
from unoduo_tui.widgets import Footer

from .conftest import SIZE, make_app, press, screen_text, settle


def shown(screen) -> list[tuple[str, bool]]:
    """The footer's visible keys: (label, enabled), in order."""
    footer = screen.query_one(Footer)
    return [(k.description, not k.disabled) for k in footer.shown if not k.palette]


def valid_now(screen) -> list[tuple[str, bool]]:
    """What the bindings say the footer shows: a key per action, shown ones only."""
    seen, keys = set(), []
    for _, binding, enabled, _ in screen.active_bindings.values():
        if binding.show and binding.action not in seen:
            seen.add(binding.action)
            keys.append((binding.description, enabled))
    return keys


async def test_the_footer_shows_each_phases_keys():
    table = LocalTable(*_new_match())
    app = make_app(None, table=table)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        # S2 the draft: keep or reject, nothing to play or draw
        labels = [label for label, _ in shown(screen)]
        assert "Keep" in labels and "Reject" in labels and "Draw" not in labels
        assert shown(screen) == valid_now(screen)
        phases = set()
        for _ in range(40):  # keep through the draft, then draw / pass: every phase's keys
            await press(pilot, "k" if table.match.phase == "draft" else "d")
            if table.match.phase != "draft":
                await press(pilot, "p")
            phases.add(table.match.phase)
            assert shown(screen) == valid_now(screen)
            if app.screen is screen:  # not under a dialog (with its own footer)
                footer_line = screen_text(app).splitlines()[-1]
                for label, _ in shown(screen):
                    assert label in footer_line
            else:
                await press(pilot, "escape" if table.match.phase != "wd4" else "d")
        assert phases - {"draft"}  # it got past the draft
        labels = [label for label, _ in shown(screen)]
        assert "Keep" not in labels


def _new_match():
    from engine import Match

    m = Match.new(Rules(target=100_000), seed=3)
    return m, ("You", "Bot"), ("human", "bot:random")


async def test_a_key_hidden_or_disabled_and_shown_again_says_what_it_does_now():
    from textual.app import App, ComposeResult
    from textual.binding import Binding
    from textual.screen import Screen

    class Toggling(Screen[None]):
        BINDINGS = [Binding("a", "a", "Alpha"), Binding("b", "b", "Beta"),
                    Binding("c", "c", "Gamma")]
        hide_a = False
        dim_b = False

        def compose(self) -> ComposeResult:
            yield Footer()

        def check_action(self, action, parameters):
            if action == "a":
                return not self.hide_a
            if action == "b":
                return None if self.dim_b else True
            return True

    class FooterApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(Toggling())

    app = FooterApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert shown(screen) == [("Alpha", True), ("Beta", True), ("Gamma", True)]
        screen.hide_a, screen.dim_b = True, True
        screen.refresh_bindings()
        await pilot.pause()
        assert shown(screen) == [("Beta", False), ("Gamma", True)]
        assert "Alpha" not in screen_text(app)
        screen.hide_a, screen.dim_b = False, False
        screen.refresh_bindings()
        await pilot.pause()
        assert shown(screen) == [("Alpha", True), ("Beta", True), ("Gamma", True)]
        assert "Alpha" in screen_text(app).splitlines()[-1]


async def test_a_click_on_a_key_presses_it_and_a_disabled_key_only_rings():
    from textual.app import App, ComposeResult
    from textual.binding import Binding
    from textual.screen import Screen

    class Keys(Screen[None]):
        BINDINGS = [Binding("a", "do('a')", "Alpha"), Binding("b", "do('b')", "Beta"),
                    Binding("c", "do('c')", "Gamma")]
        done: list[str] = []

        def compose(self) -> ComposeResult:
            yield Footer(compact=True)

        def check_action(self, action, parameters):
            return None if parameters == ("b",) else True

        def action_do(self, what: str) -> None:
            self.done.append(what)

    class KeysApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(Keys())

    app = KeysApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        line = screen_text(app).splitlines()[-1]
        for label in ("Gamma", "Beta", "Alpha"):
            await pilot.click(Footer, offset=(line.index(label), 0))
            await pilot.pause()
        assert app.screen.done == ["c", "a"]  # Beta is disabled: nothing done


async def test_a_move_at_the_table_repaints_the_footer_without_a_relayout(monkeypatch):
    """The keys change with every move (Keep / Reject, then Play / Draw …): the footer
    draws its one line again in the move's own screen update, never asking for a
    relayout of the screen."""
    table = LocalTable(*_new_match())
    app = make_app(None, table=table)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(Footer)
        asked: list[bool] = []
        refresh = footer.refresh

        def recorded(*regions, **kwargs):
            asked.append(bool(kwargs.get("layout") or kwargs.get("recompose")))
            return refresh(*regions, **kwargs)

        monkeypatch.setattr(footer, "refresh", recorded)
        before = footer.shown
        for _ in range(7):  # the draft, then the first turn's keys
            await press(pilot, "k")
        await settle(pilot)
        assert footer.shown != before and asked  # it changed, and was drawn again
        assert not any(asked)  # … never with a relayout
        assert not footer.children
