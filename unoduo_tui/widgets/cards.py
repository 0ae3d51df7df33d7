"""Card faces drawn as text: every face shows its colour letter and symbol, so a card
reads the same without colour (NO_COLOR, 16-colour terminals, colour-blind players).

Colours come from component classes (``card--R`` …) styled in ``app.tcss`` from
theme variables, so themes and ``ansi-dark`` recolour every card.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from engine import Card
from engine.cards import COLOUR_NAMES

__all__ = ["CardCanvas", "SMALL_W", "small_card", "big_card", "big_back", "symbol_name",
           "sorted_hand"]

SMALL_W = 5  # ╭───╮ : three characters inside
BIG_W, BIG_H = 9, 7

_SYMBOL_NAMES = {"S": "SKIP", "R": "REVERSE", "+2": "DRAW 2", "W": "WILD", "W+4": "WILD +4"}


def symbol_name(card: Card) -> str:
    return _SYMBOL_NAMES.get(card.rank, card.rank)


def sorted_hand(hand) -> list[Card]:
    """A hand grouped by colour (R Y G B, wilds last) and sorted by rank."""
    return sorted(hand, key=Card.sort_key)


class CardCanvas(Widget):
    """Base for widgets that draw cards: the card colours as component classes."""

    COMPONENT_CLASSES = {"card--R", "card--Y", "card--G", "card--B", "card--W", "card--back",
                         "card--muted"}

    def card_style(self, card: Card | None, *, dim: bool = False, colour: str | None = None
                   ) -> Style:
        """The fill style of ``card`` (``colour``: a Wild's chosen colour for its border)."""
        key = "back" if card is None else (card.colour or "W")
        style = self.get_component_rich_style(f"card--{key}")
        if dim:
            muted = self.get_component_rich_style("card--muted")
            return Style(color=style.bgcolor, bgcolor=muted.bgcolor, dim=True)
        return style


def small_card(card: Card, style: Style) -> list[Text]:
    """Three rows, 5 cells wide: ``╭───╮ │R+2│ ╰───╯``."""
    return [Text("╭───╮", style), Text(f"│{card.text:^3}│", style), Text("╰───╯", style)]


def small_card_raised(card: Card, style: Style) -> list[Text]:
    """The selected card: a heavy frame, so selection reads without colour."""
    return [Text("┏━━━┓", style), Text(f"┃{card.text:^3}┃", style), Text("┗━━━┛", style)]


def big_card(card: Card, style: Style, colour: str | None = None) -> list[Text]:
    """Seven rows, 9 cells wide; a Wild on the discard pile shows its chosen colour."""
    inner = BIG_W - 2
    name = symbol_name(card)
    mid = card.rank if card.is_number else ("+2" if card.rank == "+2" else card.text)
    named = ""
    if card.is_wild and colour:
        named = "→" + COLOUR_NAMES[colour].upper()[:6]
    rows = [
        "╭" + "─" * inner + "╮",
        "│" + card.text.ljust(inner) + "│",
        "│" + mid.center(inner) + "│",
        "│" + ("" if card.is_number else name[:inner]).center(inner) + "│",
        "│" + named.center(inner) + "│",
        "│" + card.text.rjust(inner) + "│",
        "╰" + "─" * inner + "╯",
    ]
    return [Text(r, style) for r in rows]


def big_back(style: Style, label: str = "UNO") -> list[Text]:
    inner = BIG_W - 2
    rows = ["╭" + "─" * inner + "╮"]
    rows += ["│" + "░" * inner + "│"] * 2
    rows += ["│" + label.center(inner, "░") + "│"]
    rows += ["│" + "░" * inner + "│"] * 2
    rows += ["╰" + "─" * inner + "╯"]
    return [Text(r, style) for r in rows]
