"""Each private Textual name ``unoduo_tui.textual_compat`` relies on still exists and
behaves as relied upon on the installed Textual (a failure here: read the module's
docstrings before upgrading)."""

import pytest
from textual.app import App, ComposeResult
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, RichLog, Static

from unoduo_tui.textual_compat import (AnswerOnce, give_result_callback, is_pruning,
                                       log_size_known, use_terminal)


class First(Screen[None]):
    def compose(self) -> ComposeResult:
        yield RichLog(id="log")
        yield Static("first", id="static")
        yield Footer()


class Second(Screen[None]):
    pass


class FirstScreenApp(App[None]):
    def get_default_screen(self) -> Screen:
        return First()


async def test_push_result_callback_lets_the_first_screen_be_switched_away():
    app = FirstScreenApp()
    async with app.run_test() as pilot:
        first = app.screen
        assert isinstance(first, First)
        assert first._result_callbacks == []  # never pushed: nothing for switch to pop
        give_result_callback(first)
        assert len(first._result_callbacks) == 1
        await app.switch_screen(Second())
        await pilot.pause()
        assert isinstance(app.screen, Second)


async def test_without_it_the_first_screen_has_no_callback_for_switch_to_pop():
    """What the workaround is for: if this starts failing, Textual fixed it."""
    app = FirstScreenApp()
    async with app.run_test():
        with pytest.raises(IndexError):
            app.screen._pop_result_callback()  # what switch_screen does to it


async def test_is_pruning_is_true_while_a_widget_is_being_removed():
    app = FirstScreenApp()
    async with app.run_test() as pilot:
        static = app.screen.query_one("#static", Static)
        assert is_pruning(static) is False
        removal = static.remove()
        assert is_pruning(static) is True
        assert static.is_attached  # why is_attached alone is not enough
        await removal
        await pilot.pause()


async def test_log_size_known_turns_true_once_the_log_has_a_width():
    log = RichLog()
    assert log_size_known(log) is False
    app = FirstScreenApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert log_size_known(app.screen.query_one(RichLog)) is True


class Ask(AnswerOnce, ModalScreen[str]):
    pass


class Plain(ModalScreen[str]):
    pass


async def test_answer_once_runs_the_callback_once_and_pops_only_itself():
    app = FirstScreenApp()
    answers = []
    async with app.run_test() as pilot:
        dialog = Ask()
        app.push_screen(dialog, answers.append)
        await pilot.pause()
        dialog.dismiss("a")
        dialog.dismiss("b")
        await pilot.pause()
        assert answers == ["a"]
        assert isinstance(app.screen, First)
        assert dialog.answered


async def test_textual_dismiss_alone_answers_twice_and_pops_the_screen_below():
    """Why AnswerOnce exists (Textual #2575): if this fails, Textual fixed it."""
    app = FirstScreenApp()
    answers = []
    async with app.run_test() as pilot:
        app.push_screen(Second())
        await pilot.pause()
        dialog = Plain()
        app.push_screen(dialog, answers.append)
        await pilot.pause()
        dialog.dismiss("a")
        dialog.dismiss("b")
        await pilot.pause()
        assert answers == ["a"]
        assert isinstance(app.screen, First)  # the second dismiss popped Second


@pytest.mark.parametrize("terminal, colours", [
    ({"TERM": "xterm-256color"}, "256"),
    ({"TERM": "xterm-256color", "COLORTERM": "truecolor"}, "truecolor"),
    ({"TERM": "xterm"}, "standard"),
])
def test_use_terminal_gives_an_apps_console_the_colours_of_its_own_terminal(
        monkeypatch, terminal, colours):
    monkeypatch.setenv("TERM", "xterm-16color")  # the process's: not the session's
    monkeypatch.setenv("COLORTERM", "truecolor" if colours != "truecolor" else "")
    app = App()
    use_terminal(app.console, terminal)
    assert app.console.color_system == colours
    assert app.console._environ["TERM"] == terminal["TERM"]
