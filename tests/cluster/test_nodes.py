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
from ..waiting import until_async
from .servers import HAProxy, free_port, missing

pytestmark = pytest.mark.skipif(missing(haproxy=True) is not None,
                                reason=missing(haproxy=True) or "")

BALANCER = "127.0.0.3"
_LISTENING = re.compile(r"listening on \S+ port (\d+)")
_DRAFT = re.compile(r"Draft (\d+)/14: keep \(k\) or reject \(r\)")


class Node:
    """``unoduo serve`` in a process of its own, on its own serve dir, its ports fixed
    so that it can be started again where HAProxy expects it."""

    def __init__(self, url: str, root: Path, name: str, host_key: Path, **options: str):
        self.name = name
        self.url = url
        self.root = root
        self.dir = root / name
        self.port, self.health = free_port(), free_port()
        self.argv = [sys.executable, "-m", "unoduo_tui.cli", "serve", "--data-dir",
                     str(self.dir), "--port", str(self.port), "--host-key", str(host_key),
                     "--store", url, "--proxy-protocol", "--proxy-from", BALANCER,
                     "--health", f"127.0.0.1:{self.health}", "--workers", "1"]
        for option, value in options.items():
            self.argv += [f"--{option.replace('_', '-')}", value]
        self.log = open(root / f"{name}.log", "ab")
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(self.argv, stdout=subprocess.PIPE, stderr=self.log,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode()
        found = _LISTENING.search(line)
        assert found, f"{self.name} did not start: {line!r} {self.log_text()}"

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_text(self) -> str:
        return (self.root / f"{self.name}.log").read_text()

    def kill(self) -> None:
        assert self.proc is not None
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)  # the node and its workers
        self._reap()

    def _reap(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        self.proc.wait()
        self.proc.stdout.close()

    def stop(self) -> None:
        if self.alive:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
        self.log.close()


@pytest.fixture(scope="module")
def _cluster(postgres):
    """Two nodes (one host key) and HAProxy in front of them, shared by this module's
    tests (each plays with keys and addresses of its own)."""
    url = postgres.new_db()
    root = Path(tempfile.mkdtemp(prefix="udcl", dir="/tmp"))
    host_key = root / "host_key"
    key = asyncssh.generate_private_key("ssh-ed25519")
    host_key.write_bytes(key.export_private_key())
    host_key.chmod(0o600)
    nodes = [Node(url, root, "a", host_key, per_address="2"),
             Node(url, root, "b", host_key, per_address="2")]
    haproxy = HAProxy([("127.0.0.1", n.port, n.health) for n in nodes],
                      source=BALANCER).start()
    yield haproxy, nodes
    haproxy.stop()
    for n in nodes:
        n.stop()
    import shutil

    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def cluster(_cluster):
    """The module's cluster with both nodes up (a test before killed or drained one:
    started again) and HAProxy sending connections to both."""
    haproxy, nodes = _cluster
    for n in nodes:
        if not n.alive:
            n._reap()
            n.start()
    haproxy.wait_up(len(nodes))
    return haproxy, nodes


async def _play(port: int, key, username: str = "alice", source: str | None = None):
    conn = await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", port, username=username, client_keys=[key], known_hosts=None,
        agent_path=None, encoding=None,
        **({"local_addr": (source, 0)} if source else {})), WAIT)
    chan, screen = await conn.create_session(Screen, term_type="xterm-256color",
                                             term_size=(80, 24), encoding=None)
    return conn, chan, screen


async def _versus_a_bot(port: int, key, source: str | None = None):
    """A new UNO Duo match against a bot, through ``port``: (conn, chan, screen, the
    draft's turn on screen)."""
    conn, chan, screen = await _play(port, key, source=source)
    await screen.wait("Signed in as alice")
    chan.write(b"n")
    await screen.wait("Start")
    chan.write(b"\x13")  # ctrl+s: UNO Duo against a bot
    return conn, chan, screen, await _my_turn(screen)


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
    conn, chan, screen, turn = await _versus_a_bot(haproxy.port, key)
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


async def test_a_drained_node_sends_its_players_to_the_other_and_stops(cluster):
    haproxy, nodes = cluster
    key = new_key()
    conn, chan, screen, turn = await _versus_a_bot(haproxy.port, key, "127.0.0.7")
    chan.write(b"k")
    turn = await _my_turn(screen, turn)
    node = _node_of(nodes, key.get_fingerprint())
    other = next(n for n in nodes if n is not node)
    done = subprocess.run([sys.executable, "-m", "unoduo_tui.cli", "serve", "--drain",
                           "--data-dir", str(node.dir)], capture_output=True, text=True,
                          timeout=WAIT)
    assert done.returncode == 0 and "is draining" in done.stdout, done
    await screen.wait("going down for maintenance")
    await asyncio.wait_for(screen.closed.wait(), WAIT)
    assert node.proc is not None
    assert await asyncio.to_thread(node.proc.wait, WAIT) == 0  # it stops by itself
    assert "draining: 1 players told to reconnect" in node.log_text()
    # through the balancer again: the other node, the very decision last seen
    conn, chan, screen = await _play(haproxy.port, key, source="127.0.0.7")
    await screen.wait("Signed in as alice", "Resume")
    chan.write(b"r")
    await screen.wait(f"Draft {turn}/14: keep")
    assert _node_of([other], key.get_fingerprint()) is other
    conn.close()


async def test_players_of_two_nodes_meet_by_quick_match_and_by_the_listing(cluster):
    haproxy, nodes = cluster
    ann_key, bob_key = new_key(), new_key()
    ann = await _play(haproxy.port, ann_key, "ann", source="127.0.0.8")
    await ann[2].wait("Signed in as ann")
    bob = await _play(haproxy.port, bob_key, "bob", source="127.0.0.8")
    await bob[2].wait("Signed in as bob")
    # round robin: one node each
    assert _node_of(nodes, ann_key.get_fingerprint()) is not _node_of(
        nodes, bob_key.get_fingerprint())
    ann[1].write(b"m")
    await ann[2].wait("Waiting for another player")
    bob[1].write(b"m")  # paired with ann, whose table is on the other node
    for _, _, screen in (ann, bob):  # at one table: each drafts, or sees the other
        await screen.wait_any("keep (k) or reject (r)", "is drafting")
    for conn, _, _ in (ann, bob):
        conn.close()
    # a table opened from one node's lobby is listed, and joined, on the other's
    cy_key, dee_key = new_key(), new_key()
    cy = await _play(haproxy.port, cy_key, "cy", source="127.0.0.9")
    await cy[2].wait("Signed in as cy")
    cy[1].write(b"o")
    await cy[2].wait("Host a table")
    cy[1].write(b"\t\r")
    await cy[2].wait_any("keep (k) or reject (r)", "Player 2 is drafting")
    dee = await _play(haproxy.port, dee_key, "dee", source="127.0.0.9")
    await dee[2].wait("Join cy's table — UNO Duo, 2 seats, 1 open")
    assert _node_of(nodes, cy_key.get_fingerprint()) is not _node_of(
        nodes, dee_key.get_fingerprint())
    dee[1].write(b"j")
    await dee[2].wait_any("keep (k) or reject (r)", "cy is drafting")
    for conn, _, _ in (cy, dee):
        conn.close()


async def test_postgresql_restarted_mid_match_play_pauses_then_goes_on(cluster, postgres):
    haproxy, nodes = cluster
    key = new_key()
    conn, chan, screen, turn = await _versus_a_bot(haproxy.port, key, "127.0.0.10")
    await asyncio.to_thread(postgres.halt)  # the database every node shares
    try:
        chan.write(b"k")  # taken, not saved: the table waits and says why
        await screen.wait("does not answer", "waits until it can save")
    finally:
        await asyncio.to_thread(postgres.resume)
    turn = await _my_turn(screen, turn)  # saved at last: play goes on by itself
    chan.write(b"k")
    turn = await _my_turn(screen, turn)
    hand = re.findall(r"Your hand · (\d+ cards?)", screen.text())[-1]
    conn.abort()
    # nothing lost: a new connection (once HAProxy sees the nodes healthy again)
    # resumes at the very decision last seen
    await asyncio.to_thread(haproxy.wait_up, len(nodes))
    conn, chan, screen = await _play(haproxy.port, key, source="127.0.0.10")
    await screen.wait("Signed in as alice", "Resume")
    chan.write(b"r")
    await screen.wait(f"Your hand · {hand}", f"Draft {turn}/14: keep")
    conn.close()


async def _shared_files(url: str, owner: str) -> list[str]:
    """The names of ``owner``'s files the nodes share, in the database."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(url) as conn:
        cur = await conn.execute("SELECT name FROM player_files WHERE owner = %s "
                                 "ORDER BY name", (owner,))
        return [r[0] for r in await cur.fetchall()]


async def test_a_host_who_drops_goes_back_to_their_table_held_by_the_other_node(cluster):
    haproxy, nodes = cluster
    key = new_key()
    conn, chan, screen = await _play(haproxy.port, key, "eve", source="127.0.0.11")
    await screen.wait("Signed in as eve")
    chan.write(b"o")
    await screen.wait("Host a table")
    chan.write(b"\t\r")  # UNO Duo, the other seat open: a table held by this node
    await screen.wait_any("keep (k) or reject (r)", "Player 2 is drafting")
    host = _node_of(nodes, key.get_fingerprint())
    other = next(n for n in nodes if n is not host)
    # the table's code and eve's token reach the database (the node's heartbeat)
    async def shared() -> bool:
        return any(n.startswith("tables/")
                   for n in await _shared_files(host.url, key.get_fingerprint()))
    await until_async(shared, "the table file to reach the database", WAIT, poll=0.2)
    opened = other.log_text().count(" opened (")
    conn.abort()
    conn, chan, screen = await _play(haproxy.port, key, "eve", source="127.0.0.11")
    await screen.wait("Signed in as eve", "Resume ⇄")  # on the other node
    assert _node_of([other], key.get_fingerprint()) is other
    chan.write(b"r")
    await screen.wait_any("keep (k) or reject (r)", "Player 2 is drafting")
    assert other.log_text().count(" opened (") == opened  # back at it, where it is held
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


async def _hung_up(reader: asyncio.StreamReader) -> bytes:
    """What a connection said before it was closed (a reset, as data unread by the
    node was still in flight, says nothing)."""
    try:
        return await asyncio.wait_for(reader.read(), WAIT)
    except ConnectionResetError:
        return b""


async def test_a_proxy_header_from_anyone_but_the_balancer_is_refused(cluster):
    _, nodes = cluster
    node = nodes[0]
    # a client that forges the header (it says it is 10.0.0.1) straight to a node
    reader, writer = await asyncio.open_connection("127.0.0.1", node.port,
                                                   local_addr=("127.0.0.4", 0))
    forged = (b"\r\n\r\n\x00\r\nQUIT\n\x21\x11\x00\x0c" + bytes([10, 0, 0, 1, 127, 0, 0, 1])
              + (1234).to_bytes(2, "big") + (22).to_bytes(2, "big"))
    writer.write(forged + b"SSH-2.0-forger\r\n")
    assert await _hung_up(reader) == b""  # closed, nothing said
    writer.close()
    # from the balancer's address but without a header: refused too
    reader, writer = await asyncio.open_connection("127.0.0.1", node.port,
                                                   local_addr=(BALANCER, 0))
    writer.write(b"SSH-2.0-plain\r\n")
    assert await _hung_up(reader) == b""
    writer.close()
    with pytest.raises((OSError, asyncssh.Error, asyncio.TimeoutError)):
        await _play(node.port, new_key())  # ssh straight to a node: no header
    log = node.log_text()
    assert "127.0.0.4 refused: not a balancer" in log
    assert "refused: no PROXY v2 header" in log
    # the health check answers
    reader, writer = await asyncio.open_connection("127.0.0.1", node.health)
    writer.write(b"GET / HTTP/1.0\r\n\r\n")
    assert (await asyncio.wait_for(reader.read(), WAIT)).startswith(b"HTTP/1.0 200 OK")
    writer.close()
