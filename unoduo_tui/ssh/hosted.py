"""One client's app run in this process's event loop, beside many others (a worker
of ``unoduo serve --workers``; :mod:`.worker`).

:class:`HostedApp` is what :mod:`.session` is for a game process on a pty, with the
app in-process instead: the client's bytes go through the input limit (the same
:class:`~.limits.TokenBucket`; past :attr:`~.limits.Limits.junk_limit` dropped, the
session ends) into the app's :class:`~.driver.ChannelDriver`; resizes at most every
:attr:`~.limits.Limits.resize_every` seconds, the last one always; an idle client
is told and closed after :attr:`~.limits.Limits.idle_seconds`; a client gone
(:meth:`HostedApp.hangup`) ends the app as SIGHUP ends a game process, and one that
does not end within :attr:`~.limits.Limits.hangup_grace` is cancelled.

:meth:`HostedApp.run` returns the exit status and, for an end the server decided
(idle, junk, a client not reading, a crash), the one line to tell the player — a
traceback goes to this process's stderr, never to the player.  (Light at import:
the front, which runs no app, reads the player's lines from here.)
"""

from __future__ import annotations

import asyncio
import sys
from typing import TYPE_CHECKING, Callable

from .limits import Limits
from .timers import IdleClose, InputGate, Throttle

if TYPE_CHECKING:  # pragma: no cover
    from textual.app import App

    from .driver import ChannelDriver

__all__ = ["HostedApp", "CRASHED", "NOT_READING", "WORKER_LOST"]

#: the line for a player whose app failed (its traceback is in the server's log)
CRASHED = ("the game hit a problem and closed; your match is saved: connect again "
           "to carry on")
#: … and for one whose client stopped reading its screen
NOT_READING = "your terminal stopped reading the game's screen: closed"
#: … and for one whose worker process died or hung (the front says it)
WORKER_LOST = ("the server's game process stopped; your match is saved: connect again "
               "to carry on")
#: the exit status of an app ended because its client went (128 + SIGHUP)
HANGUP_STATUS = 129


class HostedApp:
    """One client's app (see the module doc): ``output(bytes)`` sends to the client;
    ``size`` is its terminal's (columns, rows)."""

    def __init__(self, app: "App[int]", output: Callable[[bytes], None], limits: Limits = Limits(),
                 size: tuple[int, int] = (80, 24)) -> None:
        from rich.console import Console

        from .driver import ChannelDriver

        self.app = app
        self.limits = limits
        self.size = _clamp(size)
        self._output = output
        self.driver: ChannelDriver | None = None
        self._pending = bytearray()  # input before the driver takes it
        self._gate = InputGate(limits, self.leave)
        self._loop = asyncio.get_running_loop()
        self._idle = IdleClose(limits.idle_seconds, self.leave)
        self._resizes = Throttle(limits.resize_every, self._resize)
        self._gone = False  # the client left
        self._ending: int | None = None  # the exit status asked for (None: not yet)
        self.message: str | None = None  # why the server ended it (the player is told)
        self.task: asyncio.Task | None = None
        app.driver_class = ChannelDriver.bound(self._send, self._not_reading,
                                               limits.output_buffer, self._started)
        # Textual prints a crash's traceback on its error console: the server's log
        app.error_console = Console(file=sys.__stderr__, markup=False, highlight=False)

    # -- running -----------------------------------------------------------------------

    def start(self) -> asyncio.Task:
        """Run the app in a task of its own (its own context: Textual's active app)."""
        self.task = self._loop.create_task(self.run(), name=f"unoduo app {id(self):x}")
        return self.task

    async def run(self) -> tuple[int, str | None]:
        """Run the app until it ends: its exit status and the line to tell the
        player (None: nothing to say)."""
        if self._ending is not None:  # the client left before the app started
            return self._ending, self.message
        self._idle.start()
        try:
            await self.app.run_async(size=self.size, mouse=True)
        except Exception as exc:  # Textual catches the app's own; this is Textual's
            print(f"unoduo: an app failed: {exc!r}", file=sys.__stderr__, flush=True)
            self.message = self.message or CRASHED
            return 1, self.message
        finally:
            self._stop_timers()
        code = self.app.return_code
        if code == 1 and self.message is None and not self._gone:
            self.message = CRASHED  # Textual's code for an exception in the app
        return (code if isinstance(code, int) else 0), self.message

    def _send(self, data: bytes) -> None:
        if not self._gone:
            self._output(data)

    def _started(self, driver: ChannelDriver) -> None:
        self.driver = driver
        if self._ending is not None:  # ended while starting: once it has mounted
            self.app.call_later(self.app.exit, return_code=self._ending)
        elif self._pending:
            data = bytes(self._pending)
            self._pending.clear()
            driver.feed(data)

    # -- input -------------------------------------------------------------------------

    def input(self, data: bytes) -> None:
        """Bytes from the client, through the input limit."""
        if self._gone or self.message is not None:
            return
        self._idle.touch()
        if not self._gate.admit(len(data)):
            return
        if self.driver is not None and self.driver.running:
            self.driver.feed(data)
        elif len(self._pending) + len(data) <= self.limits.pty_buffer:
            self._pending += data

    def resize(self, columns: int, rows: int) -> None:
        """The client's new size: passed on at most every ``resize_every`` seconds
        (a flood would keep the app laying out, on a CPU every session of this
        process shares); the last size always gets there."""
        if columns <= 0 or rows <= 0:
            return
        self.size = _clamp((columns, rows))
        self._resizes.ask()

    def _resize(self) -> None:
        if self.driver is not None:
            self.driver.resize(*self.size)

    def pause_output(self) -> None:
        """The client's window is full."""
        if self.driver is not None:
            self.driver.pause_output()

    def resume_output(self) -> None:
        if self.driver is not None:
            self.driver.resume_output()

    # -- the end -----------------------------------------------------------------------

    def hangup(self) -> None:
        """The client has gone: the app ends (cancelled after ``hangup_grace``)."""
        if self._gone:
            return
        self._gone = True
        self._end(HANGUP_STATUS)

    def leave(self, message: str) -> None:
        """End the app from the server's side; ``message``: the player's last line."""
        if self.message is None and not self._gone:
            self.message = message
            self._end(1)

    def _not_reading(self) -> None:
        self.leave(NOT_READING)

    def _end(self, status: int) -> None:
        self._ending = status
        if self.driver is not None:  # else _started ends it once it can
            self.app.exit(return_code=status)
        task = self.task
        if task is not None:
            def cancel() -> None:
                if not task.done():
                    task.cancel()
            self._loop.call_later(self.limits.hangup_grace, cancel)

    def _stop_timers(self) -> None:
        self._idle.cancel()
        self._resizes.cancel()


def _clamp(size: tuple[int, int]) -> tuple[int, int]:
    return max(1, min(size[0], 1000)), max(1, min(size[1], 1000))
