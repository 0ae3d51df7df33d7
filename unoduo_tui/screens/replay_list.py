"""The menu's Replays: every saved match that can be read, Enter watches it."""

from __future__ import annotations

from textual.widgets import DataTable

from .saved import MatchTable, list_bindings

__all__ = ["ReplayListScreen"]


class ReplayListScreen(MatchTable):
    """The menu's Replays: every saved match; Enter watches it (``s``: spoiler-free —
    the finished matches' rounds, scores and length hidden, each watched from its
    start with its end hidden)."""

    DEFAULT_CSS = """
    ReplayListScreen #replays-title { text-style: bold; color: $accent; padding: 0 1; }
    ReplayListScreen #replays-table { height: 1fr; }
    """

    BINDINGS = list_bindings("replays")

    ID = "replays"
    PALETTE = "Replays"
    TITLE_TEXT = "Replays — Enter watches a match (an unfinished one only as you saw it)"
    SPOILER_FREE_TEXT = "Replays, spoiler-free — Enter watches a match from its start"
    EMPTY_TEXT = "No saved matches to replay yet."

    def listed(self, summaries) -> list:
        return [s for s in summaries if s.status != "damaged"]

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.open_replay_of(self.summaries[int(str(event.row_key.value))])
