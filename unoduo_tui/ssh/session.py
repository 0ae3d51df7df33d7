"""One SSH session ↔ one game process on a pseudo-terminal.

As textual-serve and textual-web do, each connection's app runs in a child process
(one crash or a runaway client harms nobody else): :func:`os.openpty`, the child a
session leader with the pty as its controlling terminal, ``TERM`` from the client's
pty request, the size from the request and every resize set with ``TIOCSWINSZ`` (the
kernel sends the child SIGWINCH).  Bytes go both ways through the event loop, never
blocking it:

- out: ``loop.add_reader`` on the master → ``chan.write``; when the client's window is
  full asyncssh calls :meth:`pause_writing` and the master is no longer read, so a
  child that writes faster than the client reads blocks on its pty, not our memory;
- in: rate-limited (:class:`~.limits.TokenBucket`: beyond the burst, bytes are
  dropped; past :attr:`~.limits.Limits.junk_limit` dropped, the connection is closed)
  and written to the master without blocking; when more than
  :attr:`~.limits.Limits.pty_buffer` bytes wait because the child does not read, the
  channel stops reading (the client's window closes).

The client gone: the child gets SIGHUP (SIGKILL after a grace) and is reaped.  The
child gone: the channel closes with its exit status.  A server-side close (idle,
junk) puts the client's terminal back (mouse off, normal screen) before its one line.
"""

from __future__ import annotations

import asyncio
import errno
import fcntl
import os
import re
import signal
import struct
import termios
from typing import TYPE_CHECKING

import asyncssh

from ..shutdown import RESTORE
from .limits import Limits
from .timers import IdleClose, InputGate, Throttle

if TYPE_CHECKING:  # pragma: no cover
    from .server import Client

__all__ = ["PtyBridge", "terminal_type", "child_env", "DEFAULT_TERM", "COLORTERMS",
           "exit_status", "set_size"]

DEFAULT_TERM = "xterm-256color"
#: the ``COLORTERM`` values passed on to the game (anything else is dropped)
COLORTERMS = ("truecolor", "24bit")
_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
#: the server's own variables a game process inherits (a checkout's code, the zone)
_INHERITED = ("PYTHONPATH", "TZ")
_PATH = "/usr/local/bin:/usr/bin:/bin"


def terminal_type(requested: str | None) -> str:
    """The client's ``TERM`` if it is a plain terminal name, else the default."""
    return requested if requested and _TERM.fullmatch(requested) else DEFAULT_TERM


def child_env(term: str, colorterm: str | None, extra: dict[str, str]) -> dict[str, str]:
    """A game process's whole environment: nothing from the client but ``TERM`` and an
    allowed ``COLORTERM``; ``extra`` (the socket, lobby and key variables)."""
    env = {"TERM": terminal_type(term), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
           "PATH": _PATH}
    if colorterm in COLORTERMS:
        env["COLORTERM"] = colorterm
    env.update({k: os.environ[k] for k in _INHERITED if k in os.environ})
    env.update(extra)
    return env


def set_size(fd: int, columns: int, rows: int) -> None:
    """The pty ``fd``'s window size (each clamped to 1…1000): the kernel tells its child."""
    columns, rows = max(1, min(columns, 1000)), max(1, min(rows, 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def exit_status(returncode: int) -> int:
    """A process's return code as an SSH exit status (killed by signal N: 128 + N)."""
    return (128 - returncode) & 0xFF if returncode < 0 else returncode & 0xFF


def _take_terminal() -> None:  # pragma: no cover - runs in the child, before exec
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PtyBridge(asyncssh.SSHServerSession):
    """The session channel of one connection, bridged to its game process's pseudo-terminal
    (see the module doc)."""

    def __init__(self, client: "Client") -> None:
        self.client = client
        self.limits: Limits = client.server.limits
        self._loop = asyncio.get_running_loop()
        self._chan: asyncssh.SSHServerChannel | None = None
        self._term: str | None = None
        self._size = (80, 24)
        self._refusal: str | None = None
        self._master: int | None = None
        self.proc: asyncio.subprocess.Process | None = None
        self._pending = bytearray()
        self._reading_paused = False  # the channel, while the child does not read
        self.output_paused = False    # the master, while the client does not read
        self._task: asyncio.Task | None = None
        self._gate = InputGate(self.limits, self.leave)
        self._idle = IdleClose(self.limits.idle_seconds, self.leave)
        self._resizes = Throttle(self.limits.resize_every, self._resize)
        self._closing = False
        self.started = False  # shell, exec or subsystem asked for
        self.exited = asyncio.Event()  # the child reaped (or never started)

    # -- requests ----------------------------------------------------------------------

    @property
    def reading_paused(self) -> bool:
        """The channel is not read: the child is behind on its input."""
        return self._reading_paused

    @property
    def pending_input(self) -> int:
        """Bytes from the client waiting for the child to read them."""
        return len(self._pending)

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self._chan = chan

    def pty_requested(self, term_type: str, term_size: tuple, term_modes) -> bool:
        self._term = terminal_type(term_type)
        if term_size and term_size[0] > 0 and term_size[1] > 0:
            self._size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._refusal = f"this server runs only the game, not commands: {self._hint()}"
        return True  # accepted, to say why on stderr and exit 1

    def subsystem_requested(self, subsystem: str) -> bool:
        self._refusal = "this server runs only the game: no sftp, no scp, no subsystems"
        return True

    def _hint(self, flags: str = "") -> str:
        """How to connect for a game: ``ssh -p 2222 127.0.0.1`` (the address the client
        reached)."""
        host, port = self._chan.get_extra_info("sockname")[:2] if self._chan else ("HOST", 22)
        return f"ssh {flags}-p {port} {host}"

    def session_started(self) -> None:
        self.started = True
        problem = self._refusal
        if problem is None and self._term is None:
            problem = f"the game needs a terminal: {self._hint('-t ')}"
        if problem is None:
            problem = self.client.admit(self)
        if problem is not None:
            self._refuse(problem)
            return
        self._task = self._loop.create_task(self._run())  # held: a task is weakly kept

    def _refuse(self, message: str) -> None:
        self.exited.set()
        assert self._chan is not None
        try:
            self._chan.write_stderr(f"unoduo: {message}\r\n".encode())
            self._chan.exit(1)
        except OSError:  # the client has gone already
            pass

    # -- the child ---------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            master, slave = os.openpty()
        except OSError as exc:  # out of ptys or descriptors
            self._refuse(f"the game could not start ({exc.strerror})")
            self._reaped()
            return
        try:
            set_size(slave, *self._size)
            identity = self.client.identity
            assert identity is not None  # known since the gate admitted the client
            env = child_env(self._term or DEFAULT_TERM, self._colorterm(),
                            self.client.child_env())
            self.proc = await asyncio.create_subprocess_exec(
                *self.client.child_argv(), stdin=slave, stdout=slave, stderr=slave,
                env=env, start_new_session=True, preexec_fn=_take_terminal,
                cwd=str(identity.folder))
        except (OSError, ValueError) as exc:
            os.close(master)
            os.close(slave)
            self._refuse(f"the game could not start ({exc.__class__.__name__})")
            self._reaped()
            return
        os.close(slave)
        os.set_blocking(master, False)
        self._master = master
        if self._closing:  # the client left while the child started
            self._hang_up()
        else:
            self._loop.add_reader(master, self._on_output)
            self._flush_input()
            self._idle.start()
        status = await self.proc.wait()
        self._drain_output()
        self._close_master()
        self._reaped()
        if not self._closing and self._chan is not None:
            self._closing = True
            self._chan.exit(exit_status(status))

    def _reaped(self) -> None:
        self.exited.set()
        self.client.server.running.discard(self)

    def _colorterm(self) -> str | None:
        assert self._chan is not None
        raw = self._chan.get_environment_bytes().get(b"COLORTERM", b"")
        return raw.decode("ascii", "replace") or None

    def _on_output(self) -> None:
        assert self._master is not None  # read only while it is open
        try:
            data = os.read(self._master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the child closed the pty (it is leaving)
            data = b""
        if not data:
            self._stop_reading()
            return
        if self._chan is not None and not self._closing:
            self._chan.write(data)

    def _drain_output(self) -> None:
        """What the child wrote before it exited (its goodbye, the terminal put back)."""
        while self._master is not None and not self._closing:
            try:
                data = os.read(self._master, 65536)
            except OSError:
                return
            if not data:
                return
            assert self._chan is not None
            self._chan.write(data)

    def _stop_reading(self) -> None:
        if self._master is not None:
            self._loop.remove_reader(self._master)

    def _close_master(self) -> None:
        if self._master is not None:
            self._stop_reading()
            self._loop.remove_writer(self._master)
            os.close(self._master)
            self._master = None

    def _hang_up(self) -> None:
        """SIGHUP to the child's session (as a terminal closing does), SIGKILL after the
        grace; :meth:`_run` reaps it."""
        self._close_master()
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        try:
            os.killpg(proc.pid, signal.SIGHUP)
        except ProcessLookupError:
            return

        def kill() -> None:
            if proc.returncode is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        self._loop.call_later(self.limits.hangup_grace, kill)

    # -- input -------------------------------------------------------------------------

    def data_received(self, data: bytes, datatype) -> None:
        if self._closing:
            return
        self._idle.touch()
        if not self._gate.admit(len(data)):
            return
        self._pending += data
        self._flush_input()

    def _flush_input(self) -> None:
        master = self._master
        if master is not None:
            while self._pending:
                try:
                    n = os.write(master, self._pending)
                except BlockingIOError:
                    break
                except OSError as exc:  # the child is gone: its exit closes the channel
                    if exc.errno != errno.EINTR:
                        self._pending.clear()
                    break
                del self._pending[:n]
            if self._pending:
                self._loop.add_writer(master, self._flush_input)
            else:
                self._loop.remove_writer(master)
        full = len(self._pending) > self.limits.pty_buffer
        if self._chan is not None and full != self._reading_paused:
            self._reading_paused = full
            (self._chan.pause_reading if full else self._chan.resume_reading)()

    def eof_received(self) -> bool:
        return True  # half-closed input: the game carries on until the client leaves

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        """A resize: passed on at most every :attr:`~.limits.Limits.resize_every`
        seconds (a client sending thousands would have its app lay out for ever, on
        the CPU everyone shares); the last size always gets there."""
        self._size = (width, height) if width > 0 and height > 0 else self._size
        self._resizes.ask()

    def _resize(self) -> None:
        if self._master is not None:
            try:
                set_size(self._master, *self._size)
            except OSError:  # pragma: no cover - the pty is closing
                pass

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal_name: str) -> None:
        pass  # the client's signals are not ours to pass on

    # -- output flow control -----------------------------------------------------------

    def pause_writing(self) -> None:
        self.output_paused = True
        self._stop_reading()

    def resume_writing(self) -> None:
        self.output_paused = False
        if self._master is not None and not self._closing:
            self._loop.add_reader(self._master, self._on_output)

    # -- the end -----------------------------------------------------------------------

    def leave(self, message: str) -> None:
        """Close this session from the server's side: the child hung up, the client's
        terminal put back, ``message`` as the last line, exit status 1."""
        if self._closing:
            return
        self._closing = True
        self._hang_up()
        if self._chan is not None:
            try:
                self._chan.write(f"{RESTORE}\r\nunoduo: {message}\r\n".encode())
                self._chan.exit(1)
            except OSError:  # the channel is closing already
                pass

    def connection_lost(self, exc: Exception | None) -> None:
        self._closing = True
        self._idle.cancel()
        self._resizes.cancel()
        self._hang_up()
        self.client.session_closed(self)

