"""The footer's keys are mounted once and updated in place (#22: re-mounting them was
~10 % of a key's CPU), and still show exactly the keys valid now, phase by phase."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from engine import Rules
from unoduo_tui.table.local import LocalTable
from unoduo_tui.widgets import Footer

from .conftest import SIZE, make_app, press, screen_text, settle


def shown(screen) -> list[tuple[str, bool]]:
    """The footer's visible keys: (label, enabled), in order."""
    footer = screen.query_one(Footer)
    return [(k.description, not k.has_class("-disabled"))
            for k in footer.query_children(FooterKey)
            if k.display and not k.has_class("-command-palette")]


def valid_now(screen) -> list[tuple[str, bool]]:
    """What the bindings say the footer shows: a key per action, shown ones only."""
    seen, keys = set(), []
    for _, binding, enabled, _ in screen.active_bindings.values():
        if binding.show and binding.action not in seen:
            seen.add(binding.action)
            keys.append((binding.description, enabled))
    return keys


async def test_the_footer_shows_each_phases_keys_with_the_keys_it_mounted_first():
    table = LocalTable(*_new_match())
    app = make_app(None, table=table)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        footer = screen.query_one(Footer)
        first = {id(k) for k in footer.query_children(FooterKey)}
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
        # the keys first mounted are all still there: updated, not removed and re-made
        assert first <= {id(k) for k in footer.query_children(FooterKey)}


def _new_match():
    from engine import Match

    m = Match.new(Rules(target=100_000), seed=3)
    return m, ("You", "Bot"), ("human", "bot:random")


async def test_a_key_shown_again_is_the_same_widget_and_says_what_it_does_now():
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
        keys = list(screen.query_one(Footer).query_children(FooterKey))
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
        assert list(screen.query_one(Footer).query_children(FooterKey)) == keys
        assert "Alpha" in screen_text(app).splitlines()[-1]
