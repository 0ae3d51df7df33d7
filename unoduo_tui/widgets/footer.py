"""Textual's footer, made cheap to refresh: the table refreshes its bindings after every
move, and the stock footer removes and mounts all its keys each time (#22: ~10 % of a
key's CPU at the table)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

from ..textual_compat import footer_bindings_ready, is_pruning, set_footer_key_disabled

__all__ = ["Footer", "KeySpec"]


@dataclass(frozen=True)
class KeySpec:
    """One key the footer shows, as the stock ``Footer.compose`` would make it."""

    key: str
    key_display: str
    description: str
    action: str
    disabled: bool
    tooltip: str
    palette: bool = False  # the command palette's key (docked right)


class Footer(TextualFooter):
    """A :class:`textual.widgets.Footer` whose keys are mounted once and updated in place:

    - when the bindings change, each key already mounted takes the next key to show
      (its key, label, action, enabled or not, tooltip), the ones left over are hidden,
      and only keys beyond those ever shown are mounted — nothing is removed, so no
      CSS is matched again and no widget is made, for a key that only changed;
    - nothing at all happens on a ``refresh_bindings()`` that changes nothing shown
      (the table calls it after each move);
    - the keys get ``compact`` from the footer by its watcher rather than by Textual's
      data binding, whose watchers kept every removed key alive (Textual issue #6666).

    Bindings in a group of several (``Binding.group``: none in this app) are shown by
    Textual's own compose, recomposed when they change.
    """

    _shown: tuple[KeySpec, ...] | None = None  # what the keys show now (None: unknown)

    def keys_now(self) -> tuple[KeySpec, ...] | None:
        """The keys the stock compose would show now (``None``: a group of several
        bindings, which only it lays out) — from the screen's active bindings."""
        active = self.screen.active_bindings
        by_action: dict[str, tuple] = {}
        groups: dict[object, int] = {}
        for _, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in by_action:
                by_action[binding.action] = (binding, enabled, tooltip)
                if binding.group is not None:
                    groups[binding.group] = groups.get(binding.group, 0) + 1
        if any(n > 1 for n in groups.values()):
            return None
        get_display = self.app.get_key_display
        keys = [KeySpec(b.key, get_display(b), b.description, b.action, not enabled,
                        tooltip) for b, enabled, tooltip in by_action.values()]
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            found = active.get(self.app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _, b, enabled, _ = found
                keys.append(KeySpec(b.key, get_display(b), b.description, b.action,
                                    not enabled, b.tooltip or b.description, palette=True))
        return tuple(keys)

    def compose(self):
        if not footer_bindings_ready(self):
            return
        keys = self.keys_now()
        if keys is None:
            yield from super().compose()
            return
        self._shown = keys
        self.styles.grid_size_columns = sum(not k.palette for k in keys)
        for spec in keys:
            yield self._make(spec)

    def _make(self, spec: KeySpec) -> FooterKey:
        key = FooterKey(spec.key, spec.key_display, spec.description, spec.action,
                        disabled=spec.disabled, tooltip=spec.tooltip,
                        classes="-command-palette" if spec.palette else "")
        if not spec.palette:  # as the stock footer binds them
            key.set_reactive(FooterKey.compact, self.compact)
            key.set_class(self.compact, "-compact", update=False)
        return key

    def watch_compact(self, compact: bool) -> None:
        for key in self.query_children(FooterKey):
            if not key.has_class("-command-palette"):
                key.compact = compact

    async def recompose(self) -> None:
        if not self.is_attached or is_pruning(self) or not footer_bindings_ready(self):
            return  # its screen is going away, or nothing to show yet
        keys = self.keys_now()
        if keys is not None and keys == self._shown:
            return
        if keys is None or self._shown is None:
            self._shown = None
            await super().recompose()  # composes and notes what it shows
            # Re-setting compact runs Textual's own pruning of the watchers whose widget
            # is closing: a grouped compose's data-bound keys (Textual #6666).
            self.mutate_reactive(TextualFooter.compact)
            return
        self._shown = keys
        self.styles.grid_size_columns = sum(not k.palette for k in keys)
        mounted = list(self.query_children(FooterKey))
        new: list[FooterKey] = []
        for palette in (False, True):
            have = [k for k in mounted if k.has_class("-command-palette") == palette]
            want = [k for k in keys if k.palette == palette]
            for key, spec in zip(have, want):
                _update(key, spec)
            for key in have[len(want):]:
                key.display = False
            new += [self._make(spec) for spec in want[len(have):]]
        if new:
            palette_key = next((k for k in mounted if k.has_class("-command-palette")), None)
            await self.mount_all(new, before=palette_key)


def _update(key: FooterKey, spec: KeySpec) -> None:
    """``key`` shows ``spec`` (a relayout only when its text changed)."""
    text = (spec.key, spec.key_display, spec.description, spec.action)
    if (key.key, key.key_display, key.description, key.action) != text:
        key.key, key.key_display, key.description, key.action = text
        key.refresh(layout=True)
    set_footer_key_disabled(key, spec.disabled)
    key.tooltip = spec.tooltip or None
    key.display = True
