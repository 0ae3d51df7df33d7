"""The opponent strip: name, card count as card backs, UNO! at one card, thinking."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from engine import PlayerView

from ..columns import short_name
from .cards import CardCanvas

__all__ = ["Opponent"]

_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
_MARKS = 56  # the cells the rest of the strip may need: kind, count, UNO!, catch!, thinking


class Opponent(CardCanvas):
    """Shows seat ``seat`` as ``view`` (the viewer's view) sees it."""

    view: reactive[PlayerView | None] = reactive(None, always_update=True)
    thinking: reactive[bool] = reactive(False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.name_text = "Opponent"
        self.kind_text = ""
        self._tick = 0

    def on_mount(self) -> None:
        self.set_interval(0.12, self._spin, pause=False)

    def _spin(self) -> None:
        if self.thinking:
            self._tick += 1
            self.refresh()

    def render(self) -> Text:
        view = self.view
        text = Text(" ")
        # a long name gives way to the marks after it (UNO!, catch!, ◀ to play)
        text.append(short_name(self.name_text, max(10, self.size.width - _MARKS)), "bold")
        if self.kind_text and self.kind_text != self.name_text:
            text.append(f" ({self.kind_text})", "dim")
        if view is None:
            return text
        seat = (view.seat + 1) % len(view.hand_sizes)
        count = view.hand_sizes[seat]
        text.append(f" · {count} card{'s' * (count != 1)}  ")
        back = self.card_style(None)
        shown = min(count, max(0, self.size.width - text.cell_len - 22) // 2)
        text.append("▐▌" * shown, back)
        if shown < count:
            text.append(f"+{count - shown}", "dim")
        if count == 1 and view.phase != "draft":
            text.append("  ")
            text.append(" UNO! ", "bold reverse")
        if view.exposed == seat and view.to_act == view.seat:
            text.append(" catch! (x)", "bold")
        if self.thinking:
            text.append(f"  {_SPINNER[self._tick % len(_SPINNER)]} thinking…", "italic")
        elif view.to_act == seat:
            text.append("  ◀ to play", "italic")
        return text
