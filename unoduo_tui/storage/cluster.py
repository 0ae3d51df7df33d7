"""What the nodes of one ``unoduo serve`` cluster share besides the saves (#27), in the
PostgreSQL database: who each key is (``identities``), the new keys each address
brought in the last hour (``new_keys``), and who plays where (``playing``: the
per-address and per-key limits count every node's players).

**Nodes.** Each serve process registers as a node (``nodes``) with the backend pid of
its lease connection (:class:`~.pg.Leases`): a node is alive while that connection
is — one killed with SIGKILL is gone the moment the database sees its connection
close, one cut off once the keepalives give up (:data:`~.pg.KEEPALIVE`) — so what a
dead node's players held (their places in ``playing``) stops counting at once, with
no timer to wait for.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import socket
import threading
from pathlib import Path
from typing import Any, Awaitable, Callable

from ..text import player_name
from .pg import Database, database

__all__ = ["Cluster", "heartbeat", "LIVE", "BEAT_SECONDS", "ALIVE_SECONDS", "PLAYER_FILES",
           "player_files"]

#: the files of a player's folder the nodes share through the database: the new-match
#: form's choices, the codes and seat tokens of the tables they host and joined (a
#: review's cache is not: each node makes its own again)
PLAYER_FILES = re.compile(r"settings\.json|(?:tables|joined)/[A-Za-z0-9][A-Za-z0-9_.-]{0,99}"
                          r"\.json")
#: the largest such file shared
PLAYER_FILE_BYTES = 64 * 1024

#: seconds between a node's heartbeats (:meth:`Cluster.beat`) …
BEAT_SECONDS = 5.0
#: … and since its last one after which it no longer counts as alive
ALIVE_SECONDS = 20
#: the nodes alive now: those whose registered lease connection is still connected and
#: whose heartbeat is recent (a node whose loop hangs stops counting too)
LIVE = ("SELECT n.node FROM nodes n JOIN pg_stat_activity a ON a.pid = n.backend_pid "
        f"WHERE n.beat > now() - interval '{ALIVE_SECONDS} seconds'")


def _key(text: str) -> int:
    from .pg import lease_key

    return lease_key("address\0" + text)


class Cluster:
    """This node's view of the cluster's shared state (see the module doc); every call
    raises ``OSError`` / psycopg's errors when the database does not answer — the
    caller refuses the connection with a plain sentence."""

    def __init__(self, url: str, name: str | None = None, peer: str = "") -> None:
        self.db: Database = database(url)
        self.node = name or f"{socket.gethostname()}:{os.getpid()}:{os.urandom(3).hex()}"
        #: where the other nodes join this node's tables (``HOST:PORT``; '' none)
        self.peer = peer
        self._places = 0
        self._pid = 0
        self._lock = threading.Lock()
        self.register()

    def _execute(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self.db.pool.connection() as conn:
            cur = conn.execute(sql, args)
            return list(cur) if cur.description else []

    def register(self) -> None:
        """This node, by its lease connection's backend pid (made again after the
        database restarted: :meth:`beat` calls this when it changed)."""
        pid = self._pid = self.db.leases.backend_pid()
        self._execute("INSERT INTO nodes (node, backend_pid, peer) VALUES (%s, %s, %s) ON "
                      "CONFLICT (node) DO UPDATE SET backend_pid = excluded.backend_pid, "
                      "peer = excluded.peer, beat = now()", (self.node, pid, self.peer))

    def beat(self) -> None:
        """Every :data:`BEAT_SECONDS`: the node's heartbeat, its lease connection
        checked (made again, and this node registered again, after the database
        restarted)."""
        if self.db.leases.backend_pid() != self._pid or not self._execute(
                "UPDATE nodes SET beat = now() WHERE node = %s RETURNING node", (self.node,)):
            self.register()

    def close(self) -> None:
        try:
            self._execute("DELETE FROM open_tables WHERE node = %s", (self.node,))
            self._execute("DELETE FROM playing WHERE node = %s", (self.node,))
            self._execute("DELETE FROM nodes WHERE node = %s", (self.node,))
        except Exception:  # noqa: BLE001 - a database that is down forgets us by itself
            pass

    # -- identities ----------------------------------------------------------------------

    def known(self, fingerprint: str) -> bool:
        return bool(self._execute("SELECT 1 FROM identities WHERE fingerprint = %s",
                                  (fingerprint,)))

    def identity(self, fingerprint: str, username: str) -> tuple[str, bool]:
        """The name the cluster knows this key by (the first node to see it wrote it,
        from ``username``), and whether it is new to the cluster."""
        rows = self._execute(
            "INSERT INTO identities (fingerprint, name) VALUES (%s, %s) ON CONFLICT "
            "(fingerprint) DO NOTHING RETURNING name", (fingerprint, player_name(username)))
        if rows:
            return rows[0][0], True
        return self._execute("SELECT name FROM identities WHERE fingerprint = %s",
                             (fingerprint,))[0][0], False

    def rename(self, fingerprint: str, name: str) -> None:
        self._execute("UPDATE identities SET name = %s WHERE fingerprint = %s",
                      (player_name(name), fingerprint))

    # -- a player's files ----------------------------------------------------------------

    def pull_files(self, owner: str, folder: Path) -> dict[str, str]:
        """The player's shared files (:data:`PLAYER_FILES`) as the database has them,
        written into their ``folder`` on this node (each whole or not at all); what
        the folder holds of them now (:func:`player_files`), for :meth:`push_files`."""
        from ..files import private_dir, replace_private

        for name, data in self._execute("SELECT name, data FROM player_files WHERE owner "
                                        "= %s", (owner,)):
            if not PLAYER_FILES.fullmatch(name) or len(data) > PLAYER_FILE_BYTES:
                continue
            path = folder / name
            private_dir(path.parent)
            replace_private(path, bytes(data))
        return player_files(folder)

    def push_files(self, owner: str, folder: Path, before: dict[str, str]
                   ) -> dict[str, str]:
        """The player's shared files that changed in ``folder`` since ``before`` (a
        :meth:`pull_files` or the last push) written to the database, those gone
        removed; what the folder holds now."""
        now = player_files(folder)
        for name, digest in now.items():
            if before.get(name) != digest:
                try:
                    data = (folder / name).read_bytes()
                except OSError:
                    continue
                self._execute("INSERT INTO player_files (owner, name, data) VALUES (%s, %s, "
                              "%s) ON CONFLICT (owner, name) DO UPDATE SET data = "
                              "excluded.data, updated = now()", (owner, name, data))
        for name in before.keys() - now.keys():
            self._execute("DELETE FROM player_files WHERE owner = %s AND name = %s",
                          (owner, name))
        return now

    # -- new keys ------------------------------------------------------------------------

    def new_keys(self, address: str) -> tuple[int, float]:
        """The new keys ``address`` brought in the last hour, and the seconds until the
        oldest of them is an hour old."""
        rows = self._execute(
            "SELECT count(*), COALESCE(EXTRACT(EPOCH FROM (min(at) + interval '1 hour' - "
            "now())), 0) FROM new_keys WHERE address = %s AND at > now() - interval "
            "'1 hour'", (address,))
        return int(rows[0][0]), float(rows[0][1])

    def add_new_key(self, address: str) -> None:
        self._execute("INSERT INTO new_keys (address) VALUES (%s)", (address,))
        self._execute("DELETE FROM new_keys WHERE at < now() - interval '1 hour'")

    # -- who plays where -------------------------------------------------------------------

    def enter(self, address: str, key: str, per_address: int, per_key: int
              ) -> tuple[int | None, str | None]:
        """A place for a player from ``address`` with ``key`` if the cluster's limits
        allow it: (its number, None), else (None, why).  Atomic: two nodes admitting
        from one address at once are counted one after the other."""
        with self._lock:
            self._places += 1
            place = self._places
        with self.db.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_key(address),))
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_key("key\0" + key),))
            here = _count(conn, f"SELECT count(*) FROM playing WHERE address = %s AND "
                                f"node IN ({LIVE})", address)
            if here >= per_address:
                return None, (f"already {here} players from your address ({address}) on "
                              "this server: close one to open another")
            keyed = _count(conn, f"SELECT count(*) FROM playing WHERE key = %s AND node "
                                 f"IN ({LIVE})", key)
            if keyed >= per_key:
                return None, (f"already {keyed} connections with this key: close one to "
                              "open another")
            conn.execute("INSERT INTO playing (node, place, address, key) VALUES "
                         "(%s, %s, %s, %s)", (self.node, place, address, key))
        return place, None

    def leave(self, place: int) -> None:
        try:
            self._execute("DELETE FROM playing WHERE node = %s AND place = %s",
                          (self.node, place))
        except Exception:  # noqa: BLE001 - a dead node's rows stop counting anyway
            pass

    def reap(self) -> None:
        """Forget the rows of nodes that are gone (they no longer count already)."""
        self._execute(f"DELETE FROM playing WHERE node NOT IN ({LIVE})")
        self._execute(f"DELETE FROM open_tables WHERE node NOT IN ({LIVE})")
        self._execute(f"DELETE FROM nodes WHERE node NOT IN ({LIVE})")


def _count(conn: Any, sql: str, value: str) -> int:
    row = conn.execute(sql, (value,)).fetchone()
    return int(row[0]) if row else 0


def player_files(folder: Path) -> dict[str, str]:
    """The shared files (:data:`PLAYER_FILES`) a player's folder holds: name → a
    digest of its bytes."""
    found: dict[str, str] = {}
    for path in [folder / "settings.json", *sorted((folder / "tables").glob("*.json")),
                 *sorted((folder / "joined").glob("*.json"))]:
        name = path.relative_to(folder).as_posix()
        if not PLAYER_FILES.fullmatch(name) or path.is_symlink():
            continue
        try:
            if path.stat().st_size > PLAYER_FILE_BYTES:
                continue
            found[name] = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            continue
    return found


async def heartbeat(cluster: Cluster,
                    also: Callable[[], Awaitable[None]] | None = None) -> None:
    """A node's heartbeat, until cancelled: every :data:`BEAT_SECONDS` its beat (its
    registration kept up after the database restarted), the rows of the nodes that
    died forgotten, then ``also``.  A database that is down: again at the next beat."""
    while True:
        await asyncio.sleep(BEAT_SECONDS)
        try:
            await asyncio.to_thread(cluster.beat)
            await asyncio.to_thread(cluster.reap)
            if also is not None:
                await also()
        except Exception:  # noqa: BLE001 - the database is down: again later
            pass
