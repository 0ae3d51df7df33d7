"""#16: "killing a connection mid-match and reconnecting with the same key resumes" —
``unoduo lobby`` on a real pseudo-terminal, SIGKILLed, started again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from unoduo_tui.net import client
from unoduo_tui.net.lobby import read_listings
from unoduo_tui.net.remote import RemoteTable
from unoduo_tui.net.client import plan_to_json

from .helpers import plan
from .test_cli import _end


class _Pty:
    """``unoduo lobby`` on a pseudo-terminal of 80×24, its output kept (``seen``)."""

    def __init__(self, env: Path, who: str, key: str) -> None:
        import fcntl
        import pty
        import struct
        import termios

        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        environ = {**os.environ, "TERM": "xterm-256color", "UNODUO_KEY": key,
                   "UNODUO_LOBBY_DIR": str(env / "l"), "TEXTUAL_ANIMATIONS": "none"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "unoduo_tui.cli", "lobby", "--data-dir", str(env / who)],
            stdin=slave, stdout=slave, stderr=slave, env=environ, start_new_session=True)
        os.close(slave)
        self.seen = bytearray()
        self.more = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 1 << 16)
            except OSError:
                chunk = b""
            with self.more:
                self.seen += chunk
                self.more.notify_all()
            if not chunk:
                return

    def wait_for(self, text: bytes, timeout: float = 60.0) -> None:
        with self.more:
            if not self.more.wait_for(lambda: text in self.seen, timeout):
                raise AssertionError(f"{text!r} never shown: {bytes(self.seen[-3000:])!r}")

    def press(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def kill(self, sig: int) -> None:
        self.proc.send_signal(sig)
        self.proc.wait(60)
        os.close(self.master)


def test_a_killed_connection_reconnects_with_the_same_key_and_r_puts_it_back_in_its_seat(env):
    (env / "l").mkdir(mode=0o700)
    info = client.start_authority(env / "ann", "--plan", plan_to_json(plan(seed=21)),
                                    listing=str(env / "l"))
    host = RemoteTable.connect(info["code"], token=info["token"], name="Ann")
    changed = threading.Condition()
    host.subscribe(lambda u: (changed.acquire(), changed.notify_all(), changed.release()))

    def wait_connected(seats: set[int]) -> None:  # who is here comes in the updates
        with changed:
            assert changed.wait_for(lambda: host.presence is not None
                                    and set(host.presence.connected) == seats, 60), seats

    lobby = None
    try:
        lobby = _Pty(env, "bob", "SHA256:BobsKeyFingerprint")
        lobby.wait_for(b"Join Ann")
        lobby.wait_for(b"BobsKeyF")  # the key's short fingerprint in the header
        lobby.press(b"j")
        wait_connected({0, 1})
        lobby.wait_for(b"Scores")  # Bob's table on his screen (his seat token kept)
        lobby.kill(signal.SIGKILL)  # the link drops mid-match: no goodbye
        lobby = None
        wait_connected({0})
        lobby = _Pty(env, "bob", "SHA256:BobsKeyFingerprint")
        lobby.wait_for(b"Rejoin")
        lobby.press(b"r")
        wait_connected({0, 1})
        lobby.wait_for(b"Scores")
        assert read_listings(env / "l")[0].open == 0  # the same seat, not a new one
        lobby.kill(signal.SIGHUP)
        lobby = None
    finally:
        if lobby is not None:
            lobby.kill(signal.SIGKILL)
        host.close()
        _end(env / "ann")
