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
  is cut back to the last whole record and retried by the next ``sync``
  (:mod:`unoduo_tui.savehandle`).
- Locking: ``fcntl.flock`` on ``<id>.lock`` beside the save (never on the save
  itself); the holder writes its pid and host there and removes it on release.
  The kernel drops the lock the moment its holder dies.
- Recovery: a torn tail is cut back to the last whole record, after the whole
  file is copied aside to ``<id>.unoduo.corrupt`` (a new name if that exists;
  never silently deleted).
"""

from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from engine import Match, __version__
from engine.savefile import (HEAD_BYTES, TAIL_BYTES, Header, SaveFileError,
                             SeatRecord, decode, last_tag, load, read_ends)

from .text import printable
from .files import (MAX_FILE, create_new, open_regular, private_dir, read_all, read_regular,
                    write_all)
from .savehandle import (SUFFIX, FileSaveHandle, LockedError, SaveHandle, SaveLock, SaveWriteError,
                         Seat, id_of, named_seats, parent_of, plain)

__all__ = ["Saves", "Store", "Seat", "SaveHandle", "Loaded", "Summary", "SaveFileError",
           "LockedError", "SaveWriteError", "data_dir", "parent_of", "short_id", "new_match_id",
           "quoted_ref", "parse_time", "new_header"]

#: the random end of a match id (``20261129-233001-caebc7``): :func:`short_id`
_SHORT = re.compile(r"[0-9a-f]{6}")


@dataclass(frozen=True)
class Summary:
    """One line of ``unoduo list``."""

    id: str  # the file's name without .unoduo: what resume / replay / delete take
    path: Path | None  # the save's file (None: a save that is not a file: rows)
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
    preset: str = "duo"  # the rules' preset ("duo", "classic"): the game it is

    @property
    def ref(self) -> str:
        """What the store's ``open`` / ``delete`` take for this save."""
        return str(self.path) if self.path is not None else self.id


def data_dir(explicit: str | os.PathLike | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get("UNODUO_DATA_DIR")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("unoduo"))


@dataclass
class Loaded:
    """A match loaded from its file (and, unless read-only, open for appending)."""

    match: Match
    header: Header
    path: Path | None  # the save's file (None: a save that is not a file)
    handle: SaveHandle | None
    notes: list[str] = field(default_factory=list)
    undos: int = 0  # practice undos the file records
    seat_records: tuple[SeatRecord, ...] = ()  # who came and who played (format 3)
    match_id: str | None = None  # the id of a save that is not a file

    @property
    def id(self) -> str:
        """The match's id in the store: its file's name (``header.match_id`` may differ)."""
        return id_of(self.path) if self.path is not None else (self.match_id or "")

    @property
    def ref(self) -> str:
        """What the store's ``open`` takes for this save (its path, or its id)."""
        return str(self.path) if self.path is not None else self.id

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Each seat's kind as the header has it (who owns it: a human or a bot), named
        as the seat records last named it (a joiner's own name)."""
        return named_seats(self.header, self.seat_records)

    def stand_in(self, seat: int, index: int) -> str | None:
        """The bot kind (``"bot:normal"``) that made ``seat``'s log entry ``index`` for
        its away player (``None``: the seat's own player, or bot, made it)."""
        by = None
        for record in self.seat_records:
            if record.seat == seat and record.at <= index:
                by = record.kind if record.kind != self.header.seats[seat][1] else None
        return by


def new_match_id(now: datetime) -> str:
    """A new match's id: its start (UTC) and six random hex digits (:func:`short_id`)."""
    return now.strftime("%Y%m%d-%H%M%S-") + os.urandom(3).hex()


def new_header(match: Match, seats: "tuple[Seat, ...]", extra: dict | None = None) -> Header:
    """The header of a new match's save (``ValueError`` for one the reader would refuse)."""
    now = datetime.now(timezone.utc)
    return Header(new_match_id(now), match.rules, match.seed,
                  tuple((s.name, s.kind) for s in seats), now.isoformat(timespec="seconds"),
                  __version__, extra=dict(extra or {}))


class Saves:
    """The saved matches of one player, whatever keeps them: the storage interface of
    the saves.  :class:`Store` keeps them as files (the default); the PostgreSQL
    backend (:class:`unoduo_tui.storage.pg.PgStore`) as rows, one per record.  Both
    keep the same bytes — the hash-chained save of :mod:`engine.savefile` — so a save
    moves between them unchanged (``unoduo store copy``).

    ``data_dir``: the player's folder for what is not a save (settings, table tokens);
    ``key``: under ``unoduo serve``, the SSH key (fingerprint) of the player."""

    data_dir: Path
    key: str | None
    vouched: dict[str, str]

    def ensure(self) -> None:
        """The player's folder, made private if it is not there."""
        private_dir(self.data_dir)

    def new_match(self, match: Match, seats: "tuple[Seat, ...]", durable: bool = True,
                  directory: Path | None = None, extra: dict | None = None) -> SaveHandle:
        raise NotImplementedError

    def resolve(self, ref: "str | os.PathLike") -> "str | Path":
        raise NotImplementedError

    def open(self, ref: "str | os.PathLike", read_only: bool = False) -> Loaded:
        raise NotImplementedError

    def delete(self, ref: "str | os.PathLike") -> "str | Path":
        raise NotImplementedError

    def _noted(self, ref: str) -> None:
        """A save of this store finished (its footer is saved): the record told."""
        raise NotImplementedError

    def _reopened(self, handle: SaveHandle, match: Match, notes: list[str]) -> SaveHandle:
        """A save just opened for writing: told to note its end, and brought up to its
        match — the start's chance outcomes of a header-only save, a lost footer (a
        write refused now is a note, and tried again with the next decision)."""
        handle.on_finish = self._noted
        try:
            handle.sync(match)
        except SaveWriteError as exc:
            notes.append(f"not saved yet: {exc}")
        return handle

    def summaries(self) -> "list[Summary]":
        raise NotImplementedError

    def image(self, ref: "str | os.PathLike") -> tuple[str, bytes]:
        """A save's id and its whole image: the bytes a save file of it holds
        (``unoduo verify``, ``export``, ``store copy``)."""
        raise NotImplementedError

    def newest_unfinished(self) -> Summary | None:
        return next((s for s in self.summaries() if s.status == "in progress"), None)

    def list(self) -> "list[Summary]":
        return self.summaries()


class Store(Saves):
    """The saved matches of one data dir, as files; ``key``: under ``unoduo serve``, the SSH key
    (fingerprint) of the player whose data dir it is — the session's, never the
    process's environment (many sessions share a worker) — so that the record counts
    their matches in the server's one index (:func:`.record.identity.index_root`)."""

    def __init__(self, data_dir_: str | os.PathLike | None = None,
                 key: str | None = None) -> None:
        self.data_dir = data_dir(data_dir_)
        self.matches_dir = self.data_dir / "matches"
        self.key = key
        #: the server's word for ``key``, for the tables this player reaches (a session
        #: of ``serve --workers``: :mod:`unoduo_tui.net.vouch`; empty: the environment's)
        self.vouched: dict[str, str] = {}

    def ensure(self) -> None:
        """The data folder and its matches folder, made private if they are not there."""
        private_dir(self.data_dir)
        private_dir(self.matches_dir)

    # -- writing ---------------------------------------------------------------------

    def new_match(self, match: Match, seats: "tuple[Seat, ...]", durable: bool = True,
                  directory: Path | None = None, extra: dict | None = None) -> SaveHandle:
        """Create the match's file (header + its log so far, and the footer if it is
        over) and hold its lock.  The file appears whole or not at all: on a full disk
        :class:`SaveWriteError` and no file.  ``ValueError`` for a header the reader
        would refuse (a name over ``MAX_NAME``…: clean names with ``player_name``)."""
        header = new_header(match, seats, extra)
        self.ensure()
        folder = Path(directory) if directory is not None else self.matches_dir
        private_dir(folder)
        handle = FileSaveHandle.create(folder / (header.match_id + SUFFIX), header, match,
                                       durable)
        if durable:  # bulk saves (simulate) are bot-only: the record finds them itself
            handle.on_finish = self._noted
            if match.over:  # the footer is on disk already
                self._recorded(handle.path)
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
            pattern = glob.escape(text)  # an id holds no wildcards: '*5' picks nothing
            hits = sorted(set(self.matches_dir.glob(f"{pattern}*{SUFFIX}"))
                          | (set(self.matches_dir.glob(f"*-{pattern}{SUFFIX}"))
                             if _SHORT.fullmatch(text) else set()))
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                raise SaveFileError(f"{quoted_ref(text)} matches {len(hits)} saved matches; give more "
                                    "of the id")
        if os.path.lexists(path):
            return path
        raise SaveFileError(f"no saved match {quoted_ref(text)} (see 'unoduo list')")

    def open(self, ref: "str | os.PathLike", read_only: bool = False) -> Loaded:
        """Load a match by replaying its file; unless read-only, lock it, recover a torn
        tail, and return a handle that appends.  Only a regular file named
        ``*.unoduo`` is opened for writing; read-only opens read any regular file and
        create nothing."""
        path = self.resolve(ref)
        if not read_only and not path.name.endswith(SUFFIX):
            raise SaveFileError(f"{path}: not a save file (its name does not end in "
                                f"{SUFFIX}); 'unoduo verify' reads it without changing it")
        lock = SaveLock(path)
        if not read_only:
            lock.acquire()
        try:
            return self._load(path, lock, read_only)
        except BaseException:
            lock.release()
            raise

    def _load(self, path: Path, lock: SaveLock, read_only: bool) -> Loaded:
        try:
            fd = open_regular(path, os.O_RDONLY if read_only else os.O_RDWR | os.O_APPEND)
        except OSError as exc:
            raise SaveFileError(plain(exc)) from None
        try:
            try:
                data = read_all(fd, path)
            except OSError as exc:
                raise SaveFileError(plain(exc)) from None
            decoded, match = load(data, str(path))
            header = decoded.header
            assert header is not None  # load raises for a file without one
            notes: list[str] = []
            if decoded.torn_bytes:
                what = "was zero-filled" if decoded.zero_tail else "was incomplete"
                note = f"recovered: the last action {what} and dropped"
                if not read_only:
                    note += f" (the damaged file is kept as {_keep_aside(path, data)})"
                notes.append(note)
            if not decoded.entries:
                notes.append("the match had not started; it starts now from its saved seed")
            if read_only:  # nothing more is read or written: the file is closed now
                loaded = Loaded(match, header, path, None, notes, decoded.undos,
                                tuple(decoded.seats))
                os.close(fd)
                return loaded
            if decoded.torn_bytes:
                os.ftruncate(fd, decoded.good_length)
        except BaseException:
            os.close(fd)
            raise
        handle = FileSaveHandle(path, fd, lock, last_tag(data, decoded.good_length),
                                decoded.good_length, len(decoded.entries), header,
                                finished=decoded.footer is not None, undos=decoded.undos,
                                seats=decoded.seats)
        self._reopened(handle, match, notes)
        return Loaded(match, header, path, handle, notes, decoded.undos,
                      tuple(decoded.seats))

    def delete(self, ref: "str | os.PathLike") -> Path:
        """Remove a saved match for good: its file, its lock and any ``.corrupt`` copy.
        Refuses (:class:`LockedError`) while the match is open in a process; returns
        the path that was removed."""
        path = self.resolve(ref)
        if not path.name.endswith(SUFFIX):
            raise SaveFileError(f"{path}: not a save file (its name does not end in {SUFFIX})")
        lock = SaveLock(path)
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
        self._recorded(path, gone=True)
        return path

    def image(self, ref: "str | os.PathLike") -> tuple[str, bytes]:
        path = self.resolve(ref)
        try:
            return id_of(path), read_regular(path)
        except OSError as exc:
            raise SaveFileError(plain(exc)) from None

    def _noted(self, ref: str) -> None:
        self._recorded(Path(ref))

    def _recorded(self, path: Path, gone: bool = False) -> None:
        """Tell the record's index (#24) that a save's match ended, or that it was
        deleted.  The index is derived from the saves and mends itself: its failing
        never stops a save."""
        from .record.index import note_saved

        note_saved(self.data_dir, path, gone, self.key)

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
        lock = SaveLock(save)
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
                                    f.entries or 0, f.winner, None, f.undos or 0, f.names)
                data = read_all(fd, path)
            finally:
                os.close(fd)
            decoded = decode(data, str(path))
            if decoded.header is None:
                raise SaveFileError(f"{path}: the match never started")
            decoded, match = load(data, str(path))
            assert decoded.header is not None  # load raises for a file without one
            status = "finished" if match.over else "in progress"
            return _summary(path, decoded.header, match.round, match.scores, status,
                            len(decoded.entries), match.winner,
                            "torn tail" if decoded.torn_bytes else None, decoded.undos,
                            decoded.names())
        except (SaveFileError, OSError) as exc:
            return _damaged(path, str(exc) if isinstance(exc, SaveFileError) else plain(exc))


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
            raise SaveFileError(f"{copy}: cannot keep the damaged file: {plain(exc)}") from None
        try:
            write_all(fd, data)
        except OSError as exc:
            copy.unlink(missing_ok=True)
            raise SaveFileError(f"{copy}: cannot keep the damaged file: {plain(exc)}") from None
        finally:
            os.close(fd)
        return copy.name
    raise SaveFileError(f"{path}: too many .corrupt copies beside it; remove some")


def _summary(path: Path, header: Header, rounds: int, scores: tuple[int, ...], status: str,
             actions: int, winner: int | None, problem: str | None, undos: int,
             names: tuple[str, ...] | None = None) -> Summary:
    own = id_of(path)
    return Summary(own, path, parse_time(header.created),
                   named_seats(header, (), names), rounds, scores, status, actions,
                   winner, problem, undos, parent_of(header),
                   header.match_id if header.match_id != own else None, header.rules.preset)


def _damaged(path: Path, problem: str) -> Summary:
    return Summary(id_of(path), path, None, (), 0, (), "damaged", 0, None, problem)


def quoted_ref(ref: str, width: int = 40) -> str:
    """A reference the user gave, as an error message quotes it: printable, cut short."""
    text = printable(ref)
    return repr(text if len(text) <= width else text[:width - 1] + "…")


def short_id(match_id: str) -> str:
    """The short form of a match id that lists and labels show: its random end
    (``caebc7`` for ``20261129-233001-caebc7``), which :meth:`Store.resolve` accepts;
    an id of another shape is returned whole."""
    tail = match_id.rsplit("-", 1)[-1]
    return tail if tail != match_id and _SHORT.fullmatch(tail) else match_id


def parse_time(text: str) -> datetime | None:
    """An aware time a terminal can show in any zone, or None (naive, unparsable, or
    so far out that converting it would overflow)."""
    try:
        when = datetime.fromisoformat(text)
    except (ValueError, TypeError):
        return None
    if when.tzinfo is None or when.utcoffset() is None or not 1970 <= when.year <= 9000:
        return None
    return when
