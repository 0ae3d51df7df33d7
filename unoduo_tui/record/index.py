"""The record's index: SQLite (stdlib ``sqlite3``, WAL, a busy timeout), derived from the
save files and never the only copy of anything.

**Where.** ``<data dir>/record.sqlite``; under ``unoduo serve`` one index for the serve
dir, shared by every player's process (:func:`.identity.index_root`), over the saves
of ``players/*/matches``.

**What.** A row per save file (its size and mtime, and what it was: finished, open,
bot-only, damaged), and per finished match its seats (:mod:`.derive`: replayed and
counted from the log) with each human's rating before and after it (:func:`_refold`).
A match's place in time is its save's last write (the footer): ratings are folded
in that order, ties by file name.

**A cluster's saves** (#27: ``serve --store postgresql://…``, or ``$UNODUO_STORE``):
the same index, ``record-db.sqlite`` in the serve dir of each node, made from the
finished matches in the database (:class:`_DatabaseSaves`: a save's rows end to end are
its file's bytes) — every node's players' matches count, a match's place in time is
its last write in the database.  Derived data still: each node's copy mends itself
from the database as a data dir's does from its files.

**When.** :meth:`Index.note` when a save's footer is written (the store calls it)
and :meth:`Index.forget` when a save is deleted; :meth:`Index.refresh` before every
read compares the saves on disk with the rows and derives what is new, changed or
gone — so a missing, stale or damaged index mends itself, a damaged save is a row
saying so and nothing else.  ``unoduo stats --rebuild`` starts from nothing.

**Many writers.** A process keeps one connection to the index file, checked before
every operation (a deleted or replaced index is never written through an old handle:
its inode changed), and writes in one ``BEGIN IMMEDIATE`` transaction: concurrent match ends queue on SQLite's lock (``busy_timeout``) and each
refold reads what the one before wrote; a connection is set up under ``record.lock``
(the first turns the file to WAL, which cannot wait on SQLite's lock).  A damaged file (not a database, a bad page,
another schema) is removed — under ``record.lock`` — and made again from the saves.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from ..files import FILE_MODE, private_dir
from . import ratings as R
from .derive import COUNTS, Derived, derive, derive_image
from .identity import INDEX_NAME, Owner, index_root, owner_of

__all__ = ["Index", "Refreshed", "SCHEMA", "IndexBusy", "note_saved", "changes_for",
           "DB_INDEX_NAME"]

#: the layout's version (``PRAGMA user_version``): another one is rebuilt
SCHEMA = 3  # 3: joiners named by the save's seat records (re-derived)
BUSY_MS = 30_000
_SUFFIX = ".unoduo"
#: the index of a cluster's saves (kept apart from a data dir's own)
DB_INDEX_NAME = "record-db.sqlite"
#: the sources of the database's saves are named ``db/<match id>``
_DB = "db/"

_TABLES = f"""
CREATE TABLE files(source TEXT PRIMARY KEY, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, status TEXT NOT NULL, problem TEXT);
CREATE TABLE matches(source TEXT PRIMARY KEY, match_id TEXT NOT NULL, preset TEXT NOT NULL,
    ended INTEGER NOT NULL, day TEXT NOT NULL, rounds INTEGER NOT NULL,
    practice INTEGER NOT NULL, branch INTEGER NOT NULL, winner INTEGER,
    rated INTEGER NOT NULL DEFAULT 0);
CREATE INDEX matches_order ON matches(preset, ended, source);
CREATE INDEX matches_id ON matches(match_id);
CREATE TABLE seats(source TEXT NOT NULL, seat INTEGER NOT NULL, who TEXT NOT NULL,
    name TEXT NOT NULL, kind TEXT NOT NULL, verified INTEGER NOT NULL,
    place INTEGER NOT NULL, won INTEGER NOT NULL, score INTEGER NOT NULL,
    points TEXT NOT NULL, {", ".join(f"{c} INTEGER NOT NULL" for c in COUNTS)},
    mu_before REAL, sigma_before REAL, mu REAL, sigma REAL, rated_n INTEGER,
    PRIMARY KEY(source, seat));
CREATE INDEX seats_who ON seats(who);
CREATE TABLE ratings(who TEXT NOT NULL, preset TEXT NOT NULL, mu REAL NOT NULL,
    sigma REAL NOT NULL, rated INTEGER NOT NULL, last_ended INTEGER NOT NULL,
    last_source TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY(who, preset));
"""
_NAMES = ("files", "matches", "seats", "ratings")


#: index connections a process keeps open at once (each holds three descriptors: the
#: file, its WAL and its shared memory); past it the least recently used one that no
#: thread is using is closed — a process that opens the index of many data dirs (the
#: test suite; a server's player folders) no longer runs out of descriptors
MAX_CONNS = 8


@dataclass
class _Held:
    """One index file's connection in this process."""

    conn: sqlite3.Connection
    inode: int | None
    pid: int
    lock: threading.RLock  # one thread at a time on the connection
    users: int = 0  # operations under way on it (it is not closed while any is)


#: each index file's connection in this process, least recently used first
_CONNS: dict[str, _Held] = {}
_CONNS_LOCK = threading.Lock()


class IndexBusy(Exception):
    """Another process held the index for longer than the busy timeout."""


class _Damaged(Exception):
    pass


@dataclass
class Refreshed:
    """What a :meth:`Index.refresh` did: saves derived, rows dropped, and the damaged
    saves it found (one line each: the file and why)."""

    derived: int = 0
    gone: int = 0
    damaged: list[str] = field(default_factory=list)
    rebuilt: bool = False


@dataclass(frozen=True)
class _Save:
    source: str
    size: int
    mtime_ns: int
    data_dir: Path
    owner: Owner


def _derive_job(args: tuple) -> Derived:
    root, source, owner, data_dir = args
    return derive(Path(root), source, owner, Path(data_dir))


class _DatabaseSaves:
    """The finished matches in a cluster's database, read for the index (psycopg,
    a connection per look: the index reads it when a screen asks, not per move)."""

    def __init__(self, url: str, root: Path, shared: bool) -> None:
        self.url, self.root, self.shared = url, root, shared

    def _query(self, sql: str, args: tuple) -> list[tuple]:
        import psycopg

        try:
            with psycopg.connect(self.url, connect_timeout=3) as conn:
                return list(conn.execute(sql, args))
        except psycopg.Error as exc:
            raise OSError(f"the database does not answer: {exc}") from None

    def _mine(self) -> tuple[str, tuple]:
        """Every player's matches for a serve dir's index, else the operator's own."""
        return ("true", ()) if self.shared else ("s.owner = %s", ("",))

    def _save(self, match_id: str, owner: str, size: int, updated: int, name: str) -> _Save:
        from ..ssh.identity import folder_name

        folder = self.root / "players" / folder_name(owner) if owner else self.root
        return _Save(_DB + match_id, size, updated, folder,
                     Owner(owner or None, name or None))

    def saves(self) -> dict[str, _Save]:
        where, args = self._mine()
        rows = self._query(
            "SELECT s.match_id, s.owner, s.size, (EXTRACT(EPOCH FROM s.updated) * 1e9)"
            "::bigint, COALESCE(i.name, '') FROM saves s LEFT JOIN identities i ON "
            f"i.fingerprint = s.owner WHERE s.finished AND {where}", args)
        return {_DB + r[0]: self._save(*r) for r in rows}

    def save(self, match_id: str) -> _Save | None:
        where, args = self._mine()
        rows = self._query(
            "SELECT s.match_id, s.owner, s.size, (EXTRACT(EPOCH FROM s.updated) * 1e9)"
            "::bigint, COALESCE(i.name, '') FROM saves s LEFT JOIN identities i ON "
            f"i.fingerprint = s.owner WHERE s.match_id = %s AND {where}", (match_id, *args))
        return self._save(*rows[0]) if rows else None

    def derive(self, save: _Save) -> Derived:
        match_id = save.source[len(_DB):]
        data = b"".join(bytes(r[0]) for r in self._query(
            "SELECT data FROM save_records WHERE match_id = %s ORDER BY seq", (match_id,)))
        return derive_image(save.source, match_id, data, save.mtime_ns, save.owner,
                            save.data_dir)


class Index:
    """The index of one data dir's saves (or a serve dir's, shared); ``url``: of the
    saves in that database instead (a cluster's)."""

    def __init__(self, root: Path, shared: bool = False, url: str | None = None) -> None:
        self.root = Path(root)
        self.shared = shared
        self.path = self.root / (DB_INDEX_NAME if url else INDEX_NAME)
        self.database = _DatabaseSaves(url, self.root, shared) if url else None

    @classmethod
    def of(cls, data_dir: Path, key: str | None = None) -> "Index":
        """The index that holds the saves of ``data_dir`` (``key``: the SSH key the
        session plays as under ``unoduo serve``, :func:`.identity.index_root`) — of
        the database's saves when this process keeps them there
        (:func:`~unoduo_tui.backend.store_url`)."""
        from ..backend import store_url

        root, shared = index_root(Path(data_dir), key)
        try:
            url = store_url()
        except ValueError:
            url = None
        return cls(root, shared, url)

    # -- connections -------------------------------------------------------------------

    @contextmanager
    def _exclusive(self) -> Iterator[None]:
        """``record.lock`` held: one process at a time sets up a connection (the first
        one turns the new file to WAL, which SQLite refuses at once — no busy wait —
        while another connection has it open) or removes a damaged index."""
        private_dir(self.root)
        fd = os.open(self.root / "record.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW,
                     FILE_MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _connect(self) -> sqlite3.Connection:
        with self._exclusive():
            return self._set_up()

    def _set_up(self) -> sqlite3.Connection:
        try:  # 0600 whatever the umask: SQLite's -wal and -shm files take its mode
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, FILE_MODE))
        except OSError as exc:
            if not self.path.is_file():
                raise _Damaged(f"{self.path}: {exc.strerror or exc}") from None
        conn = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None,
                               check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout={BUSY_MS}")
            if conn.execute("PRAGMA journal_mode=WAL").fetchone()[0].lower() != "wal":
                raise _Damaged("not in WAL mode")
            conn.execute("PRAGMA synchronous=NORMAL")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                self._create(conn)
            elif version != SCHEMA:
                raise _Damaged(f"schema {version}, not {SCHEMA}")
            have = {r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
            if not set(_NAMES) <= have:
                raise _Damaged("tables missing")
        except BaseException:
            conn.close()
            raise
        return conn

    @staticmethod
    def _create(conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("PRAGMA user_version").fetchone()[0] == 0:  # not made meanwhile
                for statement in _TABLES.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version={SCHEMA}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _inode(self) -> int | None:
        try:
            return os.stat(self.path).st_ino
        except OSError:
            return None

    def _reset(self, damaged: int | None) -> None:
        """Remove the damaged index (the file whose inode is ``damaged``), under
        ``record.lock``: one process at a time, and not one another process has
        made afresh meanwhile."""
        with self._exclusive():
            if self._inode() != damaged:
                return
            for tail in ("", "-wal", "-shm"):
                try:
                    os.unlink(str(self.path) + tail)
                except FileNotFoundError:
                    pass

    def _hold(self) -> _Held:
        """This process's connection to the index file there is now, counted as in use
        (its ``users``) until the caller's operation ends: kept open (closing the last connection checkpoints the
        WAL, ~20 ms), made again when the file was replaced or deleted (its inode
        changed) or in a forked child; at most :data:`MAX_CONNS` are kept."""
        key = str(self.path)
        with _CONNS_LOCK:
            held = _CONNS.pop(key, None)
            now = self._inode()
            if held is not None and (held.inode != now or held.pid != os.getpid()
                                     or now is None):
                if held.pid == os.getpid():
                    held.conn.close()
                held = None
            if held is None:
                held = _Held(self._connect(), self._inode(), os.getpid(), threading.RLock())
            _CONNS[key] = held  # the most recently used, last
            held.users += 1
            idle = [k for k, h in _CONNS.items() if h.users == 0]
            for old in idle[:max(0, len(_CONNS) - MAX_CONNS)]:
                gone = _CONNS.pop(old)
                if gone.pid == os.getpid():
                    gone.conn.close()
            return held

    def close(self) -> None:
        """Close this process's connection to the index (the next operation opens one)."""
        self._drop()

    def _drop(self) -> None:
        with _CONNS_LOCK:
            held = _CONNS.pop(str(self.path), None)
        if held is not None and held.pid == os.getpid():
            held.conn.close()

    def _run(self, work: Callable[[sqlite3.Connection], object], refreshes: bool = False):
        """``work(conn)``; a damaged index is removed, made again from the saves and
        ``work`` run once more (``refreshes``: ``work`` is the making again itself, with
        its progress and its pool)."""
        for attempt in (0, 1):
            used = self._inode()
            try:
                held = self._hold()
                try:
                    with held.lock:  # one thread at a time on a connection
                        if attempt and not refreshes:  # made afresh: from the saves first
                            self._refresh(held.conn, rebuilt=True)
                        return work(held.conn)
                finally:
                    with _CONNS_LOCK:
                        held.users -= 1
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    raise IndexBusy(str(exc)) from None
                self._drop()
                if attempt:
                    raise
            except (_Damaged, sqlite3.DatabaseError):
                self._drop()
                if attempt:
                    raise
            self._reset(used if used is not None else self._inode())
        raise AssertionError("unreachable")  # pragma: no cover

    # -- the saves ---------------------------------------------------------------------

    def _folders(self) -> Iterator[tuple[Path, Owner]]:
        """Each data dir whose saves this index holds, with its owner."""
        if not self.shared:
            yield self.root, Owner()
            return
        try:
            players = sorted(os.scandir(self.root / "players"), key=lambda e: e.name)
        except OSError:
            return
        for entry in players:
            if entry.is_dir(follow_symlinks=False):
                folder = Path(entry.path)
                yield folder, owner_of(folder)

    def _on_disk(self) -> dict[str, _Save]:
        if self.database is not None:
            return self.database.saves()
        found: dict[str, _Save] = {}
        for folder, owner in self._folders():
            base = folder.relative_to(self.root).as_posix()
            prefix = "" if base == "." else base + "/"
            try:
                entries = list(os.scandir(folder / "matches"))
            except OSError:
                continue
            for entry in entries:
                if not entry.name.endswith(_SUFFIX) or entry.name.startswith("."):
                    continue
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                source = f"{prefix}matches/{entry.name}"
                found[source] = _Save(source, st.st_size, st.st_mtime_ns, folder, owner)
        return found

    def source_of(self, path: Path) -> _Save | None:
        """The save at ``path`` as this index names it (None: not one of its saves);
        of a database's saves, ``path`` is the match's id."""
        if self.database is not None:
            name = Path(path).name
            return self.database.save(name[:-len(_SUFFIX)] if name.endswith(_SUFFIX)
                                      else name)
        path = Path(path)
        try:
            rel = path.resolve().relative_to(self.root.resolve())
        except (ValueError, OSError):
            return None
        parts = rel.parts
        if not path.name.endswith(_SUFFIX):
            return None
        if self.shared:
            if len(parts) != 4 or parts[0] != "players" or parts[2] != "matches":
                return None
            folder = self.root / "players" / parts[1]
            owner = owner_of(folder)
        else:
            if len(parts) != 2 or parts[0] != "matches":
                return None
            folder, owner = self.root, Owner()
        return _Save(rel.as_posix(), 0, 0, folder, owner)

    # -- writing -----------------------------------------------------------------------

    def note(self, path: Path) -> bool:
        """A save was written (its match ended): derive it and fold its ratings.
        False when ``path`` is not one of this index's saves."""
        save = self.source_of(path)
        if save is None:
            return False
        d = (self.database.derive(save) if self.database is not None else
             derive(self.root, save.source, save.owner, save.data_dir))
        self._run(lambda conn: self._write(conn, [d], []))
        return True

    def forget(self, path: Path) -> bool:
        """A save was deleted: its rows go and the ratings after it are folded again."""
        save = self.source_of(path)
        if save is None:
            return False
        self._run(lambda conn: self._write(conn, [], [save.source]))
        return True

    def refresh(self, progress: Callable[[int, int], None] | None = None,
                jobs: int = 1, rebuild: bool = False) -> Refreshed:
        """Bring the index up to the saves on disk (``rebuild``: from nothing);
        ``progress(done, total)`` as saves are derived; ``jobs`` processes."""
        if rebuild:
            self._run(self._clear)
        return self._run(lambda conn: self._refresh(conn, progress, jobs, rebuild),
                         refreshes=True)

    def _clear(self, conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        for name in _NAMES:
            conn.execute(f"DELETE FROM {name}")
        conn.execute("COMMIT")

    def _refresh(self, conn: sqlite3.Connection,
                 progress: Callable[[int, int], None] | None = None, jobs: int = 1,
                 rebuilt: bool = False) -> Refreshed:
        disk = self._on_disk()
        known = {s: (size, mtime) for s, size, mtime in
                 conn.execute("SELECT source, size, mtime_ns FROM files")}
        todo = [s for s in disk.values() if known.get(s.source) != (s.size, s.mtime_ns)]
        gone = [s for s in known if s not in disk]
        out = Refreshed(gone=len(gone), rebuilt=rebuilt)
        if not todo and not gone:
            return out
        derived = list(self._derive_all(todo, progress, jobs))
        out.derived = len(derived)
        out.damaged = [f"{d.source}: {d.problem}" for d in derived if d.status == "damaged"]
        self._write(conn, derived, gone)
        return out

    def _derive_all(self, todo: Sequence[_Save], progress, jobs: int) -> Iterable[Derived]:
        total = len(todo)
        if self.database is not None:  # each one's rows fetched, in this process
            for done, save in enumerate(todo, 1):
                yield self.database.derive(save)
                if progress:
                    progress(done, total)
            return
        work = [(str(self.root), s.source, s.owner, str(s.data_dir)) for s in todo]
        if progress:
            progress(0, total)
        if jobs > 1 and total >= 64:
            import multiprocessing

            # fork where no other thread runs (the CLI), forkserver in the app
            ctx = multiprocessing.get_context(
                "fork" if threading.active_count() == 1 else "forkserver")
            with ctx.Pool(jobs) as pool:
                for done, d in enumerate(pool.imap(_derive_job, work, chunksize=16), 1):
                    if progress:
                        progress(done, total)
                    yield d
            return
        for done, args in enumerate(work, 1):
            yield _derive_job(args)
            if progress:
                progress(done, total)

    def put(self, derived: Sequence[Derived]) -> None:
        """``derived`` into the index as if read from saves (the ratings folded again):
        tests and tools that make up matches."""
        self._run(lambda conn: self._write(conn, derived, []))

    def _write(self, conn: sqlite3.Connection, derived: Sequence[Derived],
               gone: Sequence[str]) -> None:
        """Put ``derived`` in, take ``gone`` out, fold the ratings again from the
        earliest match either touched — one transaction."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            points: dict[str, tuple[int, str]] = {}  # preset -> where to fold from
            touched: dict[str, set[str]] = {}

            def mark(source: str) -> None:
                old = conn.execute("SELECT preset, ended FROM matches WHERE source=?",
                                   (source,)).fetchone()
                if old is not None:
                    preset, ended = old
                    points[preset] = min(points.get(preset, (ended, source)), (ended, source))
                    touched.setdefault(preset, set()).update(
                        r[0] for r in conn.execute("SELECT who FROM seats WHERE source=?",
                                                   (source,)))
                    conn.execute("DELETE FROM seats WHERE source=?", (source,))
                    conn.execute("DELETE FROM matches WHERE source=?", (source,))

            for source in gone:
                mark(source)
                conn.execute("DELETE FROM files WHERE source=?", (source,))
            for d in derived:
                mark(d.source)
                conn.execute("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?)",
                             (d.source, d.size, d.mtime_ns, d.status, d.problem))
                if d.status != "finished":
                    continue
                conn.execute("INSERT INTO matches VALUES (?,?,?,?,?,?,?,?,?,0)",
                             (d.source, d.match_id, d.preset, d.mtime_ns, d.day, d.rounds,
                              int(d.practice), int(d.branch), d.winner))
                conn.executemany(
                    f"INSERT INTO seats VALUES ({','.join('?' * (10 + len(COUNTS)))},"
                    "NULL,NULL,NULL,NULL,NULL)",
                    [(d.source, s.seat, s.who, s.name, s.kind, int(s.verified), s.place,
                      int(s.won), s.score, ",".join(map(str, s.points)), *s.counts)
                     for s in d.seats])
                key = (d.mtime_ns, d.source)
                points[d.preset] = min(points.get(d.preset, key), key)
            for preset, point in points.items():
                _refold(conn, preset, point, touched.get(preset, set()))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    # -- reading -----------------------------------------------------------------------

    def read(self, work: Callable[[sqlite3.Connection], object], fresh: bool = True):
        """``work(conn)`` over the index (first :meth:`refresh`-ed unless ``fresh`` is
        False)."""
        if fresh:
            self.refresh()
        return self._run(work)


def note_saved(data_dir: Path, path: Path, gone: bool = False,
               key: str | None = None) -> None:
    """The store's hook: a save's match ended (or, ``gone``, the save was deleted);
    ``key``: the store's (:meth:`Index.of`).  Never raises: the index mends itself
    from the saves at the next refresh."""
    try:
        index = Index.of(data_dir, key)
        if gone:
            index.forget(path)
        else:
            index.note(path)
    except Exception:  # noqa: BLE001 - derived data: a failure costs nothing kept
        pass


def changes_for(data_dir: Path, path: Path, tries: int = 30,
                key: str | None = None) -> list | None:
    """What the match just ended in the save at ``path`` did to its humans' ratings
    (:func:`.stats.changes`), for the match-over dialog.  The table may show the end a
    moment before its save's footer is written: the save is noted again (the same as
    the store's hook; idempotent) until it is finished, ``tries`` times 0.1 s apart.
    None: not one of this index's saves, or never finished."""
    import time

    from .stats import changes

    index = Index.of(data_dir, key)
    save = index.source_of(path)
    if save is None:
        return None
    index.refresh(jobs=min(os.cpu_count() or 1, 8))  # a lost index: the matches before
    for attempt in range(tries):
        found = index.read(lambda conn: changes(conn, save.source), fresh=False)
        if found is not None:
            return found
        if attempt:
            time.sleep(0.1)
        index.note(path)
    return None


# -- ratings -----------------------------------------------------------------------------

def _state_before(conn: sqlite3.Connection, preset: str, who: str,
                  point: tuple[int, str]) -> list:
    """``who``'s [μ, σ, rated matches] before ``point`` in ``preset``."""
    row = conn.execute("SELECT mu, sigma, rated, last_ended, last_source FROM ratings "
                       "WHERE who=? AND preset=?", (who, preset)).fetchone()
    if row is not None and (row[3], row[4]) < point:
        return [row[0], row[1], row[2]]
    before = ("FROM seats s JOIN matches m ON m.source=s.source WHERE s.who=? AND "
              "m.preset=? AND m.rated=1 AND s.mu IS NOT NULL AND (m.ended, m.source) < (?, ?)")
    last = conn.execute(f"SELECT s.mu, s.sigma {before} ORDER BY m.ended DESC, m.source DESC "
                        "LIMIT 1", (who, preset, *point)).fetchone()
    if last is None:
        return [R.MU, R.SIGMA, 0]
    count = conn.execute(f"SELECT count(*) {before}", (who, preset, *point)).fetchone()[0]
    return [last[0], last[1], count]


def _pair_count(conn: sqlite3.Connection, preset: str, day: str, a: str, b: str,
                point: tuple[int, str]) -> int:
    return conn.execute(
        "SELECT count(*) FROM matches m JOIN seats x ON x.source=m.source "
        "JOIN seats y ON y.source=m.source WHERE m.preset=? AND m.day=? AND m.rated=1 "
        "AND x.who=? AND y.who=? AND (m.ended, m.source) < (?, ?)",
        (preset, day, a, b, *point)).fetchone()[0]


def _refold(conn: sqlite3.Connection, preset: str, point: tuple[int, str],
            touched: set[str]) -> None:
    """Rate ``preset``'s matches from ``point`` on again, in order, from each human's
    rating just before it; ``touched``: identities of a removed match, whose current
    rating is put back to what the remaining matches make."""
    rows = conn.execute(
        "SELECT m.source, m.ended, m.day, m.practice, m.branch, s.seat, s.who, s.kind, "
        "s.verified, s.place, s.name FROM matches m JOIN seats s ON s.source=m.source "
        "WHERE m.preset=? AND (m.ended, m.source) >= (?, ?) "
        "ORDER BY m.ended, m.source, s.seat", (preset, *point)).fetchall()
    state: dict[str, list] = {}
    last: dict[str, tuple[int, str]] = {}
    names: dict[str, str] = {}
    for who in touched:
        if not who.startswith("bot:"):
            state[who] = _state_before(conn, preset, who, point)
    seat_updates: list[tuple] = []
    i = 0
    while i < len(rows):
        source, ended, day, practice, branch = rows[i][:5]
        seats = []
        while i < len(rows) and rows[i][0] == source:
            seats.append(rows[i][5:10])
            names[rows[i][6]] = rows[i][10]
            i += 1
        for _, who, kind, _, _ in seats:
            if kind == "human" and who not in state:
                state[who] = _state_before(conn, preset, who, (ended, source))
        humans = [s for s in seats if s[2] == "human"]
        whos = [s[1] for s in humans]
        rated = (not practice and not branch and bool(humans)
                 and len(set(whos)) == len(whos) and all(s[3] for s in humans))
        if rated and len(humans) > 1:
            rated = all(_pair_count(conn, preset, day, a, b, (ended, source)) < R.PAIR_CAP
                        for n, a in enumerate(whos) for b in whos[n + 1:])
        # the pair cap of a later match reads this one's flag: written now
        conn.execute("UPDATE matches SET rated=? WHERE source=?", (int(rated), source))
        if not rated:
            seat_updates += [(None, None, None, None, None, source, s[0]) for s in seats]
            continue
        players = [(*R.anchor(preset, who[4:]), True) if kind == "bot"
                   else (state[who][0], state[who][1], False)
                   for _, who, kind, _, _ in seats]
        after = R.update(players, [s[4] for s in seats])
        for (seat, who, kind, _, _), (mu0, s0, _), (mu1, s1) in zip(seats, players, after):
            n = None
            if kind == "human":
                n = state[who][2] + 1
                state[who] = [mu1, s1, n]
                last[who] = (ended, source)
            seat_updates.append((mu0, s0, mu1, s1, n, source, seat))
    conn.executemany("UPDATE seats SET mu_before=?, sigma_before=?, mu=?, sigma=?, rated_n=? "
                     "WHERE source=? AND seat=?", seat_updates)
    for who, (mu, sigma, count) in state.items():
        if count == 0:
            conn.execute("DELETE FROM ratings WHERE who=? AND preset=?", (who, preset))
            continue
        when = last.get(who)
        if when is None:  # unchanged since before the point: its last rated match
            row = conn.execute(
                "SELECT m.ended, m.source FROM seats s JOIN matches m ON m.source=s.source "
                "WHERE s.who=? AND m.preset=? AND m.rated=1 ORDER BY m.ended DESC, "
                "m.source DESC LIMIT 1", (who, preset)).fetchone()
            when = tuple(row) if row else (0, "")
        name = names.get(who)
        if name is None:  # only in a removed match: the name it last had
            row = conn.execute("SELECT name FROM ratings WHERE who=? AND preset=?",
                               (who, preset)).fetchone()
            name = row[0] if row else who
        conn.execute("INSERT OR REPLACE INTO ratings VALUES (?,?,?,?,?,?,?,?)",
                     (who, preset, mu, sigma, count, when[0], when[1], name))
