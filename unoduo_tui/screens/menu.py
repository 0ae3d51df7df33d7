"""The main menu: Resume (first, when a match is unfinished), New match, Host / Join /
Watch a table (shared between terminals: :mod:`unoduo_tui.dialogs.table_forms`), Saved
matches, Replays, Stats, Rules, Help, Quit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..widgets.footer import Footer
# the lists' words live in ..words (Textual-free: `unoduo list` uses them too)
from ..text.words import fit, lineage, practice_mark, summary_line, summary_lines
from ..app_link import unoduo

if TYPE_CHECKING:
    from ..app import UnoDuoApp

__all__ = ["MenuScreen", "Picking", "open_entry", "summary_line", "summary_lines", "lineage", "practice_mark", "fit"]

LOGO = """\
 _   _ _  _  ___    ___
| | | | \\| |/ _ \\  |   \\ _  _ ___
| |_| | .` | (_) | | |) | || / _ \\
 \\___/|_|\\_|\\___/  |___/ \\_,_\\___/"""


class SummaryPrompt:
    """A saved match as an option's prompt, laid out for the width it is given
    (the lineage on a second line, whole, when one line is too narrow)."""

    def __init__(self, label: str, summary) -> None:
        self.label, self.summary = label, summary

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        indent = cell_len(self.label)
        lines = summary_lines(self.summary, max(10, options.max_width - indent))
        yield Text(self.label + f"\n{' ' * indent}".join(lines), no_wrap=True,
                   overflow="ellipsis")


class Picking(Screen[None]):
    """A screen of entries picked by id — Enter on its list, or a key's ``pick('…')`` —
    one at a time: what :meth:`pick` does with them is the screen's own."""

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_pick(event.option.id or "")

    def action_pick(self, what: str) -> None:
        app = unoduo(self)
        if app.screen is self:  # not a second Enter of a paste, after the first opened it
            self.pick(app, what)

    def pick(self, app: UnoDuoApp, what: str) -> None:
        raise NotImplementedError


class MenuScreen(Picking):
    BINDINGS = [
        Binding("n", "pick('new')", "New match", id="menu.new"),
        Binding("q", "pick('quit')", "Quit", id="menu.quit"),
        Binding("question_mark", "pick('help')", "Help", id="menu.help", key_display="?"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            with Center():
                yield Static(LOGO, id="logo")
            with Center():
                yield Static("the two-player UNO, in your terminal", id="tagline")
            with Center():
                yield OptionList(id="menu")
        yield Footer()

    def on_mount(self) -> None:
        self.fill()

    def on_screen_resume(self) -> None:
        self.fill()

    def fill(self) -> None:
        menu = self.query_one(OptionList)
        menu.clear_options()
        unfinished = None
        store = unoduo(self).store
        if store is not None:
            try:
                unfinished = store.newest_unfinished()
            except Exception:  # a broken data dir must not hide the menu
                unfinished = None
        self.unfinished = unfinished
        options = []
        if unfinished is not None:
            options.append(Option(SummaryPrompt("Resume   ", unfinished), id="resume"))
        options += [
            Option("New match", id="new"),
            Option("Host a table…", id="host"),
            Option("Join a table…", id="join"),
            Option("Watch a table…", id="watch"),
            Option("Saved matches…", id="saved"),
            Option("Replays…", id="replays"),
            Option("Stats", id="stats"),
            Option("Rules", id="rules"),
            Option("Help", id="help"),
            Option("Quit", id="quit"),
        ]
        menu.add_options(options)
        menu.highlighted = 0
        menu.focus()

    def pick(self, app: UnoDuoApp, what: str) -> None:
        if what == "resume" and self.unfinished is not None:
            app.resume_match(str(self.unfinished.id))
        elif what in ("host", "join", "watch"):  # a table shared between terminals
            from ..dialogs.table_forms import open_from_menu
            open_from_menu(app, what)
        elif what == "quit":
            app.exit(0)
        else:
            open_entry(app, what)


def open_entry(app: UnoDuoApp, what: str) -> bool:
    """Push the screen of an entry the main menu and the lobby share — a new match,
    the saved matches, the replays, the stats, the rules, the help — each imported
    when first asked for; False when ``what`` is none of them."""
    if what == "new":
        from .new_match import NewMatchScreen
        app.push_screen(NewMatchScreen())
    elif what == "saved":
        from .saved import SavedScreen
        app.push_screen(SavedScreen())
    elif what == "replays":
        from .replay_list import ReplayListScreen
        app.push_screen(ReplayListScreen())
    elif what == "stats":
        from .stats import StatsScreen
        app.push_screen(StatsScreen())
    elif what == "rules":
        from .rules import RulesScreen
        app.push_screen(RulesScreen())
    elif what == "help":
        from .help import HelpScreen
        app.push_screen(HelpScreen())
    else:
        return False
    return True
