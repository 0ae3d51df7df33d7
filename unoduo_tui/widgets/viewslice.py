"""Widgets that redraw only when what they show of a view changed (#22).

The table sends a whole new :class:`~engine.PlayerView` with every update, a bot's
"thinking" included, and each widget's ``view`` redraws whenever it is set — the
score sheet and the seats with a relayout of the whole screen.  A widget with this
mixin says which slice of a view it shows (:meth:`ShowsView.view_slice`, a value
compared with ``==``); :meth:`ShowsView.take_view` sets ``view`` only when that slice
differs from the one shown, or when something else set ``view`` since.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Hashable

from engine import PlayerView

__all__ = ["ShowsView"]

_NOTHING = object()


class ShowsView:
    """Mix into a widget with a ``view`` reactive (see the module doc)."""

    if TYPE_CHECKING:  # the widget's own reactive, declared where it mixes this in
        view: PlayerView | None

    _taken: tuple[Any, Any] = (None, _NOTHING)  # (the view set here, its slice)

    def view_slice(self, view: PlayerView) -> Hashable:
        """What this widget shows of ``view``: two views with equal slices draw alike."""
        raise NotImplementedError

    def take_view(self, view: PlayerView | None) -> bool:
        """Show ``view`` if it shows differently; True when ``view`` was set."""
        part = None if view is None else self.view_slice(view)
        last, shown = self._taken
        if last is not None and last is self.view and shown == part:
            return False
        self._taken = (view, part)
        self.view = view
        return True
