"""What paces every session of ``unoduo serve``, a game process's or a hosted app's:
the input limit, resizes passed on at most so often, and the idle close."""

from __future__ import annotations

import asyncio
import time
from typing import Callable

from ..ratelimit import TokenBucket
from .limits import Limits

__all__ = ["InputGate", "Throttle", "IdleClose", "JUNK"]

#: the line for a client closed for sending junk
JUNK = "too much input at once (is something pasting junk?): closed"


class InputGate:
    """The input limit (:class:`~.limits.TokenBucket`): :meth:`admit` says whether
    ``n`` bytes pass, whole; past :attr:`~.limits.Limits.junk_limit` bytes dropped,
    ``close(JUNK)`` is called."""

    def __init__(self, limits: Limits, close: Callable[[str], None]) -> None:
        self._bucket = TokenBucket(limits.input_rate, limits.input_burst)
        self._junk, self._close = limits.junk_limit, close

    def admit(self, n: int) -> bool:
        if self._bucket.take(n):
            return True
        if self._bucket.dropped > self._junk:
            self._close(JUNK)
        return False


class Throttle:
    """``fn`` at most every ``every`` seconds however often :meth:`ask` is called; the
    last ask always gets its call (a client sending thousands of resizes would keep
    its app laying out, on a CPU everyone shares)."""

    def __init__(self, every: float, fn: Callable[[], None]) -> None:
        self.every, self._fn = every, fn
        self._loop = asyncio.get_running_loop()
        self._timer: asyncio.TimerHandle | None = None
        self._at = float("-inf")

    def ask(self) -> None:
        if self._timer is not None:
            return  # the pending call will see the newest state
        wait = self._at + self.every - self._loop.time()
        if wait > 0:
            self._timer = self._loop.call_later(wait, self._call)
        else:
            self._call()

    def _call(self) -> None:
        self._timer = None
        self._at = self._loop.time()
        self._fn()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class IdleClose:
    """After ``seconds`` without :meth:`touch` (0: never), ``close(message)`` once."""

    def __init__(self, seconds: float, close: Callable[[str], None]) -> None:
        self.seconds, self._close = seconds, close
        self._loop = asyncio.get_running_loop()
        self._last = time.monotonic()
        self._timer: asyncio.TimerHandle | None = None

    def touch(self) -> None:
        self._last = time.monotonic()

    def start(self) -> None:
        if self.seconds <= 0:
            return
        left = self._last + self.seconds - time.monotonic()
        if left <= 0:
            self._timer = None
            minutes = f"{self.seconds / 60:g} minute{'s' * (self.seconds != 60)}"
            self._close(f"closed after {minutes} without a key press; your match is "
                        "saved: connect again to carry on")
            return
        self._timer = self._loop.call_later(left + 0.05, self.start)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
