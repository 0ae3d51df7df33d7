"""The game review's calibration (#25): raw rollout frequencies → win chances.

Placeholder identity until fitted by ``python -m engine.review_bench calibrate``.
"""

from __future__ import annotations

__all__ = ["calibrated", "VERSION"]

VERSION = "identity"


def calibrated(raw: float, preset: str, seats: int) -> float:
    return raw
