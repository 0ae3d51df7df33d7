"""The lobby of a cluster (#27): every node's open tables as rows of the shared
PostgreSQL database, and the quick-match queue there too.

**Rows with heartbeats.** Each node's table service (:class:`~unoduo_tui.net.hall.Hall`)
writes the tables it holds to ``open_tables`` — one row each, what a lobby lists
(:class:`~unoduo_tui.net.messages.TableEntry`) and which node holds it — as they open,
change and close (the changes of a moment in one transaction).  A row counts while its node is alive (:data:`.cluster.LIVE`: the node's
heartbeat is recent and its lease connection is connected), so the tables of a node
that was killed leave every lobby at once, with no pid to check and no file to clean.

**LISTEN/NOTIFY.** A node that wrote its rows sends ``NOTIFY unoduo_lobby``; every
node LISTENs on a connection of its own and reads the other nodes' rows again when
told (and at each heartbeat, for the nodes that died without a word), then pushes the
changed pages to its lobbies as for a table of its own.

**Quick match** pairs across nodes: under one advisory transaction lock a node takes
the oldest quick table someone else waits at — ``FOR UPDATE SKIP LOCKED``, and
promised to this player for :data:`~unoduo_tui.net.hall.PROMISE_SECONDS` — or, when
there is none, opens its own and writes its row before the lock is let go; so two
players pressing it at once on two nodes meet at one table.

Everything here runs on the table service's event loop, through psycopg's async
connections (a small pool, and the listening connection); psycopg is imported only
when a cluster runs.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable

from ..net.messages import TableEntry
from .cluster import BEAT_SECONDS, LIVE
from .pg import CONNECT_SECONDS, lease_key

__all__ = ["SharedLobby", "CHANNEL"]

#: the channel the nodes notify each other on when their tables change
CHANNEL = "unoduo_lobby"
#: the advisory lock a quick-match pairing holds for its transaction
QUICK_LOCK = lease_key("unoduo quick match")

_FIELDS = ("code", "match_id", "host", "preset", "seats", "names", "open", "quick", "over",
           "connected")


def _row(entry: TableEntry) -> tuple:
    return (entry.code, entry.match, entry.host, entry.preset, entry.seats,
            list(entry.names), entry.open, entry.quick, entry.over, entry.connected)


def _entry(row: tuple) -> TableEntry:
    code, match, host, preset, seats, names, open_, quick, over, connected = row
    return TableEntry(code, match, host, preset, seats, tuple(names), open_, quick, over,
                      connected)


class SharedLobby:
    """One node's part of the cluster's lobby (see the module doc).  ``node``: this
    node's name (:class:`~.cluster.Cluster`'s); ``changed``: called on the loop when
    the other nodes' tables changed; ``log``: one line per trouble; ``delay``: seconds
    within which this node's changes are written once."""

    def __init__(self, url: str, node: str, changed: Callable[[], None],
                 log: Callable[[str], None] | None = None, delay: float = 0.1) -> None:
        self.url = url
        self.delay = delay
        self.node = node
        self.changed = changed
        self.log = log or (lambda line: None)
        #: the other nodes' open tables, oldest first, and where each one's node is
        self.remote: list[TableEntry] = []
        self.where: dict[str, str] = {}
        self._pool: Any = None
        self._dirty: dict[str, tuple[TableEntry | None, str]] = {}
        self._flush: asyncio.Task | None = None
        self._tasks: list[asyncio.Task] = []
        self._refresh_soon = asyncio.Event()
        self._down = False

    # -- running -----------------------------------------------------------------------

    async def start(self) -> None:
        from psycopg_pool import AsyncConnectionPool

        self._pool = AsyncConnectionPool(
            self.url, min_size=1, max_size=3, open=False, timeout=CONNECT_SECONDS,
            kwargs={"autocommit": True, "connect_timeout": int(CONNECT_SECONDS)},
            check=AsyncConnectionPool.check_connection, name="unoduo-lobby")
        await self._pool.open()
        await self._execute("DELETE FROM open_tables WHERE node = %s", (self.node,))
        await self.refresh()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._refresher())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._flush is not None:
            await asyncio.wait([self._flush], timeout=CONNECT_SECONDS)
        try:
            await self._execute("DELETE FROM open_tables WHERE node = %s", (self.node,))
            await self._notify()
        except Exception:  # noqa: BLE001 - the database down: our rows stop counting
            pass
        if self._pool is not None:
            await self._pool.close()

    async def _execute(self, sql: str, args: tuple = ()) -> list[tuple]:
        async with self._pool.connection() as conn:
            cur = await conn.execute(sql, args)
            return list(await cur.fetchall()) if cur.description else []

    async def _notify(self) -> None:
        await self._execute("SELECT pg_notify(%s, %s)", (CHANNEL, self.node))

    # -- this node's tables -------------------------------------------------------------

    def put(self, code: str, entry: TableEntry | None, owner: str = "") -> None:
        """The table ``code`` of this node is now ``entry`` (None: it closed); written
        with the other changes of the next moment."""
        self._dirty[code] = (entry, owner)
        if self._flush is None or self._flush.done():
            self._flush = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        await asyncio.sleep(self.delay)
        while self._dirty:
            dirty, self._dirty = self._dirty, {}
            try:
                async with self._pool.connection() as conn, conn.transaction():
                    await self._upsert(conn, dirty)
                    await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, self.node))
                self._recovered()
            except Exception as exc:  # noqa: BLE001 - the database is down: again later
                self._trouble(exc)
                for code, change in dirty.items():
                    self._dirty.setdefault(code, change)
                await asyncio.sleep(BEAT_SECONDS)

    async def _upsert(self, conn: Any, dirty: dict[str, tuple[TableEntry | None, str]]
                      ) -> None:
        gone = [code for code, (entry, _) in dirty.items() if entry is None]
        if gone:
            await conn.execute("DELETE FROM open_tables WHERE node = %s AND code = ANY(%s)",
                               (self.node, gone))
        rows = [(*_row(entry), self.node, owner) for entry, owner in dirty.values()
                if entry is not None]
        if rows:
            async with conn.cursor() as cur:
                await cur.executemany(
                    f"INSERT INTO open_tables ({', '.join(_FIELDS)}, node, owner) VALUES "
                    f"({', '.join(['%s'] * (len(_FIELDS) + 2))}) ON CONFLICT (code) DO "
                    f"UPDATE SET {', '.join(f'{f} = excluded.{f}' for f in _FIELDS[1:])}, "
                    "node = excluded.node, owner = excluded.owner", rows)

    def _trouble(self, exc: BaseException) -> None:
        if not self._down:
            self._down = True
            self.log(f"the cluster's lobby cannot reach the database: "
                     f"{str(exc).strip().splitlines()[0] if str(exc).strip() else exc!r}")

    def _recovered(self) -> None:
        if self._down:
            self._down = False
            self.log("the cluster's lobby reaches the database again")

    # -- the other nodes' tables ----------------------------------------------------------

    async def refresh(self) -> None:
        """The other nodes' tables read again; :attr:`changed` called if they
        changed."""
        rows = await self._execute(
            f"SELECT {', '.join('t.' + f for f in _FIELDS)}, n.peer FROM open_tables t "
            f"JOIN nodes n ON n.node = t.node WHERE t.node <> %s AND t.node IN ({LIVE}) "
            "ORDER BY t.opened, t.code", (self.node,))
        remote = [_entry(r[:-1]) for r in rows]
        where = {r[0]: r[-1] for r in rows}
        if remote != self.remote or where != self.where:
            self.remote, self.where = remote, where
            self.changed()

    async def locate(self, code: str) -> str | None:
        """Where the node holding ``code`` takes other nodes' players (``HOST:PORT``),
        asked of the database now (a table opened a moment ago may not have been
        told yet); None: no live node holds it."""
        rows = await self._execute(
            f"SELECT n.peer FROM open_tables t JOIN nodes n ON n.node = t.node WHERE "
            f"t.code = %s AND t.node <> %s AND t.node IN ({LIVE})", (code, self.node))
        return rows[0][0] if rows and rows[0][0] else None

    async def _listen(self) -> None:
        """LISTEN on a connection of its own; each other node's word: read again."""
        import psycopg

        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, connect_timeout=int(CONNECT_SECONDS))
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._refresh_soon.set()  # what was missed while not listening
                    async for note in conn.notifies():
                        if note.payload != self.node:
                            self._refresh_soon.set()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - down: listen again in a moment
                self._trouble(exc)
            await asyncio.sleep(BEAT_SECONDS / 5)

    async def _refresher(self) -> None:
        """Read again when told, and at least every heartbeat (a node that died says
        nothing: its rows stop counting when it stops beating)."""
        while True:
            try:
                await asyncio.wait_for(self._refresh_soon.wait(), BEAT_SECONDS)
            except asyncio.TimeoutError:
                pass
            self._refresh_soon.clear()
            try:
                await self.refresh()
                self._recovered()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - down: the lists stay as they were
                self._trouble(exc)
                await asyncio.sleep(BEAT_SECONDS / 5)

    # -- quick match ----------------------------------------------------------------------

    @asynccontextmanager
    async def quick_turn(self, owner: str, promise: float, fresh: float
                         ) -> AsyncIterator["QuickTurn"]:
        """The cluster's quick-match queue, this player's turn at it (one pairing at a
        time in the whole cluster): :attr:`QuickTurn.code` is the oldest quick table
        someone else (not ``owner``) waits at, promised to this player for ``promise``
        seconds — a table whose player is not connected counts only its first
        ``fresh`` seconds — else None: open one and :meth:`QuickTurn.opened` it before
        the turn ends."""
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (QUICK_LOCK,))
            cur = await conn.execute(
                "SELECT code FROM open_tables WHERE quick AND open > 0 AND NOT over AND "
                "owner <> %s AND promised_until < now() AND (connected > 0 OR opened > "
                "now() - make_interval(secs => %s)) AND node IN (" + LIVE + ") ORDER BY "
                "opened LIMIT 1 FOR UPDATE SKIP LOCKED", (owner, fresh))
            row = await cur.fetchone()
            if row is not None:
                await conn.execute("UPDATE open_tables SET promised_until = now() + "
                                   "make_interval(secs => %s) WHERE code = %s",
                                   (promise, row[0]))
            turn = QuickTurn(self, conn, owner, row[0] if row else None)
            yield turn
            if turn.written:
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, self.node))


class QuickTurn:
    """One player's turn at the quick-match queue (:meth:`SharedLobby.quick_turn`)."""

    def __init__(self, lobby: SharedLobby, conn: Any, owner: str, code: str | None) -> None:
        self.lobby = lobby
        self.conn = conn
        self.owner = owner
        self.code = code
        self.written = False

    async def opened(self, entry: TableEntry) -> None:
        """The quick table this node opened for the player, listed in the same
        transaction (so the next player's turn finds it)."""
        await self.lobby._upsert(self.conn, {entry.code: (entry, self.owner)})
        self.written = True
