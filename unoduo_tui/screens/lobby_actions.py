"""What the lobby's entries do (:mod:`.lobby`): resume, join or watch a listed table,
quick match (with its "Waiting for another player…" dialog) and open a table.

Each goes down the command line's own path (:func:`unoduo_tui.net.client.start_authority`,
:func:`unoduo_tui.net.client.connect`) and opens the game screen over the lobby; a problem is
one toast, the lobby stays and its list is read again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from ..textual_compat import Modal
from ..app_link import unoduo

if TYPE_CHECKING:
    from pathlib import Path

    from ..net.lobby import QuickSeat
    from ..net.messages import Want
    from ..table import Table
    from .lobby import LobbyScreen, Resumable

__all__ = ["resume", "sit", "quick", "open_table", "rename", "search", "QuickWait",
           "RenameForm", "SearchForm"]

#: seconds between two looks at who has sat down, while waiting for a quick match
WAIT_POLL = 0.1


def _problems() -> tuple[type[BaseException], ...]:
    from ..table import Refused

    return (Refused, RuntimeError, ConnectionError, OSError, ValueError)


def _say(lobby: LobbyScreen, exc: BaseException, code: str | None = None) -> None:
    from ..net.lobby import forget_if_gone
    from ..table import Refused

    if isinstance(exc, Refused):
        message = f"The table refused: {exc.reason}"
    elif isinstance(exc, ConnectionError):
        message = "That table has closed."
        from ..net.codes import hall_path

        if code is not None and hall_path() is None:
            forget_if_gone(lobby.place.folder, code)
    else:
        message = str(exc) or type(exc).__name__
    lobby.notify(message[:300], severity="error")
    lobby.refresh_tables()


def _show(lobby: LobbyScreen, table: Table, banner: str | None = None) -> None:
    app = unoduo(lobby)
    table.banner = banner
    app.open_game(table)


def resume(lobby: LobbyScreen, entry: Resumable) -> None:
    """Back to an unfinished match: a joined one with this player's token, a saved one
    as the app resumes it (a hosted one at its table, started again — and listed — if
    it ended)."""
    if entry.listed is not None:
        sit(lobby, entry.listed.code, "play")
        return
    if entry.summary is not None:
        unoduo(lobby).resume_match(str(entry.summary.id))
    lobby.refresh_tables()


def sit(lobby: LobbyScreen, code: str, want: Want) -> None:
    """Join (``want="play"``, with this player's token if they sat there before) or
    watch the table ``code``."""
    from ..net.client import connect

    store = unoduo(lobby).saved_store
    try:
        table = connect(store, code, want=want, name=lobby.place.name)
    except _problems() as exc:
        _say(lobby, exc, code)
        return
    _show(lobby, table)


def open_table(lobby: LobbyScreen) -> None:
    """The host form, then a table of one's own, listed in the lobby."""
    from ..dialogs.table_forms import HostForm

    def answered(answer: dict | None) -> None:
        if answer is not None:
            _host(lobby, answer)

    unoduo(lobby).push_screen(HostForm(), answered)


def _host(lobby: LobbyScreen, answer: dict) -> None:
    from ..dialogs.table_forms import start_hosted

    try:
        table = start_hosted(unoduo(lobby).saved_store, answer, lobby.place.name,
                             listing=str(lobby.place.folder), place="lobby")
    except _problems() as exc:
        _say(lobby, exc)
        return
    _show(lobby, table, table.banner)


def quick(lobby: LobbyScreen) -> None:
    """Quick match: at a waiting player's table at once, or at one's own, waiting."""
    from ..net.lobby import quick_match

    app = unoduo(lobby)
    try:
        seat = quick_match(app.saved_store, lobby.place.folder, lobby.place.name)
    except _problems() as exc:
        _say(lobby, exc)
        return
    if not seat.hosting:
        _show(lobby, seat.table)
        return

    def done(play: bool | None) -> None:
        if play:
            _show(lobby, seat.table)
        else:
            lobby.refresh_tables()

    app.push_screen(QuickWait(seat, lobby.place.folder), done)


class QuickWait(Modal[bool]):
    """"Waiting for another player… (Esc to cancel)": answers True when a second
    player sits down, False once cancelled (the table closed and unlisted)."""

    DEFAULT_CSS = """
    QuickWait { align: center middle; }
    QuickWait > Vertical { width: 50; height: auto; border: round $primary;
                           background: $surface; padding: 1 2; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="lobby.quick.cancel")]

    def __init__(self, seat: QuickSeat, folder: Path) -> None:
        super().__init__()
        self.seat, self.folder = seat, folder
        self._answered = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Quick match", classes="dialog-title")
            yield Static("Waiting for another player… (Esc to cancel)", id="quick-wait",
                         markup=False)

    def on_mount(self) -> None:
        self.set_interval(WAIT_POLL, self._look)

    def _look(self) -> None:
        presence = self.seat.table.presence
        if presence is not None and len(presence.connected) >= 2:
            self._answer(True)

    def _answer(self, play: bool) -> None:
        if not self._answered:
            self._answered = True
            self.dismiss(play)

    def action_cancel(self) -> None:
        from ..net.lobby import cancel_quick

        if self._answered:
            return
        try:
            closed = cancel_quick(unoduo(self).saved_store, self.folder, self.seat)
        except OSError as exc:
            self.notify(f"Could not close the table: {exc}"[:300], severity="error")
            return
        self._answer(not closed)


def rename(lobby: LobbyScreen) -> None:
    """Ask for a new name; kept in the player's ``identity.json`` for next time."""
    from dataclasses import replace

    from ..net.lobby import save_identity_name
    from ..text import player_name

    app = unoduo(lobby)

    def answered(typed: str | None) -> None:
        name = player_name(typed, "")
        if typed is None or not name:
            return
        try:
            save_identity_name(app.saved_store.data_dir, name)
        except OSError as exc:
            lobby.notify(f"Could not keep the name: {exc}"[:300], severity="error")
        app.lobby = replace(app.lobby_place, name=name)
        lobby.show_who()

    app.push_screen(RenameForm(lobby.place.name), answered)


class RenameForm(Modal[str | None]):
    """One line: the new name (Enter keeps it, Escape leaves it as it was)."""

    DEFAULT_CSS = """
    RenameForm { align: center middle; }
    RenameForm > Vertical { width: 50; height: auto; border: round $primary;
                            background: $surface; padding: 0 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="lobby.rename.cancel")]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.old = name

    def compose(self) -> ComposeResult:
        from ..text import MAX_NAME

        with Vertical():
            yield Static("Your name, as the tables show it", classes="dialog-title")
            yield Input(self.old, id="rename", max_length=MAX_NAME)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        self.dismiss(message.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


def search(lobby: "LobbyScreen") -> None:
    """Ask what to look for among the tables (a host's name, a game, a code); empty:
    every table."""
    def answered(typed: str | None) -> None:
        if typed is None:
            return
        lobby.search_for = " ".join(typed.split())[:100]
        lobby.refresh_tables(page=0)

    unoduo(lobby).push_screen(SearchForm(lobby.search_for), answered)


class SearchForm(RenameForm):
    """One line: what to look for (Enter searches, empty shows every table)."""

    TITLE = "Search the tables: a host's name, a game or a code"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.TITLE, classes="dialog-title")
            yield Input(self.old, id="search", max_length=100)
