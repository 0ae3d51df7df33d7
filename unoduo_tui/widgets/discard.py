"""The middle of the table: the draw pile, the top card drawn large with the active
colour named, and what a seat owes ("+6 to you (volley)", "+2 to Bea (Draw 2)").
During the draft the card you drew is shown large in place of the draw pile."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.reactive import reactive

from engine import PlayerView
from engine.cards import COLOUR_NAMES

from .cards import BIG_W, CardCanvas, big_back, big_card
from .names import SeatNames
from .status import owed_kind
from .viewslice import ShowsView

__all__ = ["Discard"]


class Discard(ShowsView, SeatNames, CardCanvas):
    """Renders the piles of ``view`` (seat names: :class:`SeatNames`)."""

    view: reactive[PlayerView | None] = reactive(None, always_update=True)

    def view_slice(self, view: PlayerView) -> tuple:
        """The piles, the colour, the draft's step and what is owed, by whom."""
        drafting = view.phase == "draft"
        mine = drafting and view.to_act == view.seat
        return (view.seat, view.phase, mine and view.hand[-1:], view.draw_size, view.top,
                view.color, drafting and sum(view.hand_sizes), view.pending_draw,
                view.to_act if view.pending_draw else None,
                owed_kind(view) if view.pending_draw else None)

    def render(self) -> Group:
        view = self.view
        if view is None:
            return Group(Text(""))
        drafting_mine = view.phase == "draft" and view.to_act == view.seat and view.hand
        if drafting_mine:
            drawn = view.hand[-1]
            left = big_card(drawn, self.card_style(drawn))
            left_label = "you drew" if self.say_you else "drawn"
        else:
            left = big_back(self.card_style(None))
            left_label = f"{view.draw_size} left"
        top = view.top
        if top is not None:
            right = big_card(top, self.card_style(top), view.color)
            right_label = "discard" if view.phase != "draft" else "turned up"  # S3
        else:
            right = [Text(" " * BIG_W)] * 7
            right_label = ""
        rows = []
        for a, b in zip(left, right):
            rows.append(Text(" ") + a + Text(" ") + b)
        rows.append(Text(" " + left_label.center(BIG_W) + " " + right_label.center(BIG_W),
                         "dim"))
        line = Text(" ")
        if view.phase == "draft":
            step = min(14, sum(view.hand_sizes))
            line.append(f"Draft: {step} of 14")  # fits the 21-column pile at 10 and more
        elif view.color:
            line.append("Colour: ")
            colour_style = self.get_component_rich_style(f"card--{view.color}")
            line.append(f" {COLOUR_NAMES[view.color].upper()} ", colour_style)
        elif view.phase == "colour":
            line.append("Colour: not named yet")
        rows.append(line)
        pending = view.pending_draw
        if pending and view.to_act is not None:
            who = ("you" if view.to_act == view.seat and self.say_you
                   else self.names[view.to_act])
            rows.append(Text(f" +{pending} to {who} ({owed_kind(view)})", "bold"))
        return Group(*rows)
