"""A record in words: the lines ``unoduo stats`` prints and the Stats screen shows
(one copy of each phrase).  Plain text, at most 80 columns; no Textual."""

from __future__ import annotations

from ..text.columns import short_name
from ..text import printable
from ..text.words import game_name
from .stats import Rating, Record, SeatChange, Standing

__all__ = ["rating_text", "record_lines", "opponent_lines", "moment_lines", "change_text",
           "rating_lines", "board_lines", "BOARD_NAME"]

#: cells a name has on a leaderboard's line
BOARD_NAME = 24


def _n(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def rating_text(rating: Rating) -> str:
    """"1532 ± 310 (provisional: 4 of 10 rated matches)"; a bot's: "1500 (fixed)"."""
    if rating.anchor:
        return f"{rating.value} (fixed: a bot's anchor)"
    text = f"{rating.value} ± {rating.uncertainty}"
    if rating.provisional:
        from .ratings import PROVISIONAL_UNDER

        text += f" (provisional: {rating.rated} of {PROVISIONAL_UNDER} rated matches)"
    else:
        text += f" ({rating.rated} rated matches)"
    return text


def _streak(rec: Record) -> str:
    now = rec.streak
    if now > 0:
        current = f"{_n(now, 'win')} in a row"
    elif now < 0:
        current = f"{-now} without a win"
    else:
        current = "none yet"
    return f"streak: {current}; longest {_n(rec.longest, 'win')}"


def record_lines(rec: Record) -> list[str]:
    """The record at a glance: who, rating, matches and wins, points, streaks."""
    lo, hi = rec.interval
    kind = "bot" if rec.kind == "bot" else "human"
    lines = [f"{game_name(rec.preset)} — {printable(rec.name)} ({kind})",
             f"  rating {rating_text(rec.rating)}" if rec.rating else "  rating: none",
             f"  {_n(rec.matches, 'match', 'matches')}, won {rec.wins} "
             f"({_pct(rec.win_rate)}; 95%: {_pct(lo)}–{_pct(hi)})"
             + (f", {rec.practice} practice" if rec.practice else ""),
             f"  points per round {rec.points_per_round:.1f} over "
             f"{_n(len(rec.points), 'round')}",
             f"  {_streak(rec)}"]
    return lines


def moment_lines(rec: Record) -> list[str]:
    m = rec.moments
    lines = [f"W+4 challenges {m['challenges']} made, {m['challenges_won']} won · "
             f"UNO catches {m['catches']} made, {m['caught']} suffered",
             f"biggest volley {m['volley_taken']} taken, {m['volley_dealt']} dealt"]
    if rec.preset == "duo" or m["dumps"]:
        lines[-1] += (f" · {_n(m['dumps'], 'dump')}, {_n(m['dumped'], 'card')}, "
                      f"biggest {m['biggest_dump']}")
    lines.append(f"rounds won {m['rounds_won']}, {m['action_outs']} going out on an "
                 "action card")
    return lines


def opponent_lines(rec: Record, limit: int | None = None) -> list[str]:
    """A table: each opponent, the matches against them, won and lost."""
    rows = rec.ranked_opponents()
    shown = rows if limit is None else rows[:limit]
    lines = [f"{'opponent':<24} {'matches':>7} {'won':>5} {'lost':>5}"]
    for o in shown:
        lines.append(f"{short_name(printable(o.name), 24):<24} {o.matches:>7} {o.wins:>5} "
                     f"{o.losses:>5}")
    if len(rows) > len(shown):
        lines.append(f"… and {len(rows) - len(shown)} more")
    return lines


def change_text(change: SeatChange) -> str:
    """One seat's rating after a match: "Ann: rating 1500 → 1532 (+32) ± 700"."""
    name = printable(change.name)
    if change.after is None or change.before is None:
        return f"{name}: not rated ({change.why})"
    diff = change.after.value - change.before.value
    text = (f"{name}: rating {change.before.value} → {change.after.value} "
            f"({diff:+d}) ± {change.after.uncertainty}")
    if change.after.provisional:
        text += " · provisional"
    return text


def rating_lines(data_dir, ref: str, most: int = 3, key: str | None = None) -> str:
    """The match-over dialog's lines: each human seat's rating change (at most
    ``most``), or why there is none to show (``key``: the store's)."""
    from pathlib import Path

    from .index import changes_for

    try:
        found = changes_for(Path(data_dir), Path(ref), key=key)
    except Exception:  # noqa: BLE001 - the dialog says so; the match is saved
        found = None
    if not found:
        return "Rating: not in the record (see 'unoduo stats')."
    lines = [change_text(c) for c in found[:most]]
    if len(found) > most:
        lines.append(f"… and {len(found) - most} more (Stats)")
    return "\n".join(lines)


def _your_place(standing: Standing) -> str:
    you = standing.you
    if you is None:
        return "you: no rated match yet"
    if standing.rank is None:
        from .ratings import PROVISIONAL_UNDER

        return f"you: provisional ({you.rated} of {PROVISIONAL_UNDER} rated matches)"
    return f"you: #{standing.rank} of {standing.ranked} · {you.value} ± {you.uncertainty}"


def board_lines(standings: list[Standing], who: str, width: int = 72) -> list[str]:
    """The lobby's leaderboard: per game with anyone on it (or a rating of ``who``'s),
    a title with ``who``'s place, then a line per ranked player (``who``'s marked
    ``▸`` and ``(you)``: readable without colour); at most ``width`` cells a line."""
    from ..text.words import fit

    out: list[str] = []
    for standing in standings:
        if not standing.rows and standing.you is None:
            continue
        if out:
            out.append("")
        title = f"Leaderboard · {game_name(standing.preset)}"
        place = _your_place(standing)
        gap = max(2, width - len(title) - len(place))
        out.append(fit(title + " " * gap + place, width))
        if not standing.rows:
            from .ratings import PROVISIONAL_UNDER

            out.append(f"  nobody yet: {PROVISIONAL_UNDER} rated matches put a player here")
        for rank, key, name, rating in standing.rows:
            mark = "▸" if key == who else " "
            shown = short_name(printable(name), BOARD_NAME)
            line = (f"{mark}{rank:>3}. {shown:<{BOARD_NAME}} {rating.value:>5} ± "
                    f"{rating.uncertainty:<4} {_n(rating.rated, 'rated match', 'rated matches')}")
            out.append(fit(line + ("  (you)" if key == who else ""), width))
    if not out:
        from .ratings import PROVISIONAL_UNDER

        out.append(f"Leaderboard: nobody on it yet — {PROVISIONAL_UNDER} rated matches "
                   "put a player there.")
    return out
