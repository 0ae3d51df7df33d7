"""The menu's way to a shared table (#15): "Host a table", "Join a table", "Watch a
table".  Each is a small dialog whose answer goes down the command line's own path
(:func:`.commands.host_plan`, :func:`.commands.start_authority`,
:func:`.commands.connect`) and opens the game screen at the :class:`RemoteTable`; a
problem is one toast and the menu stays.

- Host: the preset, the seats, the other seats (``human`` or a bot level, comma
  separated, as ``unoduo host --vs``) and your name.  The host's screen shows the join
  code in a line at its top, to read out.
- Join: the code and your name.  Watch: the code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static

from engine.rules import PRESETS

from ..textual_compat import Modal
from ..net.authority import AWAY_SECONDS
from ..plan import HUMAN, bot_levels, preset_label
from ..text import MAX_NAME

if TYPE_CHECKING:
    from ..app import UnoDuoApp
    from ..net.remote import RemoteTable
    from ..store import Saves

__all__ = ["HostForm", "JoinForm", "open_from_menu", "start_hosted"]


class _Form(Modal[dict | None]):
    """A dialog of labelled inputs; Enter on the last (or the OK button) answers."""

    DEFAULT_CSS = """
    _Form > Vertical { width: 60; height: auto; border: round $primary;
                       background: $surface; padding: 0 1; }
    _Form Input, _Form Select { width: 100%; }
    _Form .buttons { height: auto; align-horizontal: right; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="net.form.cancel")]
    TITLE_TEXT = ""
    OK = "OK"

    def fields(self) -> ComposeResult:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.TITLE_TEXT, classes="dialog-title")
            yield from self.fields()
            with Horizontal(classes="buttons"):
                yield Button(self.OK, id="ok", compact=True, variant="primary")
                yield Button("Cancel", id="cancel", compact=True)

    def answer(self) -> dict:
        return {i.id: i.value for i in self.query(Input) if i.id}

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        self.submitted(message.input)

    def submitted(self, field: Input) -> None:
        """Enter in ``field``: answer (a form may move on to its next field first)."""
        self.dismiss(self.answer())

    def on_button_pressed(self, message: Button.Pressed) -> None:
        message.stop()
        self.dismiss(self.answer() if message.button.id == "ok" else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class HostForm(_Form):
    TITLE_TEXT = "Host a table: others join it by its code"
    OK = "Host"

    def fields(self) -> ComposeResult:
        yield Label("Game")
        yield Select([(preset_label(p), p) for p in PRESETS], value="duo", allow_blank=False,
                     id="preset")
        yield Label("Seats (UNO Duo: 2; classic: 2–10)")
        yield Input("2", id="seats", type="integer", max_length=2)
        yield Label(f"The other seats in order: {HUMAN} or {', '.join(bot_levels())}")
        yield Input(HUMAN, id="vs")
        yield Label("Minutes a player may be away before a bot may play for them")
        yield Input(f"{AWAY_SECONDS / 60:g}", id="away", type="number", max_length=6)
        yield Label("Your name")
        yield Input(id="name", max_length=MAX_NAME)

    def answer(self) -> dict:
        return {**super().answer(), "preset": self.query_one("#preset", Select).value}


def start_hosted(store: Saves, answer: dict, name: str = "", listing: str | None = None,
                 place: str = "terminal") -> RemoteTable:
    """The table a :class:`HostForm` answer asks for, started (``listing``: listed in
    that lobby), with the host's screen's table at it (its banner the code).  Raises
    what :func:`~unoduo_tui.net.client.host_plan` (``ValueError``),
    :func:`~unoduo_tui.net.client.start_authority` and
    :func:`~unoduo_tui.net.client.sit_host` raise; ``ValueError`` for an away time
    that is not one."""
    from ..net import client
    from ..net.client import plan_to_json

    seats = str(answer.get("seats") or "")
    plan = client.host_plan(str(answer.get("preset") or "duo"),
                              int(seats) if seats.isdigit() else None,
                              answer.get("vs") or None, answer.get("name") or name or None)
    try:
        away = float(answer.get("away") or AWAY_SECONDS / 60)
    except ValueError:
        away = -1.0
    if not 0 <= away <= 7 * 24 * 60:
        raise ValueError("the away time is a number of minutes from 0 to a week")
    info = client.start_authority(store.data_dir, "--plan", plan_to_json(plan),
                                    listing=listing, away=away, key=store.key)
    table = client.sit_host(store, info, plan.names[0])
    table.banner = client.host_banner(info["code"], place)
    return table


class JoinForm(_Form):
    """``want="play"``: the code and a name; ``"watch"``: the code."""

    def __init__(self, want: str = "play") -> None:
        super().__init__()
        self.want = want
        self.TITLE_TEXT = "Join a table" if want == "play" else "Watch a table"
        self.OK = "Join" if want == "play" else "Watch"

    def fields(self) -> ComposeResult:
        yield Label("The join code (like tide-wolf-1742)")
        yield Input(id="code", max_length=64)
        if self.want == "play":
            yield Label("Your name")
            yield Input(id="name", max_length=MAX_NAME)

    def submitted(self, field: Input) -> None:
        if field.id == "code" and self.want == "play":
            self.query_one("#name", Input).focus()  # on to the name
        else:
            super().submitted(field)


def open_from_menu(app: UnoDuoApp, what: str) -> None:
    """Ask (``what``: ``host``, ``join`` or ``watch``), then open the table."""
    form = HostForm() if what == "host" else JoinForm("play" if what == "join" else "watch")
    app.push_screen(form, lambda answer: None if answer is None else
                    _open(app, what, answer))


def _open(app: UnoDuoApp, what: str, answer: dict) -> None:
    from ..net import client
    from ..net.codes import parse_code
    from ..table import Refused

    store = app.saved_store
    try:
        if what == "host":
            table = start_hosted(store, answer, place=app.place)
        else:
            code = parse_code(answer.get("code") or "")
            table = client.connect(store, code, want="play" if what == "join" else "watch",
                                     name=answer.get("name") or "")
    except Refused as exc:
        app.notify(f"The table refused: {exc.reason}", severity="error")
        return
    except (RuntimeError, ConnectionError, OSError, ValueError) as exc:
        app.notify(str(exc)[:300], severity="error")
        return
    app.open_game(table)
