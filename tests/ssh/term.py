"""SSH test clients: asyncssh with generated keys; what the server sends is kept, and
read by waiting until its text (escape sequences stripped) shows what we expect."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

import asyncssh

from unoduo_tui.ssh.server import GameServer

#: a safety net for every wait; a healthy test never comes near it
WAIT = 60.0

_ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
                      rb"|\x1b[()][0-9A-Za-z]|\x1b[=>78DEHMc]")


def plain(data: bytes) -> str:
    """``data`` as text with escape sequences gone (cursor moves become a space)."""
    return _ESCAPES.sub(b" ", data).decode("utf-8", "replace")


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


class Screen(asyncssh.SSHClientSession):
    """A client session that keeps every byte (``out``, ``err``) and its exit status."""

    def __init__(self) -> None:
        self.out = bytearray()
        self.err = bytearray()
        self.mark = 0  # :meth:`wait` looks from here on
        self.status: int | None = None
        self.closed = asyncio.Event()
        self._changed = asyncio.Event()

    def data_received(self, data: bytes, datatype: Any) -> None:
        (self.err if datatype == asyncssh.EXTENDED_DATA_STDERR else self.out).extend(data)
        self._changed.set()

    def exit_status_received(self, status: int) -> None:
        self.status = status

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self._changed.set()

    def text(self, since: int = 0) -> str:
        return plain(bytes(self.out[since:]))

    async def wait(self, *texts: str, err: bool = False, timeout: float = WAIT) -> str:
        """Wait until the output since :attr:`mark` (stderr: all of it) holds every one
        of ``texts``; move the mark past it; the text.  ``AssertionError`` with what
        was seen, if the session closes or the time runs out first."""
        return await self._until(lambda seen: all(t in seen for t in texts), texts, err,
                                 timeout)

    async def wait_any(self, *texts: str, timeout: float = WAIT) -> str:
        """Like :meth:`wait`, for the first of ``texts`` to show: which one."""
        seen = await self._until(lambda seen: any(t in seen for t in texts), texts, False,
                                 timeout)
        return next(t for t in texts if t in seen)

    async def _until(self, done, texts, err: bool, timeout: float) -> str:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            seen = plain(bytes(self.err)) if err else self.text(self.mark)
            if done(seen):
                if not err:
                    self.mark = len(self.out)
                return seen
            left = deadline - loop.time()
            assert left > 0 and not self.closed.is_set(), (
                f"waited for {texts!r}; saw: {seen[-1500:]!r}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                pass


@dataclass
class Player:
    conn: asyncssh.SSHClientConnection
    chan: asyncssh.SSHClientChannel
    screen: Screen

    async def keys(self, *keys: str) -> None:
        for key in keys:
            self.chan.write(key.encode())

    def close(self) -> None:
        self.conn.close()


@dataclass
class Served:
    server: GameServer
    host: str
    port: int
    players: list[Player] = field(default_factory=list)

    async def connect(self, key: asyncssh.SSHKey | None = None, username: str = "alice",
                      **kw: Any) -> asyncssh.SSHClientConnection:
        return await asyncio.wait_for(asyncssh.connect(
            self.host, self.port, username=username, client_keys=[key] if key else None,
            known_hosts=None, agent_path=None, encoding=None, **kw), WAIT)

    async def play(self, key: asyncssh.SSHKey, username: str = "alice",
                   size: tuple[int, int] = (80, 24), term: str = "xterm-256color",
                   source: str | None = None, **session: Any) -> Player:
        """A connection with a pty session, as ``ssh -t`` opens (``source``: the
        client's own address, as ``ssh -b``: 127.0.0.2 …)."""
        conn = await self.connect(key, username,
                                  **({"local_addr": (source, 0)} if source else {}))
        chan, screen = await conn.create_session(
            Screen, term_type=term, term_size=size, encoding=None, **session)
        player = Player(conn, chan, screen)
        self.players.append(player)
        return player

    async def stop(self) -> None:
        for p in self.players:
            p.close()
        await self.server.stop()


async def host_and_join(server: Any, host_key: asyncssh.SSHKey, joiner_key: asyncssh.SSHKey
                        ) -> tuple[Any, str, Any, str]:
    """alice (``host_key``) opens a UNO Duo table from the lobby, the other seat open,
    and bob (``joiner_key``) joins it from his: (alice, her first draft line, bob, his)."""
    alice = await server.play(host_key, "alice")
    await alice.screen.wait("Signed in as alice")
    await alice.keys("o")
    await alice.screen.wait("Host a table")
    await alice.keys("\t", "\r")  # UNO Duo, two seats, the other one open
    alice_first = await alice.screen.wait_any("keep (k) or reject (r)", "Player 2 is drafting")
    bob = await server.play(joiner_key, "bob")
    await bob.screen.wait("Join alice's table — UNO Duo, 2 seats, 1 open")
    await bob.keys("j")
    bob_first = await bob.screen.wait_any("keep (k) or reject (r)", "alice is drafting")
    return alice, alice_first, bob, bob_first
