"""A Textual driver for an app that shares its process and event loop with others:
bytes in from an SSH channel (or a relay of one), bytes out to it; no tty.

What Textual's ``LinuxDriver`` does with the process's terminal, this does with one
client's: the same escape sequences to enter and leave application mode, the same
input parser (Textual's ``XTermParser``, fed on the event loop instead of from a
thread reading stdin), sizes from the SSH window-change request as ``Resize`` events.
It touches nothing that belongs to the process: no signal handler (``LinuxDriver``
installs SIGTSTP, SIGCONT and SIGWINCH ones), no stdin or stderr, no termios, no
browser opened on the server for ``open_url``.

Output: what Textual writes for one frame is gathered and handed on at its
``flush`` as one chunk of bytes.  While the client's window is full
(:meth:`ChannelDriver.pause_output`) frames are kept, up to ``max_buffer`` bytes;
past that the client is not reading, and ``overflow`` is called once (the session
closes it) — a client that never reads costs at most that much memory.

Input: :meth:`ChannelDriver.feed` bytes as they come (already rate-limited by the
session); they are decoded as UTF-8 (anything else becomes U+FFFD, never an error)
and parsed into keys and mouse events.  Sizes come only from :meth:`resize`: a
resize a client writes into its input (an in-band resize report) is dropped, so the
session's limit on resizes holds.  A bracketed paste is capped at
:data:`MAX_PASTE` characters (the parser would keep a paste that never ends for ever).
"""

from __future__ import annotations

import asyncio
import re
from codecs import getincrementaldecoder
from typing import TYPE_CHECKING, Any, Callable, cast

from textual import constants, events, messages
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from ..shutdown import RESTORE

if TYPE_CHECKING:  # pragma: no cover
    from textual.app import App

__all__ = ["ChannelDriver", "MAX_PASTE", "START"]

#: the longest bracketed paste passed on (longer: it is ended there)
MAX_PASTE = 64 * 1024

#: what LinuxDriver writes to start application mode: the alternate screen, mouse
#: reporting (any event, SGR), the cursor hidden, focus events, the kitty keyboard
#: protocol (disambiguate, all keys, text), the synchronised-output query, bracketed
#: paste, no line wrap; :data:`~unoduo_tui.shutdown.RESTORE` undoes it
START = ("\x1b[?1049h\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h\x1b[?25l\x1b[?1004h"
         "\x1b[>25u\x1b[?2026$p\x1b[?2004h\x1b[?7l")

_PASTE_START, _PASTE_END = "\x1b[200~", "\x1b[201~"
_MARKER = re.compile(r"\x1b\[20([01])~")


class ChannelDriver(Driver):
    """Textual's side of one client's terminal (see the module doc).  Textual makes
    the driver itself (``App._build_driver``), so the app is given a class with the
    client bound in: ``app.driver_class = ChannelDriver.bound(output, overflow)``.
    ``output(bytes)``: send to the client; ``overflow()``: the client is not reading
    (called once); ``started(driver)``: application mode has begun."""

    def __init__(self, app: "App[Any]", *, output: Callable[[bytes], None],
                 overflow: Callable[[], None], max_buffer: int = 1 << 20,
                 started: Callable[["ChannelDriver"], None] | None = None,
                 debug: bool = False, mouse: bool = True,
                 size: tuple[int, int] | None = None) -> None:
        super().__init__(app, debug=False, mouse=mouse, size=size)
        self._output = output
        self._overflow = overflow
        self._started = started
        self.max_buffer = max_buffer
        self._size_now = size or (80, 24)
        self._frame: list[str] = []
        self._held = bytearray()  # frames kept while the client's window is full
        self.paused = False
        self.overflowed = False
        self._parser = XTermParser()
        self._decode = getincrementaldecoder("utf-8")(errors="replace").decode
        self._tick: asyncio.TimerHandle | None = None
        self._pasting = False  # inside a bracketed paste
        self._pasted = 0  # its characters so far
        self._tail = ""  # the end of the last input, where a paste marker may begin
        self._running = False

    @classmethod
    def bound(cls, output: Callable[[bytes], None], overflow: Callable[[], None],
              max_buffer: int = 1 << 20,
              started: Callable[["ChannelDriver"], None] | None = None
              ) -> type["ChannelDriver"]:
        """A driver class for ``App.driver_class`` with this client's ends bound in
        (``started``: told the driver once it takes input)."""
        def make(app: "App[Any]", **kw: Any) -> ChannelDriver:
            return cls(app, output=output, overflow=overflow, max_buffer=max_buffer,
                       started=started, **kw)
        return cast("type[ChannelDriver]", make)  # App calls its driver_class: so is make

    @property
    def running(self) -> bool:
        """In application mode: input is parsed and passed on."""
        return self._running

    # -- output ------------------------------------------------------------------------

    def write(self, data: str) -> None:
        self._frame.append(data)

    def flush(self) -> None:
        if not self._frame:
            return
        data = "".join(self._frame).encode("utf-8", "replace")
        self._frame.clear()
        if self.overflowed:
            return
        if not self.paused:
            self._output(data)
            return
        self._held += data
        if len(self._held) > self.max_buffer:
            self._held.clear()
            self.overflowed = True
            self._overflow()

    def pause_output(self) -> None:
        """The client's window is full: keep frames (up to ``max_buffer`` bytes)."""
        self.paused = True

    def resume_output(self) -> None:
        """The client reads again: what was kept goes now."""
        self.paused = False
        if self._held and not self.overflowed:
            data = bytes(self._held)
            self._held.clear()
            self._output(data)

    @property
    def buffered(self) -> int:
        """Bytes kept for a client whose window is full."""
        return len(self._held)

    # -- application mode --------------------------------------------------------------

    def start_application_mode(self) -> None:
        self._running = True
        self.write(START)
        self.flush()
        self._post_size()
        if self._started is not None:
            self._started(self)

    def disable_input(self) -> None:
        self._running = False
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def stop_application_mode(self) -> None:
        self.disable_input()
        self.write(RESTORE)
        self.flush()

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Nothing: the browser to open is the player's, not the server's."""

    # -- input -------------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Bytes the client typed (or its terminal answered)."""
        if not self._running:
            return
        text = self._decode(data)
        if text:
            for event in self._parser.feed(self._bounded_paste(text)):
                self.process_message(event)
        if self._tick is None:
            self._tick = self._loop.call_later(constants.ESCAPE_DELAY + 0.01, self._on_tick)

    def _bounded_paste(self, text: str) -> str:
        """``text``, with the end of a bracketed paste put in once the paste is
        :data:`MAX_PASTE` characters long (a marker split between two reads is found
        by looking at the last few characters of the one before)."""
        seen = self._tail + text
        self._tail = seen[-(len(_PASTE_START) - 1):]
        last = None
        for marker in _MARKER.finditer(seen):
            self._pasting, last = marker.group(1) == "0", marker.end()
        if not self._pasting:
            return text
        self._pasted = len(seen) - last if last is not None else self._pasted + len(text)
        if self._pasted <= MAX_PASTE:
            return text
        self._pasting, self._tail = False, ""
        return text + _PASTE_END

    def _on_tick(self) -> None:
        """A lone Escape is a key once ``ESCDELAY`` has passed with nothing after it."""
        self._tick = None
        if self._running:
            for event in self._parser.tick():
                self.process_message(event)

    def resize(self, columns: int, rows: int) -> None:
        """The client's window changed size."""
        self._size_now = (max(1, columns), max(1, rows))
        if self._running:
            self._post_size()

    def _post_size(self) -> None:
        size = Size(*self._size_now)
        self.send_message(events.Resize(size, size))

    def process_message(self, message: Message) -> None:
        if isinstance(message, (events.Resize, messages.InBandWindowResize)):
            return  # a size the client wrote into its input: sizes come from resize()
        super().process_message(message)

    def send_message(self, message: Message) -> None:
        """On the loop already (Textual's drivers post from their input thread)."""
        self._app.post_message(message)
