"""Each private Textual name ``unoduo_tui.textual_compat`` relies on still exists and
behaves as relied upon on the installed Textual (a failure here: read the module's
docstrings before upgrading)."""

import pytest
from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, RichLog, Static

from tests.waiting import until_async
from unoduo_tui.textual_compat import (AnswerOnce, Modal, give_result_callback, is_pruning,
                                       log_size_known, use_terminal)

from .conftest import screen_text


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


def test_a_strip_kept_at_its_own_length_is_freed_by_reference_counting():
    """Textual's Strip cached itself in its own caches (a cycle per line drawn, left to
    the collector's oldest generation); with the workaround, none is left behind."""
    import gc

    from rich.segment import Segment
    from textual.strip import Strip

    from unoduo_tui.textual_compat import strips_without_self_cycles

    strips_without_self_cycles()

    def alive() -> int:
        return sum(isinstance(o, Strip) for o in gc.get_objects())

    gc.collect()
    gc.disable()
    try:
        before = alive()
        for _ in range(200):
            strip = Strip([Segment("abc"), Segment("de")], 5)
            assert strip.adjust_cell_length(5) is strip
            assert strip.divide([5]) == [strip]
            assert strip.crop_extend(0, 5, None) is strip
            assert strip.adjust_cell_length(7).cell_length == 7  # Textual's own, as ever
            assert [s.text for s in strip.divide([2, 5])] == ["ab", "cde"]
            del strip
        assert alive() - before < 10
    finally:
        gc.enable()


class Under(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("the table", id="under")


class UnderApp(App[None]):
    def get_default_screen(self) -> Screen:
        return Under()


class Kept(Modal[None]):
    DEFAULT_CSS = "Kept { align: center middle; } Kept > Static { width: 20; height: 3; }"

    def compose(self) -> ComposeResult:
        yield Static("a dialog", id="dialog")


class Bare(ModalScreen[None]):
    DEFAULT_CSS = Kept.DEFAULT_CSS.replace("Kept", "Bare")
    compose = Kept.compose


async def _relayouts(monkeypatch, modal: ModalScreen[None]) -> tuple[list, list]:
    """Each time Textual's ``Screen._screen_resized`` (a layout for a resize) ran for
    ``modal``, with the size asked for and the size it was laid out at: as it opened,
    and when the terminal was then made bigger."""
    calls = []
    textual_resized = Screen._screen_resized

    def counted(self, size):
        if self is modal:
            calls.append((size, self._compositor.size))
        return textual_resized(self, size)

    monkeypatch.setattr(Screen, "_screen_resized", counted)
    app = UnderApp()
    async with app.run_test(size=(40, 10)) as pilot:
        await app.push_screen(modal)
        await until_async(lambda: "a dialog" in screen_text(app), "the dialog on screen")
        await pilot.pause()
        opened = list(calls)
        await pilot.resize_terminal(60, 12)
        await until_async(lambda: modal.query_one("#dialog").region.x == 20,
                          "the dialog centred in the wider terminal")
        assert "the table" in screen_text(app)
    return opened, calls[len(opened):]


async def test_a_modal_is_not_laid_out_again_at_the_size_it_was_just_laid_out_at(monkeypatch):
    """Modal (#22): Textual lays a modal screen out again for the Resize its first
    layout sends it, at the same size; not here — and a real resize lays it out anew
    (the dialog is centred in the wider terminal)."""
    opened, resized = await _relayouts(monkeypatch, Kept())
    assert opened == []
    assert [asked for asked, _ in resized] == [(60, 12)]


async def test_textual_alone_lays_a_modal_out_again_for_its_own_first_resize(monkeypatch):
    """What Modal saves: if this fails, Textual no longer lays it out twice."""
    opened, _ = await _relayouts(monkeypatch, Bare())
    assert opened == [(Size(40, 10), Size(40, 10))]
