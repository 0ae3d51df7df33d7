"""The footer: the keys valid now, drawn as one line by one widget.

Textual's stock footer is a container of one ``FooterKey`` widget per key, recomposed
after a screen refresh whenever the bindings change: at the table that was a second
screen update after every move, each with a relayout of the whole screen (#22: the
footer's keys were most of the relayouts of a key at 80×24, and a server holds many
tables in one process).  This one is a single widget of one line: when its screen's
bindings change it repaints in the same screen update as the widgets that changed
them, and never asks for a relayout.  It looks as the stock footer does (the same
theme variables, compact or not, disabled keys dimmed, the command palette's key on
the right); a click on a key presses it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

__all__ = ["Footer", "KeySpec"]


@dataclass(frozen=True)
class KeySpec:
    """One key the footer shows."""

    key: str
    key_display: str
    description: str
    action: str
    disabled: bool
    tooltip: str
    palette: bool = False  # the command palette's key (on the right)


#: the command palette key's left edge (the stock footer's ``border-left: vkey``)
_PALETTE_EDGE = "▏"


class Footer(Widget, can_focus=False):
    """The keys of the screen it is on (see the module doc)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer--key", "footer--description", "footer--item",
                         "footer--palette-edge"}
    DEFAULT_CSS = """
    Footer {
        color: $footer-foreground;
        background: $footer-background;
        dock: bottom;
        height: 1;
        .footer--item { background: $footer-item-background; }
        .footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer--palette-edge { color: $foreground 20%; }
    }
    """

    compact: reactive[bool] = reactive(False, toggle_class="-compact")
    """Less room around each key."""
    show_command_palette: reactive[bool] = reactive(True)
    """Show the command palette's key on the right."""

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None, show_command_palette: bool = True,
                 compact: bool = False) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.set_reactive(Footer.show_command_palette, show_command_palette)
        self.set_reactive(Footer.compact, compact)
        self.set_class(compact, "-compact", update=False)
        self._shown: tuple[KeySpec, ...] = ()  # what the line shows
        self._spans: list[tuple[int, int, KeySpec]] = []  # each key's cells, for clicks
        self._told = False  # the screen has told its bindings at least once

    @property
    def shown(self) -> tuple[KeySpec, ...]:
        """The keys the footer shows now."""
        return self._shown

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.call_after_refresh(self._bindings_changed, self.screen)  # told before mount

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: object) -> None:
        """The screen's bindings may have changed: the keys are read again now, and the
        line repainted (in the screen update under way) only if they differ."""
        self._told = True
        if not self.is_attached or screen is not self.screen:
            return
        keys = self.keys_now()
        if keys != self._shown:
            self._shown = keys
            self.refresh()

    def keys_now(self) -> tuple[KeySpec, ...]:
        """The keys to show now, from the screen's active bindings: one per action (the
        first binding of it), shown ones only; the command palette's last."""
        active = self.screen.active_bindings
        by_action: dict[str, KeySpec] = {}
        get_display = self.app.get_key_display
        for _, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in by_action:
                by_action[binding.action] = KeySpec(
                    binding.key, get_display(binding), binding.description, binding.action,
                    not enabled, tooltip)
        keys = list(by_action.values())
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            found = active.get(self.app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _, b, enabled, _ = found
                keys = [k for k in keys if k.action != b.action]
                keys.append(KeySpec(b.key, get_display(b), b.description, b.action,
                                    not enabled, b.tooltip or b.description, palette=True))
        return tuple(keys)

    def watch_compact(self) -> None:
        self.refresh()

    def watch_show_command_palette(self) -> None:
        if self._told and self.is_attached:
            self._shown = self.keys_now()
        self.refresh()

    # -- drawing -----------------------------------------------------------------------

    def _item(self, spec: KeySpec, compact: bool) -> Text:
        """One key as the stock footer's ``FooterKey`` draws it."""
        item = self.get_component_rich_style("footer--item")
        if spec.disabled:
            item += Style(dim=True)
        key_style = item + self.get_component_rich_style("footer--key")
        description_style = item + self.get_component_rich_style("footer--description")
        if compact:
            key, description = spec.key_display, f" {spec.description}"
        else:
            key, description = f" {spec.key_display} ", f"{spec.description} "
        if not spec.description:
            return Text(key, key_style)
        return Text.assemble((key, key_style), (description, description_style))

    def render(self) -> Text:
        line = Text(no_wrap=True, overflow="crop", end="")
        spans: list[tuple[int, int, KeySpec]] = []
        palette: KeySpec | None = None
        for spec in self._shown:
            if spec.palette:
                palette = spec
                continue
            start = line.cell_len
            line.append_text(self._item(spec, self.compact))
            spans.append((start, line.cell_len, spec))
            if self.compact:
                line.append(" ")  # the stock compact footer's margin-right: 1
        if palette is not None:
            right = Text.assemble((_PALETTE_EDGE,
                                   self.get_component_rich_style("footer--palette-edge")),
                                  self._item(palette, compact=True))
            right.append(" ")  # the stock key's padding-right: 1, or margin-right: 1 compact
            width = self.size.width
            start = max(line.cell_len, width - right.cell_len)
            line.pad_right(start - line.cell_len)
            spans.append((start + 1, start + right.cell_len, palette))
            line.append_text(right)
        self._spans = spans
        return line

    # -- the mouse ---------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        for start, end, spec in self._spans:
            if start <= event.x < end:
                event.stop()
                if spec.disabled:
                    self.app.bell()
                else:
                    self.app.simulate_key(spec.key)
                return
