"""The main menu: Resume (first, when a match is unfinished), New match, Host / Join /
Watch a table (shared between terminals: :mod:`unoduo_tui.net.menu_forms`), Saved
matches, Replays, Rules, Help, Quit."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..store import short_id
from ..text import printable
from ..widgets.footer import Footer

__all__ = ["MenuScreen", "summary_line", "summary_lines", "lineage", "practice_mark", "fit"]

LOGO = """\
 _   _ _  _  ___    ___
| | | | \\| |/ _ \\  |   \\ _  _ ___
| |_| | .` | (_) | | |) | || / _ \\
 \\___/|_|\\_|\\___/  |___/ \\_,_\\___/"""


def summary_line(summary) -> str:
    """One saved match in a line: seats, round, scores, then its marks (practice,
    lineage)."""
    return " · ".join([" vs ".join(printable(s.name) for s in summary.seats), *_facts(summary),
                       *_marks(summary)])


def summary_lines(summary, width: int, spoiler_free: bool = False) -> list[str]:
    """One saved match in ``width`` cells: one line when it fits, else the match
    ("Ann vs Rando · round 3 · 120–45") and its marks ("practice (2 undos) · branch
    of caebc7 @ 57") on two.  The seats' names give way first (cut with "…"), then
    the practice mark; the lineage stays whole.  ``spoiler_free``: a finished match
    shows neither its round nor its scores (they tell who won, and how long it ran)."""
    names = [printable(s.name) for s in summary.seats]
    facts = [] if spoiler_free and summary.status == "finished" else _facts(summary)
    marks = _marks(summary)
    whole = " · ".join([" vs ".join(names), *facts, *marks])
    if cell_len(whole) <= width:
        return [whole]
    tail = "".join(f" · {fact}" for fact in facts)
    room = width - cell_len(tail) - cell_len(" vs ") * (len(names) - 1)
    first = fit(" vs ".join(_fit_names(names, room)) + tail, width)
    if not marks:
        return [first]
    if cell_len(" · ".join(marks)) > width and len(marks) == 2:  # practice, lineage
        room = width - cell_len(marks[1]) - cell_len(" · ")
        marks = [fit("practice", room), marks[1]] if room >= 4 else marks[1:]
    return [first, fit(" · ".join(marks), width)]


def _facts(summary) -> list[str]:
    return [f"round {summary.round}", "–".join(str(x) for x in summary.scores)]


def _marks(summary) -> list[str]:
    marks = []
    undos = getattr(summary, "undos", 0)
    if undos:
        marks.append(practice_mark(undos))
    parent = getattr(summary, "parent", None)
    if parent:
        marks.append(lineage(parent))
    return marks


def _fit_names(names: list[str], room: int) -> list[str]:
    """The names cut, longest first, until they take ``room`` cells together."""
    widths = [cell_len(n) for n in names]
    while widths and sum(widths) > room and max(widths) > 2:
        widths[widths.index(max(widths))] -= 1
    return [fit(n, w) for n, w in zip(names, widths)]


def fit(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, an ellipsis where it was cut."""
    if cell_len(text) <= width:
        return text
    cut = Text(text, no_wrap=True)
    cut.truncate(max(1, width), overflow="ellipsis")
    return cut.plain


def lineage(parent: tuple[str, int]) -> str:
    """How a what-if branch names where it came from (lists, replay): the parent's
    short id (which ``unoduo replay`` accepts) and the decisions taken over."""
    return f"branch of {printable(short_id(parent[0]))} @ {printable(parent[1])}"


def practice_mark(undos: int) -> str:
    """How a match where undo was used is marked (list, replay, transcript)."""
    return f"practice ({undos} undo{'s' * (undos != 1)})"


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


class MenuScreen(Screen[None]):
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
        store = getattr(self.app, "store", None)
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
            Option("Rules", id="rules"),
            Option("Help", id="help"),
            Option("Quit", id="quit"),
        ]
        menu.add_options(options)
        menu.highlighted = 0
        menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_pick(event.option.id or "")

    def action_pick(self, what: str) -> None:
        app = self.app
        if app.screen is not self:  # a second Enter of a paste, after the first opened it
            return
        if what == "resume" and self.unfinished is not None:
            app.resume_match(str(self.unfinished.id))
        elif what == "new":
            from .new_match import NewMatchScreen
            app.push_screen(NewMatchScreen())
        elif what in ("host", "join", "watch"):  # a table shared between terminals
            from ..net.menu_forms import open_from_menu
            open_from_menu(app, what)
        elif what == "saved":
            from .saved import SavedScreen
            app.push_screen(SavedScreen())
        elif what == "replays":
            from .replay import ReplayListScreen
            app.push_screen(ReplayListScreen())
        elif what == "rules":
            from .rules import RulesScreen
            app.push_screen(RulesScreen())
        elif what == "help":
            from .help import HelpScreen
            app.push_screen(HelpScreen())
        elif what == "quit":
            app.exit(0)
