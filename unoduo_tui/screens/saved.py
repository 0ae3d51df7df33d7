"""Saved matches: resume an unfinished one, watch a finished one again.

Each line says what the file records: "practice (N undos)" when undo was used and
"branch of <id> @ N" for a what-if branch (see :func:`~.menu.summary_line`)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from .menu import summary_line

__all__ = ["SavedScreen"]


class SavedScreen(Screen[None]):
    BINDINGS = [Binding("escape,q", "close", "Back", id="saved.back")]

    def compose(self) -> ComposeResult:
        yield Static("Saved matches — Enter resumes an unfinished one, replays a finished one",
                     id="saved-title")
        yield DataTable(id="saved-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Started", "Match", "Status", "Moves")
        self.summaries = []
        try:
            self.summaries = list(self.app.store.list())
        except Exception as exc:  # show the problem, keep the screen
            self.notify(f"Could not list saved matches: {exc}", severity="error")
        for i, s in enumerate(self.summaries):
            created = s.created.strftime("%Y-%m-%d %H:%M") if s.created else "?"
            table.add_row(created, summary_line(s), s.status, str(s.actions), key=str(i))
        if not self.summaries:
            self.query_one("#saved-title", Static).update("No saved matches yet.")
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        summary = self.summaries[int(event.row_key.value)]
        if summary.status == "in progress":
            self.app.resume_match(str(summary.id))
        elif summary.status == "finished":
            self.app.open_replay(str(summary.path))
        else:
            self.notify(f"That save file is damaged: {summary.path}", severity="warning")

    def action_close(self) -> None:
        self.dismiss(None)
