"""Textual's footer, made cheap to refresh: the table refreshes its bindings after every
move, and the stock footer rebuilds all its keys each time."""

from __future__ import annotations

from collections.abc import Hashable

from textual.widgets import Footer as TextualFooter

from ..textual_compat import footer_bindings_ready, is_pruning

__all__ = ["Footer"]


class Footer(TextualFooter):
    """A :class:`textual.widgets.Footer` that

    - recomposes only when what it shows changed (which keys, their labels, enabled or
      not) — not on every ``refresh_bindings()``, which the table calls after each move;
    - lets go of the keys a recompose replaced.  Each ``FooterKey`` data-binds
      ``Footer.compact``, and Textual keeps that watcher (and through it the removed key
      with its render caches) on the footer until ``compact`` changes, which it never
      does (Textual issue #6666): ~0.4 MB a turn at the table.
    """

    _shown: Hashable = None  # what the keys show now (None: not composed yet)

    def _showing(self) -> Hashable:
        """What :meth:`Footer.compose` would show now, as a value: the bindings it reads
        (frozen dataclasses) with their enabled flags and tooltips."""
        if not footer_bindings_ready(self):
            return None
        active = self.screen.active_bindings
        keys = tuple((binding, enabled, tooltip)
                     for (_, binding, enabled, tooltip) in active.values() if binding.show)
        palette = None
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        return keys, None if palette is None else palette[1:]

    async def recompose(self) -> None:
        if not self.is_attached or is_pruning(self):
            return  # its screen is going away
        showing = self._showing()
        if showing is not None and showing == self._shown:
            return
        self._shown = showing
        await super().recompose()
        # Re-setting compact runs Textual's own pruning of the watchers whose widget is
        # closing: the keys just removed (a workaround for Textual #6666).
        self.mutate_reactive(TextualFooter.compact)
