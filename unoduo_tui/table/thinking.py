"""Where a bot thinks: in the table's own thread (:func:`think_here`), or in a small
pool of processes (:class:`BotPool`) — for a process whose event loop serves many
players (``unoduo serve --workers``).

Under the GIL a bot's search in a thread takes the interpreter from the loop for
whole switch intervals: measured here, one search at a time cost the other sessions
of the process 40 ms at the 99th percentile, four at once 400 ms.  In a pool the
search holds another interpreter's lock; the table's thread only waits for the
answer.  A bot is sent with the view it chooses from and comes back with what it
learnt (about 3 KB pickled, 0.2 ms each way); a decision is the same wherever it is
made (the bots are seeded).  The practice hint (:class:`Hint`) thinks the same way.  A pool process that dies is replaced for the next
decision; if that fails too, the bot thinks here.  The pool's processes die with
the process that made them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from ..shutdown import die_with_parent

if TYPE_CHECKING:  # imported by a pool when it starts: not before a table's first frame
    from concurrent.futures import ProcessPoolExecutor

    from engine import Action, PlayerView

__all__ = ["Thinker", "Chooser", "think_here", "BotPool", "Hint"]


class Chooser(Protocol):
    """What thinks: a bot (:class:`engine.bots.Bot`) or the practice :class:`Hint`."""

    def choose(self, view: "PlayerView") -> "Action": ...


_C = TypeVar("_C", bound=Chooser)


class Thinker(Protocol):
    """How a table's bot decides: ``(bot, view) → (action, the bot after it)`` (what
    it learnt: a pool sends a copy back)."""

    def __call__(self, bot: _C, view: "PlayerView") -> "tuple[Action, _C]": ...


def think_here(bot: _C, view: "PlayerView") -> "tuple[Action, _C]":
    """The decision, in this thread."""
    return bot.choose(view), bot


@dataclass(frozen=True)
class Hint:
    """The practice hint as a bot to think with (:func:`engine.bots.suggest`)."""

    think_ms: int

    def choose(self, view: "PlayerView") -> "Action":
        from engine import bots

        return bots.suggest(view, self.think_ms)


class BotPool:
    """``processes`` processes that make bots' decisions (``think`` is a
    :data:`Thinker`; any thread may call it)."""

    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._lock = threading.Lock()
        self._executor: "ProcessPoolExecutor | None" = None

    def start(self) -> None:
        """Start the pool now, before any app runs: multiprocessing's resource tracker
        is started with ``sys.stderr``'s descriptor, and while a Textual app runs
        ``sys.stderr`` is the app's print capture, which has none (``ValueError: bad
        value(s) in fds_to_keep``).  The tracker lives as long as the process; the
        pool's own processes are started with pipes only."""
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
        self._pool().submit(int).result()  # its process up: the first bot waits less

    def _pool(self) -> "ProcessPoolExecutor":
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context

        with self._lock:
            if self._executor is None:
                # spawn: a fork of a process running threads and an event loop is not
                # safe, and would copy all of it
                self._executor = ProcessPoolExecutor(self.processes,
                                                     mp_context=get_context("spawn"),
                                                     initializer=die_with_parent)
            return self._executor

    def think(self, bot: _C, view: "PlayerView") -> "tuple[Action, _C]":
        from concurrent.futures.process import BrokenProcessPool

        for _ in range(2):
            pool = self._pool()
            try:
                return pool.submit(think_here, bot, view).result()
            except BrokenProcessPool:  # a pool process died: a new pool, once
                with self._lock:
                    if self._executor is pool:
                        self._executor = None
                pool.shutdown(wait=False, cancel_futures=True)
        return think_here(bot, view)

    def close(self) -> None:
        """Stop the pool (a decision under way is finished first)."""
        with self._lock:
            pool, self._executor = self._executor, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
