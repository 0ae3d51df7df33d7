"""The game review's calibration (#25): raw rollout frequencies → win chances.

A review's raw value is how often a seat went out first in rollouts of the normal
policy from worlds sampled from its view; that frequency is not yet a chance (the
worlds are drawn from a belief, the rollout policy is not the players).  Per preset
and seat count, a Platt map — ``1 / (1 + exp(-(a·logit(p) + b)))``, ``p`` the
frequency of ``n`` worlds kept off 0 and 1 as ``(p·n + ½) / (n + 1)`` — was fitted by
maximum likelihood to whether the seat then won the round, over every decision of
seeded normal-bot matches, and checked on held-out folds (the reliability tables in
the #25 note).  A frequency of 0 or 1 — every world agreed, e.g. a last card that goes
out — is kept as it is (such positions are not in the fit; the held-out tables show
them calibrated as they are).  A preset or seat count without a fit keeps the raw
frequency.

Fitted by (the figures :data:`PLATT` holds)::

    python -m tests.bench.review positions --preset duo --matches 400 --seed 1000 > duo.tsv
    python -m tests.bench.review positions --preset classic --seats 4 --matches 400 \\
        --seed 1000 > c4.tsv
    cat duo.tsv c4.tsv | python -m tests.bench.review calibrate
"""

from __future__ import annotations

import math

__all__ = ["PLATT", "VERSION", "calibrated", "platt"]

#: (preset, seats) -> (a, b)
PLATT: dict[tuple[str, int], tuple[float, float]] = {
    ("classic", 4): (0.9970, 0.0255), ("duo", 2): (0.9726, 0.0980)}

#: names this fit (a review cache keyed by another is refused)
VERSION = "platt-1"


def platt(raw: float, a: float, b: float, worlds: int = 100) -> float:
    """The Platt map of a frequency ``raw`` (0–1) of ``worlds`` worlds."""
    p = (raw * worlds + 0.5) / (worlds + 1)
    z = a * math.log(p / (1.0 - p)) + b
    return 1.0 / (1.0 + math.exp(-z))


def calibrated(raw: float, preset: str, seats: int, worlds: int = 100) -> float:
    """``raw`` as a win chance (0–1) for ``preset`` at ``seats`` seats."""
    fit = PLATT.get((preset, seats))
    if fit is None or raw <= 0.0 or raw >= 1.0:
        return raw
    return platt(raw, *fit, worlds)
