"""The PostgreSQL backend (#27): saves as rows, one per record, the hash chain kept.

**Saves.** ``saves`` has a row per match (its id, whose it is — ``owner``, the SSH
key's fingerprint under ``unoduo serve``, ``''`` for the operator's own — how many
records and bytes it holds, whether its footer is in) and ``save_records`` a row per
record of the save file's format (:mod:`engine.savefile`): ``seq`` 0 holds the magic
and the header, each next row one framed record — length, check, body and the chain
tag that ties it to the one before.  The rows put end to end *are* the save file, byte
for byte: ``verify``, ``export``, ``replay``, ``review`` and ``transcript`` decode and
replay them exactly as a file (nothing in a row is trusted), and ``unoduo store copy``
moves a match between files and the database unchanged.

**Writing.** A decision's records go in one transaction (``synchronous_commit``: on,
so a committed decision is durable) before anyone is told of it, as a file's
``write`` + ``fdatasync``.  A write the database refuses — it is down, restarting, the
network is cut — changes nothing and raises :class:`~unoduo_tui.store.SaveWriteError`:
the table waits, shows why, and tries again by itself (:mod:`unoduo_tui.table.local`)
until the database is back; no decision anyone saw is lost.  A commit whose answer was
lost (the connection broke after the database took it) is found on the next try: the
same rows are there, byte for byte, and the write goes on.

**One writer per match, across the cluster.** Opening a match for writing takes a
session-level advisory lock on its id (:class:`Leases`: one connection per process
holds all of that process's).  A process that dies loses its connection and with it
its locks at once; a node cut off from the network loses them once the database's
TCP keepalives give up on it (:data:`KEEPALIVE`: about 20 s).  Behind the lock, the
rows fence too: ``(match_id, seq)`` is the primary key, so two writers can never both
append record N — the second is refused and never shown a position the first did not
save.

**Schema.** Versioned migrations (:data:`MIGRATIONS`), applied in order at start
under an advisory lock (two nodes starting at once apply each one once), each
recorded in ``unoduo_schema``.

psycopg 3 and psycopg_pool are imported only here, only when a ``postgresql://``
store is used.
"""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from engine import Match
from engine.savefile import (Footer, Header, SaveFileError, SeatRecord, load, read_ends,
                             split_records)

from ..files import private_dir
from ..savehandle import (LockedError, SaveHandle, SaveWriteError, Seat, named_seats, parent_of)
from ..store import (Loaded, Saves, Summary, new_header, quoted_ref, short_id)
from ..text import printable

__all__ = ["Database", "database", "PgStore", "PgSaveHandle", "Leases", "MIGRATIONS",
           "KEEPALIVE", "DatabaseDown", "lease_key"]

#: seconds to wait for a connection (the pool's, and a new one's) before a write fails
#: and its table waits: short, since the table's lock is held meanwhile
CONNECT_SECONDS = 3.0
#: the server-side TCP keepalives of the lease connection: idle, interval, count —
#: a node cut off loses its leases about idle + interval × count seconds later
KEEPALIVE = (10, 3, 3)
#: seconds opening a match waits for a lease another process holds (one just killed:
#: the database lets go of its locks once it sees the connection gone)
LEASE_WAIT = 2.0
#: the advisory lock that serialises migrations (any constant unlikely elsewhere)
MIGRATION_LOCK = 0x756E6F64756F  # "unoduo"

#: (version, statements): applied in order, each once, in a transaction of its own
MIGRATIONS: tuple[tuple[int, str], ...] = (
    (1, """
CREATE TABLE saves (
    match_id text PRIMARY KEY,
    owner text NOT NULL,
    created timestamptz NOT NULL DEFAULT now(),
    updated timestamptz NOT NULL DEFAULT now(),
    records integer NOT NULL,
    size bigint NOT NULL,
    finished boolean NOT NULL DEFAULT false
);
CREATE INDEX saves_owner ON saves (owner, created);
CREATE TABLE save_records (
    match_id text NOT NULL REFERENCES saves (match_id) ON DELETE CASCADE,
    seq integer NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE identities (
    fingerprint text PRIMARY KEY,
    name text NOT NULL,
    first_seen timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE new_keys (
    at timestamptz NOT NULL DEFAULT now(),
    address text NOT NULL
);
CREATE INDEX new_keys_address ON new_keys (address, at);
"""),
    (2, """
CREATE TABLE nodes (
    node text PRIMARY KEY,
    backend_pid integer NOT NULL,
    started timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE playing (
    node text NOT NULL,
    place bigint NOT NULL,
    address text NOT NULL,
    key text NOT NULL,
    since timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (node, place)
);
CREATE INDEX playing_address ON playing (address);
CREATE INDEX playing_key ON playing (key);
"""),
    (3, """
ALTER TABLE nodes ADD COLUMN peer text NOT NULL DEFAULT '';
ALTER TABLE nodes ADD COLUMN beat timestamptz NOT NULL DEFAULT now();
CREATE TABLE open_tables (
    code text PRIMARY KEY,
    node text NOT NULL,
    match_id text NOT NULL,
    owner text NOT NULL,
    host text NOT NULL,
    preset text NOT NULL,
    seats integer NOT NULL,
    names text[] NOT NULL,
    open integer NOT NULL,
    quick boolean NOT NULL,
    over boolean NOT NULL,
    connected integer NOT NULL,
    opened timestamptz NOT NULL DEFAULT now(),
    promised_until timestamptz NOT NULL DEFAULT '-infinity'
);
CREATE INDEX open_tables_node ON open_tables (node);
CREATE INDEX open_tables_waiting ON open_tables (opened) WHERE quick AND NOT over;
"""),
    (4, """
CREATE TABLE player_files (
    owner text NOT NULL,
    name text NOT NULL,
    data bytea NOT NULL,
    updated timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (owner, name)
);
"""),
)


class DatabaseDown(SaveWriteError):
    """The database did not answer (down, restarting, unreachable); an ``OSError``
    whose ``str()`` is one plain sentence."""


def _down(exc: BaseException) -> DatabaseDown:
    detail = printable(str(exc).strip().splitlines()[0] if str(exc).strip() else
                       type(exc).__name__)[:160]
    return DatabaseDown(f"the database does not answer ({detail})", errno.EIO)


def lease_key(match_id: str) -> int:
    """The advisory lock's key of a match: 64 bits of a hash of its id (signed, as
    PostgreSQL's bigint)."""
    from hashlib import blake2b

    raw = blake2b(b"unoduo lease\0" + match_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(raw, "big", signed=True)


class Database:
    """One process's way to one database: a pool of connections (psycopg_pool) for
    reads and writes, the :class:`Leases` connection, and the schema brought up to
    date once (:meth:`migrate`)."""

    def __init__(self, url: str, max_size: int = 4) -> None:
        import logging

        import psycopg
        from psycopg_pool import ConnectionPool

        # a database that is down is said once by the table that waits for it, not by
        # the pool at every try to reconnect
        logging.getLogger("psycopg.pool").setLevel(logging.ERROR)
        self.url = url
        self.psycopg = psycopg
        self.pool = ConnectionPool(
            url, min_size=1, max_size=max_size, open=True, timeout=CONNECT_SECONDS,
            kwargs={"autocommit": True, "connect_timeout": int(CONNECT_SECONDS)},
            check=ConnectionPool.check_connection, name="unoduo")
        self.leases = Leases(self)
        self._migrated = False
        self._lock = threading.Lock()

    def connect(self) -> Any:
        """A connection of its own (not the pool's), autocommit."""
        return self.psycopg.connect(self.url, autocommit=True,
                                    connect_timeout=int(CONNECT_SECONDS))

    def migrate(self) -> list[int]:
        """Apply the migrations this database has not had, in order (each in its own
        transaction, under an advisory lock); the versions applied now."""
        done: list[int] = []
        with self.pool.connection() as conn:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
                conn.execute("CREATE TABLE IF NOT EXISTS unoduo_schema (version integer "
                              "PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())")
                have = {r[0] for r in conn.execute("SELECT version FROM unoduo_schema")}
                newest = max((v for v, _ in MIGRATIONS), default=0)
                if have and max(have) > newest:
                    raise SaveFileError(f"the database's schema is version {max(have)}, newer "
                                        f"than this unoduo knows ({newest}): upgrade unoduo")
                for version, statements in MIGRATIONS:
                    if version in have:
                        continue
                    with conn.transaction():
                        conn.execute(statements)
                        conn.execute("INSERT INTO unoduo_schema (version) VALUES (%s)",
                                     (version,))
                    done.append(version)
        self._migrated = True
        return done

    def ready(self) -> None:
        """The schema, migrated once per process (``SaveFileError`` when the database
        cannot be reached)."""
        if self._migrated:
            return
        with self._lock:
            if not self._migrated:
                try:
                    self.migrate()
                except (self.psycopg.Error, OSError) as exc:
                    raise SaveFileError(str(_down(exc))) from None
                except Exception as exc:
                    if type(exc).__name__ == "PoolTimeout":
                        raise SaveFileError(str(_down(exc))) from None
                    raise

    def errors(self) -> tuple[type[BaseException], ...]:
        """What a call to the database raises when it is down or refuses."""
        from psycopg_pool import PoolTimeout

        return (self.psycopg.Error, PoolTimeout, OSError)

    def close(self) -> None:
        self.leases.close()
        self.pool.close()


_DATABASES: dict[tuple[str, int], Database] = {}
_DATABASES_LOCK = threading.Lock()


def database(url: str) -> Database:
    """This process's :class:`Database` for ``url`` (one per process: a forked child
    makes its own), migrated."""
    key = (url, os.getpid())
    with _DATABASES_LOCK:
        db = _DATABASES.get(key)
        if db is None:
            db = _DATABASES[key] = Database(url)
    db.ready()
    return db


class Leases:
    """The advisory locks of this process's open matches, held on one connection of
    their own (see the module doc).  A connection that broke (the database restarted)
    is made again and every lock still wanted taken again; one another process took
    meanwhile is no longer held, and the match's rows fence its writer."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._conn: Any = None
        self._held: set[int] = set()
        self._lock = threading.Lock()

    def _connection(self) -> Any:
        conn = self._conn
        if conn is not None and not conn.closed and not conn.broken:
            return conn
        conn = self.db.connect()
        idle, interval, count = KEEPALIVE
        conn.execute(f"SET tcp_keepalives_idle = {idle}; SET tcp_keepalives_interval = "
                     f"{interval}; SET tcp_keepalives_count = {count}")
        self._conn = conn
        for key in list(self._held):  # the locks of the connection that broke
            if not conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()[0]:
                self._held.discard(key)
        return conn

    def take(self, match_id: str, wait: float = 0.0) -> bool:
        """This process holds ``match_id``'s lease now (False: another process does,
        still after ``wait`` seconds — a killed holder's connection takes the database
        a moment to notice); ``SaveFileError`` when the database does not answer."""
        import time

        deadline = time.monotonic() + wait
        while not self._take(match_id):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.1)
        return True

    def _take(self, match_id: str) -> bool:
        key = lease_key(match_id)
        with self._lock:
            if key in self._held:
                return False  # open here already (another table of this process)
            try:
                got = self._connection().execute("SELECT pg_try_advisory_lock(%s)",
                                                  (key,)).fetchone()[0]
            except self.db.errors() as exc:
                raise SaveFileError(str(_down(exc))) from None
            if got:
                self._held.add(key)
            return bool(got)

    def backend_pid(self) -> int:
        """The database's process of the lease connection (a node is alive while it
        is: :mod:`.cluster`), asked of the database: a connection the database
        restarted under looks whole until it is used — this finds it broken, makes it
        again and takes its locks again (every heartbeat: :meth:`.Cluster.beat`)."""
        with self._lock:
            try:
                row = self._connection().execute("SELECT pg_backend_pid()").fetchone()
            except self.db.errors():  # broken now: made again, once
                row = self._connection().execute("SELECT pg_backend_pid()").fetchone()
            return int(row[0])

    def drop(self, match_id: str) -> None:
        key = lease_key(match_id)
        with self._lock:
            if key not in self._held:
                return
            self._held.discard(key)
            conn = self._conn
            if conn is None or conn.closed or conn.broken:
                return
            try:
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
            except self.db.errors():
                pass  # the connection went: its locks with it

    def close(self) -> None:
        with self._lock:
            self._held.clear()
            if self._conn is not None:
                self._conn.close()
                self._conn = None


class PgSaveHandle(SaveHandle):
    """A match's save in the database, open for appending, holding its lease (see the
    module doc): each write is one transaction of whole records."""

    def __init__(self, db: Database, match_id: str, rows: int, tag: bytes, size: int,
                 written: int, header: Header, durable: bool = True, finished: bool = False,
                 undos: int = 0, seats: "list[SeatRecord] | tuple[SeatRecord, ...]" = ()
                 ) -> None:
        super().__init__(header, tag, size, written, durable, finished, undos, seats)
        self.db = db
        self._id = match_id
        self._rows = rows

    @classmethod
    def create(cls, db: Database, header: Header, match: Match, owner: str,
               durable: bool = True) -> "PgSaveHandle":
        """Write a new save (``header``, ``match``'s log so far, its footer if it is
        over) for ``owner`` in one transaction, whole or not at all, and return its
        handle holding its lease (as :meth:`FileSaveHandle.create` does a file)."""
        from engine.savefile import Encoder

        enc = Encoder()
        start = enc.start(header)
        match_id = header.match_id
        if not db.leases.take(match_id):  # pragma: no cover - a new, random id
            raise LockedError("a match of that id is open elsewhere")
        handle = cls(db, match_id, 1, enc.tag, len(start), 0, header, durable)
        try:
            records, enc, footer = handle._unsaved(match)
            try:
                with db.pool.connection() as conn, conn.transaction():
                    conn.execute("INSERT INTO saves (match_id, owner, records, size, "
                                 "finished) VALUES (%s, %s, %s, %s, %s)",
                                 (match_id, owner, 1 + len(records),
                                  len(start) + sum(map(len, records)), footer))
                    with conn.cursor() as cur:
                        cur.executemany("INSERT INTO save_records (match_id, seq, data) "
                                        "VALUES (%s, %s, %s)",
                                        [(match_id, i, r) for i, r in
                                         enumerate([start, *records])])
            except db.errors() as exc:
                raise _down(exc) from None
        except BaseException:
            db.leases.drop(match_id)
            raise
        handle._tag = enc.tag
        handle._size = len(start) + sum(map(len, records))
        handle._rows = 1 + len(records)
        handle._written, handle._finished = match.log_length, footer
        return handle

    @property
    def id(self) -> str:
        return self._id

    def _append(self, records: list[bytes], footer: bool) -> None:
        first = self._rows
        rows = [(self._id, first + i, record) for i, record in enumerate(records)]
        size = self._size + sum(map(len, records))
        psycopg = self.db.psycopg
        try:
            with self.db.pool.connection() as conn:
                try:
                    with conn.transaction():
                        with conn.cursor() as cur:
                            cur.executemany("INSERT INTO save_records (match_id, seq, data) "
                                            "VALUES (%s, %s, %s)", rows)
                        conn.execute("UPDATE saves SET records = %s, size = %s, finished = "
                                     "finished OR %s, updated = now() WHERE match_id = %s",
                                     (first + len(records), size, footer, self._id))
                except psycopg.errors.UniqueViolation:
                    # a commit whose answer was lost: ours, byte for byte — or another
                    # writer's, and then this table has lost its match
                    there = [bytes(r[0]) for r in conn.execute(
                        "SELECT data FROM save_records WHERE match_id = %s AND seq >= %s "
                        "ORDER BY seq", (self._id, first))]
                    if there != list(records):
                        raise LockedError("this match was played on elsewhere meanwhile "
                                          "(another server took it over): open it "
                                          "again") from None
        except LockedError as exc:
            raise SaveWriteError(str(exc), errno.EBUSY) from None
        except self.db.errors() as exc:
            raise _down(exc) from None
        self._rows += len(records)

    def _release(self, last: bool) -> None:
        self.db.leases.drop(self._id)


class PgStore(Saves):
    """The saves of one player in the database (``owner``: their key's fingerprint,
    ``''`` the operator's own; ``None``: every player's, for the operator's commands —
    new matches then are the operator's).  ``data_dir``: the player's folder for what
    is not a save (settings, table tokens)."""

    def __init__(self, url: str, data_dir: Path, key: str | None = None,
                 owner: str | None = "") -> None:
        self.url = url
        self.db = database(url)
        self.data_dir = Path(data_dir)
        self.key = key
        self.owner = owner
        self.vouched: dict[str, str] = {}
        #: called with a match's id once its footer is saved: the record's index
        #: notes it (:mod:`unoduo_tui.record.index`, of the database's saves)
        self.on_finish: Callable[[str], None] | None = self._recorded

    def _recorded(self, match_id: str) -> None:
        from ..record.index import note_saved

        note_saved(self.data_dir, Path(match_id), key=self.key)

    def __repr__(self) -> str:
        from . import describe

        return f"PgStore({describe(self.url)!r}, owner={self.owner!r})"

    # -- helpers -----------------------------------------------------------------------

    def _query(self, sql: str, args: Sequence = ()) -> list[tuple]:
        try:
            with self.db.pool.connection() as conn:
                return list(conn.execute(sql, args))
        except self.db.errors() as exc:
            raise SaveFileError(str(_down(exc))) from None

    def _mine(self) -> tuple[str, tuple]:
        """The WHERE clause (and its argument) of this store's saves."""
        return ("owner = %s", (self.owner,)) if self.owner is not None else ("true", ())

    def _rows_of(self, match_id: str) -> list[bytes]:
        return [bytes(r[0]) for r in self._query(
            "SELECT data FROM save_records WHERE match_id = %s ORDER BY seq", (match_id,))]

    # -- the interface -----------------------------------------------------------------

    def ensure(self) -> None:
        private_dir(self.data_dir)

    def new_match(self, match: Match, seats: "tuple[Seat, ...]", durable: bool = True,
                  directory: Path | None = None, extra: dict | None = None) -> SaveHandle:
        handle = PgSaveHandle.create(self.db, new_header(match, seats, extra), match,
                                     self.owner or "", durable)
        handle.on_finish = self._noted
        if match.over:  # its footer is saved already (a new handle writes it when over)
            self._noted(handle.id)
        return handle

    def _noted(self, match_id: str) -> None:
        if self.on_finish is not None:
            try:
                self.on_finish(match_id)
            except Exception:  # noqa: BLE001 - derived data: never stops a save
                pass

    def resolve(self, ref: "str | os.PathLike") -> str:
        """A match id, a unique start of one or its :func:`short_id`, among this
        store's saves; ``SaveFileError`` when none or several."""
        text = os.fspath(ref)
        text = text[:-len(".unoduo")] if text.endswith(".unoduo") else text
        text = text.rsplit("/", 1)[-1]
        where, args = self._mine()
        like = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        hits = [r[0] for r in self._query(
            f"SELECT match_id FROM saves WHERE {where} AND (match_id = %s OR match_id "
            f"LIKE %s OR match_id LIKE %s) ORDER BY match_id LIMIT 10",
            (*args, text, like + "%", "%-" + like))]
        if text in hits:
            return text
        starts = [h for h in hits if h.startswith(text) or short_id(h) == text]
        if len(starts) == 1:
            return starts[0]
        if len(starts) > 1:
            raise SaveFileError(f"{quoted_ref(text)} matches {len(starts)} saved matches; "
                                "give more of the id")
        raise SaveFileError(f"no saved match {quoted_ref(text)} (see 'unoduo list')")

    def image(self, ref: "str | os.PathLike") -> tuple[str, bytes]:
        match_id = self.resolve(ref)
        return match_id, b"".join(self._rows_of(match_id))

    def open(self, ref: "str | os.PathLike", read_only: bool = False) -> Loaded:
        """Load a match by replaying its rows; unless read-only, take its lease
        (``LockedError``: open on another node or in another process)."""
        match_id = self.resolve(ref)
        if not read_only and not self.db.leases.take(match_id, LEASE_WAIT):
            raise LockedError("this match is open elsewhere (on another server of the "
                              "cluster, or another process); close it there first (or "
                              "open it read-only)")
        try:
            return self._load(match_id, read_only)
        except BaseException:
            if not read_only:
                self.db.leases.drop(match_id)
            raise

    def _load(self, match_id: str, read_only: bool) -> Loaded:
        rows = self._rows_of(match_id)
        data = b"".join(rows)
        decoded, match = load(data, match_id)
        header = decoded.header
        assert header is not None  # load raises for a save without one
        if decoded.torn_bytes:  # rows are whole records: this is damage, not a crash
            raise SaveFileError(f"{match_id}: the last record is incomplete")
        notes: list[str] = []
        if not decoded.entries:
            notes.append("the match had not started; it starts now from its saved seed")
        if read_only:
            return Loaded(match, header, None, None, notes, decoded.undos,
                          tuple(decoded.seats), match_id)
        handle = PgSaveHandle(self.db, match_id, len(rows), rows[-1][-4:], len(data),
                              len(decoded.entries), header,
                              finished=decoded.footer is not None, undos=decoded.undos,
                              seats=decoded.seats)
        self._reopened(handle, match, notes)
        return Loaded(match, header, None, handle, notes, decoded.undos,
                      tuple(decoded.seats), match_id)

    def delete(self, ref: "str | os.PathLike") -> str:
        match_id = self.resolve(ref)
        if not self.db.leases.take(match_id):
            raise LockedError("this match is open elsewhere; close it there first")
        try:
            self._query("DELETE FROM saves WHERE match_id = %s RETURNING match_id",
                        (match_id,))
        finally:
            self.db.leases.drop(match_id)
        return match_id

    def put(self, data: bytes, owner: str, match_id: str) -> None:
        """A whole save image (a file's bytes, checked: decoded and replayed) as the
        rows of a new match ``match_id`` of ``owner``; ``SaveFileError`` for a damaged
        one, ``FileExistsError`` when the id is taken."""
        decoded, _ = load(data, match_id)
        if decoded.torn_bytes:
            raise SaveFileError(f"{match_id}: a torn tail (open it once to recover it)")
        rows = split_records(data, decoded.good_length)
        try:
            with self.db.pool.connection() as conn, conn.transaction():
                if conn.execute("SELECT 1 FROM saves WHERE match_id = %s",
                                (match_id,)).fetchone():
                    raise FileExistsError(match_id)
                header = decoded.header
                assert header is not None
                conn.execute("INSERT INTO saves (match_id, owner, created, records, size, "
                             "finished) VALUES (%s, %s, COALESCE(%s::timestamptz, now()), "
                             "%s, %s, %s)",
                             (match_id, owner, _created(header.created), len(rows), len(data),
                              decoded.footer is not None))
                with conn.cursor() as cur:
                    cur.executemany("INSERT INTO save_records (match_id, seq, data) VALUES "
                                    "(%s, %s, %s)",
                                    [(match_id, i, r) for i, r in enumerate(rows)])
        except FileExistsError:
            raise
        except self.db.errors() as exc:
            raise SaveFileError(str(_down(exc))) from None

    def owners(self) -> Iterator[tuple[str, str, str]]:
        """(match id, owner, the owner's name or '') of each of this store's saves."""
        where, args = self._mine()
        for match_id, owner, name in self._query(
                f"SELECT s.match_id, s.owner, COALESCE(i.name, '') FROM saves s LEFT JOIN "
                f"identities i ON i.fingerprint = s.owner WHERE {where} ORDER BY "
                f"s.match_id", args):
            yield match_id, owner, name

    def summaries(self) -> list[Summary]:
        """Every save of this store, newest first: a finished one from its header and
        footer rows alone (:func:`~engine.savefile.read_ends`), others replayed."""
        where, args = self._mine()
        found = self._query(
            f"SELECT s.match_id, s.size, s.records, s.finished, r.seq, r.data FROM saves s "
            f"JOIN save_records r ON r.match_id = s.match_id WHERE {where} AND "
            f"(NOT s.finished OR r.seq = 0 OR r.seq >= s.records - 2) "
            f"ORDER BY s.match_id, r.seq", args)
        out: list[Summary] = []
        i = 0
        while i < len(found):
            match_id, size, records, finished = found[i][:4]
            parts = []
            while i < len(found) and found[i][0] == match_id:
                parts.append(bytes(found[i][5]))
                i += 1
            out.append(self._summary(match_id, size, records, finished, parts))
        from datetime import datetime, timezone

        oldest = datetime.min.replace(tzinfo=timezone.utc)
        return sorted(out, key=lambda s: (s.created or oldest, s.id), reverse=True)

    def _summary(self, match_id: str, size: int, records: int, finished: bool,
                 parts: list[bytes]) -> Summary:
        from ..store import parse_time

        try:
            if finished and len(parts) == 3 and records > 2:
                ends = read_ends(parts[0], parts[1] + parts[2], size, match_id)
                if ends is not None:
                    header, f = ends
                    return _row_summary(match_id, header, f)
            data = b"".join(parts) if not finished else b"".join(self._rows_of(match_id))
            decoded, match = load(data, match_id)
            assert decoded.header is not None
            return Summary(match_id, None, parse_time(decoded.header.created),
                           named_seats(decoded.header, (), decoded.names()), match.round,
                           match.scores, "finished" if match.over else "in progress",
                           len(decoded.entries), match.winner, None, decoded.undos,
                           parent_of(decoded.header), None, decoded.header.rules.preset)
        except SaveFileError as exc:
            return Summary(match_id, None, None, (), 0, (), "damaged", 0, None, str(exc))


def _row_summary(match_id: str, header: Header, f: Footer) -> Summary:
    from ..store import parse_time

    return Summary(match_id, None, parse_time(header.created),
                   named_seats(header, (), f.names), f.rounds, f.scores, "finished",
                   f.entries or 0, f.winner, None, f.undos or 0, parent_of(header),
                   header.match_id if header.match_id != match_id else None,
                   header.rules.preset)


def _created(text: str) -> str | None:
    from ..store import parse_time

    when = parse_time(text)
    return when.isoformat() if when is not None else None
