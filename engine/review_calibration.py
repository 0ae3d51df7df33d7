"""The game review's calibration (#25): raw rollout frequencies → win chances.

A review's raw value is how often a seat went out first in rollouts of the normal
policy from worlds sampled from its view; that frequency is not yet a chance (the
worlds are drawn from a belief, the rollout policy is not the players).  Per preset
and seat count, an *isotonic* map (pool-adjacent-violators: the non-decreasing map
that fits best, its blocks pooled until each holds 200 positions; a block's mean raw
frequency → its realised frequency, linear in between and towards 0 → 0 and 1 → 1, so
strictly increasing) was fitted to whether the seat then won the round, over every
decision of seeded normal-bot matches, and checked on held-out folds by match (the
reliability tables in the #25 note).  A two-parameter Platt map (logistic in the
logit) was tried first: held out, it left UNO Duo's two lowest tenths 6 points under
the realised frequencies (the raw frequencies are too low at the bottom and nearly
right in the middle, which one logistic cannot follow); the isotonic map follows it.

A frequency of 0 or 1 — every world agreed, e.g. a last card that goes out — is kept
(those positions are not in the fit; the held-out tables show them as they are).  A
preset or seat count without a fit keeps the raw frequency.

Fitted by (:data:`KNOTS` is the last line it prints)::

    python -m engine.review_bench positions --preset duo --matches 400 --seed 1000 > duo.tsv
    python -m engine.review_bench positions --preset classic --seats 4 --matches 400 \\
        --seed 1000 > c4.tsv
    cat duo.tsv c4.tsv | python -m engine.review_bench calibrate
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Sequence

__all__ = ["KNOTS", "VERSION", "calibrated", "interpolate"]

#: (preset, seats) -> the map's knots: (raw frequency, win chance), increasing in both
KNOTS: dict[tuple[str, int], tuple[tuple[float, float], ...]] = {
    ('classic', 4): (
        (0.01, 0.0315), (0.02, 0.0328), (0.03, 0.0371), (0.04, 0.0392), (0.05, 0.0427), (0.06,
        0.0679), (0.07, 0.0684), (0.0852, 0.0824), (0.1, 0.1103), (0.11, 0.113), (0.1251,
        0.1202), (0.1449, 0.1629), (0.1702, 0.1832), (0.19, 0.1956), (0.2, 0.2138), (0.225,
        0.2314), (0.25, 0.2549), (0.26, 0.2666), (0.27, 0.2749), (0.28, 0.2807), (0.29, 0.2862),
        (0.3048, 0.314), (0.32, 0.3183), (0.33, 0.3297), (0.3448, 0.3333), (0.3649, 0.3952),
        (0.3986, 0.4042), (0.43, 0.4185), (0.44, 0.4257), (0.45, 0.4853), (0.46, 0.4983),
        (0.4886, 0.5309), (0.547, 0.5718), (0.6035, 0.6096), (0.6346, 0.622), (0.6736, 0.6528),
        (0.7384, 0.7117), (0.8337, 0.8584)),
    ('duo', 2): (
        (0.0793, 0.1809), (0.1746, 0.2228), (0.2254, 0.2281), (0.24, 0.261), (0.25, 0.2764),
        (0.2753, 0.2955), (0.3, 0.2966), (0.31, 0.3104), (0.32, 0.3552), (0.3348, 0.3681),
        (0.35, 0.385), (0.3754, 0.4053), (0.4, 0.4553), (0.4207, 0.4556), (0.44, 0.4573),
        (0.4699, 0.4838), (0.505, 0.5022), (0.5249, 0.5091), (0.54, 0.5596), (0.55, 0.5607),
        (0.56, 0.5679), (0.57, 0.585), (0.5896, 0.5917), (0.61, 0.6042), (0.62, 0.6206), (0.63,
        0.625), (0.64, 0.6627), (0.6546, 0.6702), (0.67, 0.6928), (0.6981, 0.7327), (0.7347,
        0.7337), (0.7596, 0.771), (0.7889, 0.803), (0.8146, 0.8045), (0.8343, 0.8408), (0.864,
        0.8493), (0.9253, 0.9517)),
}

#: names this fit (a review cache keyed by another is refused)
VERSION = "isotonic-1"


def interpolate(raw: float, knots: Sequence[tuple[float, float]]) -> float:
    """The map through ``knots`` (and (0, 0), (1, 1)) at ``raw``, linear in between."""
    xs = [0.0] + [x for x, _ in knots] + [1.0]
    ys = [0.0] + [y for _, y in knots] + [1.0]
    i = min(len(xs) - 1, max(1, bisect_right(xs, raw)))
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    return y0 if x1 <= x0 else y0 + (y1 - y0) * (raw - x0) / (x1 - x0)


def calibrated(raw: float, preset: str, seats: int) -> float:
    """``raw`` as a win chance (0–1) for ``preset`` at ``seats`` seats."""
    knots = KNOTS.get((preset, seats))
    if knots is None or raw <= 0.0 or raw >= 1.0:
        return raw
    return interpolate(raw, knots)
