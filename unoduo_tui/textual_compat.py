"""Every use of a private Textual name, in one place.

``pyproject.toml`` bounds Textual to 8.2.x because of what is here; each function
says why it is needed and ``tests/tui/test_textual_compat.py`` has a test per name
that fails when Textual changes it.  When upgrading Textual: run those tests, then
look for a public replacement before touching anything else.
"""

from __future__ import annotations

from typing import Any

from textual.await_complete import AwaitComplete
from textual.screen import Screen

__all__ = ["AnswerOnce", "give_result_callback", "footer_bindings_ready", "is_pruning",
           "log_size_known"]


def give_result_callback(screen: Screen) -> None:
    """Give ``screen`` the (empty) result callback ``push_screen`` would have given it.

    ``App.switch_screen`` pops the result callback of the screen it replaces, but the
    app's first screen (``get_default_screen``) was never pushed and has none, so the
    switch fails with ``IndexError`` (textual 8.2; the family of Textual issues #2650
    and #3041).  Uses ``Screen._push_result_callback`` — the same call Textual makes
    in ``switch_screen`` for the screen it switches to.
    """
    screen._push_result_callback(screen.app, None)


def footer_bindings_ready(footer: Any) -> bool:
    """Whether Textual's ``Footer`` has been told its screen's bindings yet.

    Before that, ``Footer.compose`` yields nothing; our footer (which recomposes only
    when what it shows changed, a workaround for Textual issue #6666) must not take
    that empty first compose for the real one.  ``Footer._bindings_ready`` is a
    private reactive; there is no public equivalent.
    """
    return bool(footer._bindings_ready)


def is_pruning(widget: Any) -> bool:
    """Whether ``widget`` is being removed (``DOMNode._pruning``), when a recompose
    of it would mount children into a widget that is going away.  ``is_attached``
    stays True until the removal ends; Textual's own signals check ``_pruning`` for
    the same reason (``textual/signal.py``).  There is no public equivalent.
    """
    return bool(widget._pruning)


def log_size_known(log: Any) -> bool:
    """Whether a ``RichLog`` knows its width (``RichLog._size_known``): before that,
    ``write`` defers its lines, so ``log.lines`` does not yet say how many lines an
    entry wrapped to.  There is no public equivalent.
    """
    return bool(log._size_known)


class AnswerOnce:
    """A screen that answers once: the first :meth:`dismiss` runs the result callback
    and pops it; any later one (a second key of a paste, a button and its key in the
    same tick) does nothing.  Mix in before ``Screen`` / ``ModalScreen``.

    Textual's ``Screen.dismiss`` runs the callback every time and pops whatever
    screen is on top — after the first call that is the screen below (the table),
    and the app dies with ``ScreenStackError`` (Textual issue #2575: "Screen.dismiss
    should error if not the top-most screen").  No private name is used; it lives
    here because it works around Textual's behaviour.
    """

    _answered = False

    @property
    def answered(self) -> bool:
        return self._answered

    def dismiss(self, result: Any = None) -> AwaitComplete:
        app = self.app  # type: ignore[attr-defined]
        if self._answered or not self.is_attached or app.screen is not self:  # type: ignore[attr-defined]
            return AwaitComplete.nothing()  # already answered, or not the screen on top
        self._answered = True
        return super().dismiss(result)  # type: ignore[misc]
