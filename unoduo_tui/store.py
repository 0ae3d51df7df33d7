"""The file store: one crash-safe save file per match, locking, recovery, listing.

Headless (never imports Textual): the app and the ``unoduo`` commands both use it.

- Where: ``<data dir>/matches/<id>.unoduo``; the data dir is ``--data-dir``, else
  ``$UNODUO_DATA_DIR``, else ``platformdirs.user_data_dir("unoduo")``.  Folders the
  store makes are 0700 and every file 0600 whatever the umask: a save holds the
  deck order.  A match's id in the store is its file's name (without ``.unoduo``):
  listing, resolving, opening and deleting all go by it; a header id that differs
  (a renamed file) is only shown (:attr:`Summary.header_id`).
- Files are opened through :mod:`unoduo_tui.files`: never through a symlink, only
  regular files, at most 64 MiB.  A new match's file appears whole (header and log
  written to a temp name, fsynced, renamed) or not at all.
- Writing: each log entry is appended and flushed (``write`` on an unbuffered
  descriptor; ``fdatasync`` too unless the handle is for bulk simulation), so a
  killed process loses at most the action in flight.  A failed write (disk full…)
  is cut back to the last whole record and retried by the next ``sync``.
- Locking: ``fcntl.flock`` on ``<id>.lock`` beside the save (never on the save
  itself); the holder writes its pid and host there and removes it on release.
  The kernel drops the lock the moment its holder dies.
- Recovery: a torn tail is cut back to the last whole record, after the whole
  file is copied aside to ``<id>.unoduo.corrupt`` (a new name if that exists;
  never silently deleted).
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import socket
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from engine import Match, __version__
from engine.savefile import (HEAD_BYTES, TAIL_BYTES, Encoder, Footer, Header, SaveFileError,
                             decode, last_tag, load, read_ends)

from .files import (FILE_MODE, MAX_FILE, FileProblem, create_new, open_regular, private_dir, put_new, read_all,
                    write_all)

__all__ = ["Store", "Seat", "SaveHandle", "Loaded", "Summary", "SaveFileError", "LockedError",
           "SaveWriteError", "data_dir", "parent_of", "short_id"]

SUFFIX = ".unoduo"
#: the random end of a match id (``20261129-233001-caebc7``): :func:`short_id`
_SHORT = re.compile(r"[0-9a-f]{6}")


class LockedError(SaveFileError):
    """Another process (``pid`` on ``host``) is playing this match."""

    def __init__(self, message: str, pid: int | None = None, host: str | None = None) -> None:
        super().__init__(message)
        self.pid, self.host = pid, host


class SaveWriteError(FileProblem):
    """A write to a save file failed (disk full, I/O error…).  The file was cut back to
    its last whole record, so it still loads; the next :meth:`SaveHandle.sync` writes
    everything not yet saved.  An ``OSError``; ``str()`` is a plain sentence."""


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str  # "human" or "bot:<level>"

    @property
    def is_bot(self) -> bool:
        return self.kind.startswith("bot:")

    @property
    def level(self) -> str | None:
        return self.kind[4:] if self.is_bot else None


@dataclass(frozen=True)
class Summary:
    """One line of ``unoduo list``."""

    id: str  # the file's name without .unoduo: what resume / replay / delete take
    path: Path
    created: datetime | None  # always timezone-aware (None: missing or unreadable)
    seats: tuple[Seat, ...]
    round: int
    scores: tuple[int, ...]
    status: str  # "in progress" | "finished" | "damaged"
    actions: int
    winner: int | None = None
    problem: str | None = None
    undos: int = 0  # practice undos recorded in the file (format 2)
    parent: tuple[str, int] | None = None  # a what-if branch: (parent id, its decisions)
    header_id: str | None = None  # the id inside the file, when it is not the file's name


def data_dir(explicit: str | os.PathLike | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get("UNODUO_DATA_DIR")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("unoduo"))


def _plain(exc: OSError) -> str:
    return str(exc) if isinstance(exc, FileProblem) else (exc.strerror or str(exc))


class _Lock:
    """An advisory lock on ``<save>.lock``; released (and the file removed) on
    release, or dropped by the kernel when the process dies."""

    def __init__(self, save: Path) -> None:
        self.path = save.with_suffix(".lock")
        self.fd: int | None = None

    def acquire(self) -> None:
        for _ in range(50):
            try:
                fd = open_regular(self.path, os.O_RDWR | os.O_CREAT)
                os.fchmod(fd, FILE_MODE)
            except OSError as exc:
                raise SaveFileError(f"{self.path}: cannot lock: {_plain(exc)}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                holder = os.read(fd, 200).decode("utf-8", "replace").split()
                os.close(fd)
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise SaveFileError(f"{self.path}: cannot lock: {exc.strerror}") from None
                pid = int(holder[0]) if holder and holder[0].isdigit() else None
                host = holder[1] if len(holder) > 1 else None
                who = f"process {pid} on {host}" if pid else "another process"
                raise LockedError(f"this match is open in {who}; close it there first "
                                  "(or open it read-only)", pid, host) from None
            # the holder before us may have removed the file between our open and our
            # flock: then we hold a lock on a name nobody sees — take the new one
            mine = os.fstat(fd)
            try:
                now = os.stat(self.path, follow_symlinks=False)
            except FileNotFoundError:
                now = None
            if now is None or (now.st_dev, now.st_ino) != (mine.st_dev, mine.st_ino):
                os.close(fd)
                continue
            try:  # who holds it, for the next opener's message (a nicety: a full disk is fine)
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()} {socket.gethostname()}\n".encode(), 0)
            except OSError:
                pass
            self.fd = fd
            return
        raise SaveFileError(f"{self.path}: cannot lock: the lock file keeps changing")

    def release(self) -> None:
        if self.fd is not None:
            try:  # removed while still held, so nobody can take the old inode meanwhile
                self.path.unlink(missing_ok=True)
            except OSError:
                pass
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


class SaveHandle:
    """An open save file that appends; call :meth:`sync` after every ``apply``.

    The handle knows what is on disk: ``size`` bytes of whole records, ending in
    the chain tag ``tag``, holding a log of ``written`` entries (after its undo
    records).  A write that fails is cut back to ``size`` and nothing here moves on,
    so the next :meth:`sync` writes everything not yet saved, from where the file
    really ends; an undo that could not be written is written first.
    """

    def __init__(self, path: Path, fd: int, lock: _Lock, tag: bytes, size: int,
                 written: int, header: Header, durable: bool = True,
                 finished: bool = False, undos: int = 0) -> None:
        self.path = path
        self.header = header
        self._fd = fd
        self._lock = lock
        self._tag = tag
        self._size = size
        self._written = written
        self._durable = durable
        self._finished = finished
        self._undos = undos  # undo records on disk
        self._rewind: int | None = None  # an undo not yet on disk: back to this length
        self._dirty = False  # a failed write may have left bytes past _size
        self._failed = False  # the last write failed: the file is behind the match

    @property
    def id(self) -> str:
        """The match's id in the store: its file's name."""
        return _id_of(self.path)

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(*s) for s in self.header.seats)

    @property
    def closed(self) -> bool:
        return self._fd < 0

    @property
    def pending(self) -> bool:
        """Whether the last write failed, so the file is behind the match until a
        :meth:`sync` succeeds (which then has written everything)."""
        return self._failed

    def _unsaved(self, match: Match) -> tuple[bytes, Encoder, bool]:
        """(the records that bring the file to ``match``, the encoder after them,
        whether they end with the footer)."""
        enc = Encoder(self._tag)
        parts = []
        start = self._written
        if self._rewind is not None:
            start = self._rewind
            parts.append(enc.undo(start))
        parts.append(enc.entries(match.actions_from(start)))
        footer = match.over and not self._finished
        if footer:
            undos = self._undos + (self._rewind is not None)
            offset = self._size + sum(map(len, parts))
            parts.append(enc.footer(Footer(match.winner, match.scores, match.round,
                                           match.log_length, undos, offset)))
        return b"".join(parts), enc, footer

    def sync(self, match: Match) -> None:
        """Append every log entry not yet written (after an undo not yet written),
        then the footer once it is over.  Raises :class:`SaveWriteError` (an
        ``OSError``) when the disk refuses; the file is then as it was."""
        if self._fd < 0:
            raise SaveFileError(f"{self.path}: the save file is closed")
        chunk, enc, footer = self._unsaved(match)
        if chunk:
            self._append(chunk)
        self._tag, self._size = enc.tag, self._size + len(chunk)
        self._written = match.log_length
        if self._rewind is not None:
            self._undos += 1
            self._rewind = None
        self._finished = self._finished or footer

    def _append(self, chunk: bytes) -> None:
        fd = self._fd
        try:
            if self._dirty:  # cut back what the failed write left
                os.ftruncate(fd, self._size)
                self._dirty = False
            write_all(fd, chunk)
            if self._durable:
                os.fdatasync(fd)
            self._failed = False
        except OSError as exc:
            self._dirty = self._failed = True
            try:
                os.ftruncate(fd, self._size)
                self._dirty = False
            except OSError:
                pass  # tried again before the next write
            what = ("the disk is full" if exc.errno in (errno.ENOSPC, errno.EDQUOT)
                    else exc.strerror or str(exc))
            raise SaveWriteError(f"{what} — the match goes on, and is saved as soon as "
                                 "the disk takes it", exc.errno or errno.EIO) from exc

    @property
    def can_undo(self) -> bool:
        """Undo records need format 2 (a format-1 file carries on as format 1)."""
        return self.header.format_version >= 2 and not self._finished

    def undo(self, match: Match) -> None:
        """Append "the log goes back to ``match``'s length" (practice undo): the file
        is never rewritten, so a crash mid-undo loses at most this record.  Raises
        :class:`SaveWriteError` like :meth:`sync`; the undo is then written first by
        the next ``sync``."""
        if self._fd < 0:
            raise SaveFileError(f"{self.path}: the save file is closed")
        if not self.can_undo:
            raise SaveFileError(f"{self.path}: this save file cannot record an undo")
        # the file must go back to where it and ``match`` part: at most the last
        # length on disk, at most an earlier undo not yet written
        back = self._written if self._rewind is None else self._rewind
        self._rewind = min(back, match.log_length)
        self.sync(match)

    def close(self) -> None:
        if self._fd >= 0:
            try:
                if not self._durable:
                    os.fsync(self._fd)
            except OSError:
                pass
            finally:
                os.close(self._fd)
                self._fd = -1
        self._lock.release()

    def __enter__(self) -> "SaveHandle":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class Loaded:
    """A match loaded from its file (and, unless read-only, open for appending)."""

    match: Match
    header: Header
    path: Path
    handle: SaveHandle | None
    notes: list[str] = field(default_factory=list)
    undos: int = 0  # practice undos the file records

    @property
    def id(self) -> str:
        """The match's id in the store: its file's name (``header.match_id`` may differ)."""
        return _id_of(self.path)

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(*s) for s in self.header.seats)


def _id_of(path: Path) -> str:
    name = path.name
    return name[:-len(SUFFIX)] if name.endswith(SUFFIX) else name


class Store:
    """The saved matches of one data dir."""

    def __init__(self, data_dir_: str | os.PathLike | None = None) -> None:
        self.data_dir = data_dir(data_dir_)
        self.matches_dir = self.data_dir / "matches"

    def _ensure(self) -> None:
        private_dir(self.data_dir)
        private_dir(self.matches_dir)

    # -- writing ---------------------------------------------------------------------

    def new_match(self, match: Match, seats: "tuple[Seat, ...]", durable: bool = True,
                  directory: Path | None = None, extra: dict | None = None) -> SaveHandle:
        """Create the match's file (header + its log so far, and the footer if it is
        over) and hold its lock.  The file appears whole or not at all: on a full disk
        :class:`SaveWriteError` and no file.  ``ValueError`` for a header the reader
        would refuse (a name over ``MAX_NAME``…: clean names with ``player_name``)."""
        now = datetime.now(timezone.utc)
        match_id = now.strftime("%Y%m%d-%H%M%S-") + os.urandom(3).hex()
        header = Header(match_id, match.rules, match.seed,
                        tuple((s.name, s.kind) for s in seats), now.isoformat(timespec="seconds"),
                        __version__, extra=dict(extra or {}))
        enc = Encoder()
        start = enc.start(header)
        self._ensure()
        folder = Path(directory) if directory is not None else self.matches_dir
        private_dir(folder)
        path = folder / (match_id + SUFFIX)
        lock = _Lock(path)
        lock.acquire()
        try:
            handle = SaveHandle(path, -1, lock, enc.tag, len(start), 0, header, durable)
            rest, enc, footer = handle._unsaved(match)
            try:
                put_new(path, start + rest, durable)
            except OSError as exc:
                raise SaveWriteError(f"cannot create the save file {path.name}: "
                                     f"{_plain(exc)}", exc.errno or errno.EIO) from None
            try:
                handle._fd = open_regular(path, os.O_WRONLY | os.O_APPEND)
            except OSError as exc:
                raise SaveWriteError(f"cannot open the new save file {path.name}: "
                                     f"{_plain(exc)}", exc.errno or errno.EIO) from None
        except BaseException:
            lock.release()
            raise
        handle._tag, handle._size = enc.tag, len(start) + len(rest)
        handle._written, handle._finished = match.log_length, footer
        return handle

    # -- reading ---------------------------------------------------------------------

    def resolve(self, ref: "str | os.PathLike") -> Path:
        """A match id (the file's name, a unique start of one, or its :func:`short_id`)
        or a path, to the save file's path.  The path is not checked further here:
        :meth:`open` and :meth:`summary` refuse what is not a regular save file."""
        text = os.fspath(ref)
        path = Path(text).expanduser()
        if os.path.lexists(path) and (os.sep in text or path.suffix == SUFFIX
                                      or not self.matches_dir.is_dir()):
            return path
        if os.sep not in text and self.matches_dir.is_dir():
            exact = self.matches_dir / (text + SUFFIX)
            if os.path.lexists(exact):
                return exact
            hits = sorted(set(self.matches_dir.glob(f"{text}*{SUFFIX}"))
                          | (set(self.matches_dir.glob(f"*-{text}{SUFFIX}"))
                             if _SHORT.fullmatch(text) else set()))
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                raise SaveFileError(f"{text!r} matches {len(hits)} saved matches; give more "
                                    "of the id")
        if os.path.lexists(path):
            return path
        raise SaveFileError(f"no saved match {text!r} (see 'unoduo list')")

    def open(self, ref: "str | os.PathLike", read_only: bool = False) -> Loaded:
        """Load a match by replaying its file; unless read-only, lock it, recover a torn
        tail, and return a handle that appends.  Only a regular file named
        ``*.unoduo`` is opened for writing; read-only opens read any regular file and
        create nothing."""
        path = self.resolve(ref)
        if not read_only and not path.name.endswith(SUFFIX):
            raise SaveFileError(f"{path}: not a save file (its name does not end in "
                                f"{SUFFIX}); 'unoduo verify' reads it without changing it")
        lock = _Lock(path)
        if not read_only:
            lock.acquire()
        try:
            return self._load(path, lock, read_only)
        except BaseException:
            lock.release()
            raise

    def _load(self, path: Path, lock: _Lock, read_only: bool) -> Loaded:
        try:
            fd = open_regular(path, os.O_RDONLY if read_only else os.O_RDWR | os.O_APPEND)
        except OSError as exc:
            raise SaveFileError(_plain(exc)) from None
        try:
            try:
                data = read_all(fd, path)
            except OSError as exc:
                raise SaveFileError(_plain(exc)) from None
            decoded, match = load(data, str(path))
            notes: list[str] = []
            if decoded.torn_bytes:
                what = "was zero-filled" if decoded.zero_tail else "was incomplete"
                note = f"recovered: the last action {what} and dropped"
                if not read_only:
                    note += f" (the damaged file is kept as {_keep_aside(path, data)})"
                notes.append(note)
            if not decoded.entries:
                notes.append("the match had not started; it starts now from its saved seed")
            if read_only:
                return Loaded(match, decoded.header, path, None, notes, decoded.undos)
            if decoded.torn_bytes:
                os.ftruncate(fd, decoded.good_length)
        except BaseException:
            os.close(fd)
            raise
        handle = SaveHandle(path, fd, lock, last_tag(data, decoded.good_length),
                            decoded.good_length, len(decoded.entries), decoded.header,
                            finished=decoded.footer is not None, undos=decoded.undos)
        try:  # the start's chance outcomes of a header-only file; a lost footer
            handle.sync(match)
        except SaveWriteError as exc:
            notes.append(f"not saved yet: {exc}")
        return Loaded(match, decoded.header, path, handle, notes, decoded.undos)

    def delete(self, ref: "str | os.PathLike") -> Path:
        """Remove a saved match for good: its file, its lock and any ``.corrupt`` copy.
        Refuses (:class:`LockedError`) while the match is open in a process; returns
        the path that was removed."""
        path = self.resolve(ref)
        if not path.name.endswith(SUFFIX):
            raise SaveFileError(f"{path}: not a save file (its name does not end in {SUFFIX})")
        lock = _Lock(path)
        lock.acquire()
        try:
            copies = path.parent.glob(path.name + ".corrupt*")
            for victim in (path, *copies):
                try:
                    victim.unlink()  # a symlink itself, never what it points to
                except FileNotFoundError:
                    pass
                except OSError as exc:
                    raise SaveFileError(f"{victim}: cannot delete: {exc.strerror}") from None
        finally:
            lock.release()
        return path

    def summaries(self) -> list[Summary]:
        """Every saved match, newest first (finished ones are read, not replayed); a
        file that cannot be read is listed as damaged, never hiding the others."""
        if not self.matches_dir.is_dir():
            return []
        self._sweep()
        out = []
        for path in self.matches_dir.glob("*" + SUFFIX):
            try:
                out.append(self.summary(path))
            except Exception as exc:  # noqa: BLE001 - one odd file must not hide the rest
                out.append(_damaged(path, f"{path}: cannot be read ({type(exc).__name__})"))
        oldest = datetime.min.replace(tzinfo=timezone.utc)
        return sorted(out, key=lambda s: (s.created or oldest, s.id), reverse=True)

    list = summaries

    def _sweep(self) -> None:
        """Remove what killed processes left: the temp file of a match being created
        (``.<id>.unoduo.<random>.tmp``, made under ``<id>.lock``) and lock files
        nobody holds.  A lock we can take means nobody is writing; releasing it
        removes its file."""
        d = self.matches_dir
        for temp in d.glob(".*" + SUFFIX + ".*.tmp"):
            self._while_free(temp.with_name(temp.name[1:].rsplit(".", 2)[0]),
                             lambda temp=temp: temp.unlink(missing_ok=True))
        for stale in d.glob("*.lock"):
            self._while_free(stale.with_suffix(SUFFIX), lambda: None)

    @staticmethod
    def _while_free(save: Path, action) -> None:
        lock = _Lock(save)
        try:
            lock.acquire()
        except SaveFileError:
            return  # held (or odd): leave it
        try:
            action()
        finally:
            lock.release()

    def summary(self, path: Path) -> Summary:
        """One file's line: a finished file's header and footer are read from its two
        ends when they agree (:func:`engine.savefile.read_ends`), anything else is
        decoded and replayed.  Never raises for a bad file: it is "damaged"."""
        try:
            fd = open_regular(path, os.O_RDONLY)
            try:
                size = os.fstat(fd).st_size
                head = os.pread(fd, HEAD_BYTES, 0)
                ends = read_ends(head, os.pread(fd, TAIL_BYTES, max(0, size - TAIL_BYTES)),
                                 size, str(path)) if size <= MAX_FILE else None
                if ends is not None:
                    header, f = ends
                    return _summary(path, header, f.rounds, f.scores, "finished",
                                    f.entries or 0, f.winner, None, f.undos or 0)
                data = read_all(fd, path)
            finally:
                os.close(fd)
            decoded = decode(data, str(path))
            if decoded.header is None:
                raise SaveFileError(f"{path}: the match never started")
            decoded, match = load(data, str(path))
            status = "finished" if match.over else "in progress"
            return _summary(path, decoded.header, match.round, match.scores, status,
                            len(decoded.entries), match.winner,
                            "torn tail" if decoded.torn_bytes else None, decoded.undos)
        except (SaveFileError, OSError) as exc:
            return _damaged(path, str(exc) if isinstance(exc, SaveFileError) else _plain(exc))

    def newest_unfinished(self) -> Summary | None:
        return next((s for s in self.summaries() if s.status == "in progress"), None)


def _keep_aside(path: Path, data: bytes) -> str:
    """A copy of a damaged file beside it (``<name>.corrupt``, or ``.corrupt.N`` if that
    exists); never through a symlink, never over another file.  Its name."""
    for n in range(1000):
        copy = path.with_name(path.name + ".corrupt" + (f".{n}" if n else ""))
        try:
            fd = create_new(copy)
        except FileExistsError:
            continue
        except OSError as exc:
            raise SaveFileError(f"{copy}: cannot keep the damaged file: {_plain(exc)}") from None
        try:
            write_all(fd, data)
        except OSError as exc:
            copy.unlink(missing_ok=True)
            raise SaveFileError(f"{copy}: cannot keep the damaged file: {_plain(exc)}") from None
        finally:
            os.close(fd)
        return copy.name
    raise SaveFileError(f"{path}: too many .corrupt copies beside it; remove some")


def _summary(path: Path, header: Header, rounds: int, scores: tuple[int, ...], status: str,
             actions: int, winner: int | None, problem: str | None, undos: int) -> Summary:
    own = _id_of(path)
    return Summary(own, path, _parse_time(header.created),
                   tuple(Seat(*s) for s in header.seats), rounds, scores, status, actions,
                   winner, problem, undos, parent_of(header),
                   header.match_id if header.match_id != own else None)


def _damaged(path: Path, problem: str) -> Summary:
    return Summary(_id_of(path), path, None, (), 0, (), "damaged", 0, None, problem)


def parent_of(header: Header) -> tuple[str, int] | None:
    """A what-if branch's parent, from its header: (parent id, decisions taken over);
    ``None`` for a match started afresh (or an unreadable ``parent`` field)."""
    raw = (header.extra or {}).get("parent")
    if (isinstance(raw, (list, tuple)) and len(raw) == 2 and isinstance(raw[0], str)
            and isinstance(raw[1], int) and not isinstance(raw[1], bool)):
        return raw[0], raw[1]
    return None


def short_id(match_id: str) -> str:
    """The short form of a match id that lists and labels show: its random end
    (``caebc7`` for ``20261129-233001-caebc7``), which :meth:`Store.resolve` accepts;
    an id of another shape is returned whole."""
    tail = match_id.rsplit("-", 1)[-1]
    return tail if tail != match_id and _SHORT.fullmatch(tail) else match_id


def _parse_time(text: str) -> datetime | None:
    """An aware time a terminal can show in any zone, or None (naive, unparsable, or
    so far out that converting it would overflow)."""
    try:
        when = datetime.fromisoformat(text)
    except (ValueError, TypeError):
        return None
    if when.tzinfo is None or when.utcoffset() is None or not 1970 <= when.year <= 9000:
        return None
    return when
