"""The file store: one crash-safe save file per match, locking, recovery, listing.

Headless (never imports Textual): the app and the ``unoduo`` commands both use it.

- Where: ``<data dir>/matches/<id>.unoduo``; the data dir is ``--data-dir``, else
  ``$UNODUO_DATA_DIR``, else ``platformdirs.user_data_dir("unoduo")``.  The folder
  is 0700 and every file 0600 whatever the umask: a save holds the deck order.
- Writing: each log entry is appended and flushed (``write`` on an unbuffered
  descriptor; ``fdatasync`` too unless the handle is for bulk simulation), so a
  killed process loses at most the action in flight.
- Locking: ``fcntl.flock`` on ``<id>.lock`` beside the save (never on the save
  itself); the holder writes its pid and host there.  The kernel drops the lock
  the moment its holder dies.
- Recovery: a torn tail is cut back to the last whole record, after the whole
  file is copied aside to ``<id>.unoduo.corrupt`` (never silently deleted).
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
from engine.savefile import Encoder, Footer, Header, SaveFileError, decode, last_tag, load

__all__ = ["Store", "Seat", "SaveHandle", "Loaded", "Summary", "SaveFileError", "LockedError",
           "data_dir", "parent_of", "short_id"]

SUFFIX = ".unoduo"
#: the random end of a match id (``20261129-233001-caebc7``): :func:`short_id`
_SHORT = re.compile(r"[0-9a-f]{6}")
_DIR_MODE, _FILE_MODE = 0o700, 0o600


class LockedError(SaveFileError):
    """Another process (``pid`` on ``host``) is playing this match."""

    def __init__(self, message: str, pid: int | None = None, host: str | None = None) -> None:
        super().__init__(message)
        self.pid, self.host = pid, host


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

    id: str
    path: Path
    created: datetime | None
    seats: tuple[Seat, ...]
    round: int
    scores: tuple[int, ...]
    status: str  # "in progress" | "finished" | "damaged"
    actions: int
    winner: int | None = None
    problem: str | None = None
    undos: int = 0  # practice undos recorded in the file (format 2)
    parent: tuple[str, int] | None = None  # a what-if branch: (parent id, its decisions)


def data_dir(explicit: str | os.PathLike | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get("UNODUO_DATA_DIR")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("unoduo"))


def _private_dir(path: Path) -> None:
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, _DIR_MODE)


def _open_private(path: Path, flags: int) -> int:
    fd = os.open(path, flags, _FILE_MODE)
    os.fchmod(fd, _FILE_MODE)
    return fd


class _Lock:
    """An advisory lock on ``<save>.lock``; released on close or when the process dies."""

    def __init__(self, save: Path) -> None:
        self.path = save.with_suffix(".lock")
        self.fd: int | None = None

    def acquire(self) -> None:
        fd = _open_private(self.path, os.O_RDWR | os.O_CREAT)
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
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()} {socket.gethostname()}\n".encode())
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


class SaveHandle:
    """An open save file that appends; call :meth:`sync` after every ``apply``."""

    def __init__(self, path: Path, fd: int, lock: _Lock, encoder: Encoder, written: int,
                 header: Header, durable: bool = True, finished: bool = False) -> None:
        self.path = path
        self.header = header
        self._fd = fd
        self._lock = lock
        self._encoder = encoder
        self._written = written
        self._durable = durable
        self._finished = finished

    @property
    def id(self) -> str:
        return self.header.match_id

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(*s) for s in self.header.seats)

    @property
    def closed(self) -> bool:
        return self._fd < 0

    def sync(self, match: Match) -> None:
        """Append every log entry not yet written, then the footer once it is over."""
        if self._fd < 0:
            raise SaveFileError(f"{self.path}: the save file is closed")
        new = match.actions_from(self._written)
        chunk = self._encoder.entries(new) if new else b""
        if match.over and not self._finished:
            chunk += self._encoder.footer(Footer(match.winner, match.scores, match.round))
            self._finished = True
        if chunk:
            _write_all(self._fd, chunk)
            if self._durable:
                os.fdatasync(self._fd)
        self._written += len(new)

    @property
    def can_undo(self) -> bool:
        """Undo records need format 2 (a format-1 file carries on as format 1)."""
        return self.header.format_version >= 2 and not self._finished

    def undo(self, match: Match) -> None:
        """Append "the log goes back to ``match``'s length" (practice undo): the file
        is never rewritten, so a crash mid-undo loses at most this record."""
        if self._fd < 0:
            raise SaveFileError(f"{self.path}: the save file is closed")
        if not self.can_undo:
            raise SaveFileError(f"{self.path}: this save file cannot record an undo")
        length = match.log_length
        if length > self._written:
            raise ValueError("an undo goes back, never forward")
        _write_all(self._fd, self._encoder.undo(length))
        if self._durable:
            os.fdatasync(self._fd)
        self._written = length

    def close(self) -> None:
        if self._fd >= 0:
            if not self._durable:
                os.fsync(self._fd)
            os.close(self._fd)
            self._fd = -1
        self._lock.release()

    def __enter__(self) -> "SaveHandle":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


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
    def seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(*s) for s in self.header.seats)


class Store:
    """The saved matches of one data dir."""

    def __init__(self, data_dir_: str | os.PathLike | None = None) -> None:
        self.data_dir = data_dir(data_dir_)
        self.matches_dir = self.data_dir / "matches"

    def _ensure(self) -> None:
        _private_dir(self.data_dir)
        _private_dir(self.matches_dir)

    # -- writing ---------------------------------------------------------------------

    def new_match(self, match: Match, seats: "tuple[Seat, ...]", durable: bool = True,
                  directory: Path | None = None, extra: dict | None = None) -> SaveHandle:
        """Create the match's file (header + its log so far) and hold its lock."""
        self._ensure()
        folder = directory or self.matches_dir
        if directory is not None:
            _private_dir(folder)
        now = datetime.now(timezone.utc)
        match_id = now.strftime("%Y%m%d-%H%M%S-") + os.urandom(3).hex()
        header = Header(match_id, match.rules, match.seed,
                        tuple((s.name, s.kind) for s in seats), now.isoformat(timespec="seconds"),
                        __version__, extra=dict(extra or {}))
        path = folder / (match_id + SUFFIX)
        lock = _Lock(path)
        lock.acquire()
        try:
            fd = _open_private(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND)
        except OSError:
            lock.release()
            raise
        encoder = Encoder()
        _write_all(fd, encoder.start(header))
        handle = SaveHandle(path, fd, lock, encoder, 0, header, durable)
        handle.sync(match)
        return handle

    # -- reading ---------------------------------------------------------------------

    def resolve(self, ref: "str | os.PathLike") -> Path:
        """A match id (or a unique start of one, or its :func:`short_id`) or a path, to
        the save file's path."""
        text = os.fspath(ref)
        path = Path(text).expanduser()
        if path.is_file():
            return path
        if os.sep not in text and self.matches_dir.is_dir():
            exact = self.matches_dir / (text + SUFFIX)
            if exact.is_file():
                return exact
            hits = sorted(set(self.matches_dir.glob(f"{text}*{SUFFIX}"))
                          | (set(self.matches_dir.glob(f"*-{text}{SUFFIX}"))
                             if _SHORT.fullmatch(text) else set()))
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                raise SaveFileError(f"{text!r} matches {len(hits)} saved matches; give more "
                                    "of the id")
        raise SaveFileError(f"no saved match {text!r} (see 'unoduo list')")

    def open(self, ref: "str | os.PathLike", read_only: bool = False) -> Loaded:
        """Load a match by replaying its file; unless read-only, lock it, recover a torn
        tail, and return a handle that appends."""
        path = self.resolve(ref)
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
            data = path.read_bytes()
        except OSError as exc:
            raise SaveFileError(f"{path}: cannot read: {exc.strerror}") from None
        decoded, match = load(data, str(path))
        notes: list[str] = []
        if decoded.torn_bytes:
            what = "was zero-filled" if decoded.zero_tail else "was incomplete"
            note = f"recovered: the last action {what} and dropped"
            if not read_only:
                corrupt = path.with_name(path.name + ".corrupt")
                fd = _open_private(corrupt, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                try:
                    _write_all(fd, data)
                finally:
                    os.close(fd)
                note += f" (the damaged file is kept as {corrupt.name})"
            notes.append(note)
        if not decoded.entries:
            notes.append("the match had not started; it starts now from its saved seed")
        if read_only:
            return Loaded(match, decoded.header, path, None, notes, decoded.undos)
        fd = _open_private(path, os.O_WRONLY | os.O_APPEND)
        if decoded.torn_bytes:
            os.ftruncate(fd, decoded.good_length)
        encoder = Encoder(last_tag(data, decoded.good_length))
        handle = SaveHandle(path, fd, lock, encoder, len(decoded.entries), decoded.header,
                            finished=decoded.footer is not None)
        handle.sync(match)  # the start's chance outcomes of a header-only file; a lost footer
        return Loaded(match, decoded.header, path, handle, notes, decoded.undos)

    def delete(self, ref: "str | os.PathLike") -> Path:
        """Remove a saved match for good: its file, its lock and any ``.corrupt`` copy.
        Refuses (:class:`LockedError`) while the match is open in a process; returns
        the path that was removed."""
        path = self.resolve(ref)
        lock = _Lock(path)
        lock.acquire()
        try:
            for victim in (path, path.with_name(path.name + ".corrupt")):
                try:
                    victim.unlink()
                except FileNotFoundError:
                    pass
                except OSError as exc:
                    raise SaveFileError(f"{victim}: cannot delete: {exc.strerror}") from None
            lock.path.unlink(missing_ok=True)
        finally:
            lock.release()
        return path

    def summaries(self) -> list[Summary]:
        """Every saved match, newest first (finished ones are read, not replayed)."""
        if not self.matches_dir.is_dir():
            return []
        out = [self.summary(p) for p in self.matches_dir.glob("*" + SUFFIX)]
        return sorted(out, key=lambda s: (s.created or datetime.min.replace(tzinfo=timezone.utc),
                                          s.id), reverse=True)

    list = summaries

    def summary(self, path: Path) -> Summary:
        match_id = path.name[: -len(SUFFIX)]
        try:
            data = path.read_bytes()
            decoded = decode(data, str(path))
            header = decoded.header
            if header is None:
                raise SaveFileError(f"{path}: the match never started")
            seats = tuple(Seat(*s) for s in header.seats)
            created = _parse_time(header.created)
            parent = parent_of(header)
            if decoded.footer is not None:
                f = decoded.footer
                return Summary(header.match_id, path, created, seats, f.rounds, f.scores,
                               "finished", len(decoded.entries), f.winner, undos=decoded.undos,
                               parent=parent)
            decoded, match = load(data, str(path))
            status = "finished" if match.over else "in progress"
            return Summary(header.match_id, path, created, seats, match.round, match.scores,
                           status, len(decoded.entries), match.winner,
                           "torn tail" if decoded.torn_bytes else None, decoded.undos, parent)
        except (SaveFileError, OSError) as exc:
            return Summary(match_id, path, None, (), 0, (), "damaged", 0, None, str(exc))

    def newest_unfinished(self) -> Summary | None:
        return next((s for s in self.summaries() if s.status == "in progress"), None)


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
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None

