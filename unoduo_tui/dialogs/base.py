"""The base of every dialog, and the keys they share.

None binds a game decision to bare Escape (escape sequences split on slow links);
Escape only ever cancels something that changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence, TypeVar

from textual.binding import Binding

from engine import Card

from ..textual_compat import AnswerOnce, Modal
from ..widgets.footer import Footer
from ..app_link import HOME_NAMES, unoduo

__all__ = ["Dialog", "OwnKeys", "CanLeave", "GoesHome", "LEAVE", "home_bindings",
           "DIALOG_ROOM", "SHEET_ROOM", "hand_text"]


T = TypeVar("T")

if TYPE_CHECKING:  # what the mixins below are mixed into
    _Screen = Modal[Any]
else:
    _Screen = object


class OwnKeys(_Screen):
    """A dialog with a footer of its own: its keys, not the keys of the screen it covers
    (a mixin for a ``ModalScreen``; Textual runs every class's ``on_mount``)."""

    def on_mount(self) -> None:
        if self.is_attached:  # not when the app is exiting (a player hung up as it opened)
            self.mount(Footer())


class Dialog(AnswerOnce, OwnKeys, Modal[T]):
    """The base of every dialog: it answers once (:class:`AnswerOnce`) — a second key
    or click in the same tick, after the answer, does nothing — and shows its own keys
    (:class:`OwnKeys`)."""


LEAVE = Binding("q", "leave", "Quit", id="dialog.quit")
DIALOG_ROOM = 64 - 2 - 4  # a dialog's width, less its border and padding
SHEET_ROOM = DIALOG_ROOM - 6  # … and "Round "


def home_bindings(group: str) -> list[Binding]:
    """``m``: back to the screen under every table, by the name the app gives it — one
    binding per name, the other hidden by :meth:`GoesHome.check_action`."""
    return [Binding("m", f"home({name!r})", name, id=f"{group}.{name.lower()}")
            for name in HOME_NAMES]


class GoesHome(_Screen):
    """A dialog whose ``m`` answers "menu" (the app goes to the menu or the lobby)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "home":
            return parameters[0] == unoduo(self).home_name
        return True

    def action_home(self, name: str) -> None:
        self.dismiss("menu")


class CanLeave(_Screen):
    """q in a dialog that waits for a game decision: leave the table (it asks first)."""

    def action_leave(self) -> None:
        unoduo(self).ask_to_leave()


def hand_text(cards: Sequence[Card]) -> str:
    return " ".join(c.text for c in cards) if cards else "—"
