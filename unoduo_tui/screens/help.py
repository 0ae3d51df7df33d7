"""Help: every key."""

from __future__ import annotations

import re
from typing import Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Markdown, Static

from ..app_link import unoduo
from ..dialogs import OwnKeys
from ..textual_compat import AnswerOnce, Modal

__all__ = ["HelpScreen", "KeysScreen"]

HELP = """\
# Keys

| Key | What it does |
| --- | --- |
| ← → or h l | select a card in your hand |
| 1 – 9 | jump to that card |
| Enter or Space | play the selected card (click a card also plays it) |
| k / r | draft: keep / reject the card you drew |
| d | draw (a card on your turn, or what a volley / W+4 makes you draw) |
| p | keep the card you just drew and end your turn; pass when nothing is left to draw |
| u | say UNO with this move (offered only when a move leaves you one card; your next move takes it) |
| c | challenge a Wild Draw 4 |
| x | catch your opponent who forgot to say UNO (they draw 2) |
| r y g b | in the colour picker: red, yellow, green, blue |
| n | in the dump dialog: don't dump |
| z / y | against bots: undo to your previous decision / redo (marks it "practice") |
| t | against bots: a hint — what the hard bot would do here (a card to play is selected) |
| ? | this help |
| Ctrl+P | command palette: every action, themes, the rules |
| q | leave the table (it asks first; the match is saved after every move) |

## In a replay

| Key | What it does |
| --- | --- |
| → / ← | one action forward / back |
| Shift+→ / Shift+← | one turn forward / back |
| PgDn / PgUp | one round forward / back |
| Home / End | the start / the last action |
| g | go to an action number |
| Space | autoplay (again: pause); + / − faster / slower |
| v / V | next / previous Draw 2 volley (every Draw 2 starts one) |
| o / O | next / previous Reverse dump |
| c / C | next / previous Wild Draw 4 challenge |
| x / X | next / previous UNO catch |
| e / E | next / previous round end |
| r / R | next / previous Reverse played |
| k / K | next / previous Skip played |
| p | seat 1's view, seat 2's … each seat's in turn, then all hands (finished or practice matches) |
| l or Tab (or ↑) | pick a line of the log: ↑ / ↓ (PgUp / PgDn, Home / End) move |
| Enter | (picking) go to the action the picked line tells; Escape, Tab or l: done |
| click a log line | go to the action it tells |
| s | spoiler-free: hide the match's length, its future moments and the final scores |
| b | what if: a new practice match from this position, against a bot |
| q | close the replay |

`unoduo replay --spoiler-free` opens a match spoiler-free, at its start.

In *Saved matches* and *Replays* (the menu), **s** lists the finished matches without
their rounds, scores or length, and Enter then watches one spoiler-free from its start;
**d** (or Delete) deletes the highlighted match for good, once you confirm.

Escape only closes screens like this one: it never makes a move.
The footer shows the keys that do something right now.

For 16-colour terminals and SSH choose the theme **ansi-dark** in the palette (Ctrl+P).

Every card shows its colour letter (R Y G B, W for wilds) and its symbol, so the
game reads the same without colour.

Press **Escape**, **q** or **?** to go back.
"""


#: what a line of :data:`HELP` names that not every place has (:data:`..text.words.PLACES`):
#: a command needs a shell (a terminal of one's own); the lists are the menu's (not
#: in the lobby); a browser keeps Ctrl+P for itself
_ONLY = (("`unoduo ", ("terminal",)), ("(the menu)", ("terminal", "web")),
         ("Ctrl+P", ("terminal", "lobby")))


def help_for(place: str) -> str:
    """:data:`HELP` without what points where a player at ``place`` cannot go: a row of
    a table, or a paragraph whose first line names it."""
    kept, skipping, before = [], False, ""
    for line in HELP.splitlines():
        away = any(mark in line and place not in where for mark, where in _ONLY)
        if line.startswith("|"):
            skipping = away  # a row on its own
        elif not line.strip():
            skipping = False
        elif not before.strip():  # a paragraph's first line
            skipping = away
        before = line
        if not skipping:
            kept.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)) + "\n"


class HelpScreen(AnswerOnce, OwnKeys, Modal[None]):
    """Keys as Markdown (``text``: the game's :data:`HELP` for where the app runs,
    unless given), in a box that fits 80×24 and scrolls (↑ ↓, PgUp PgDn)."""

    BINDINGS = [Binding("escape,q,question_mark", "close", "Back", id="help.back")]

    def __init__(self, text: str | None = None) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        text = self.text if self.text is not None else help_for(unoduo(self).place)
        with VerticalScroll(id="help-body"):
            yield Markdown(text)

    def action_close(self) -> None:
        self.dismiss(None)


class KeysScreen(HelpScreen):
    """A screen's keys as two columns (``rows``: key, what it does), under ``title``:
    the help box, scrolling when the rows are more than it holds."""

    def __init__(self, title: str, rows: Sequence[tuple[str, str]], note: str = "") -> None:
        super().__init__("")  # the rows are composed below
        self.title_text, self.rows, self.note = title, tuple(rows), note

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_header=False, padding=(0, 1), expand=True)
        table.add_column(style="bold", no_wrap=True)
        table.add_column(ratio=1)
        for key, what in self.rows:
            table.add_row(Text(key), Text(what))
        with VerticalScroll(id="help-body"):
            yield Static(Text(self.title_text, "bold"), classes="help-title")
            yield Static(table)
            yield Static(Text(self.note or "Escape, q or ? goes back.", "dim"),
                         classes="help-note")
