"""The replay's "all hands" rows: every seat but the one at the bottom, each with
its cards on a line of its own, in the order play goes from the bottom seat.

Up to :data:`HANDS_SHOWN` seats they fit at 80×24; past that the replay shows the
others' counts instead (:class:`~unoduo_tui.widgets.seats.Seats`).
"""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..text.columns import short_name

__all__ = ["OtherHands", "HANDS_SHOWN", "hand_lines"]

#: the most seats whose hands "all hands" lists at once (80×24 holds 4)
HANDS_SHOWN = 4


def hand_lines(everything, names: Sequence[str], bottom: int, width: int) -> list[Text]:
    """A line per seat but ``bottom``, in play order from it: the seat's name, its
    count and every card (cut to ``width``), "◀ to act" on the seat to act."""
    n = len(everything.hand_sizes)
    lines = []
    for i in range(1, n):
        seat = (bottom + i * everything.direction) % n
        cards = everything.hands[seat]
        line = Text(" ")
        line.append(short_name(names[seat], 16), "bold")
        line.append(f" · {len(cards)} card{'s' * (len(cards) != 1)}: ")
        line.append(" ".join(c.text for c in cards))
        if everything.to_act == seat:
            line.append("  ◀ to act", "italic")
        line.truncate(max(1, width), overflow="ellipsis")
        lines.append(line)
    return lines


class OtherHands(Widget):
    """The other seats' hands (an :class:`~engine.replay.OmniscientView`'s): as tall
    as it has seats to list."""

    DEFAULT_CSS = """
    OtherHands { height: auto; background: $boost; }
    """

    lines: reactive[tuple[Text, ...]] = reactive((), layout=True)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple | None = None  # what show() was given: laid out again on resize

    def show(self, everything, names: Sequence[str], bottom: int) -> None:
        self._shown = (everything, tuple(names), bottom)
        width = self.size.width or self.app.size.width
        self.lines = tuple(hand_lines(everything, names, bottom, width))

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)

    def get_content_height(self, container, viewport, width: int) -> int:
        return max(1, len(self.lines))

    def render(self) -> Text:
        return Text("\n").join(self.lines)
