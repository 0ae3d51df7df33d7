"""A player's record, read from the index: what ``unoduo stats`` prints, its JSON and
the Stats screen show, the match-over dialog's rating change, and the leaderboard.

Counted: every finished match but what-if branches (a branch replays its parent's
first moves) and bot-only ones (never in the index's matches).  Practice matches
count in the record, not in the rating.  All from rows :mod:`.index` derived from
the logs.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from engine.bots.arena import wilson
from engine.rules import PRESETS

from . import ratings as R
from .derive import COUNTS

__all__ = ["Opponent", "Rating", "Record", "SeatChange", "Standing", "records", "leaderboard",
           "rank_of", "boards", "changes", "MOMENTS", "LEADERBOARD_SIZE"]

LEADERBOARD_SIZE = 20
#: the moments, as summed (or, ``max``: the biggest) over a player's matches
MOMENTS = (("challenges", "W+4 challenges made", sum),
           ("challenges_won", "W+4 challenges won", sum),
           ("catches", "UNO catches made", sum),
           ("caught", "UNO catches suffered", sum),
           ("volley_taken", "biggest volley taken", max),
           ("volley_dealt", "biggest volley dealt", max),
           ("dumps", "dumps", sum),
           ("dumped", "cards dumped", sum),
           ("biggest_dump", "biggest dump", max),
           ("rounds_won", "rounds won", sum),
           ("action_outs", "rounds won going out on an action card", sum))
_COL = {name: i for i, name in enumerate(COUNTS)}


@dataclass(frozen=True)
class Rating:
    value: int
    uncertainty: int
    provisional: bool
    rated: int  # rated matches
    anchor: bool = False  # a bot's fixed rating

    @classmethod
    def of(cls, mu: float, sigma: float, rated: int, anchor: bool = False) -> "Rating":
        value, uncertainty = R.shown(mu, sigma)
        return cls(value, uncertainty, not anchor and rated < R.PROVISIONAL_UNDER, rated,
                   anchor)

    def to_json(self) -> dict:
        return {"value": self.value, "uncertainty": self.uncertainty,
                "provisional": self.provisional, "rated_matches": self.rated,
                "fixed": self.anchor}


@dataclass
class Opponent:
    who: str
    name: str
    kind: str
    matches: int = 0
    wins: int = 0  # matches this player finished ahead of them
    losses: int = 0  # … behind them

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "matches": self.matches,
                "wins": self.wins, "losses": self.losses}


@dataclass
class Record:
    """One player's record in one preset."""

    who: str
    name: str
    kind: str
    preset: str
    matches: int = 0
    wins: int = 0
    practice: int = 0
    points: list[int] = field(default_factory=list)  # every round's points
    opponents: dict[str, Opponent] = field(default_factory=dict)
    results: list[bool] = field(default_factory=list)  # won, match by match
    moments: dict[str, int] = field(default_factory=dict)
    history: list[tuple[int, int, int]] = field(default_factory=list)  # (ended, value, ±)
    rating: Rating | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The win rate's 95 % Wilson interval."""
        return wilson(self.wins, self.matches)

    @property
    def points_per_round(self) -> float:
        return sum(self.points) / len(self.points) if self.points else 0.0

    @property
    def streak(self) -> int:
        """The current streak: wins in a row (positive) or matches without a win
        (negative), up to the last match."""
        if not self.results:
            return 0
        last, n = self.results[-1], 0
        for won in reversed(self.results):
            if won != last:
                break
            n += 1
        return n if last else -n

    @property
    def longest(self) -> int:
        """The longest run of wins."""
        best = run = 0
        for won in self.results:
            run = run + 1 if won else 0
            best = max(best, run)
        return best

    def ranked_opponents(self) -> list[Opponent]:
        return sorted(self.opponents.values(), key=lambda o: (-o.matches, o.name.casefold()))

    def to_json(self) -> dict:
        lo, hi = self.interval
        rating = self.rating or Rating.of(R.MU, R.SIGMA, 0)
        return {
            "name": self.name, "id": self.who, "kind": self.kind, "preset": self.preset,
            "matches": self.matches, "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "win_rate_95": [round(lo, 4), round(hi, 4)],
            "practice_matches": self.practice,
            "rounds": len(self.points),
            "points_per_round": round(self.points_per_round, 2),
            "rating": rating.to_json(),
            "streaks": {"current": self.streak, "longest": self.longest},
            "moments": dict(self.moments),
            "opponents": [o.to_json() for o in self.ranked_opponents()],
            "rating_history": [{"ended_ns": t, "value": v, "uncertainty": u}
                               for t, v, u in self.history],
        }


def records(conn: sqlite3.Connection, preset: str | None = None,
            player: str | None = None) -> list[Record]:
    """Every player's record (humans first, then bots; by matches), per preset;
    ``player``: only those whose name (letter case aside) or id it is."""
    where, args = "m.branch=0", []
    if preset:
        where += " AND m.preset=?"
        args.append(preset)
    rows = conn.execute(
        f"SELECT m.source, m.preset, m.ended, m.practice, m.rated, s.who, s.name, s.kind, "
        f"s.place, s.won, s.points, s.mu, s.sigma, {', '.join('s.' + c for c in COUNTS)} "
        f"FROM matches m JOIN seats s ON s.source=m.source WHERE {where} "
        f"ORDER BY m.ended, m.source, s.seat", args).fetchall()
    out: dict[tuple[str, str], Record] = {}
    i = 0
    while i < len(rows):
        source = rows[i][0]
        best: dict[str, tuple] = {}  # a bot level at two seats: its better one
        while i < len(rows) and rows[i][0] == source:
            row = rows[i]
            if row[5] not in best or row[8] < best[row[5]][8]:
                best[row[5]] = row
            i += 1
        seats = list(best.values())
        for row in seats:
            (_, pre, ended, practice, rated, who, name, kind, place, won, points,
             mu, sigma) = row[:13]
            counts = row[13:]
            rec = out.get((who, pre))
            if rec is None:
                rec = out[(who, pre)] = Record(who, name, kind, pre,
                                               moments={m: 0 for m, _, _ in MOMENTS})
            rec.name = name
            rec.matches += 1
            rec.wins += won
            rec.practice += practice
            rec.results.append(bool(won))
            if points:
                rec.points.extend(int(p) for p in points.split(","))
            for key, _, how in MOMENTS:
                value = counts[_COL[key]]
                rec.moments[key] = (rec.moments[key] + value if how is sum
                                    else max(rec.moments[key], value))
            if rated and kind == "human" and mu is not None:
                rec.history.append((ended, *R.shown(mu, sigma)))
            for other in seats:
                if other is row:
                    continue
                o = rec.opponents.get(other[5])
                if o is None:
                    o = rec.opponents[other[5]] = Opponent(other[5], other[6], other[7])
                o.name = other[6]
                o.matches += 1
                o.wins += place < other[8]
                o.losses += place > other[8]
    stored = {(who, pre): (mu, sigma, n) for who, pre, mu, sigma, n in
              conn.execute("SELECT who, preset, mu, sigma, rated FROM ratings")}
    for (who, pre), rec in out.items():
        if rec.kind == "bot":
            rec.rating = Rating.of(*R.anchor(pre, who[4:]), 0, anchor=True)
        else:
            rec.rating = Rating.of(*stored.get((who, pre), (R.MU, R.SIGMA, 0)))
    found = list(out.values())
    if player:
        wanted = player.casefold()
        found = [r for r in found if wanted in (r.name.casefold(), r.who.casefold())]
    order = {preset: n for n, preset in enumerate(PRESETS)}
    return sorted(found, key=lambda r: (order.get(r.preset, len(order)), r.kind != "human",
                                        -r.matches, r.name.casefold()))


_BOARD = ("FROM ratings WHERE preset=? AND rated>=? AND who NOT LIKE 'bot:%'")


def leaderboard(conn: sqlite3.Connection, preset: str,
                limit: int = LEADERBOARD_SIZE) -> list[tuple[int, str, str, Rating]]:
    """The top ``limit`` non-provisional players of ``preset`` by the cautious end of
    their rating (μ − 2σ): (rank, id, name, rating); equal ones share a rank."""
    rows = conn.execute(f"SELECT who, mu, sigma, rated, name {_BOARD} ORDER BY "
                        "mu - 2*sigma DESC, who LIMIT ?",
                        (preset, R.PROVISIONAL_UNDER, limit)).fetchall()
    return [(rank_of(conn, who, preset) or 0, who, name, Rating.of(mu, sigma, rated))
            for who, mu, sigma, rated, name in rows]


def rank_of(conn: sqlite3.Connection, who: str, preset: str) -> int | None:
    """``who``'s place on ``preset``'s leaderboard (1 the best), or None while they are
    provisional (or unrated)."""
    row = conn.execute("SELECT mu - 2*sigma, rated FROM ratings WHERE who=? AND preset=?",
                       (who, preset)).fetchone()
    if row is None or row[1] < R.PROVISIONAL_UNDER or who.startswith("bot:"):
        return None
    ahead = conn.execute(f"SELECT count(*) {_BOARD} AND mu - 2*sigma > ?",
                         (preset, R.PROVISIONAL_UNDER, row[0])).fetchone()[0]
    return ahead + 1


@dataclass(frozen=True)
class Standing:
    """One game's leaderboard as one player sees it: ``rows`` (rank, id, name,
    rating: :func:`leaderboard`), how many are ranked in all (``ranked``), and
    ``you``: that player's rating (None: no rated match) and ``rank`` (None while
    provisional)."""

    preset: str
    rows: tuple[tuple[int, str, str, Rating], ...]
    ranked: int
    you: Rating | None
    rank: int | None


def boards(conn: sqlite3.Connection, who: str,
           limit: int = LEADERBOARD_SIZE) -> list[Standing]:
    """Each game's :class:`Standing` for ``who`` (the lobby's leaderboard), in
    :data:`~engine.rules.PRESETS` order."""
    out = []
    for preset in PRESETS:
        ranked = conn.execute(f"SELECT count(*) {_BOARD}",
                              (preset, R.PROVISIONAL_UNDER)).fetchone()[0]
        row = conn.execute("SELECT mu, sigma, rated FROM ratings WHERE who=? AND preset=?",
                           (who, preset)).fetchone()
        out.append(Standing(preset, tuple(leaderboard(conn, preset, limit)), ranked,
                            Rating.of(*row) if row else None, rank_of(conn, who, preset)))
    return out


@dataclass(frozen=True)
class SeatChange:
    """What one finished match did to a human seat's rating (``before``/``after``:
    ``None`` when it was not rated, ``why`` says why)."""

    seat: int
    name: str
    preset: str
    before: Rating | None
    after: Rating | None
    why: str | None = None


def changes(conn: sqlite3.Connection, source: str) -> list[SeatChange] | None:
    """The human seats' rating changes of the match at ``source`` (None: the index
    does not hold it as a finished match)."""
    match = conn.execute("SELECT preset, ended, practice, branch, rated FROM matches "
                         "WHERE source=?", (source,)).fetchone()
    if match is None:
        return None
    preset, _, practice, branch, rated = match
    why = None if rated else ("practice (undo)" if practice else "a what-if branch"
                              if branch else "not rated")
    out = []
    for seat, name, mu0, s0, mu1, s1, count in conn.execute(
            "SELECT seat, name, mu_before, sigma_before, mu, sigma, rated_n FROM seats "
            "WHERE source=? AND kind='human' ORDER BY seat", (source,)):
        if mu1 is None:
            out.append(SeatChange(seat, name, preset, None, None, why or "not rated"))
            continue
        out.append(SeatChange(seat, name, preset, Rating.of(mu0, s0, count - 1),
                              Rating.of(mu1, s1, count)))
    return out
