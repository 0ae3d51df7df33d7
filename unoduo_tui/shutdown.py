"""Leaving on SIGHUP, SIGTERM or SIGINT — even when the app is busy.

asyncio's ``loop.add_signal_handler`` only *queues* its callback for the event loop:
an app stuck in a long computation (it once spun at 100 % CPU drawing a traceback)
never ran it, and only SIGKILL ended it, leaving the terminal in the alternate screen.
Here the handler is a plain :func:`signal.signal` one, which Python runs between two
bytecodes of the main thread whatever the loop is doing.  It asks the app to exit
(thread-safely, through the loop) and starts a watchdog: if the app has not stopped
within :data:`GRACE` seconds, the watchdog puts the terminal back as it was found
and ends the process with ``os._exit``.  The save file is complete either way —
every move was appended as it was made.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from typing import Any, Callable

__all__ = ["SignalExit", "SIGNALS", "GRACE", "exit_code", "die_with_parent"]

SIGNALS = (signal.SIGHUP, signal.SIGTERM, signal.SIGINT)

#: seconds the app has to stop by itself after a signal
GRACE = 3.0

#: what Textual's driver undoes when it stops: mouse reporting, focus events, bracketed
#: paste, the kitty keyboard mode; then the cursor back and the normal screen
RESTORE = ("\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1004l\x1b[?2004l"
           "\x1b[<u\x1b[?7h\x1b[?25h\x1b[?1049l")


def exit_code(sig: int) -> int:
    """The shell's convention: 128 + the signal's number (SIGINT: 130)."""
    return 128 + int(sig)


def die_with_parent() -> None:
    """SIGKILL this process when its parent dies (Linux ``PR_SET_PDEATHSIG``), even if
    it is stuck and never reads the end of file its parent's death gives it: a
    server's worker, a worker's bot process."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the end of file still does
        pass
    if os.getppid() == 1:  # the parent died before we asked
        os._exit(1)


def _terminal_state() -> tuple[int, Any] | None:
    """The terminal's settings before Textual puts it in raw mode."""
    try:
        import termios

        stdin = sys.__stdin__
        if stdin is None:
            return None
        fd = stdin.fileno()
        if os.isatty(fd):
            return fd, termios.tcgetattr(fd)
    except Exception:  # no terminal (tests), or not a POSIX one
        pass
    return None


class SignalExit:
    """Exit ``app`` on a signal (see the module doc).  :meth:`install` from the running
    loop, before Textual's driver changes the terminal; :meth:`stopped` once the app's
    ``run`` has returned."""

    def __init__(self, exit_app: Callable[[int], None], grace: float = GRACE) -> None:
        self.exit_app = exit_app
        self.grace = grace
        #: the first signal received (None: none yet)
        self.received: int | None = None
        self._stopped = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous: dict[int, Any] = {}
        self._terminal = _terminal_state()

    def install(self) -> None:
        self._loop = asyncio.get_running_loop()
        for sig in SIGNALS:
            try:
                self._previous[sig] = signal.signal(sig, self._handle)
            except (ValueError, OSError):  # not the main thread, or not this platform
                pass

    def stopped(self) -> None:
        """The app has stopped: the watchdog stands down; the old handlers come back."""
        self._stopped.set()
        for sig, previous in self._previous.items():
            try:
                signal.signal(sig, previous)
            except (ValueError, OSError, TypeError):
                pass
        self._previous.clear()

    def _handle(self, sig: int, frame: object) -> None:
        first = self.received is None
        if first:
            self.received = sig
        loop = self._loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self.exit_app, exit_code(self.received or sig))
            except RuntimeError:  # the loop is closed: the app is on its way out
                pass
        if first:
            threading.Thread(target=self._last_resort, name="unoduo-signal-exit",
                             daemon=True).start()

    def _last_resort(self) -> None:
        if self._stopped.wait(self.grace):
            return
        self.restore_terminal()
        os._exit(exit_code(self.received or signal.SIGTERM))

    def restore_terminal(self) -> None:
        """Put the terminal back as it was before the app started."""
        try:
            stderr = sys.__stderr__
            if stderr is not None:
                os.write(stderr.fileno(), RESTORE.encode())
        except (OSError, AttributeError, ValueError):
            pass
        if self._terminal is not None:
            try:
                import termios

                fd, attrs = self._terminal
                termios.tcsetattr(fd, termios.TCSANOW, attrs)
            except Exception:
                pass
