"""A small counter-based random generator (SplitMix64).

Every chance outcome of a match (the cut, each shuffle) draws from its own
stream, ``Rng(seed, index)``, where ``index`` counts the chance outcomes
before it.  Pure integer arithmetic, so a seed gives the same outcomes on every
Python version and platform; and since each outcome has its own stream, a
match rebuilt from its log continues exactly as if it had never stopped.
"""

from __future__ import annotations

from itertools import chain
from operator import mod
from struct import Struct
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

    def block(self, count: int) -> list[int]:
        """The next ``count`` outputs of :meth:`next64` at once (at most :data:`LANES`;
        fewer when more are asked), computed side by side: what a shuffle needs.

        SplitMix64's ``k``-th state is ``start + k·golden``, so every state is known
        up front; they sit in one big integer, 128 bits apart, and each step of the mix
        (xor-shift, multiply, keep 64 bits) is applied to all of them in one operation.
        A lane's product fits in its 128 bits and the mask drops what a right shift
        brings in from the lane above, so each lane is exactly :meth:`next64`'s value.
        """
        count = min(count, LANES)
        if count <= 0:
            return []
        low, ones, steps, words = _LANES.get(count) or _lanes(count)
        z = (self._state * ones + steps) & low  # the states, mod 2**64
        self._state = (self._state + count * _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) & low) * 0xBF58476D1CE4E5B9 & low
        z = ((z ^ (z >> 27)) & low) * 0x94D049BB133111EB & low
        z = (z ^ (z >> 31)) & low
        return list(words.unpack(z.to_bytes(16 * count, "little"))[::2])

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place: ``below(i + 1)`` for i from the last index
        down, its draws taken as one :meth:`block` (shuffles run every round and refill)."""
        size = len(items)
        if size < 2:
            return
        limits = _LIMITS if size <= len(_LIMITS) else _limits(size)
        safe = _SAFE[1] if limits is _SAFE[0] else min(limits[1:size])
        block = self.block(size - 1)
        if len(block) == size - 1 and max(block) < safe:
            # no draw is in any below()'s rejection zone (odds under 2**-57 each): the
            # same swaps without the per-draw check
            i = size - 1
            for j in map(mod, block, range(size, 1, -1)):  # below(i + 1) for each i
                items[i], items[j] = items[j], items[i]
                i -= 1
            return
        draws = chain(block, iter(self.next64, None))  # then one at a time
        for i, z in zip(range(size - 1, 0, -1), draws):
            while z >= limits[i]:  # below()'s rejection: the next draw
                z = next(draws)
            j = z % (i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: "list[T] | tuple[T, ...]") -> T:
        return items[self.below(len(items))]


def _limits(size: int) -> list[int]:
    """``limits[i]``: the rejection bound of ``below(i + 1)`` (the largest multiple of
    ``i + 1`` that fits in 64 bits), for a shuffle of up to ``size`` items."""
    top = _MASK + 1
    return [top - (top % (i + 1)) for i in range(size)]


_LIMITS = _limits(112)  # UNO Duo's deck, the largest shuffled
#: (the bounds, a number below every one of them): a shuffle of up to 112 items whose
#: draws are all below it rejects none
_SAFE = (_LIMITS, min(_LIMITS))

#: the most outputs :meth:`Rng.block` computes at once (a deck of 112 shuffles with 111)
LANES = 111
#: ``block``'s constants: one bit, the golden steps 1..LANES and the low 64 bits of
#: each 128-bit lane
_LANE_ONES = sum(1 << (128 * k) for k in range(LANES))
_LANE_STEPS = sum((((k + 1) * _GOLDEN) & _MASK) << (128 * k) for k in range(LANES))
_LANE_LOW = _MASK * _LANE_ONES
#: per lane count (filled as met, at most LANES): ``block``'s constants cut to that
#: many lanes — the low 64 bits of each, one bit each, the golden steps — and the
#: struct that reads their words
_LANES: "dict[int, tuple[int, int, int, Struct]]" = {}


def _lanes(count: int) -> "tuple[int, int, int, Struct]":
    keep = (1 << (128 * count)) - 1
    made = _LANES[count] = (_LANE_LOW & keep, _LANE_ONES & keep, _LANE_STEPS & keep,
                            Struct(f"<{2 * count}Q"))
    return made
