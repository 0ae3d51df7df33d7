"""The score sheet: one row per round, running totals, the target and how close each
seat is to it.

How seats are named, everywhere: every list and sheet (this score sheet, the
match-over sheet, the menu, the saved-match lists, ``unoduo list``) shows each seat's
own name, cut only to the room there is; the table marks which seat is yours — "Your
hand", "You …" in the log and the status line, and here your column first, its name
underlined."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from engine import PlayerView

from ..columns import short_names
from .names import SeatNames

__all__ = ["ScoreSheet"]

_NAME_W = 8  # a name column in the 20 cells inside the sheet: "Player 1" whole


class ScoreSheet(SeatNames, Widget):
    """Renders ``view.rounds`` and ``view.scores`` (seat names: :class:`SeatNames`)."""

    BORDER_TITLE = "Scores"

    view: reactive[PlayerView | None] = reactive(None, always_update=True)

    def render(self) -> Group:
        view = self.view
        if view is None:
            return Group(Text(""))
        me, opp = view.seat, (view.seat + 1) % 2
        short = short_names(self.names[me], self.names[opp], _NAME_W)
        head = Text(f"{'Rd':>2} ", "bold")
        head.append(f"{short[0]:>{_NAME_W}}", "bold underline" if self.say_you else "bold")
        head.append(f" {short[1]:>{_NAME_W}}", "bold")
        rows = [head]
        rounds = view.rounds
        room = max(1, self.size.height - 6)
        hidden = max(0, len(rounds) - room)
        if hidden:
            rows.append(Text(f"   … {hidden} earlier", "dim"))
            room -= 1
        for i, (winner, points) in enumerate(rounds[hidden:], hidden + 1):
            mark = ("*" if winner == me else " ", "*" if winner == opp else " ")
            rows.append(Text(f"{i:>2} {points[me]:>{_NAME_W - 1}}{mark[0]} "
                             f"{points[opp]:>{_NAME_W - 1}}{mark[1]}"))
        if not rounds:
            rows.append(Text(" no rounds yet", "dim"))
        totals = view.scores
        rows.append(Text(f"{'Σ':>2} {totals[me]:>{_NAME_W - 1}}  {totals[opp]:>{_NAME_W - 1}}",
                         "bold"))
        target = view.rules.target
        rows.append(Text(f"* out · lose at {target}", "dim"))
        bar_w = max(4, self.size.width - 9)
        for s, label in ((me, short[0]), (opp, short[1])):
            filled = min(bar_w, round(bar_w * totals[s] / target))
            line = Text(f"{label:<{_NAME_W}} ")
            line.append("█" * filled, "bold")
            line.append("░" * (bar_w - filled), "dim")
            rows.append(line)
        return Group(*rows)
