"""A dropped SSH link, for real: the app in a pty gets SIGHUP / SIGTERM / SIGINT, or
loses its terminal outright.  It must exit with the signal's status, leave the save
file complete, and leave the terminal as it found it (no alternate screen, no mouse
reporting) — also when the app is too busy to read its messages.

Nothing here sleeps or times: each step waits for what the screen or the save file
shows (the timeouts are generous safety nets for a loaded machine)."""

import fcntl
import os
import pty
import select
import signal
import subprocess
import sys
import termios
import textwrap
import time

import pytest

from unoduo_tui.store import Store

ALT_ON, ALT_OFF = b"\x1b[?1049h", b"\x1b[?1049l"
MOUSE_OFF = b"\x1b[?1000l"
PATIENCE = 60.0  # seconds: only a safety net


class Terminal:
    """The master side of a pty, read as the app writes (its output never blocks)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.out = b""
        self.closed = False

    def pump(self, wait: float = 0.05) -> None:
        if self.closed:
            return
        ready, _, _ = select.select([self.fd], [], [], wait)
        if ready:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # EIO: the child closed its side
                chunk = b""
            if not chunk:
                self.closed = True
            self.out += chunk

    def until(self, done, what: str) -> None:
        """Read until ``done()`` holds (or fail after PATIENCE seconds, saying ``what``)."""
        deadline = time.monotonic() + PATIENCE
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw {what}: {self.out[-400:]!r}")
            self.pump()

    def drain(self) -> bytes:
        """Everything up to the child closing its side."""
        self.until(lambda: self.closed, "the terminal close")
        return self.out


def _spawn(args, tmp_path):
    master, slave = pty.openpty()
    os.set_blocking(master, False)
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24",
           "TEXTUAL_ANIMATIONS": "none"}

    def controlling_tty() -> None:  # as sshd does: a new session whose terminal is the pty
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env,
                            preexec_fn=controlling_tty)
    os.close(slave)
    return Terminal(master), proc


def _decisions(tmp_path) -> tuple[int, int | None]:
    """The decisions in the save file and who is to act (0, 0 before it exists)."""
    store = Store(tmp_path)
    summaries = store.summaries()
    if not summaries:
        return 0, None
    match = store.open(summaries[0].id, read_only=True).match
    return sum(1 for e in match.actions if not e.is_chance), match.to_act


def _start(tmp_path):
    """``unoduo play`` in a pty, after three of the human's draft decisions (and the
    bot's replies) are in the save file."""
    term, proc = _spawn([sys.executable, "-m", "unoduo_tui.cli", "play", "--vs", "random",
                         "--seed", "5", "--data-dir", str(tmp_path)], tmp_path)
    term.until(lambda: ALT_ON in term.out and b"keep" in term.out, "the table")
    for _ in range(3):
        term.until(lambda: _decisions(tmp_path)[1] == 0, "the human's turn")
        before = _decisions(tmp_path)[0]
        os.write(term.fd, b"k")
        term.until(lambda: _decisions(tmp_path)[0] > before, "the decision saved")
    return term, proc


def _finish(term: Terminal, proc) -> bytes:
    try:
        out = term.drain()
        proc.wait(timeout=PATIENCE)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(term.fd)
    return out


def _check_saved(tmp_path) -> None:
    store = Store(tmp_path)
    [summary] = store.summaries()
    loaded = store.open(summary.id, read_only=True)
    assert loaded.notes == []  # complete: no torn tail to recover
    decisions = [e for e in loaded.match.actions if not e.is_chance]
    assert len(decisions) >= 3


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM, signal.SIGINT])
def test_a_signal_exits_cleanly_with_its_status(tmp_path, sig):
    term, proc = _start(tmp_path)
    mark = len(term.out)
    proc.send_signal(sig)
    out = _finish(term, proc)
    assert proc.returncode == 128 + sig  # SIGINT: 130, as a shell reports it
    assert out.rfind(ALT_OFF) > out.rfind(ALT_ON)  # the terminal got its screen back
    assert MOUSE_OFF in out[mark:]
    _check_saved(tmp_path)


def test_losing_the_terminal_outright_exits_and_keeps_the_match(tmp_path):
    term, proc = _start(tmp_path)
    try:
        os.close(term.fd)  # the SSH connection is gone: the pty hangs up
        proc.wait(timeout=PATIENCE)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    _check_saved(tmp_path)


def test_markup_in_a_name_does_not_hang_the_app(tmp_path):
    """``--vs '[/]'`` once spun at 100 % CPU, deaf to every signal but SIGKILL (the
    command line now refuses that opponent before the table; a name is shown)."""
    term, proc = _spawn([sys.executable, "-m", "unoduo_tui.cli", "play", "--vs", "random",
                         "--name", "[/]", "--data-dir", str(tmp_path)], tmp_path)
    term.until(lambda: ALT_ON in term.out and b"keep" in term.out, "the table")
    mark = len(term.out)
    proc.send_signal(signal.SIGTERM)
    out = _finish(term, proc)
    assert proc.returncode == 128 + signal.SIGTERM
    assert out.rfind(ALT_OFF) > out.rfind(ALT_ON)
    assert MOUSE_OFF in out[mark:]


BUSY = textwrap.dedent("""
    import asyncio, sys
    from unoduo_tui.shutdown import SignalExit

    async def main():
        leave = SignalExit(lambda code: None, grace=0.5)  # an app that never gets to exit
        leave.install()
        print("busy", flush=True)
        while True:  # a loop that never yields to asyncio
            pass

    asyncio.run(main())
""")


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_an_app_too_busy_to_exit(tmp_path, sig):
    """The last resort: the terminal is restored and the process ends with the
    signal's status, although the event loop never runs again."""
    term, proc = _spawn([sys.executable, "-c", BUSY], tmp_path)
    term.until(lambda: b"busy" in term.out, "the busy loop")
    mark = len(term.out)
    proc.send_signal(sig)
    out = _finish(term, proc)
    assert proc.returncode == 128 + sig
    assert ALT_OFF in out[mark:] and MOUSE_OFF in out[mark:]
