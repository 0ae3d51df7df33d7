"""The arena: two bot levels play whole matches headless, in duplicate pairs.

    result = run_arena(("hard", "normal"), matches=100, seed=1, jobs=2)
    print(result.format())            # or json.dumps(result.to_dict())

Every deal is played twice with the seats swapped (*duplicate pairs*): both
matches of a pair start from the same seed, so each round's shuffle (S3) is the
same deck — luck cancels out and what is left is skill.  A pure function: no
files, no printing; ``on_match(match, levels_by_seat)`` is called after each
finished match, in order (the CLI writes save files and progress from it).
``python -m engine.bots.arena hard,normal 20 1 2 100`` runs one from a shell
(levels, matches, seed, jobs, think_ms, simulations; ``-`` for no think_ms).
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from ..match import Match
from ..rng import Rng
from ..rules import Rules
from . import make

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
    """One bot's tally (index 0 or 1 of ``levels``)."""

    wins: int = 0
    points: int = 0
    times: list = field(default_factory=list)


@dataclass
class ArenaResult:
    """What an arena run measured.  ``to_dict()`` is JSON-able; ``format()`` is a table."""

    levels: tuple[str, str]
    matches: int
    seed: int
    rules: Rules
    think_ms: int | None
    sides: tuple[_Side, _Side]
    draws: int = 0
    rounds: int = 0
    actions: int = 0
    seconds: float = 0.0
    pairs: dict = field(default_factory=lambda: {"first_won_both": 0, "split": 0,
                                                 "second_won_both": 0, "other": 0})

    def names(self) -> tuple[str, str]:
        a, b = self.levels
        return (a, b) if a != b else (f"{a}#1", f"{b}#2")

    def to_dict(self) -> dict:
        bots = {}
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
            "duplicate_pairs": dict(self.pairs), "draws": self.draws, "bots": bots,
            "rounds": self.rounds, "actions": self.actions, "seconds": self.seconds,
            "actions_per_second": self.actions / self.seconds if self.seconds else 0.0,
        }

    def format(self) -> str:
        d = self.to_dict()
        first, second = self.names()
        lines = [
            f"{first} vs {second}: {self.matches} matches in duplicate pairs, seed {self.seed}, "
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
        lines.append(f"draws {self.draws}; pairs: {first} won both {p['first_won_both']}, "
                     f"split {p['split']}, {second} won both {p['second_won_both']}")
        lines.append(f"{self.rounds} rounds, {self.actions} actions in {self.seconds:.1f} s "
                     f"({d['actions_per_second']:.0f} actions/s)")
        return "\n".join(lines)


def _deal_seed(seed: int, pair: int) -> int:
    return Rng(seed, pair).next64()


def _play(levels: tuple[str, str], deal: int, swap: bool, rules: Rules,
          think_ms: int | None, simulations: int | None) -> tuple[Match, tuple[str, str], dict]:
    """One match of a pair; ``swap``: ``levels[1]`` sits in seat 0."""
    order = (1, 0) if swap else (0, 1)  # order[seat] = index into levels
    bots = [make(levels[i], seed=deal * 2 + i, think_ms=think_ms, simulations=simulations)
            for i in order]
    m = Match.new(rules, seed=deal)
    times: tuple[list, list] = ([], [])
    clock = time.perf_counter
    while not m.over:
        seat = m.to_act
        view = m.view(seat)
        tick = clock()
        action = bots[seat].choose(view)
        times[order[seat]].append(clock() - tick)
        m.apply(action)
    points = [0, 0]
    for _, scored in m.rounds:
        for seat in (0, 1):
            points[order[seat]] += scored[seat]
    winner = None if m.winner is None else order[m.winner]
    stats = {"winner": winner, "points": points, "rounds": len(m.rounds), "times": times,
             "actions": sum(1 for e in m.actions if not e.is_chance)}
    return m, tuple(levels[i] for i in order), stats


def _pair_job(args) -> list:
    """Both matches of one pair (a worker process returns logs, not matches)."""
    levels, deal, rules, think_ms, sims, count, want_log = args
    out = []
    for swap in (False, True)[:count]:
        m, by_seat, stats = _play(levels, deal, swap, rules, think_ms, sims)
        out.append((m.actions if want_log else None, by_seat, stats))
    return out


def _pairs(levels, matches, seed, rules, think_ms, sims, jobs, want_log) -> Iterator[list]:
    tasks = [(levels, _deal_seed(seed, p), rules, think_ms, sims, min(2, matches - 2 * p),
              want_log) for p in range((matches + 1) // 2)]
    if jobs <= 1:
        for levels_, deal, rules_, think, sims_, count, _ in tasks:
            yield [_play(levels_, deal, swap, rules_, think, sims_)
                   for swap in (False, True)[:count]]
        return
    import multiprocessing
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for done in pool.imap(_pair_job, tasks):
            yield [(Match.replay(rules, log) if log is not None else None, by_seat, stats)
                   for log, by_seat, stats in done]


def run_arena(levels: tuple[str, str], matches: int, seed: int, jobs: int = 1,
              rules: Rules | None = None, think_ms: int | None = None,
              on_match: Callable[[Match, tuple[str, str]], None] | None = None,
              simulations: int | None = None) -> ArenaResult:
    """Play ``matches`` whole matches between ``levels[0]`` and ``levels[1]`` in
    duplicate pairs (an odd count leaves the last deal unreplayed).  ``jobs > 1``
    plays pairs in worker processes; results and ``on_match`` calls stay in order
    and are the same as with one job (``think_ms`` aside: a time budget is not
    deterministic).  ``think_ms`` and ``simulations`` go to every bot (only ``hard``
    uses them: see :func:`engine.bots.make`)."""
    levels = tuple(levels)
    if len(levels) != 2:
        raise ValueError("an arena needs exactly two bot levels")
    for level in levels:
        make(level)  # unknown levels fail here, before any work
    if matches < 1:
        raise ValueError("matches must be at least 1")
    rules = rules or Rules()
    result = ArenaResult(levels, matches, seed, rules, think_ms, (_Side(), _Side()))
    start = time.perf_counter()
    for pair in _pairs(levels, matches, seed, rules, think_ms, simulations, jobs,
                       on_match is not None):
        winners = []
        for m, by_seat, stats in pair:
            winners.append(stats["winner"])
            if stats["winner"] is None:
                result.draws += 1
            else:
                result.sides[stats["winner"]].wins += 1
            for i in (0, 1):
                result.sides[i].points += stats["points"][i]
                result.sides[i].times.extend(stats["times"][i])
            result.rounds += stats["rounds"]
            result.actions += stats["actions"]
            if on_match is not None:
                on_match(m, by_seat)
        if len(winners) == 2:
            key = {(0, 0): "first_won_both", (1, 1): "second_won_both",
                   (0, 1): "split", (1, 0): "split"}.get(tuple(winners), "other")
            result.pairs[key] += 1
    result.seconds = time.perf_counter() - start
    return result


def main(argv: list[str] | None = None) -> int:
    """``python -m engine.bots.arena LEVEL,LEVEL MATCHES SEED [JOBS] [THINK_MS] [SIMULATIONS]``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 3:
        print(main.__doc__)
        return 2
    levels = tuple(args[0].split(","))
    jobs = int(args[3]) if len(args) > 3 else 1
    think = int(args[4]) if len(args) > 4 and args[4] != "-" else None
    sims = int(args[5]) if len(args) > 5 else None
    print(run_arena(levels, int(args[1]), int(args[2]), jobs=jobs, think_ms=think,
                    simulations=sims).format())
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
