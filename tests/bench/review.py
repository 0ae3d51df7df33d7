"""The game review's figures (#25): ``python -m tests.bench.review [speed|levels|calibration]``.

- ``speed``: seconds to review every decision of one seeded match (hard vs normal):
  UNO Duo, and classic at 4 seats.
- ``levels``: each bot level's mean accuracy over seeded arena matches (the matches
  ``unoduo simulate`` plays) against normal bots.
- ``calibration``: a reliability table — over the decisions of seeded normal-bot
  matches, the predicted win chance of the move played, per tenth, against how often
  that seat then won the round.
"""

from __future__ import annotations

import argparse
import time
from typing import Sequence

from engine.bots import LEVELS
from engine.bots.arena import run_arena
from engine.match import Match
from engine.review import Reviewer, positions, review, summarise
from engine.rules import Rules

__all__ = ["arena_matches", "level_accuracy", "calibration", "review_seconds", "main"]


def arena_matches(levels: Sequence[str], matches: int, seed: int, rules: Rules,
                  simulations: int = 48) -> list[tuple[Match, tuple[str, ...]]]:
    """Seeded arena matches (duplicate deals, seats swapped), each with its seats' levels."""
    out: list[tuple[Match, tuple[str, ...]]] = []
    run_arena(tuple(levels), matches, seed, rules=rules, simulations=simulations,
              on_match=lambda m, by_seat: out.append((m, tuple(by_seat))))
    return out


def level_accuracy(level: str, matches: int, seed: int, rules: Rules,
                   budget: int) -> float:
    """``level``'s mean accuracy over ``matches`` arena matches against normal bots."""
    others = ("normal",) * (rules.seats - 1)
    accs = []
    for k, (m, by_seat) in enumerate(arena_matches((level,) + others, matches, seed, rules)):
        seats = [s for s, lv in enumerate(by_seat) if lv == level][:1]
        ds = review(positions(rules, m.actions, m.seed, seats=seats), rules, seed=k,
                    budget=budget)
        acc = summarise(ds, rules.seats).seats[seats[0]].accuracy
        if acc is not None:
            accs.append(acc)
    return sum(accs) / len(accs)


def calibration(matches: int, seed: int, rules: Rules, worlds: int = 100, every: int = 1
                ) -> list[tuple[int, int, float, float]]:
    """Per tenth of predicted win chance: (tenth, positions, mean predicted, realised
    frequency), both in points — the played move's value at every ``every``-th
    non-draft decision of seeded normal-bot matches, against whether that seat won that
    round (the positions of one round share its outcome: many short matches, sampled
    sparsely, give more independent rounds for the same work)."""
    bins: list[list[tuple[float, int]]] = [[] for _ in range(10)]
    for k, (m, _) in enumerate(arena_matches(("normal",), matches, seed, rules)):
        reviewer = Reviewer(rules, seed=k, budget=worlds)
        for i, p in enumerate(positions(rules, m.actions, m.seed)):
            if p.view.phase == "draft" or (i + k) % every:
                continue
            per = reviewer.values(p.view, [p.played])[0]
            predicted = 100.0 * sum(per) / len(per)
            won = int(m.rounds[p.view.round - 1][0] == p.seat)
            bins[min(9, int(predicted // 10))].append((predicted, won))
    return [(i, len(b), sum(x for x, _ in b) / len(b), 100.0 * sum(w for _, w in b) / len(b))
            for i, b in enumerate(bins) if b]


def review_seconds(rules: Rules, seed: int, min_decisions: int = 300,
                   budget: int | None = None) -> tuple[int, int, float]:
    """(decisions in the match, decisions reviewed, seconds) for the first seeded
    hard-vs-normal match from ``seed`` with at least ``min_decisions`` decisions."""
    levels = ("hard",) + ("normal",) * (rules.seats - 1)
    for k in range(50):
        (m, _), = arena_matches(levels, 1, seed + k, rules)
        count = sum(1 for e in m.actions if not e.is_chance)
        if count >= min_decisions:
            break
    tick = time.perf_counter()
    kw = {} if budget is None else {"budget": budget}
    done = sum(1 for _ in review(positions(rules, m.actions, m.seed), rules, **kw))
    return count, done, time.perf_counter() - tick


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.review",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("speed", "levels", "calibration"))
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="duo")
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--target", type=int, default=None,
                        help="points that end a match (1: one round each)")
    parser.add_argument("--worlds", type=int, default=100, help="calibration: per position")
    parser.add_argument("--every", type=int, default=1, help="calibration: every n-th decision")
    args = parser.parse_args(argv)
    rules = Rules(preset=args.preset, seats=args.seats, target=args.target)
    if args.what == "speed":
        for r in (Rules(), Rules(preset="classic", seats=4)):
            count, done, secs = review_seconds(r, args.seed, budget=args.budget)
            print(f"{r.preset} {r.seats} seats: {count} decisions ({done} reviewed, the draft's "
                  f"not) in {secs:.1f} s ({1000 * secs / max(1, done):.0f} ms each)", flush=True)
    elif args.what == "levels":
        for level in LEVELS:
            acc = level_accuracy(level, args.matches, args.seed, rules, args.budget or 240)
            print(f"{level:7} accuracy {acc:5.1f} over {args.matches} matches", flush=True)
    else:
        print("tenth  positions  predicted  realised  gap")
        for i, n, pred, real in calibration(args.matches, args.seed, rules, args.worlds,
                                            args.every):
            print(f"{i * 10:3}-{i * 10 + 10:<3} {n:8} {pred:9.1f} {real:9.1f} {real - pred:+5.1f}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
