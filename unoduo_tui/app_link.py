"""How a screen, dialog or widget reaches the app: typed, in one place.

``unoduo(self).resume_match(ref)`` instead of ``self.app.resume_match`` (untyped: a
Textual ``App`` has no such method) or ``getattr(self.app, …)`` (which hides a
misspelt name until run time).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.dom import DOMNode

if TYPE_CHECKING:
    from .app import UnoDuoApp

__all__ = ["HOME_NAMES", "unoduo"]

#: what the screen under every table is called: the menu, or ``unoduo lobby``'s lobby
#: (here, not with the dialogs that name it: the app needs it before any dialog, #22)
HOME_NAMES = ("Menu", "Lobby")


def unoduo(node: DOMNode) -> "UnoDuoApp":
    """The :class:`~unoduo_tui.app.UnoDuoApp` that ``node`` belongs to."""
    return cast("UnoDuoApp", node.app)
