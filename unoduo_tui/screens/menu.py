"""The main menu: Resume (first, when a match is unfinished), New match, Saved
matches, Replays, Rules, Help, Quit."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

__all__ = ["MenuScreen", "summary_line"]

LOGO = """\
 _   _ _  _  ___    ___
| | | | \\| |/ _ \\  |   \\ _  _ ___
| |_| | .` | (_) | | |) | || / _ \\
 \\___/|_|\\_|\\___/  |___/ \\_,_\\___/"""


def summary_line(summary) -> str:
    """One saved match in a line: seats, round, scores."""
    seats = " vs ".join(s.name for s in summary.seats)
    scores = "–".join(str(x) for x in summary.scores)
    line = f"{seats} · round {summary.round} · {scores}"
    undos = getattr(summary, "undos", 0)
    if undos:
        line += f" · {practice_mark(undos)}"
    parent = getattr(summary, "parent", None)
    if parent:
        line += f" · {lineage(parent)}"
    return line


def lineage(parent: tuple[str, int]) -> str:
    """How a what-if branch names where it came from (list, saved matches, replays)."""
    return f"branch of {parent[0]} @ {parent[1]}"


def practice_mark(undos: int) -> str:
    """How a match where undo was used is marked (list, replay, transcript)."""
    return f"practice ({undos} undo{'s' * (undos != 1)})"


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
            options.append(Option(f"Resume   {summary_line(unfinished)}", id="resume"))
        options += [
            Option("New match", id="new"),
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
        if what == "resume" and self.unfinished is not None:
            app.resume_match(str(self.unfinished.id))
        elif what == "new":
            from .new_match import NewMatchScreen
            app.push_screen(NewMatchScreen())
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
