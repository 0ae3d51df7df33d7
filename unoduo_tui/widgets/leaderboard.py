"""The lobby's leaderboard (#24): each game's top players among the non-provisional,
and where this player stands (:func:`unoduo_tui.record.stats.boards`, in the words of
:func:`unoduo_tui.record.words.board_lines`).

Under ``unoduo serve`` the index is the server's, so the board ranks every player of
the server; at one's own machine, the players of this data dir.  Read in a worker
thread: first with a refresh from the saves (a lost index mends itself), then, each
time the index's files change — a rated match ended, in this session or any other —
read again as it is (:data:`CHECK_SECONDS` apart: a ``stat`` of two files, nothing
more).  Focusable and scrollable (Tab, then ↑ ↓), so the whole top 20 reads at 80×24.
"""

from __future__ import annotations

import os
from pathlib import Path

from textual import work
from textual.containers import VerticalScroll
from textual.widgets import Static

__all__ = ["Leaderboard", "CHECK_SECONDS"]

#: seconds between two looks at the index's files
CHECK_SECONDS = 1.0
#: cells of a line: the lobby's 72, less the padding and a scroll bar
WIDTH = 69


class Leaderboard(VerticalScroll):
    """The board of ``data_dir``'s index (``key``: the session's SSH key, as
    :meth:`~unoduo_tui.record.index.Index.of` takes it), as ``who`` (an index id:
    ``key:…`` or ``name:…``) sees it."""

    DEFAULT_CSS = """
    Leaderboard { height: auto; padding: 0 1; scrollbar-size-vertical: 1; }
    Leaderboard:focus { background-tint: $foreground 5%; }
    """

    def __init__(self, data_dir: Path, key: str | None, who: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.data_dir = Path(data_dir)
        self.key = key
        self.who = who
        self.lines: list[str] = []
        self._seen: tuple | None = None
        self._root: Path | None = None

    def compose(self):
        yield Static("Leaderboard: counting…", markup=False, id="board-text")

    def on_mount(self) -> None:
        self.set_interval(CHECK_SECONDS, self.check)
        self.reload(fresh=True)

    def _files(self) -> tuple:
        from ..record.identity import INDEX_NAME, index_root

        if self._root is None:  # where the index is: read once (an identity.json)
            self._root = index_root(self.data_dir, self.key)[0]
        root = self._root
        out: list[tuple[int, int, int] | None] = []
        for tail in ("", "-wal"):
            try:
                st = os.stat(root / (INDEX_NAME + tail))
                out.append((st.st_ino, st.st_size, st.st_mtime_ns))
            except OSError:
                out.append(None)
        return tuple(out)

    def check(self) -> None:
        """Read the board again if the index changed since it was read."""
        if self._files() != self._seen:
            self.reload()

    @work(thread=True, exclusive=True, group="leaderboard")
    def reload(self, fresh: bool = False) -> None:
        """Read the board (``fresh``: refresh the index from the saves first)."""
        from ..record.index import Index
        from ..record.stats import boards
        from ..record.words import board_lines

        seen = self._files()
        try:
            index = Index.of(self.data_dir, self.key)
            standings = index.read(lambda conn: boards(conn, self.who), fresh=fresh)
            lines = board_lines(standings, self.who, WIDTH)
        except Exception as exc:  # noqa: BLE001 - the lobby stays; the board says why
            lines = [f"Leaderboard: cannot be read ({type(exc).__name__})."]
        self._seen = self._files() if fresh else seen
        try:
            self.app.call_from_thread(self._show, lines)
        except RuntimeError:  # the app ended meanwhile
            pass

    def _show(self, lines: list[str]) -> None:
        self.lines = lines
        if self.is_mounted:
            self.query_one("#board-text", Static).update("\n".join(lines))
