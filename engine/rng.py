"""A small counter-based random generator (SplitMix64).

Every chance outcome of a match (the cut, each shuffle) draws from its own
stream, ``Rng(seed, index)``, where ``index`` counts the chance outcomes
before it.  Pure integer arithmetic, so a seed gives the same outcomes on every
Python version and platform; and since each outcome has its own stream, a
match rebuilt from its log continues exactly as if it had never stopped.
"""

from __future__ import annotations

from typing import MutableSequence, TypeVar

__all__ = ["Rng"]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _fold(seed: int) -> int:
    """Fold an integer of any size and sign into 64 bits."""
    n = 2 * seed if seed >= 0 else -2 * seed - 1  # zigzag: no two seeds collide here
    state = 0
    while True:
        state = _mix((state ^ (n & _MASK)) + _GOLDEN & _MASK)
        n >>= 64
        if not n:
            return state


class Rng:
    """SplitMix64 stream ``stream`` of ``seed``."""

    __slots__ = ("_state",)

    def __init__(self, seed: int, stream: int = 0) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        self._state = _mix(_fold(seed) ^ _mix((stream * _GOLDEN + 1) & _MASK))

    def next64(self) -> int:
        self._state = z = (self._state + _GOLDEN) & _MASK
        return _mix(z)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (_MASK + 1) - ((_MASK + 1) % n)
        r = self.next64()
        while r >= limit:
            r = self.next64()
        return r % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place (``below`` inlined: shuffles run every round)."""
        state = self._state
        limits = _LIMITS if len(items) <= len(_LIMITS) else _limits(len(items))
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[i]
            while True:
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self._state = state

    def choice(self, items: "list[T] | tuple[T, ...]") -> T:
        return items[self.below(len(items))]


def _limits(size: int) -> list[int]:
    """``limits[i]``: the rejection bound of ``below(i + 1)`` (the largest multiple of
    ``i + 1`` that fits in 64 bits), for a shuffle of up to ``size`` items."""
    top = _MASK + 1
    return [top - (top % (i + 1)) for i in range(size)]


_LIMITS = _limits(112)  # UNO Duo's deck, the largest shuffled
