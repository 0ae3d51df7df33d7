"""Saved matches: resume an unfinished one, watch a finished one again.

Each line says what the file records: "practice (N undos)" when undo was used and
"branch of <id> @ N" for a what-if branch (see :func:`~unoduo_tui.text.words.summary_lines`), laid
out to fit the terminal: a line too long for it puts those marks on a second line.

``s`` lists the matches spoiler-free — a finished match shows neither its round,
its scores nor its length — and Enter then watches it spoiler-free, from the start.
``d`` (or Delete) deletes the highlighted match for good, once confirmed.
"""

from __future__ import annotations

from functools import partial
from typing import Iterable

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ..text import printable
from ..textual_compat import AnswerOnce
from ..widgets.footer import Footer
from ..text.words import summary_lines
from ..app_link import unoduo

__all__ = ["SavedScreen", "MatchTable", "fill_matches"]

#: the columns beside the match's: Started, Status, Moves (and a scrollbar)
_STARTED, _STATUS, _MOVES, _SCROLLBAR = 16, 11, 5, 2


def fill_matches(table: DataTable, summaries, width: int, spoiler_free: bool = False) -> None:
    """(Re)write ``table``'s rows: one per saved match, the match's cell laid out in
    what ``width`` cells of screen leave it (each column takes 2 more for padding)."""
    row = table.cursor_row
    table.clear(columns=True)
    table.add_columns("Started", "Match", "Status", "Moves")
    room = max(20, width - (_STARTED + _STATUS + _MOVES + _SCROLLBAR) - 2 * 4)
    for i, s in enumerate(summaries):
        created = s.created.strftime("%Y-%m-%d %H:%M") if s.created else "?"
        hide = spoiler_free and s.status == "finished"
        lines = summary_lines(s, room, spoiler_free)
        table.add_row(created, Text("\n".join(lines), no_wrap=True), Text(printable(s.status)),
                      "—" if hide else str(s.actions), key=str(i), height=len(lines))
    if summaries:
        table.move_cursor(row=min(row, len(summaries) - 1))


class MatchTable(AnswerOnce, Screen[None]):
    """A table of saved matches (Saved matches, Replays): ``s`` spoiler-free."""

    ID = "list"  # the title is #<ID>-title, the table #<ID>-table
    PALETTE = "Saved"  # its commands' prefix in the command palette
    TITLE_TEXT = ""
    SPOILER_FREE_TEXT = ""
    EMPTY_TEXT = ""

    def __init__(self) -> None:
        super().__init__()
        self.summaries: list = []
        self.spoiler_free = False
        self._width = 0

    def compose(self) -> ComposeResult:
        yield Static(self.TITLE_TEXT, id=f"{self.ID}-title")
        yield DataTable(id=f"{self.ID}-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.load()
        self.query_one(DataTable).focus()

    def load(self) -> None:
        """(Re)read the saved matches and show them."""
        try:
            self.summaries = self.listed(unoduo(self).saved_store.list())
        except Exception as exc:  # show the problem, keep the screen
            self.notify(f"Could not list saved matches: {exc}", severity="error")
        self.fill()

    def listed(self, summaries) -> list:
        return list(summaries)

    def fill(self) -> None:
        self._width = self.app.size.width
        fill_matches(self.query_one(DataTable), self.summaries, self._width, self.spoiler_free)
        title = self.query_one(f"#{self.ID}-title", Static)
        if not self.summaries:
            title.update(self.EMPTY_TEXT)
        else:
            title.update(self.SPOILER_FREE_TEXT if self.spoiler_free else self.TITLE_TEXT)
        self.refresh_bindings()  # d: only with a match to delete

    def on_resize(self, event: Resize) -> None:
        if self.is_mounted and self.app.size.width != self._width:
            self.fill()

    def action_spoilers(self) -> None:
        """``s``: hide (or show again) the finished matches' rounds, scores and length;
        while hidden, Enter watches a finished match spoiler-free, from its start."""
        self.spoiler_free = not self.spoiler_free
        self.fill()

    def open_replay_of(self, summary) -> None:
        """Open ``summary``'s replay (spoiler-free when the list is)."""
        unoduo(self).open_replay(summary.ref, spoiler_free=self.spoiler_free)

    def action_close(self) -> None:
        self.dismiss(None)

    # -- deleting ----------------------------------------------------------------------

    @property
    def highlighted(self):
        """The summary of the row under the cursor (None: the list is empty)."""
        row = self.query_one(DataTable).cursor_row
        return self.summaries[row] if 0 <= row < len(self.summaries) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "delete":
            return True if self.highlighted is not None else None
        return True

    def action_delete(self) -> None:
        """``d`` / Delete: delete the highlighted match for good, once confirmed
        (:meth:`Store.delete`: its file, lock and ``.corrupt`` copy)."""
        summary = self.highlighted
        if summary is None:
            return
        from ..dialogs import ConfirmDelete

        created = summary.created.strftime("%Y-%m-%d %H:%M") if summary.created else "?"
        what = "\n".join([f"{created} · {summary.status}",
                          *summary_lines(summary, 56, self.spoiler_free)])

        def confirmed(delete: bool | None) -> None:
            if delete:
                self._delete(summary)

        self.app.push_screen(ConfirmDelete(what), confirmed)

    def _delete(self, summary) -> None:
        from ..store import SaveFileError

        try:
            unoduo(self).saved_store.delete(summary.ref)
        except SaveFileError as exc:  # open in another unoduo (LockedError), or no access
            pid = getattr(exc, "pid", None)
            why = (f"it is open in another unoduo (process {pid})" if pid is not None
                   else str(exc))
            self.notify(f"Could not delete that match: {why}.", severity="error", timeout=8)
            return
        self.notify("Deleted.", timeout=3)
        self.load()

    def palette_commands(self) -> Iterable[SystemCommand]:
        """A command for every key valid now (the footer's declarations)."""
        for binding in self.BINDINGS:
            if not isinstance(binding, Binding):
                continue  # every one is declared as a Binding
            name = binding.action.split("(")[0]
            if self.check_action(name, ()):
                help_text = f"{binding.tooltip} ({binding.key_display or binding.key})"
                yield SystemCommand(f"{self.PALETTE}: {binding.description}", help_text,
                                    partial(self.run_action, binding.action))


def list_bindings(prefix: str) -> list[BindingType]:
    """The keys of a list of saved matches (``prefix``: the screen's binding ids)."""
    return [
        Binding("s", "spoilers", "Spoiler-free", id=f"{prefix}.spoilers",
                tooltip="Hide finished matches' rounds, scores and length; watch them "
                        "from the start"),
        Binding("d,delete", "delete", "Delete", id=f"{prefix}.delete", key_display="d",
                tooltip="Delete the highlighted match for good (asks first)"),
        Binding("escape,q", "close", "Back", id=f"{prefix}.back", tooltip="Back to the menu"),
    ]


class SavedScreen(MatchTable):
    BINDINGS = list_bindings("saved")

    ID = "saved"
    TITLE_TEXT = "Saved matches — Enter resumes an unfinished one, replays a finished one"
    SPOILER_FREE_TEXT = ("Saved matches, spoiler-free — Enter replays a finished one from "
                         "its start")
    EMPTY_TEXT = "No saved matches yet."

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        summary = self.summaries[int(str(event.row_key.value))]  # each row keyed by its index
        if summary.status == "in progress":
            unoduo(self).resume_match(str(summary.id))
        elif summary.status == "finished":
            self.open_replay_of(summary)
        else:
            self.notify(f"That save file is damaged: {summary.ref}", severity="warning")
