"""The bots' anchor ratings, measured in the arena: ``python -m tests.bench.ratings``.

    python -m tests.bench.ratings [--preset duo|classic] [--matches N]
        [--hard-matches N] [--seed S] [--jobs J]

For each preset, the adjacent levels (random–easy, easy–normal, normal–hard) play
``N`` two-seat matches in duplicate pairs (:func:`engine.bots.arena.run_arena`; the
hard bot's ``--hard-matches``, it thinks 500 ms a move).  A measured win share ``p``
(draws half; ``(w + ½)/(n + 1)``, so a level that won every match is placed at a
floor, not at infinity) puts the stronger level ``c·logit(p)`` above the weaker in μ:
in the Plackett–Luce model two players of μa, μb win against each other with odds
``exp((μa − μb)/c)``, ``c = √(2β² + σa² + σb²)``.  The normal bot is μ 25 (1500).
Prints the table :data:`unoduo_tui.record.ratings.ANCHORS` holds.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from engine import Rules
from engine.bots.arena import run_arena

from unoduo_tui.record.ratings import BETA, MU

__all__ = ["main", "gap"]

LEVELS = ("random", "easy", "normal", "hard")
ANCHOR_SIGMA = 1.0


def gap(wins: float, matches: int, sigma: float = ANCHOR_SIGMA) -> float:
    """The μ by which a level that won ``wins`` of ``matches`` stands above the other."""
    p = (wins + 0.5) / (matches + 1)
    c = math.sqrt(2 * BETA ** 2 + 2 * sigma ** 2)
    return c * math.log(p / (1 - p))


def calibrate(preset: str, matches: int, hard_matches: int, seed: int, jobs: int,
              log=print) -> dict[str, tuple[float, float]]:
    rules = Rules(preset=preset, seats=2)
    steps = {}
    for weak, strong in zip(LEVELS, LEVELS[1:]):
        n = hard_matches if strong == "hard" else matches
        result = run_arena((strong, weak), n, seed, jobs=jobs, rules=rules)
        won = result.sides[0].wins + result.draws / 2
        steps[strong] = gap(won, n)
        log(f"{preset}: {strong} v {weak}: {won:g} of {n} → +{steps[strong]:.2f} μ "
            f"({result.seconds:.0f} s)")
    mu = {"normal": MU}
    mu["easy"] = MU - steps["normal"]
    mu["random"] = mu["easy"] - steps["easy"]
    mu["hard"] = MU + steps["hard"]
    return {level: (round(mu[level], 2), ANCHOR_SIGMA) for level in LEVELS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.ratings")
    parser.add_argument("--preset", choices=("duo", "classic"), action="append")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--hard-matches", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    table = {preset: calibrate(preset, args.matches, args.hard_matches, args.seed, args.jobs,
                               log=lambda line: print(line, file=sys.stderr, flush=True))
             for preset in args.preset or ("duo", "classic")}
    print(json.dumps(table))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
