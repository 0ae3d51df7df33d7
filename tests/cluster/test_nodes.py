"""#27: two ``unoduo serve`` nodes (processes of their own) behind a real HAProxy (TCP
mode, PROXY v2, from 127.0.0.3), sharing a real PostgreSQL: a match played on one
node resumes exactly on the other — after a dropped connection, and after the first
node is killed with SIGKILL; the per-address limit counts both nodes; a PROXY header
from anyone but the balancer, or a balancer's connection without one, is refused."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import asyncssh
import pytest

from ..ssh.term import WAIT, Screen, new_key
from .servers import HAProxy, free_port, missing

pytestmark = pytest.mark.skipif(missing(haproxy=True) is not None,
                                reason=missing(haproxy=True) or "")

BALANCER = "127.0.0.3"
_LISTENING = re.compile(r"listening on \S+ port (\d+)")
_DRAFT = re.compile(r"Draft (\d+)/14: keep \(k\) or reject \(r\)")


class Node:
    """``unoduo serve`` in a process of its own, on its own serve dir."""

    def __init__(self, url: str, root: Path, name: str, host_key: Path, **options: str):
        self.dir = root / name
        self.health = free_port()
        argv = [sys.executable, "-m", "unoduo_tui.cli", "serve", "--data-dir", str(self.dir),
                "--port", "0", "--host-key", str(host_key), "--store", url,
                "--proxy-protocol", "--proxy-from", BALANCER,
                "--health", f"127.0.0.1:{self.health}", "--workers", "1"]
        for option, value in options.items():
            argv += [f"--{option.replace('_', '-')}", value]
        self.log = open(root / f"{name}.log", "wb")
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self.log,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        line = self.proc.stdout.readline().decode()
        found = _LISTENING.search(line)
        assert found, f"{name} did not start: {line!r} {(root / f'{name}.log').read_text()}"
        self.port = int(found.group(1))

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)  # the node and its workers
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc.stdout.close()
        self.log.close()


@pytest.fixture
def cluster(pg_url):
    """Two nodes (one host key) and HAProxy in front of them: (haproxy, nodes)."""
    root = Path(tempfile.mkdtemp(prefix="udcl", dir="/tmp"))
    host_key = root / "host_key"
    key = asyncssh.generate_private_key("ssh-ed25519")
    host_key.write_bytes(key.export_private_key())
    host_key.chmod(0o600)
    nodes = [Node(pg_url, root, "a", host_key, per_address="2"),
             Node(pg_url, root, "b", host_key, per_address="2")]
    haproxy = HAProxy([("127.0.0.1", n.port, n.health) for n in nodes],
                      source=BALANCER).start()
    yield haproxy, nodes
    haproxy.stop()
    for n in nodes:
        n.stop()
    import shutil

    shutil.rmtree(root, ignore_errors=True)


async def _play(port: int, key, username: str = "alice", source: str | None = None):
    conn = await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", port, username=username, client_keys=[key], known_hosts=None,
        agent_path=None, encoding=None,
        **({"local_addr": (source, 0)} if source else {})), WAIT)
    chan, screen = await conn.create_session(Screen, term_type="xterm-256color",
                                             term_size=(80, 24), encoding=None)
    return conn, chan, screen


async def _my_turn(screen: Screen, after: int = 0) -> int:
    while True:
        text = await screen.wait("keep (k) or reject (r)")
        turns = [int(n) for n in _DRAFT.findall(text)]
        if turns and turns[-1] > after:
            return turns[-1]


def _node_of(nodes: list[Node], fingerprint: str) -> Node:
    """The node whose serve dir has this player's folder (where they were served)."""
    from unoduo_tui.ssh.identity import folder_name

    return next(n for n in nodes if (n.dir / "players" / folder_name(fingerprint)).exists())


async def test_a_match_resumes_exactly_on_the_other_node_after_a_drop_and_a_kill(cluster):
    haproxy, nodes = cluster
    key = new_key()
    conn, chan, screen = await _play(haproxy.port, key)
    await screen.wait("Signed in as alice")
    chan.write(b"n")
    await screen.wait("Start")
    chan.write(b"\x13")  # ctrl+s: UNO Duo against a bot
    turn = await _my_turn(screen)
    chan.write(b"k")
    await screen.wait("Your hand · 1 card")
    turn = await _my_turn(screen, turn)  # the screen shows it: the keep is saved
    first = _node_of(nodes, key.get_fingerprint())
    conn.abort()  # dropped
    # the next connection goes to the other node (round robin): the same match,
    # from the database, at the very decision the player saw
    conn, chan, screen = await _play(haproxy.port, key, "someone-else")
    await screen.wait("Signed in as alice", "Resume")
    chan.write(b"r")
    await screen.wait("Your hand · 1 card", f"Draft {turn}/14: keep")
    chan.write(b"r")
    turn = await _my_turn(screen, turn)
    second = next(n for n in nodes if n is not first)
    assert _node_of([second], key.get_fingerprint()) is second
    # the node it plays on now is killed mid-match: the other one takes the player
    second.kill()
    await asyncio.wait_for(screen.closed.wait(), WAIT)
    conn, chan, screen = await _play(haproxy.port, key)
    await screen.wait("Signed in as alice", "Resume")
    chan.write(b"r")
    await screen.wait(f"Draft {turn}/14: keep")  # 0 acknowledged decisions lost
    conn.close()


async def test_the_per_address_limit_counts_every_node(cluster):
    haproxy, nodes = cluster
    held = []
    for _ in range(2):  # per-address 2: one on each node (round robin)
        conn, chan, screen = await _play(haproxy.port, new_key(), source="127.0.0.5")
        await screen.wait("Signed in as")
        held.append(conn)
    conn, chan, screen = await _play(haproxy.port, new_key(), source="127.0.0.5")
    text = await screen.wait("already 2 players from your address (127.0.0.5)", err=True)
    assert "unoduo:" in text
    other = await _play(haproxy.port, new_key(), source="127.0.0.6")  # another address
    await other[2].wait("Signed in as")
    for c in (*held, conn, other[0]):
        c.close()


async def test_a_proxy_header_from_anyone_but_the_balancer_is_refused(cluster):
    _, nodes = cluster
    node = nodes[0]
    # a client that forges the header (it says it is 10.0.0.1) straight to a node
    reader, writer = await asyncio.open_connection("127.0.0.1", node.port,
                                                   local_addr=("127.0.0.4", 0))
    forged = (b"\r\n\r\n\x00\r\nQUIT\n\x21\x11\x00\x0c" + bytes([10, 0, 0, 1, 127, 0, 0, 1])
              + (1234).to_bytes(2, "big") + (22).to_bytes(2, "big"))
    writer.write(forged + b"SSH-2.0-forger\r\n")
    assert await asyncio.wait_for(reader.read(), WAIT) == b""  # closed, nothing said
    writer.close()
    # from the balancer's address but without a header: refused too
    reader, writer = await asyncio.open_connection("127.0.0.1", node.port,
                                                   local_addr=(BALANCER, 0))
    writer.write(b"SSH-2.0-plain\r\n")
    assert await asyncio.wait_for(reader.read(), WAIT) == b""
    writer.close()
    with pytest.raises((OSError, asyncssh.Error, asyncio.TimeoutError)):
        await _play(node.port, new_key())  # ssh straight to a node: no header
    log = (node.dir.parent / "a.log").read_text()
    assert "127.0.0.4 refused: not a balancer" in log
    assert "refused: no PROXY v2 header" in log
    # the health check answers
    reader, writer = await asyncio.open_connection("127.0.0.1", node.health)
    writer.write(b"GET / HTTP/1.0\r\n\r\n")
    assert (await asyncio.wait_for(reader.read(), WAIT)).startswith(b"HTTP/1.0 200 OK")
    writer.close()
