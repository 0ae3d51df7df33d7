"""Waiting for what a test can see: a condition polled until it holds, failing after a
deadline — never a sleep that hopes something has happened meanwhile.  One copy for the
tests' threads (:func:`until`) and their event loops (:func:`until_async`, which keeps
the loop serving while it waits)."""

from __future__ import annotations

import asyncio
import inspect
import time
from typing import Any, Callable

__all__ = ["until", "until_async", "WAIT", "POLL"]

#: seconds a condition may take before the test fails (a busy machine included)
WAIT = 60.0
#: seconds between two looks at the condition: a poll interval, not a wait
POLL = 0.02


def _said(what: str | Callable[[], str]) -> str:
    return what() if callable(what) else what


def until(check: Callable[[], Any], what: str | Callable[[], str], timeout: float = WAIT,
          poll: float = POLL) -> Any:
    """``check()``'s first true value, looked at every ``poll`` seconds;
    ``AssertionError`` naming ``what`` (or what it returns, said at the time) after
    ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, f"waited {timeout:.0f} s for {_said(what)}"
        time.sleep(poll)
    return found


async def until_async(check: Callable[[], Any], what: str | Callable[[], str],
                      timeout: float = WAIT, poll: float = POLL) -> Any:
    """:func:`until` on the running event loop (``check`` may be a coroutine
    function: it is awaited)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = check()
        if inspect.isawaitable(found):
            found = await found
        if found:
            return found
        assert loop.time() < deadline, f"waited {timeout:.0f} s for {_said(what)}"
        await asyncio.sleep(poll)
