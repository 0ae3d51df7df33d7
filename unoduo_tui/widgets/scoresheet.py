"""The score sheet: the rounds and running totals of every seat, the target and who
wins under the match's scoring — "first to 500 wins" (classic) reads differently
from "lose at 200" (UNO Duo), and the line under it names the leader or the winner.

How seats are named, everywhere: every list and sheet (this score sheet, the
match-over sheet, the menu, the saved-match lists, ``unoduo list``) shows each seat's
own name, cut only to the room there is; the table marks which seat is yours — "Your
hand", "You …" in the log and the status line, and here your row or column first,
its name underlined.

Two seats: one row per round, a column per seat, and a bar per seat towards the
target.  Three or more (up to ten, in a column 20 cells wide): a row per seat (yours
first, then in seat order), its name as long as the room allows, its total, then
its points in the newest rounds that fit (the match-over sheet and the replay have
them all); every row shows before the heads, the leader and the rule, which go
first when the height is short (the rule then in the sheet's border).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cmp_to_key

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.reactive import reactive
from textual.widget import Widget

from engine import PlayerView, Rules
from engine.scoring import match_result

from ..text.columns import distinct_names, short_name, short_names
from ..text.words import team_name, winners
from .names import SeatNames
from .viewslice import ShowsView

__all__ = ["ScoreSheet", "sheet_lines", "target_rule", "standing", "leader", "ranking",
           "rule_fits"]

_NAME_W = 8  # a name column in the 20 cells inside the sheet: "Player 1" whole
_ROW_NAME_W = 6  # a seat's row name with three or more seats


def target_rule(rules: Rules, seats: int) -> str:
    """The target and who wins, in words: "first to 500 wins" when the seat that
    reaches the target wins (classic ``winner_takes``; "first team to 500" with
    partners, H5), "lose at 200" when it loses
    (UNO Duo; two seats scoring their own hands), else "at 500, lowest wins"."""
    if rules.scoring == "winner_takes":
        if rules.teams == "partners":  # H5: the team's score, the team wins
            return f"first team to {rules.target}"
        return f"first to {rules.target} wins"
    return f"lose at {rules.target}" if seats == 2 else f"at {rules.target}, lowest wins"


def leader(rules: Rules, scores: tuple[int, ...]) -> int | None:
    """The seat that would win if the match ended on ``scores`` (``None``: nobody has
    scored, or a tie) — :func:`engine.scoring.match_result`'s rule, not a copy."""
    if not scores or max(scores) <= 0:
        return None
    return match_result(replace(rules, target=max(scores)), scores)[1]


def _better(rules: Rules, a: int, b: int) -> bool:
    """A total of ``a`` beats one of ``b`` under ``rules``' scoring (two totals, so
    not read as teams' halves: H5's partners show equal totals and tie)."""
    return leader(replace(rules, teams=None), (a, b)) == 0


def ranking(rules: Rules, scores: tuple[int, ...]) -> list[list[int]]:
    """The seats best first, tied seats together: ``[[2], [0, 3], [1]]``."""
    def order(s: int, t: int) -> int:
        return (-1 if _better(rules, scores[s], scores[t])
                else 1 if _better(rules, scores[t], scores[s]) else 0)

    key = cmp_to_key(order)
    ranks: list[list[int]] = []
    for seat in sorted(range(len(scores)), key=key):
        if ranks and key(ranks[-1][0]) == key(seat):
            ranks[-1].append(seat)
        else:
            ranks.append([seat])
    return ranks


def standing(view: PlayerView, names: tuple[str, ...], width: int = 40) -> str:
    """Who wins (the match is over) or leads, by name: "Ann wins", "shared win: Ann,
    Cal", "Ann leads" ("Ann & Cal win" with partners, or by the number the rows give
    the team, "team 1 wins", when the names do not fit in ``width``); "" before anyone
    has scored."""
    teams = view.rules.teams == "partners"
    if view.over and view.winner is None:
        best = ranking(view.rules, view.scores)[0]
        return "shared win: " + ", ".join(names[s] for s in best)
    who = view.winner if view.over else leader(view.rules, view.scores)
    if who is None:
        return ""
    said = winners(view.rules, who, names) if view.over else \
        f"{team_name(view.rules, who, names)} lead{'' if teams else 's'}"
    if teams and len(said) > width:  # H5: the rows name each team by its number
        said = f"team {view.rules.team(who) + 1} {'wins' if view.over else 'leads'}"
    return said


def sheet_lines(view: PlayerView | None, names: tuple[str, ...], say_you: bool = True,
                width: int = 20, height: int = 12) -> list[Text]:
    """The sheet's lines for ``view`` (``width`` × ``height``: the room inside it)."""
    if view is None:
        return [Text("")]
    if len(view.scores) == 2:
        return _two(view, names, say_you, width, height)
    return _many(view, names, say_you, width, height)


def _two(view: PlayerView, names: tuple[str, ...], say_you: bool, width: int,
         height: int) -> list[Text]:
    """Two seats: a column each, yours first; a bar each towards the target."""
    me = 0 if view.seat is None else view.seat  # a watcher's: seat 0 first
    opp = (me + 1) % 2
    short = short_names(names[me], names[opp], _NAME_W)
    head = Text(f"{'Rd':>2} ", "bold")
    head.append(f"{short[0]:>{_NAME_W}}", "bold underline" if say_you else "bold")
    head.append(f" {short[1]:>{_NAME_W}}", "bold")
    rows = [head]
    rounds = view.rounds
    room = max(1, height - 6)
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
    assert target is not None  # both presets end at a target (E4)
    rows.append(Text(f"* out · {target_rule(view.rules, 2)}", "dim"))
    bar_w = max(4, width - 9)
    for s, label in ((me, short[0]), (opp, short[1])):
        filled = min(bar_w, round(bar_w * totals[s] / target))
        line = Text(f"{label:<{_NAME_W}} ")
        line.append("█" * filled, "bold")
        line.append("░" * (bar_w - filled), "dim")
        rows.append(line)
    return rows


def _many(view: PlayerView, all_names: tuple[str, ...], say_you: bool, width: int,
          height: int) -> list[Text]:
    """Three or more seats: a row per seat — its name, its total and its points in
    the newest rounds that fit the width (``*``: went out) — and above them, as the
    height allows, the column heads, who leads and the rule (a row per seat first:
    ten seats show ten rows at 80×24; the rule then goes under the sheet, in its
    border, by :class:`ScoreSheet`)."""
    n = len(view.scores)
    first = 0 if view.seat is None else view.seat  # a watcher's: seat 0 first
    order = [(first + i) % n for i in range(n)]
    rounds = view.rounds
    total_w = max(3, *(len(str(t)) for t in view.scores))
    col_w = max([2] + [len(str(p)) for _, points in rounds for p in points]) + 1
    # names as long as they are, up to the room one round's column leaves
    longest = max(len(name) for name in all_names[:n])
    room = width - 1 - total_w - ((col_w + 1) if rounds else 0)
    name_w = max(_ROW_NAME_W, min(longest, room))
    names = distinct_names(all_names[:n], name_w)  # "Normal bo…1", "Normal bo…2"
    if view.rules.teams == "partners":  # H5: each row names its team first ("1 Ann")
        cut = distinct_names(all_names[:n], max(1, name_w - 2))
        names = [f"{view.rules.team(s) + 1} {cut[s]}" for s in range(n)]
    shown = rounds[-max(1, (width - name_w - 1 - total_w) // (col_w + 1)):] if rounds else []
    head = Text(" " * (name_w + 1) + f"{'Σ':>{total_w}}", "bold")
    for r in range(len(rounds), len(rounds) - len(shown), -1):
        head.append(f" {'R' + str(r):>{col_w}}", "bold")
    rows = []
    for s in order:
        line = Text()
        style = "bold underline" if s == view.seat and say_you else "bold"
        line.append(names[s], style)  # underlined: the name, not the gap after it
        line.append(" " * (name_w - len(names[s])))
        line.append(f" {view.scores[s]:>{total_w}}", "bold")
        for winner, points in reversed(shown):
            line.append(f" {points[s]:>{col_w - 1}}{'*' if winner == s else ' '}")
        rows.append(line)
    said = standing(view, tuple(all_names[s] for s in range(n)), width)
    spare = height - n
    above = [Text(target_rule(view.rules, n), "bold"),
             Text(short_name(said, 40) if said else "no points yet", "italic"),
             head][-max(0, min(3, spare)):] if spare > 0 else []
    below = [Text("no rounds yet", "dim")] if not rounds and spare >= 4 else []
    return above + rows + below


def rule_fits(view: PlayerView | None, height: int) -> bool:
    """The sheet shows its rule inside (else :class:`ScoreSheet` says it in its border)."""
    return view is None or len(view.scores) == 2 or height - len(view.scores) >= 3


class _Body(SeatNames, Widget):
    """What the sheet shows, as large as it needs (the sheet scrolls it)."""

    DEFAULT_CSS = "_Body { width: auto; height: auto; }"

    view: reactive[PlayerView | None] = reactive(None, always_update=True, layout=True)

    def __init__(self, room) -> None:
        super().__init__()
        self._room = room  # () -> (width, height) of the sheet's inside
        self._built: tuple[tuple, list[Text]] | None = None  # (what for, the lines)

    def lines(self) -> list[Text]:
        """The sheet's lines, built once per refresh: rendering and laying it out ask
        three times (``render``, its content width and height; #22)."""
        width, height = self._room()
        key = (self.view, self.names, self.say_you, width, height)
        built = self._built
        if built is None or built[0][0] is not key[0] or built[0][1:] != key[1:]:
            built = self._built = (key, sheet_lines(self.view, self.names, self.say_you,
                                                    width, height))
        return built[1]

    def render(self) -> Group:
        return Group(*self.lines())

    def get_content_width(self, container, viewport) -> int:
        return max(1, max(line.cell_len for line in self.lines()))

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.lines())


class ScoreSheet(ShowsView, SeatNames, ScrollableContainer):
    """Renders ``view.rounds`` and ``view.scores`` for 2–10 seats (names:
    :meth:`name_seats`); scrolls when the sheet is longer or wider than its room."""

    DEFAULT_CSS = "ScoreSheet { scrollbar-size: 1 1; }"

    BORDER_TITLE = "Scores"
    can_focus = False

    view: reactive[PlayerView | None] = reactive(None, always_update=True)

    def view_slice(self, view: PlayerView) -> tuple:
        """The rounds, the totals, the rule, whose sheet, who won."""
        return view.seat, view.rounds, view.scores, view.rules, view.over, view.winner

    def compose(self) -> ComposeResult:
        yield _Body(lambda: self.scrollable_content_region.size)

    def name_seats(self, names, say_you: bool = True) -> None:
        super().name_seats(names, say_you)
        if self.is_mounted:
            body = self.query_one(_Body)
            body.name_seats(names, say_you)
            body.refresh(layout=True)  # a joiner's name, with the same view

    def on_mount(self) -> None:
        body = self.query_one(_Body)
        body.name_seats(self.names, self.say_you)
        body.view = self.view

    def lines(self) -> list[Text]:
        """What the sheet shows now, line by line (mounted or not)."""
        size = self.scrollable_content_region.size
        return sheet_lines(self.view, self.names, self.say_you, size.width, size.height)

    def watch_view(self, view: PlayerView | None) -> None:
        if self.is_mounted:
            self.query_one(_Body).view = view
        self._say_rule()

    def on_resize(self) -> None:
        self._say_rule()

    def _say_rule(self) -> None:
        """The rule under the sheet when the rows take its room inside."""
        view = self.view
        height = self.scrollable_content_region.height
        self.border_subtitle = ("" if view is None or rule_fits(view, height)
                                else target_rule(view.rules, len(view.scores)))
