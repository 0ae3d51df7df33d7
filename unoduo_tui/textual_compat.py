"""Every use of a private Textual name, in one place.

``pyproject.toml`` bounds Textual to 8.2.x because of what is here; each function
says why it is needed and ``tests/tui/test_textual_compat.py`` has a test per name
that fails when Textual changes it.  When upgrading Textual: run those tests, then
look for a public replacement before touching anything else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from textual import command
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.screen import ModalScreen, Screen

if TYPE_CHECKING:
    from textual.widgets import RichLog

__all__ = ["AnswerOnce", "CommandPalette", "Modal", "SafePalettes", "give_result_callback",
           "is_pruning", "log_size_known", "strips_without_self_cycles", "update_scrollbars",
           "use_terminal"]


def give_result_callback(screen: Screen) -> None:
    """Give ``screen`` the (empty) result callback ``push_screen`` would have given it.

    ``App.switch_screen`` pops the result callback of the screen it replaces, but the
    app's first screen (``get_default_screen``) was never pushed and has none, so the
    switch fails with ``IndexError`` (textual 8.2; the family of Textual issues #2650
    and #3041).  Uses ``Screen._push_result_callback`` — the same call Textual makes
    in ``switch_screen`` for the screen it switches to.
    """
    screen._push_result_callback(screen.app, None)


def rich_log_class() -> "type[RichLog]":
    """Textual's ``RichLog``, imported without ``attrs`` when nothing has imported it yet.

    ``textual.widgets._rich_log`` imports ``rich.pretty``, which imports ``attrs`` if it
    is installed (aiohttp, under textual-serve, installs it) only to pretty-print attrs
    objects — a quarter of the game log's import time, before the table's first frame
    (#22).  The log is only ever given ``Text``.  While ``rich.pretty`` is imported
    here, ``sys.modules["attr"]`` is ``None`` (an import of it fails, as if it were not
    installed; ``rich.pretty`` then treats no object as an attrs one), and is put
    back after: a later ``import attr`` loads it as usual.
    """
    import sys

    if "rich.pretty" not in sys.modules and "attr" not in sys.modules:
        sys.modules["attr"] = None  # type: ignore[assignment]
        try:
            import rich.pretty  # noqa: F401
        finally:
            del sys.modules["attr"]
    from textual.widgets import RichLog

    return RichLog


def is_pruning(widget: Any) -> bool:
    """Whether ``widget`` is being removed (``DOMNode._pruning``), when a recompose
    of it would mount children into a widget that is going away.  ``is_attached``
    stays True until the removal ends; Textual's own signals check ``_pruning`` for
    the same reason (``textual/signal.py``).  There is no public equivalent.
    """
    return bool(widget._pruning)


def strips_without_self_cycles() -> None:
    """Keep Textual's ``Strip`` from caching itself in its own caches (once a process).

    ``Strip.adjust_cell_length`` (to the length it has), ``Strip.divide`` (at its own
    end) and ``Strip.crop_extend`` (to its whole length) return the strip itself and
    also store it in the strip's own result cache: the strip then refers to itself, so
    reference counting never frees it or its segments, and every line drawn that way
    waits for the garbage collector's oldest generation (#22: most of the cyclic
    garbage of a process drawing many apps — a worker of ``unoduo serve`` grew by
    megabytes a player until a full collection, which then stalled every player for
    up to a second).  Each method here answers those cases first, without caching;
    every other call is Textual's own.  Uses only ``Strip``'s public methods.
    """
    from textual.strip import Strip

    if getattr(Strip, "_unoduo_no_self_cycles", False):
        return
    adjust, divide, crop_extend = Strip.adjust_cell_length, Strip.divide, Strip.crop_extend

    def adjust_cell_length(self: Strip, cell_length: int, style: Any = None) -> Strip:
        if self.cell_length == cell_length:
            return self
        return adjust(self, cell_length, style)

    def divide_strip(self: Strip, cuts: Any) -> Any:
        cuts = list(cuts)
        length = self.cell_length
        if [cut for cut in cuts if cut <= length] == [length]:
            return [self]
        return divide(self, cuts)

    def crop_extend_strip(self: Strip, start: int, end: int, style: Any) -> Strip:
        if start == 0 and end == self.cell_length:
            return self
        return crop_extend(self, start, end, style)

    Strip.adjust_cell_length = adjust_cell_length  # type: ignore[method-assign]
    Strip.divide = divide_strip  # type: ignore[method-assign]
    Strip.crop_extend = crop_extend_strip  # type: ignore[method-assign]
    Strip._unoduo_no_self_cycles = True  # type: ignore[attr-defined]


def update_scrollbars(widget: Any) -> None:
    """Give a scrolling widget's scrollbars its virtual size now, as a relayout of its
    screen would (``Widget._scroll_update``, called by ``ScrollView._size_updated``):
    for a widget whose content grew but whose own size did not (the game log), so the
    screen need not lay every widget out again.  There is no public equivalent.
    """
    widget._scroll_update(widget.virtual_size)


def log_size_known(log: Any) -> bool:
    """Whether a ``RichLog`` knows its width (``RichLog._size_known``): before that,
    ``write`` defers its lines, so ``log.lines`` does not yet say how many lines an
    entry wrapped to.  There is no public equivalent.
    """
    return bool(log._size_known)


def use_terminal(console: Any, terminal: Any) -> None:
    """Make the app's Rich ``console`` render for ``terminal`` (a mapping with
    ``TERM`` and maybe ``COLORTERM``) rather than for the process's environment.

    ``App.__init__`` builds its console from ``os.environ``, and Rich picks the colour
    system (true colour, 256, 16) from ``COLORTERM`` and ``TERM`` there, once.  Many
    apps in one process (``unoduo serve --workers``) each have a terminal of their
    own, and there is no public way to give an app's console another environment:
    this sets Rich's ``Console._environ`` and ``Console._color_system`` (what
    ``Console.__init__`` sets from them, with the console's own
    ``_detect_color_system``).  ``TERM=dumb`` keeps colour (the app is full-screen).
    """
    environ = {k: v for k, v in console._environ.items()
               if k not in ("TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR")}
    environ.update(terminal)
    console._environ = environ
    colours = console._detect_color_system()
    console._color_system = colours if colours is not None else console._color_system


class AnswerOnce:
    """A screen that answers once: the first :meth:`dismiss` runs the result callback
    and pops it; any later one (a second key of a paste, a button and its key in the
    same tick) does nothing.  Mix in before ``Screen`` / ``ModalScreen``.

    Textual's ``Screen.dismiss`` pops whatever screen is on top: called a second
    time, it pops the screen below (the table), and with nothing left the app dies
    with ``ScreenStackError`` (Textual issue #2575: "Screen.dismiss should error if
    not the top-most screen").  No private name is used; it lives
    here because it works around Textual's behaviour.
    """

    _answered = False

    @property
    def answered(self) -> bool:
        return self._answered

    @property
    def on_top(self: Any) -> bool:
        """Whether this screen may still act: it is the one on top and has not
        answered.  Input a paste left queued for it after it gave way (a second Enter
        in a form) checks this and does nothing."""
        try:
            return not self._answered and self.is_attached and self.app.screen is self
        except Exception:  # no screen stack any more: the app is closing
            return False

    def dismiss(self: Any, result: Any = None) -> AwaitComplete:
        if not self.on_top:
            return AwaitComplete.nothing()  # already answered, or not the screen on top
        self._answered = True
        screen = cast("Screen[Any]", super(AnswerOnce, self))  # the Screen it is mixed into
        return screen.dismiss(result)


class CommandPalette(AnswerOnce, command.CommandPalette):
    """Textual's command palette, made safe for keys faster than it:

    - PageUp / PageDown while the commands are still being gathered: Textual's
      ``OptionList._move_page`` reads the line of the highlighted option before the
      list has laid its options out (``KeyError``, textual 8.2.8) — the keys are
      ignored until it has;
    - Escape twice in one read: it dismisses once (:class:`AnswerOnce`); a second
      ``dismiss`` would pop the screen under the palette.

    Only public names are used (``CommandList``, its ``action_page_up`` /
    ``action_page_down``); the app opens this class instead of Textual's.
    """

    BINDINGS = [
        Binding("pagedown", "page(1)", "Next page", show=False),
        Binding("pageup", "page(-1)", "Previous page", show=False),
    ]

    def action_page(self, direction: int) -> None:
        commands = self.query_one(command.CommandList)
        move = commands.action_page_down if direction > 0 else commands.action_page_up
        try:
            move()
        except (KeyError, IndexError):  # not laid out yet: as if the key came before
            pass


class SafePalettes:
    """Mix into the ``App``: every palette it opens — Ctrl+P, the theme picker, a
    list of commands — is the :class:`CommandPalette` above, not Textual's (which
    ``App.search_themes`` / ``App.search_commands`` build themselves)."""

    def action_command_palette(self: Any) -> None:
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(id="--command-palette"))

    def search_themes(self: Any) -> None:
        from textual.theme import ThemeProvider

        self.push_screen(CommandPalette(providers=[ThemeProvider],
                                        placeholder="Search for themes…"))

    def search_commands(self: Any, commands, placeholder: str = "Search for commands…"):
        return self.push_screen(
            # as App.search_commands does (Textual 6 types ``providers`` as classes only)
            CommandPalette(providers=[command.SimpleProvider(self.screen, commands)],  # type: ignore[list-item]
                           placeholder=placeholder))


Answer = TypeVar("Answer")


class Modal(ModalScreen[Answer], Generic[Answer]):
    """Every modal screen of the app (dialogs, forms, help): Textual's
    ``ModalScreen``, laid out once less as it opens.

    A screen's first layout sends the screen itself a ``Resize`` (it is a widget
    newly shown), and ``Screen._on_resize`` lays it out again at the size it has
    just been laid out at: for every dialog opened, a layout (~3 ms of a worker's
    CPU for a colour picker over the table) and a screen update more (#22).  Here
    ``Screen._screen_resized`` does nothing when the screen's compositor is already
    at that size (``Compositor.size``, what its last layout was for); a real
    resize is another size and lays it out as before.  (The screens under it are
    laid out by ``_on_resize`` itself, as before.)
    """

    def _screen_resized(self, size: Any) -> None:
        if self._compositor.size == size:
            return
        super()._screen_resized(size)
