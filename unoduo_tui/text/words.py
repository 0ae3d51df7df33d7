"""The English the screens, ``unoduo list`` and ``unoduo transcript`` share: one copy
of each phrase.  No Textual here (rich's cell widths only).

- Seats: :func:`seat_names` (printable), :func:`and_list` ("Ann, Bea and Cal"),
  :func:`players` ("Ann vs Bea"), :func:`seat_label` ("Ann (normal bot)"),
  :func:`standings` ("Ann 161 · Bea 0 · Cal 502", cut and wrapped to a width).
- Matches: :func:`game_name` ("Classic UNO"), :func:`result_line` (the transcript's
  last line), :func:`summary_lines` (a saved match for the lists), :func:`lineage`,
  :func:`practice_mark`.
- Numbers and hints: :func:`article` ("an 81% chance"), :func:`hint_text` (a decision
  in words, with its key); :func:`fit` cuts any text to a width.
- Where to go, said for where the app runs (:data:`PLACES`): :func:`resume_note`,
  :func:`rules_pointer` — a command to type only where there is a shell to type it.
"""

from __future__ import annotations

from typing import Sequence

from rich.cells import cell_len
from rich.text import Text

from engine import Action, PlayerView, Rules
from engine.cards import COLOUR_NAMES

from .columns import distinct_names
from ..store import short_id
from . import printable

__all__ = ["PLACES", "resume_note", "rules_pointer",
           "article", "hint_text", "fit", "and_list", "players", "seat_names", "seat_label",
           "game_name", "distinct_names", "standings", "result_line", "summary_line", "summary_lines",
           "lineage", "practice_mark", "team_name", "winners"]

#: where the app runs: a terminal of one's own (a shell around it: ``unoduo resume``
#: works), ``unoduo lobby`` (an SSH player's whole world: the lobby, no shell) or a
#: browser tab of ``unoduo web`` (the menu; no shell, and the browser keeps Ctrl+P)
PLACES = ("terminal", "lobby", "web")


def resume_note(place: str) -> str:
    """Leaving a saved match: how to come back to it, from where the player is."""
    return {"terminal": "resume this match from the menu or with 'unoduo resume'",
            "lobby": "resume this match from the lobby (r)",
            "web": "resume this match from the menu (reload the page after quitting)",
            }[place]


def rules_pointer(place: str) -> str:
    """Where the rule book is, from where the player is."""
    return ("Rules in the menu" if place == "web" else
            "Ctrl+P → Rules" if place == "lobby" else "Ctrl+P → Rules, or 'unoduo rules'")


#: each preset's name, as titles and lists say it
GAME_NAMES = {"duo": "UNO Duo", "classic": "Classic UNO"}


def article(number: int) -> str:
    """The article before ``number`` said aloud: "an" when it starts with a vowel sound
    (8, 11, 18, 80–89, 800–899, 8000…, 11 000, 18 000…), else "a"."""
    digits = str(abs(int(number)))
    lead = digits[:len(digits) % 3 or 3]  # the group said first: "eleven thousand"
    return "an" if digits[0] == "8" or lead in ("11", "18") else "a"


def hint_text(action: Action, view: PlayerView) -> str:
    """A suggested action in words, with the key that makes it."""
    kind = action.kind
    uno = ", saying UNO (u)" if action.uno else ""
    if kind == "play" and action.card is not None:
        named = (f" and name {COLOUR_NAMES[action.colour]}"
                 if action.card.is_wild and action.colour is not None else "")
        return f"play {action.card}{named}{uno}"
    if kind == "dump" and view.dump_colour is not None:
        return (f"dump every {COLOUR_NAMES[view.dump_colour]} card, {action.card} last{uno}")
    if kind == "draw":
        owed = view.pending_draw
        return f"draw {owed} (d)" if owed else "draw (d)"
    if kind == "pass":
        return "keep the card you drew (p)" if view.phase == "drawn" else "pass (p)"
    if kind == "colour" and action.colour is not None:
        return f"name {COLOUR_NAMES[action.colour]}"
    return {"keep": "keep it (k)", "reject": "reject it (r)", "nodump": "keep your cards",
            "challenge": "challenge (c)", "catch": "catch them (x)"}[kind]


def fit(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, an ellipsis where it was cut."""
    if cell_len(text) <= width:
        return text
    cut = Text(text, no_wrap=True)
    cut.truncate(max(1, width), overflow="ellipsis")
    return cut.plain


# -- seats ----------------------------------------------------------------------------

def seat_names(seats) -> tuple[str, ...]:
    """The seats' names (from a save file: untrusted), printable."""
    return tuple(printable(s.name) for s in seats)


def and_list(items: Sequence[str]) -> str:
    """"Ann", "Ann and Bea", "Ann, Bea and Cal"."""
    items = list(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def players(names: Sequence[str]) -> str:
    """The seats of a match: "Ann vs Bea" for two, "Ann, Bea and Cal" for more."""
    return " vs ".join(names) if len(names) == 2 else and_list(names)


def seat_label(seat) -> str:
    """A seat with its kind: "Ann (human)", "Rando (random bot)"."""
    name = printable(seat.name)
    if seat.is_bot:
        return f"{name} ({printable(seat.level)} bot)"
    return f"{name} (human)"


def game_name(preset: str) -> str:
    return GAME_NAMES.get(preset, printable(preset))


def standings(names: Sequence[str], scores: Sequence[int] | None, width: int,
              sep: str = " · ") -> list[str]:
    """Every seat with its score ("Ann 161 · Bea 0", ``scores`` None: names only) in
    lines of at most ``width`` cells: long names give way (to their first word, then
    cut) while that saves more than a line, a seat never split across two lines."""
    tries = [_wrap([n + ("" if scores is None else f" {scores[i]}")
                    for i, n in enumerate(distinct_names(names, name_width))], width, sep)
             for name_width in (16, 10, 6, 3)]
    fewest = min(len(lines) for lines in tries)
    # the longest names that take at most one line more than the shortest would
    lines = next(lines for lines in tries if len(lines) <= fewest + 1)
    return [fit(line, width) for line in lines]


def _wrap(parts: Sequence[str], width: int, sep: str) -> list[str]:
    lines = [""]
    for part in parts:
        joined = f"{lines[-1]}{sep}{part}" if lines[-1] else part
        if cell_len(joined) <= width or not lines[-1]:
            lines[-1] = joined
        else:
            lines.append(part)
    return lines


# -- a match ---------------------------------------------------------------------------

def team_name(rules: Rules, seat: int, names: Sequence[str]) -> str:
    """``seat``'s name, and with partners (H5) its partner's: "Ann & Cal"."""
    partner = rules.partner(seat)
    return names[seat] if partner is None else f"{names[seat]} & {names[partner]}"


def winners(rules: Rules, winner: int, names: Sequence[str], you: int | None = None) -> str:
    """Who won, with the verb: "Ann wins", "Ann & Cal win" (H5: the team wins); read
    by seat ``you``: "you win", "you and Cal win" (its partner won)."""
    partner = rules.partner(winner)
    if you is not None and you in (winner, partner):
        other = partner if you == winner else winner
        return "you win" if other is None else f"you and {names[other]} win"
    return f"{team_name(rules, winner, names)} win{'s' * (partner is None)}"


def result_line(m, names: Sequence[str]) -> str:
    """A match's result as the transcript ends: "Result: Ann won, 512–301, after 4
    rounds." (or a draw, or where an unfinished one stands)."""
    totals = "–".join(map(str, m.scores))
    rounds = f"{m.round} round{'s' * (m.round != 1)}"
    if not m.over:
        who = names[m.to_act] if m.to_act is not None else "?"
        return f"Result: not finished — round {m.round}, {totals}, {who} to act."
    if m.winner is None:
        return f"Result: a draw at {totals} after {rounds}."
    return f"Result: {team_name(m.rules, m.winner, names)} won, {totals}, after {rounds}."


def lineage(parent: tuple[str, int]) -> str:
    """How a what-if branch names where it came from (lists, replay): the parent's
    short id (which ``unoduo replay`` accepts) and the decisions taken over."""
    return f"branch of {printable(short_id(parent[0]))} @ {printable(parent[1])}"


def practice_mark(undos: int) -> str:
    """How a match where undo was used is marked (list, replay, transcript)."""
    return f"practice ({undos} undo{'s' * (undos != 1)})"


def _preset(summary) -> str:
    return getattr(summary, "preset", "duo")


def summary_line(summary) -> str:
    """One saved match in a line: its game (unless UNO Duo), seats, round, scores, then
    its marks (practice, lineage)."""
    return " · ".join([*_game(summary), players(seat_names(summary.seats)),
                       *_facts(summary), *_marks(summary)])


def summary_lines(summary, width: int, spoiler_free: bool = False) -> list[str]:
    """One saved match in ``width`` cells: one line when it fits, else the match
    ("Ann vs Rando · round 3 · 120–45") and its marks ("practice (2 undos) · branch
    of caebc7 @ 57") on two.  The seats' names give way first (cut with "…"), then
    the practice mark; the lineage stays whole.  ``spoiler_free``: a finished match
    shows neither its round nor its scores (they tell who won, and how long it ran).

    More than two seats: the game and round on the first line, every seat with its
    score (:func:`standings`) on the lines after it, then the marks."""
    names = list(seat_names(summary.seats))
    hide = spoiler_free and summary.status == "finished"
    facts = [] if hide else _facts(summary)
    marks = _marks(summary)
    if len(names) > 2:
        head = " · ".join([*_game(summary), f"{len(names)} seats", *facts[:1]])
        rows = standings(names, None if hide else summary.scores, width)
        return [fit(head, width), *rows, *_fit_marks(marks, width)]
    whole = " · ".join([*_game(summary), " vs ".join(names), *facts, *marks])
    if cell_len(whole) <= width:
        return [whole]
    tail = "".join(f" · {fact}" for fact in facts)
    game = "".join(f"{g} · " for g in _game(summary))
    room = width - cell_len(game + tail) - cell_len(" vs ") * (len(names) - 1)
    first = fit(game + " vs ".join(_fit_names(names, room)) + tail, width)
    return [first, *_fit_marks(marks, width)]


def _fit_marks(marks: list[str], width: int) -> list[str]:
    if not marks:
        return []
    if cell_len(" · ".join(marks)) > width and len(marks) == 2:  # practice, lineage
        room = width - cell_len(marks[1]) - cell_len(" · ")
        marks = [fit("practice", room), marks[1]] if room >= 4 else marks[1:]
    return [fit(" · ".join(marks), width)]


def _game(summary) -> list[str]:
    """The game's name, said only when it is not UNO Duo (the lists' default)."""
    preset = _preset(summary)
    return [] if preset == "duo" else [game_name(preset)]


def _facts(summary) -> list[str]:
    return [f"round {summary.round}", "–".join(str(x) for x in summary.scores)]


def _marks(summary) -> list[str]:
    marks = []
    undos = getattr(summary, "undos", 0)
    if undos:
        marks.append(practice_mark(undos))
    parent = getattr(summary, "parent", None)
    if parent:
        marks.append(lineage(parent))
    return marks


def _fit_names(names: list[str], room: int) -> list[str]:
    """The names cut, longest first, until they take ``room`` cells together."""
    widths = [cell_len(n) for n in names]
    while widths and sum(widths) > room and max(widths) > 2:
        widths[widths.index(max(widths))] -= 1
    return [fit(n, w) for n, w in zip(names, widths)]
