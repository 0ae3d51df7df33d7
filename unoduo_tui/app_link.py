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

__all__ = ["unoduo"]


def unoduo(node: DOMNode) -> "UnoDuoApp":
    """The :class:`~unoduo_tui.app.UnoDuoApp` that ``node`` belongs to."""
    return cast("UnoDuoApp", node.app)
