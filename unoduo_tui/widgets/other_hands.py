"""The replay's top rows: the seats other than the one at the bottom.

"All hands" (an :class:`~engine.replay.OmniscientView`) at up to :data:`HANDS_SHOWN`
seats lists each other seat's cards on a line of its own; otherwise each other seat
shows only its card count (what any seat's :class:`PlayerView` tells), in the order
play goes from the bottom seat.
"""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..columns import short_name

__all__ = ["OtherHands", "HANDS_SHOWN", "others_in_order", "hand_lines", "count_lines"]

#: the most seats whose hands "all hands" lists at once (each on a line, 80×24 holds 4)
HANDS_SHOWN = 4


def others_in_order(view, bottom: int) -> list[int]:
    """The seats other than ``bottom``, in the order play goes from it."""
    seats = len(view.hand_sizes)
    step = -1 if getattr(view, "direction", 1) < 0 else 1
    return [(bottom + step * i) % seats for i in range(1, seats)]


def _cards(n: int) -> str:
    return f"{n} card{'s' * (n != 1)}"


def hand_lines(everything, names: Sequence[str], bottom: int, width: int) -> list[Text]:
    """A line per other seat: its name, its count and every card (cut to ``width``)."""
    lines = []
    for seat in others_in_order(everything, bottom):
        cards = everything.hands[seat]
        line = Text(" ")
        line.append(short_name(names[seat], 16), "bold")
        line.append(f" · {_cards(len(cards))}: ")
        line.append(" ".join(c.text for c in cards))
        if everything.to_act == seat:
            line.append("  ◀ to act", "italic")
        line.truncate(max(1, width), overflow="ellipsis")
        lines.append(line)
    return lines


def count_lines(view, names: Sequence[str], bottom: int, width: int) -> list[Text]:
    """The other seats' counts ("Bea 7 · Cal 1 UNO! ◀"), in as few lines as ``width``
    holds them, a seat never split across two."""
    arrow = "↺ " if getattr(view, "direction", 1) < 0 else "↻ "
    parts = []
    for seat in others_in_order(view, bottom):
        n = view.hand_sizes[seat]
        part = Text()
        part.append(short_name(names[seat], 12), "bold")
        part.append(f" {_cards(n)}")
        if n == 1 and view.phase != "draft":
            part.append(" UNO!", "bold reverse")
        if view.to_act == seat:
            part.append(" ◀", "italic")
        parts.append(part)
    lines = [Text(" " + arrow if len(view.hand_sizes) > 2 else " ")]
    for part in parts:
        line = lines[-1]
        sep = " · " if line.cell_len > 3 else ""
        if line.cell_len + len(sep) + part.cell_len > width and line.cell_len > 3:
            lines.append(Text("   "))
            line, sep = lines[-1], ""
        line.append(sep)
        line.append_text(part)
    return lines


class OtherHands(Widget):
    """The other seats, as :attr:`lines` (a list of :class:`Text`): set it with
    :meth:`show`; the widget is as tall as its lines."""

    DEFAULT_CSS = """
    OtherHands { height: auto; background: $boost; }
    """

    lines: reactive[tuple[Text, ...]] = reactive((), layout=True)

    def show(self, view, names: Sequence[str], bottom: int, everything=None) -> None:
        """``everything``: all hands (listed when :data:`HANDS_SHOWN` seats or fewer);
        else the counts ``view`` tells."""
        width = self.size.width or (self.app.size.width if self.is_attached else 80)
        if everything is not None and len(everything.hand_sizes) <= HANDS_SHOWN:
            self.lines = tuple(hand_lines(everything, names, bottom, width))
        else:
            self.lines = tuple(count_lines(everything if everything is not None else view,
                                           names, bottom, width))

    def get_content_height(self, container, viewport, width: int) -> int:
        return max(1, len(self.lines))

    def render(self) -> Text:
        return Text("\n").join(self.lines) if self.lines else Text("")
