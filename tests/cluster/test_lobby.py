"""#27: the lobby of a cluster — two nodes' table services (:class:`Hall`, each on its
own event loop, each with its own socket for its players) sharing one real
PostgreSQL: the tables one node holds are listed on the other (LISTEN/NOTIFY), a
player of one node joins a table of the other through the peer door (the code and the
cluster's secret), quick match pairs two players of two nodes and they play a match to
the end; a node that does not know the secret is refused at the door."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from unoduo_tui.net import client, hall_link
from unoduo_tui.net import lobby as listing
from unoduo_tui.net import messages as msg
from unoduo_tui.net.client import plan_to_json
from unoduo_tui.net.codes import HALL
from unoduo_tui.net.frames import FrameReader
from unoduo_tui.net.guesses import Guesser
from unoduo_tui.net.hall import Hall, peer_mac
from unoduo_tui.storage.cluster import Cluster, heartbeat
from unoduo_tui.storage.lobby import SharedLobby
from unoduo_tui.storage.pg import PgStore

from ..net.helpers import WAIT, Client, LoopThread, plan, play_out
from ..waiting import until

SECRET = os.urandom(32)


class Node(LoopThread):
    """One node's table service: its hall (socket ``hall.sock``, players' folders
    under ``players``), its peer door on 127.0.0.1, its place in the database."""

    def __init__(self, url: str, root: Path, name: str, secret: bytes = SECRET) -> None:
        self.url, self.name = url, name
        self.dir = root / name
        (self.dir / "players").mkdir(parents=True)
        self.path = self.dir / "hall.sock"
        self.start_loop()
        self.hall: Hall = self.call(lambda: Hall(root=self.dir / "players", bot_pause=0))
        self.run(self.hall.start(str(self.path)))
        host, port = self.run(self.hall.start_peer("127.0.0.1", 0, secret))
        self.peer = (host, port)
        self.cluster = Cluster(url, name, f"{host}:{port}")
        self.hall.store, self.hall.node = url, name
        self.shared: SharedLobby = self.call(lambda: SharedLobby(
            url, name, self.hall.remote_changed, delay=0.05))
        self.run(self.shared.start())
        self.hall.shared = self.shared
        # serve's heartbeat: this node counts as alive
        self.beats = self.call(lambda: self.loop.create_task(heartbeat(self.cluster)))

    def player(self, who: str) -> PgStore:
        """A player of this node (their key ``key:WHO``), their saves in the database."""
        return PgStore(self.url, self.dir / "players" / who, key=f"SHA256:{who}",
                       owner=f"SHA256:{who}")

    def listed(self, test) -> list[msg.TableEntry]:
        """This node's lobby listing, once ``test`` passes on it."""
        seen: list[msg.TableEntry] = []

        def listing() -> tuple[list[msg.TableEntry]] | None:  # a tuple: [] may pass
            seen[:] = self.call(self.hall.entries)
            return (list(seen),) if test(seen) else None
        return until(listing, lambda: f"{self.name}'s listing to pass (it lists {seen})",
                     WAIT)[0]

    def stop(self) -> None:
        if self.thread.is_alive():
            self.call(self.beats.cancel)
            self.run(self.hall.close())
            self.stop_loop()
        self.cluster.close()


@pytest.fixture
def nodes(pg_url):
    root = Path(tempfile.mkdtemp(prefix="udlb", dir="/tmp"))
    made: list[Node] = []

    def make(name: str, **kw) -> Node:
        made.append(Node(pg_url, root, name, **kw))
        return made[-1]
    yield make
    for n in made:
        n.stop()
    shutil.rmtree(root, ignore_errors=True)


class Held:
    """The match a node holds, as :func:`play_out` reads it."""

    def __init__(self, node: Node, code: str) -> None:
        self.table = node.call(lambda: node.hall.tables[code].authority.table)

    def state(self) -> tuple[int | None, int, bool]:
        with self.table.lock:
            m = self.table.match
            return m.to_act, m.event_count, m.over


def test_quick_match_pairs_two_players_of_two_nodes_and_they_play_to_the_end(
        nodes, monkeypatch):
    a, b = nodes("a"), nodes("b")
    ann, bob = a.player("ann"), b.player("bob")
    monkeypatch.setenv(HALL, str(a.path))  # ann's game is on node a
    host = listing.quick_match(ann, Path("/nonexistent"), "Ann")
    assert host.hosting
    b.listed(lambda entries: any(e.code == host.code and e.quick for e in entries))
    monkeypatch.setenv(HALL, str(b.path))  # bob's on node b
    joined = listing.quick_match(bob, Path("/nonexistent"), "Bob")
    try:
        assert not joined.hosting and joined.code == host.code  # one table, on node a
        assert host.code in a.call(lambda: set(a.hall.tables))
        assert host.code not in b.call(lambda: set(b.hall.tables))
        held = Held(a, host.code)
        seats = {t.seat: Client(t, None) for t in (host.table, joined.table)}  # type: ignore[arg-type]
        assert sorted(seats) == [0, 1]
        made = play_out(held, seats, seed=5)  # type: ignore[arg-type]
        assert held.state()[2] and made > 10, "the match is over"
        # both players saw its end, bob through the relay between the nodes
        for player in seats.values():
            player.wait(lambda u: u.over, "the end of the match")
        # saved as it went, in the database: ann's
        assert [s.id for s in ann.summaries()] == [host.match]
        assert ann.summaries()[0].status == "finished"
    finally:
        host.table.close()
        joined.table.close()


def test_a_table_of_one_node_is_listed_on_the_other_and_joined_by_its_code(
        nodes, monkeypatch):
    a, b = nodes("a"), nodes("b")
    monkeypatch.setenv(HALL, str(a.path))
    info = hall_link.open_table(a.dir / "players" / "ann", "--plan",
                                plan_to_json(plan(seed=3)), key="SHA256:ann")
    # LISTEN/NOTIFY: node b lists it, with its host, within a moment
    (entry,) = b.listed(lambda entries: [e.code for e in entries] == [info["code"]])
    assert entry.host == "P0" and entry.open == 1
    monkeypatch.setenv(HALL, str(b.path))
    cy = b.player("cy")
    table = client.connect(cy, info["code"], want="play", name="Cy")
    try:
        assert table.seat == 1  # a seat at node a's table, from node b
        b.listed(lambda entries: entries and entries[0].open == 0 and "Cy" in entries[0].names)
        # a wrong code is still wrong (counted on node b, not relayed)
        with pytest.raises(ConnectionError, match="no table with the code"):
            client.connect(cy, "ash-ash-ash-0001", want="watch")
    finally:
        table.close()
    # the table ends on node a: it leaves node b's listing too
    host = a.call(lambda: a.hall.tables[info["code"]])
    a.call(host.authority.finished.set)
    b.listed(lambda entries: entries == [])


def test_the_peer_door_refuses_a_node_without_the_secret(nodes, monkeypatch):
    a = nodes("a")
    monkeypatch.setenv(HALL, str(a.path))
    info = hall_link.open_table(a.dir / "players" / "ann", "--plan",
                                plan_to_json(plan(seed=3)), key="SHA256:ann")
    who = Guesser("key:SHA256:eve")

    async def knock(secret: bytes) -> msg.Message:
        reader, writer = await asyncio.open_connection(*a.peer)
        frames = FrameReader()
        try:
            challenge = msg.decode(frames.feed(await reader.read(1 << 16))[0],
                                   msg.TO_JOINING_NODE)
            assert isinstance(challenge, msg.PeerChallenge)
            writer.write(msg.encode(msg.PeerJoin("eve", info["code"], who.id, peer_mac(
                secret, challenge.nonce, info["code"], who))))
            writer.write(msg.encode(msg.Hello(info["code"], "watch")))
            got = b""
            while not (answer := frames.feed(got)):
                got = await asyncio.wait_for(reader.read(1 << 16), WAIT)
                assert got, "closed without an answer"
            return msg.decode(answer[0], msg.TO_CLIENT)
        finally:
            writer.close()

    assert asyncio.run(knock(os.urandom(32))) == msg.Refused("not a node of this cluster")
    welcome = asyncio.run(knock(SECRET))  # the secret: a watcher's welcome
    assert isinstance(welcome, msg.Welcome) and welcome.seat is None
