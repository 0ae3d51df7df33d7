"""The arena: bot levels play whole matches headless, in duplicate deals.

    result = run_arena(("hard", "normal"), matches=100, seed=1, jobs=2)
    print(result.format())            # or json.dumps(result.to_dict())
    run_arena(("normal", "easy", "easy", "easy"), 40, 1,
              rules=Rules(preset="classic", seats=4))

One level per seat (or one for all).  Every deal is played once per seat with the
seating rotated (with two seats: swapped — *duplicate pairs*): all the matches of a
deal start from the same seed, so each round's shuffle is the same deck and every
player meets it from every seat — luck cancels out and what is left is skill.
With jump-in (H4) every other seat's bot is asked (``jump``) after each move while the
window is open; with partners (H5) both partners are credited with the team's win.  A pure function: no
files, no printing; ``on_match(match, levels_by_seat)`` is called after each
finished match, in order (the CLI writes save files and progress from it).  The hard
bot's ``think_ms`` is CPU time with no wall-clock cap here (in the app it stops at
twice its budget of wall-clock time): on a busy or niced machine a run takes longer,
its result is the same.
``python -m engine.bots.arena hard,normal 20 1 2 100`` runs one from a shell
(levels, matches, seed, jobs, think_ms, simulations; ``-`` for no think_ms).
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypedDict

from ..match import Match
from ..rng import Rng
from ..rules import Rules
from . import Bot, make
from .hard import HardBot

if TYPE_CHECKING:  # pragma: no cover
    from ..actions import Action, Chance


class _Stats(TypedDict):
    """One match's result, per player (its index in ``levels``)."""

    winner: int | None
    partner: int | None
    points: list[int]
    rounds: int
    times: tuple[list[float], ...]
    actions: int


#: a played match: (the match — None from a worker when its log was not asked for —,
#: the level in each seat, its stats)
_Played = tuple["Match | None", tuple[str, ...], _Stats]

__all__ = ["ArenaResult", "run_arena", "wilson"]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denom = 1 + z * z / n
    return (max(0.0, (centre - spread) / denom), min(1.0, (centre + spread) / denom))


@dataclass
class _Side:
    """One player's tally (its index in ``levels``)."""

    wins: int = 0
    points: int = 0
    times: list[float] = field(default_factory=list)


@dataclass
class ArenaResult:
    """What an arena run measured.  ``to_dict()`` is JSON-able; ``format()`` is a table."""

    levels: tuple[str, ...]
    matches: int
    seed: int
    rules: Rules
    think_ms: int | None
    sides: tuple[_Side, ...]
    draws: int = 0
    rounds: int = 0
    actions: int = 0
    seconds: float = 0.0
    pairs: dict[str, int] = field(default_factory=lambda: {"first_won_both": 0, "split": 0,
                                                 "second_won_both": 0, "other": 0})

    def names(self) -> tuple[str, ...]:
        """Each player's name: its level, with ``#seat`` when the level plays twice."""
        return tuple(level if self.levels.count(level) == 1 else f"{level}#{i + 1}"
                     for i, level in enumerate(self.levels))

    def to_dict(self) -> dict[str, Any]:
        bots: dict[str, dict[str, Any]] = {}
        for name, side in zip(self.names(), self.sides):
            share = side.wins + self.draws / 2
            low, high = wilson(share, self.matches)
            times = side.times or [0.0]
            bots[name] = {
                "wins": side.wins,
                "win_rate": share / self.matches if self.matches else 0.0,
                "win_rate_ci95": [low, high],
                "mean_points_per_round": side.points / self.rounds if self.rounds else 0.0,
                "decisions": len(side.times),
                "mean_decision_ms": 1000 * statistics.fmean(times),
                "median_decision_ms": 1000 * statistics.median(times),
                "max_decision_ms": 1000 * max(times),
            }
        return {
            "levels": list(self.levels), "matches": self.matches, "seed": self.seed,
            "rules": self.rules.to_dict(), "think_ms": self.think_ms,
            "seats": len(self.levels), "duplicate_pairs": dict(self.pairs),
            "draws": self.draws, "bots": bots,
            "rounds": self.rounds, "actions": self.actions, "seconds": self.seconds,
            "actions_per_second": self.actions / self.seconds if self.seconds else 0.0,
        }

    def format(self) -> str:
        d = self.to_dict()
        names = self.names()
        first, second = names[0], names[-1]
        how = "duplicate pairs" if len(names) == 2 else f"duplicate deals rotated over {len(names)} seats"
        lines = [
            f"{' vs '.join(names)}: {self.matches} matches in {how}, seed {self.seed}, "
            f"rules {self.rules.describe()}"
            + (f", think {self.think_ms} ms" if self.think_ms is not None else ""),
            f"{'bot':<8} {'wins':>4} {'win %':>7}  {'95% CI':<13} {'pts/rd':>6}  "
            f"{'ms mean / median / max':>25}",
        ]
        for name, b in d["bots"].items():  # 70 columns: fits an 80-column terminal
            low, high = b["win_rate_ci95"]
            ci = f"{100 * low:.1f}–{100 * high:.1f}%"
            lines.append(
                f"{name:<8} {b['wins']:>4} {100 * b['win_rate']:>6.1f}%  "
                f"{ci:<13} {b['mean_points_per_round']:>6.1f}  "
                f"{b['mean_decision_ms']:>7.1f} / {b['median_decision_ms']:>6.1f} / "
                f"{b['max_decision_ms']:>6.0f}")
        p = self.pairs
        if len(names) == 2:
            lines.append(f"draws {self.draws}; pairs: {first} won both {p['first_won_both']}, "
                         f"split {p['split']}, {second} won both {p['second_won_both']}")
        else:
            lines.append(f"draws (shared wins) {self.draws}")
        lines.append(f"{self.rounds} rounds, {self.actions} actions in {self.seconds:.1f} s "
                     f"({d['actions_per_second']:.0f} actions/s)")
        return "\n".join(lines)


def _deal_seed(seed: int, pair: int) -> int:
    return Rng(seed, pair).next64()


def _play(levels: tuple[str, ...], deal: int, turn: int, rules: Rules,
          think_ms: int | None, simulations: int | None
          ) -> tuple[Match, tuple[str, ...], _Stats]:
    """The ``turn``-th match of a deal: player ``i`` (``levels[i]``) sits in seat
    ``(i + turn) mod n`` (with two seats, turn 1 swaps them)."""
    n = len(levels)
    order = tuple((seat - turn) % n for seat in range(n))  # order[seat] = player index
    bots = [make(levels[i], seed=deal * n + i, think_ms=think_ms, simulations=simulations)
            for i in order]
    for bot in bots:  # strength per CPU second: a busy machine must not cut a search short
        if isinstance(bot, HardBot):
            bot.wall_factor = math.inf
    m = Match.new(rules, seed=deal)
    times: tuple[list[float], ...] = tuple([] for _ in range(n))
    clock = time.perf_counter
    while (seat := m.to_act) is not None:
        view = m.view(seat)
        tick = clock()
        action = bots[seat].choose(view)
        times[order[seat]].append(clock() - tick)
        m.apply(action)
        if rules.jump_in:
            _jump_ins(m, bots, times, order)
    points = [0] * n
    for _, scored in m.rounds:
        for seat in range(n):
            points[order[seat]] += scored[seat]
    winner = None if m.winner is None else order[m.winner]
    partner = None if m.winner is None else rules.partner(m.winner)
    stats: _Stats = {"winner": winner, "partner": None if partner is None else order[partner],
             "points": points, "rounds": len(m.rounds), "times": times,
             "actions": sum(1 for e in m.actions if not e.is_chance)}
    return m, tuple(levels[i] for i in order), stats


def _jump_ins(m: Match, bots: list[Bot], times: tuple[list[float], ...],
              order: tuple[int, ...]) -> None:
    """H4: while the jump-in window is open, each other seat's bot (in seat order from
    the seat to act) may take one; the first taken closes it (and a jump opens another)."""
    clock = time.perf_counter
    while (first := m.to_act) is not None:
        n = m.seats
        for step in range(1, n):
            seat = (first + step) % n
            if not m.legal_actions(seat):
                continue
            tick = clock()
            action = bots[seat].jump(m.view(seat))
            times[order[seat]].append(clock() - tick)
            if action is not None:
                m.apply(action, seat=seat)
                break
        else:
            return


#: one deal's work: (levels, deal seed, rules, think_ms, simulations, matches, want the log)
_Task = tuple[tuple[str, ...], int, Rules, "int | None", "int | None", int, bool]


def _pair_job(args: "_Task") -> "list[tuple[list[Action | Chance] | None, tuple[str, ...], _Stats]]":
    """The matches of one deal (a worker process returns logs, not matches)."""
    levels, deal, rules, think_ms, sims, count, want_log = args
    out = []
    for turn in range(count):
        m, by_seat, stats = _play(levels, deal, turn, rules, think_ms, sims)
        out.append((m.actions if want_log else None, by_seat, stats))
    return out


def _pairs(levels: tuple[str, ...], matches: int, seed: int, rules: Rules, think_ms: int | None,
           sims: int | None, jobs: int, want_log: bool) -> Iterator[list[_Played]]:
    n = len(levels)
    tasks: list[_Task] = [(levels, _deal_seed(seed, p), rules, think_ms, sims, min(n, matches - n * p),
              want_log) for p in range((matches + n - 1) // n)]
    if jobs <= 1:
        for levels_, deal, rules_, think, sims_, count, _ in tasks:
            yield [_play(levels_, deal, turn, rules_, think, sims_) for turn in range(count)]
        return
    import multiprocessing
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for done in pool.imap(_pair_job, tasks):
            yield [(Match.replay(rules, log) if log is not None else None, by_seat, stats)
                   for log, by_seat, stats in done]


def run_arena(levels: tuple[str, ...], matches: int, seed: int, jobs: int = 1,
              rules: Rules | None = None, think_ms: int | None = None,
              on_match: Callable[[Match, tuple[str, ...]], None] | None = None,
              simulations: int | None = None,
              progress: Callable[[int], None] | None = None) -> ArenaResult:
    """Play ``matches`` whole matches between ``levels`` (one per seat of ``rules``,
    or one for all) in duplicate deals (a count that is not a multiple of the seats
    leaves the last deal played fewer times).  ``jobs > 1``
    plays pairs in worker processes; results and ``on_match`` calls stay in order
    and are the same as with one job (``think_ms`` aside: a time budget is not
    deterministic).  ``think_ms`` and ``simulations`` go to every bot (only ``hard``
    uses them: see :func:`engine.bots.make`).  ``progress(done)`` is called with the
    number of matches played so far after each deal."""
    rules = rules or Rules()
    levels = tuple(levels)
    if len(levels) == 1:
        levels = levels * rules.seats
    if len(levels) != rules.seats:
        raise ValueError(f"an arena of {rules.seats} seats needs {rules.seats} bot levels "
                         f"(or one for all), not {len(levels)}")
    for level in levels:
        make(level)  # unknown levels fail here, before any work
    if matches < 1:
        raise ValueError("matches must be at least 1")
    result = ArenaResult(levels, matches, seed, rules, think_ms,
                         tuple(_Side() for _ in levels))
    start = time.perf_counter()
    done = 0
    for pair in _pairs(levels, matches, seed, rules, think_ms, simulations, jobs,
                       on_match is not None):
        winners: list[int | None] = []
        for m, by_seat, stats in pair:
            winners.append(stats["winner"])
            if stats["winner"] is None:
                result.draws += 1
            else:
                result.sides[stats["winner"]].wins += 1
                if stats["partner"] is not None:  # H5: the partner shares the win
                    result.sides[stats["partner"]].wins += 1
            for i in range(len(levels)):
                result.sides[i].points += stats["points"][i]
                result.sides[i].times.extend(stats["times"][i])
            result.rounds += stats["rounds"]
            result.actions += stats["actions"]
            if on_match is not None:
                assert m is not None  # its log was asked for
                on_match(m, by_seat)
        if len(levels) == 2 and len(winners) == 2:
            outcomes: dict[tuple[int | None, int | None], str] = {
                (0, 0): "first_won_both", (1, 1): "second_won_both", (0, 1): "split",
                (1, 0): "split"}
            key = outcomes.get((winners[0], winners[1]), "other")
            result.pairs[key] += 1
        done += len(pair)
        if progress is not None:
            progress(done)
    result.seconds = time.perf_counter() - start
    return result


def main(argv: list[str] | None = None) -> int:
    """``python -m engine.bots.arena LEVEL,LEVEL[,…] MATCHES SEED [JOBS] [THINK_MS]
    [SIMULATIONS] [classic]`` (``classic``: the classic preset, one seat per level)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 3:
        print(main.__doc__)
        return 2
    levels = tuple(args[0].split(","))
    jobs = int(args[3]) if len(args) > 3 else 1
    think = int(args[4]) if len(args) > 4 and args[4] != "-" else None
    sims = int(args[5]) if len(args) > 5 and args[5] != "-" else None
    rules = (Rules(preset="classic", seats=len(levels)) if len(args) > 6 and args[6] == "classic"
             else Rules())
    print(run_arena(levels, int(args[1]), int(args[2]), jobs=jobs, think_ms=think,
                    simulations=sims, rules=rules).format())
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
