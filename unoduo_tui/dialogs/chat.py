"""The one-line chat at a shared table (#15): ``/`` opens a line at the bottom, Enter
sends it (≤ :data:`CHAT_CHARS` characters), Escape closes it without sending.  Lines
from the others arrive in the table's updates, shown as toasts by the game screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input

from ..textual_compat import Modal
from ..table import Refused
from ..net.authority import CHAT_CHARS

if TYPE_CHECKING:
    from ..net.remote import RemoteTable

__all__ = ["ChatLine", "chat_binding"]


def chat_binding() -> Binding:
    return Binding("slash", "chat", "Chat", id="net.chat")


class ChatLine(Modal[None]):
    """A line to type a chat message in; sent to ``table`` on Enter."""

    DEFAULT_CSS = """
    ChatLine { align: center bottom; background: $background 0%; }
    ChatLine > Input { width: 100%; margin: 0 0 1 0; }
    """
    BINDINGS = [Binding("escape", "close", "Close", id="net.chat.close")]

    def __init__(self, table: RemoteTable) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        yield Input(placeholder="say something (Enter sends, Escape closes)",
                    max_length=CHAT_CHARS, id="chat-line")

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        text = message.value.strip()
        if text:
            try:
                self.table.chat(text)
            except Refused as exc:
                self.notify(exc.reason, severity="warning")
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
