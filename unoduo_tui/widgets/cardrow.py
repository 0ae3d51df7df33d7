"""A row of small card faces with one selected: the dump dialog's "which goes last"."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual import events
from textual.reactive import reactive

from engine import Card

from .cards import CardCanvas, small_card, small_card_raised

__all__ = ["CardRow"]


class CardRow(CardCanvas):
    """``cards`` in a row; ``selected`` (or ``None``) raised in a heavy frame."""

    selected: reactive[int | None] = reactive(None)

    def __init__(self, cards: list[Card], selected: int | None = None, *,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards = list(cards)
        self.set_reactive(CardRow.selected, selected)

    def render(self) -> Group:
        rows = [Text() for _ in range(5)]
        for i, card in enumerate(self.cards):
            raised = i == self.selected
            face = (small_card_raised if raised else small_card)(card, self.card_style(card))
            top = 0 if raised else 1
            for r in range(4):
                rows[r].append_text(face[r - top] if top <= r < top + 3 else Text(" " * 5))
                rows[r].append(" ")
            rows[4].append(str(i + 1).center(6) if i < 9 else " " * 6,
                           "bold" if raised else "dim")
        return Group(*rows)

    def on_click(self, event: events.Click) -> None:
        index = event.x // 6
        if 0 <= index < len(self.cards):
            self.selected = index
