"""An open save file that appends, and the lock that guards it (part of the store:
:mod:`unoduo_tui.store` re-exports everything here).

A :class:`SaveHandle` knows exactly what is on disk (its size, its chain tag, the log
length it holds), so a write that fails (disk full, quota, I/O error, a short write)
is cut back to the last whole record and nothing moves on: the next
:meth:`SaveHandle.sync` writes everything not yet saved.  Writing and making durable
are two steps (:meth:`~SaveHandle.write`, then :meth:`~SaveHandle.flush`): once
``write`` returns, the records are in the file for any reader and survive the
process being killed; ``flush`` (``fdatasync``) makes them survive the machine.  A
:class:`SaveLock` is a ``flock`` on ``<id>.lock``, removed on release.
"""

from __future__ import annotations

import errno
import fcntl
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from engine import Match
from engine.savefile import Encoder, Footer, Header, SaveFileError, SeatRecord, seat_names

from .files import FILE_MODE, FileProblem, open_regular, put_new, write_all

__all__ = ["SUFFIX", "LockedError", "SaveWriteError", "Seat", "SaveHandle", "FileSaveHandle",
           "SaveLock", "id_of", "named_seats", "parent_of", "write_error"]

SUFFIX = ".unoduo"


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


def plain(exc: OSError) -> str:
    return str(exc) if isinstance(exc, FileProblem) else (exc.strerror or str(exc))


class SaveLock:
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
                raise SaveFileError(f"{self.path}: cannot lock: {plain(exc)}") from None
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
    """A match's save, open for appending; call :meth:`sync` after every ``apply``.

    The chain's part, the same in every backend: the handle knows what is saved —
    ``size`` bytes of whole records (the save's image: what a file holds, or the rows
    of a database put end to end), ending in the chain tag ``tag``, holding a log of
    ``written`` entries (after its undo records) and the seat records ``seats``.  A
    write that fails leaves all of that as it was, so the next :meth:`sync` writes
    everything not yet saved, from where the save really ends; an undo or a seat
    record that could not be written is written first, where it belongs in the log.
    Where the records go is a backend's (:class:`FileSaveHandle`: a file;
    :class:`unoduo_tui.storage.pg.PgSaveHandle`: rows): :meth:`_append` puts the new
    records, whole or none; :meth:`_make_durable`, :meth:`_release`.
    """

    def __init__(self, header: Header, tag: bytes, size: int, written: int,
                 durable: bool = True, finished: bool = False, undos: int = 0,
                 seats: "list[SeatRecord] | tuple[SeatRecord, ...]" = ()) -> None:
        self.header = header
        self._tag = tag
        self._size = size
        self._written = written
        self._durable = durable
        self._finished = finished
        self._undos = undos  # undo records saved
        self._rewind: int | None = None  # an undo not yet saved: back to this length
        self._seats: list[SeatRecord] = list(seats)  # seat records saved
        self._new_seats: list[SeatRecord] = []  # seat records not yet saved
        self._failed = False  # the last write failed: the save is behind the match
        self._open = True
        #: called with the handle's :attr:`ref` once the footer is saved (the record, #24)
        self.on_finish: "Callable[[str], None] | None" = None
        self._unflushed = False  # written, not yet made durable
        self._flush_failed = False  # the last flush failed: tried again

    # -- what a backend gives --------------------------------------------------------

    @property
    def id(self) -> str:
        """The match's id in the store."""
        raise NotImplementedError

    @property
    def ref(self) -> str:
        """What the store's ``open`` / ``resolve`` take to find this save again."""
        return self.id

    @property
    def path(self) -> Path | None:
        """The save's file (None: the save is not a file)."""
        return None

    def _append(self, records: list[bytes], footer: bool) -> None:
        """Save ``records`` after the ``size`` bytes saved, all or none (``footer``:
        they end with the footer); raise :class:`SaveWriteError` (none saved)."""
        raise NotImplementedError

    def _make_durable(self) -> None:
        """Make what :meth:`_append` saved survive the machine (raise
        :class:`SaveWriteError`; the next flush tries again)."""

    def _release(self, last: bool) -> None:
        """Let go of the save (its lock); ``last``: after a last flush."""

    # -- the chain -------------------------------------------------------------------

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats as the header had them, named as the seat records rename them."""
        return named_seats(self.header, self.seat_records)

    @property
    def names(self) -> tuple[str, ...]:
        return seat_names(self.header, self._seats + self._new_seats)

    @property
    def seat_records(self) -> tuple[SeatRecord, ...]:
        """Every seat record, saved or not yet."""
        return tuple(self._seats + self._new_seats)

    @property
    def closed(self) -> bool:
        return not self._open

    @property
    def size(self) -> int:
        """The bytes of the save's image that hold whole records, as this handle saved
        them."""
        return self._size

    @property
    def pending(self) -> bool:
        """Whether the last write (or flush) failed, so the save is behind the match
        until a :meth:`sync` succeeds (which then has written everything)."""
        return self._failed or self._flush_failed

    def _unsaved(self, match: Match) -> tuple[list[bytes], Encoder, bool]:
        """(the records that bring the save to ``match``, the encoder after them,
        whether they end with the footer)."""
        enc = Encoder(self._tag)
        parts: list[bytes] = []
        start = self._written
        if self._rewind is not None:
            start = self._rewind
            parts.append(enc.undo(start))
        for record in self._new_seats:  # each where it lies in the log
            at = max(start, min(record.at, match.log_length))
            parts.extend(map(enc.entry, match.actions[start:at]))
            parts.append(enc.seat(record))
            start = at
        parts.extend(map(enc.entry, match.actions_from(start)))
        footer = match.over and not self._finished
        if footer:
            undos = self._undos + (self._rewind is not None)
            offset = self._size + sum(map(len, parts))
            names = self.names
            parts.append(enc.footer(Footer(
                match.winner, match.scores, match.round, match.log_length, undos, offset,
                names if names != tuple(n for n, _ in self.header.seats) else None)))
        return parts, enc, footer

    def sync(self, match: Match) -> None:
        """:meth:`write`, then :meth:`flush`."""
        self.write(match)
        self.flush()

    def write(self, match: Match) -> None:
        """Append every log entry not yet written (after an undo or seat record not
        yet written), then the footer once it is over.  Raises
        :class:`SaveWriteError` (an ``OSError``) when the backend refuses; the save
        is then as it was."""
        if not self._open:
            raise SaveFileError(f"{self.ref}: the save is closed")
        records, enc, footer = self._unsaved(match)
        if records:
            try:
                self._append(records, footer)
            except OSError:
                self._failed = True
                raise
            self._failed = False
            self._unflushed = True
        self._tag, self._size = enc.tag, self._size + sum(map(len, records))
        self._written = match.log_length
        if self._rewind is not None:
            self._undos += 1
            self._rewind = None
        self._seats += self._new_seats
        self._new_seats = []
        self._finished = self._finished or footer
        if footer and self.on_finish is not None:
            self.on_finish(self.ref)

    def flush(self) -> None:
        """Make what :meth:`write` wrote durable (nothing to do for a bulk handle).
        Raises :class:`SaveWriteError`; the records stay saved and the next ``flush``
        tries again."""
        if not (self._durable and (self._unflushed or self._flush_failed)) or not self._open:
            return
        try:
            self._make_durable()
        except OSError:
            self._flush_failed = True
            raise
        self._unflushed = self._flush_failed = False

    @property
    def can_name(self) -> bool:
        """Seat records need format 3 (an older save carries on without them)."""
        return self.header.format_version >= 3 and not self._finished

    def seat(self, match: Match, seat: int, name: str, kind: str) -> None:
        """Record that from ``match``'s present position ``seat`` is named ``name``
        and played by ``kind`` (:class:`SeatRecord`), and :meth:`sync`.  Raises
        :class:`SaveWriteError` like ``sync`` (the record is then written first by
        the next); ``SaveFileError`` when the save cannot hold one (:attr:`can_name`)."""
        if not self.can_name:
            raise SaveFileError(f"{self.ref}: this save cannot record who plays a seat")
        self._new_seats.append(SeatRecord(match.log_length, seat, name, kind))
        self.sync(match)

    @property
    def can_undo(self) -> bool:
        """Undo records need format 2 (a format-1 save carries on as format 1)."""
        return self.header.format_version >= 2 and not self._finished

    def undo(self, match: Match) -> None:
        """Append "the log goes back to ``match``'s length" (practice undo): the save
        is never rewritten, so a crash mid-undo loses at most this record.  Raises
        :class:`SaveWriteError` like :meth:`write` (which it is: :meth:`flush` makes it
        durable); the undo is then written first by the next ``write``."""
        if not self._open:
            raise SaveFileError(f"{self.ref}: the save is closed")
        if not self.can_undo:
            raise SaveFileError(f"{self.ref}: this save cannot record an undo")
        # the save must go back to where it and ``match`` part: at most the last
        # length saved, at most an earlier undo not yet written
        back = self._written if self._rewind is None else self._rewind
        self._rewind = min(back, match.log_length)
        self.write(match)

    def close(self) -> None:
        if self._open:
            self._open = False
            self._release(True)

    def abandon(self) -> None:
        """What a killed process leaves: the save as written, let go without a last
        write or flush (tests of a dropped link)."""
        if self._open:
            self._open = False
            self._release(False)

    def __enter__(self) -> "SaveHandle":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FileSaveHandle(SaveHandle):
    """A save file that appends (``write`` on an unbuffered descriptor; ``fdatasync``
    makes it durable unless the handle is for bulk simulation), holding its
    :class:`SaveLock`.  A write that fails is cut back to the last whole record."""

    def __init__(self, path: Path, fd: int, lock: SaveLock, tag: bytes, size: int,
                 written: int, header: Header, durable: bool = True,
                 finished: bool = False, undos: int = 0,
                 seats: "list[SeatRecord] | tuple[SeatRecord, ...]" = ()) -> None:
        super().__init__(header, tag, size, written, durable, finished, undos, seats)
        self._path = path
        self._fd = fd
        self._lock = lock
        self._dirty = False  # a failed write may have left bytes past _size

    @classmethod
    def create(cls, path: Path, header: Header, match: Match,
               durable: bool = True) -> "FileSaveHandle":
        """Write the new file ``path`` (``header``, ``match``'s log so far, its footer if
        it is over) whole or not at all, and return its handle holding its lock.  On a
        full disk :class:`SaveWriteError` and no file."""
        enc = Encoder()
        start = enc.start(header)
        lock = SaveLock(path)
        lock.acquire()
        try:
            handle = cls(path, -1, lock, enc.tag, len(start), 0, header, durable)
            rest, enc, footer = handle._unsaved(match)
            data = start + b"".join(rest)
            try:
                put_new(path, data, durable)
            except OSError as exc:
                raise SaveWriteError(f"cannot create the save file {path.name}: "
                                     f"{plain(exc)}", exc.errno or errno.EIO) from None
            try:
                handle._fd = open_regular(path, os.O_WRONLY | os.O_APPEND)
            except OSError as exc:
                raise SaveWriteError(f"cannot open the new save file {path.name}: "
                                     f"{plain(exc)}", exc.errno or errno.EIO) from None
        except BaseException:
            lock.release()
            raise
        handle._tag, handle._size = enc.tag, len(data)
        handle._written, handle._finished = match.log_length, footer
        return handle

    @property
    def id(self) -> str:
        """The match's id in the store: its file's name."""
        return id_of(self._path)

    @property
    def ref(self) -> str:
        return str(self._path)

    @property
    def path(self) -> Path:
        return self._path

    def _append(self, records: list[bytes], footer: bool) -> None:
        fd = self._fd
        try:
            if self._dirty:  # cut back what the failed write left
                os.ftruncate(fd, self._size)
                self._dirty = False
            write_all(fd, b"".join(records))
        except OSError as exc:
            self._dirty = True
            try:
                os.ftruncate(fd, self._size)
                self._dirty = False
            except OSError:
                pass  # tried again before the next write
            raise write_error(exc) from exc

    def _make_durable(self) -> None:
        try:
            os.fdatasync(self._fd)
        except OSError as exc:
            raise write_error(exc) from exc

    def _release(self, last: bool) -> None:
        if self._fd >= 0:
            try:
                if last and not self._durable:
                    os.fsync(self._fd)
            except OSError:
                pass
            finally:
                os.close(self._fd)
                self._fd = -1
        self._lock.release()


def named_seats(header: Header, records, names: "tuple[str, ...] | None" = None
                ) -> tuple[Seat, ...]:
    """The header's seats (their kinds: who owns each), named as the seat ``records``
    (or ``names``, a footer's) last name them."""
    names = names or seat_names(header, records)
    return tuple(Seat(name, kind) for name, (_, kind) in zip(names, header.seats))


def write_error(exc: OSError) -> SaveWriteError:
    what = ("the disk is full" if exc.errno in (errno.ENOSPC, errno.EDQUOT)
            else exc.strerror or str(exc))
    return SaveWriteError(what, exc.errno or errno.EIO)


def id_of(path: Path) -> str:
    """A save's id in the store: its file's name without ``.unoduo``."""
    name = path.name
    return name[:-len(SUFFIX)] if name.endswith(SUFFIX) else name


def parent_of(header: Header) -> tuple[str, int] | None:
    """A what-if branch's parent, from its header: (parent id, decisions taken over);
    ``None`` for a match started afresh (or an unreadable ``parent`` field)."""
    raw = (header.extra or {}).get("parent")
    if (isinstance(raw, (list, tuple)) and len(raw) == 2 and isinstance(raw[0], str)
            and isinstance(raw[1], int) and not isinstance(raw[1], bool)):
        return raw[0], raw[1]
    return None
