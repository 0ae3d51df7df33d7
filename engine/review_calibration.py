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
logit) was tried too: held out on the same folds its worst tenth was 2.8 points off
(UNO Duo) and 5.3 (classic 4 seats, 70–80), the isotonic map's 1.2 and 2.3.
On matches it was not fitted on (tests/data/review_calibration.tsv.xz, seeds from 7000:
24,829 UNO Duo positions, 52,777 classic ones) the shipped map's worst tenth is 4.4
points off in UNO Duo and 2.1 in classic 4 seats.

A frequency of 0 or 1 — every world agreed, e.g. a last card that goes out — is kept
(those positions are not in the fit; the held-out tables show them as they are).  A
preset or seat count without a fit keeps the raw frequency.

Fitted by (:data:`KNOTS` is the last line it prints; 52947 UNO Duo positions of 1065
rounds, 46807 classic ones of 800; the last two UNO Duo runs were stopped during
their 122nd and 120th matches) — with ``positions`` as it was before commit d57b748:
the move played valued alone over 100 worlds, where a review now values it with the
other alternatives over ``BUDGET // options`` worlds (16–160), as today's
``positions`` rows are; the same commands now make those rows, not the fit's::

    P="python -m tests.bench.review positions"
    $P --preset duo --matches 400 --seed 1000 > duo1.tsv
    $P --preset duo --matches 400 --seed 2000 > duo2.tsv
    $P --preset duo --matches 122 --seed 4000 > duo3.tsv
    $P --preset duo --matches 120 --seed 5000 > duo4.tsv
    $P --preset classic --seats 4 --matches 400 --seed 1000 > c4a.tsv
    $P --preset classic --seats 4 --matches 400 --seed 3000 > c4b.tsv
    cat *.tsv | python -m tests.bench.review calibrate
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .rules import Rules

__all__ = ["KNOTS", "VERSION", "calibrated", "fitted", "interpolate"]

#: (preset, seats) -> the map's knots: (raw frequency, win chance), increasing in both
KNOTS: dict[tuple[str, int], tuple[tuple[float, float], ...]] = {
    ('classic', 4): (
        (0.01, 0.026), (0.02, 0.0265), (0.03, 0.032), (0.0452, 0.0384), (0.06, 0.0622), (0.07,
        0.064), (0.0851, 0.0779), (0.1, 0.1041), (0.11, 0.1056), (0.1251, 0.117), (0.1449,
        0.1573), (0.1701, 0.1782), (0.19, 0.1968), (0.2, 0.2116), (0.2151, 0.2305), (0.23,
        0.2335), (0.24, 0.2352), (0.25, 0.2598), (0.26, 0.2694), (0.27, 0.2742), (0.28, 0.2851),
        (0.29, 0.2872), (0.3047, 0.3122), (0.32, 0.319), (0.33, 0.332), (0.3448, 0.3389),
        (0.3648, 0.397), (0.3946, 0.4054), (0.4297, 0.4215), (0.45, 0.4894), (0.46, 0.522),
        (0.4887, 0.5304), (0.52, 0.5661), (0.5526, 0.5854), (0.5999, 0.6201), (0.6307, 0.6297),
        (0.6738, 0.6593), (0.7383, 0.7219), (0.8345, 0.855)),
    ('duo', 2): (
        (0.0808, 0.1479), (0.143, 0.1796), (0.17, 0.1933), (0.18, 0.2177), (0.2005, 0.226),
        (0.22, 0.2542), (0.235, 0.2634), (0.2555, 0.2871), (0.2751, 0.3008), (0.29, 0.337),
        (0.3051, 0.3375), (0.32, 0.3729), (0.3348, 0.3896), (0.3603, 0.4099), (0.38, 0.4119),
        (0.39, 0.4144), (0.4, 0.4374), (0.4205, 0.4586), (0.44, 0.4649), (0.45, 0.468), (0.46,
        0.475), (0.4802, 0.4862), (0.505, 0.4984), (0.52, 0.5161), (0.53, 0.5253), (0.54,
        0.5328), (0.5548, 0.5654), (0.57, 0.5755), (0.58, 0.5947), (0.595, 0.5974), (0.6148,
        0.6201), (0.63, 0.6451), (0.6451, 0.6516), (0.66, 0.6678), (0.67, 0.6931), (0.68,
        0.7234), (0.6948, 0.7303), (0.7149, 0.7363), (0.7346, 0.7393), (0.7594, 0.7609), (0.789,
        0.8006), (0.8149, 0.8158), (0.8461, 0.8474), (0.9179, 0.9306)),
}

#: names this fit (a review cache keyed by another is refused)
VERSION = "isotonic-2"


def interpolate(raw: float, knots: Sequence[tuple[float, float]]) -> float:
    """The map through ``knots`` (and (0, 0), (1, 1)) at ``raw``, linear in between."""
    xs = [0.0] + [x for x, _ in knots] + [1.0]
    ys = [0.0] + [y for _, y in knots] + [1.0]
    i = min(len(xs) - 1, max(1, bisect_right(xs, raw)))
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    return y0 if x1 <= x0 else y0 + (y1 - y0) * (raw - x0) / (x1 - x0)


def fitted(rules: "Rules") -> bool:
    """Whether a map was fitted for ``rules``' game: its preset and seat count, without
    house rules (they change the game)."""
    return (rules.preset, rules.seats) in KNOTS and not rules.house


def calibrated(raw: float, preset: str, seats: int) -> float:
    """``raw`` as a win chance (0–1) for ``preset`` at ``seats`` seats."""
    knots = KNOTS.get((preset, seats))
    if knots is None or raw <= 0.0 or raw >= 1.0:
        return raw
    return interpolate(raw, knots)
