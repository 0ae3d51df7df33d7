"""A dropped SSH link, for real: the app in a pty gets SIGHUP / SIGTERM, or loses its
terminal outright.  It must exit within 2 s, leave the save file complete, and
leave the terminal as it found it (no alternate screen, no mouse reporting)."""

import fcntl
import os
import pty
import select
import signal
import subprocess
import sys
import termios
import time

import pytest

from unoduo_tui.store import Store

ALT_ON, ALT_OFF = b"\x1b[?1049h", b"\x1b[?1049l"
MOUSE_OFF = b"\x1b[?1000l"


def _read(fd: int, until: float, want: bytes | None = None) -> bytes:
    out = b""
    while time.monotonic() < until:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the child closed its side
                break
            if not chunk:
                break
            out += chunk
            if want is not None and want in out:
                break
    return out


def _start(tmp_path):
    master, slave = pty.openpty()
    os.set_blocking(master, False)
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24",
           "TEXTUAL_ANIMATIONS": "none"}
    def controlling_tty() -> None:  # as sshd does: a new session whose terminal is the pty
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(
        [sys.executable, "-m", "unoduo_tui.cli", "play", "--vs", "random", "--seed", "5",
         "--data-dir", str(tmp_path)],
        stdin=slave, stdout=slave, stderr=slave, env=env, preexec_fn=controlling_tty)
    os.close(slave)
    screen = _read(master, time.monotonic() + 20, want=b"keep")
    assert ALT_ON in screen, screen[-500:]
    for key in (b"k", b"k", b"r"):
        os.write(master, key)
        time.sleep(0.4)
    screen += _read(master, time.monotonic() + 1)
    return master, proc, screen


def _check_saved(tmp_path) -> None:
    store = Store(tmp_path)
    [summary] = store.summaries()
    loaded = store.open(summary.id, read_only=True)
    assert loaded.notes == []  # complete: no torn tail to recover
    decisions = [e for e in loaded.match.actions if not e.is_chance]
    assert len(decisions) >= 3


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
def test_a_signal_exits_cleanly_within_two_seconds(tmp_path, sig):
    master, proc, screen = _start(tmp_path)
    try:
        proc.send_signal(sig)
        start = time.monotonic()
        tail = _read(master, start + 5)
        proc.wait(timeout=5)
        assert time.monotonic() - start < 2.0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    out = screen + tail
    assert out.rfind(ALT_OFF) > out.rfind(ALT_ON)  # the terminal got its screen back
    assert MOUSE_OFF in tail
    _check_saved(tmp_path)


def test_losing_the_terminal_outright_exits_and_keeps_the_match(tmp_path):
    master, proc, _ = _start(tmp_path)
    try:
        os.close(master)  # the SSH connection is gone: the pty hangs up
        start = time.monotonic()
        proc.wait(timeout=5)
        assert time.monotonic() - start < 2.0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    _check_saved(tmp_path)
