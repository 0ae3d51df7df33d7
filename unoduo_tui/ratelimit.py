"""The input budget every front end that listens shares: ``unoduo serve`` (SSH) and
``unoduo web`` (browser tabs) let a client's keys through a :class:`TokenBucket`."""

from __future__ import annotations

import time
from typing import Callable

__all__ = ["TokenBucket"]


class TokenBucket:
    """``rate`` tokens a second up to ``burst``: :meth:`take` lets ``n`` bytes pass
    whole or not at all (a key's escape sequence is never cut in two);
    :attr:`dropped` counts the bytes refused until the bucket is full again (a client
    quiet long enough starts afresh)."""

    def __init__(self, rate: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self._clock = rate, burst, clock
        self._tokens, self._at = float(burst), clock()
        self.dropped = 0

    def take(self, n: int) -> bool:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= self.burst:
            self.dropped = 0
        if n <= self._tokens:
            self._tokens -= n
            return True
        self.dropped += n
        return False
