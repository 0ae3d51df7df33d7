"""The lobby of a plain terminal: its shared folder, with the listing of open tables
and the quick-match queue; and where a lobby's tables come from (:func:`feed`).

Under ``unoduo serve`` none of this folder is used: the server's table service
(:mod:`.hall`) holds the tables, lists them pushed, and pairs quick matches —
:func:`feed`, :func:`quick_match` and :func:`cancel_quick` go there when
``$UNODUO_HALL`` says so (:func:`.codes.hall_path`).  What follows is the plain
terminal's lobby, for one Unix user's terminals (``unoduo lobby`` with no server):
each table it hosts is a process of its own (:mod:`.serve`), as ``unoduo host``'s.

Headless (no Textual): the authority process writes the listing, the lobby screen
reads it (every second: :class:`FolderFeed`).

**The lobby dir** is ``--lobby-dir``, else ``$UNODUO_LOBBY_DIR`` (the SSH server sets
it: one folder shared by every connection), else ``unoduo-lobby-<uid>`` beside the
socket dir (``/tmp/unoduo-lobby-1000``): one Unix user's terminals see each other's
tables.  It is made 0700 and used only if it is a real folder (not a symlink) owned by
this user: the listing holds join codes.

**The listing**: ``<lobby dir>/tables/<code's public part>.json``
(:func:`.codes.public_part`), one small JSON
object per open table, put in place whole (:func:`~unoduo_tui.files.replace_private`)
by the table's authority process whenever who is seated changes, and removed when the
table closes::

    {"v": 1, "code": "tide-wolf-1742", "match": ID, "host": "Ann", "preset": "classic",
     "seats": 4, "names": ["Ann", "Bob"], "open": 2, "quick": false, "over": false,
     "pid": 1234, "connected": 1}

``names`` are the players seated so far; ``open`` the human seats nobody has taken;
``connected`` how many players are at the table now (a quick table nobody waits at
is not joined; it ends after :data:`QUICK_IDLE` minutes).
Everything read from it is untrusted: a file that is not such an object (junk, too
big, a number out of range) or whose table is gone is ignored and removed; names go
through :func:`~unoduo_tui.text.player_name`.

**Whose listing**: a live ``pid`` proves nothing (a table killed with -9 leaves its
listing, and its pid is soon another process's).  The table's process holds an
exclusive ``flock`` on ``<lobby dir>/tables/<public part>.lock`` from before it writes its
listing until it removes it; a lock goes with the process that held it, so a listing
is shown only while its lock is held (and its pid runs).

**Quick match**: under ``flock`` on ``<lobby dir>/queue.lock``, :func:`quick_match`
joins a waiting quick table of someone else, else hosts one (UNO Duo, seat 2 open,
``quick``) — the listing is written before the lock is let go, so of two players who
press it at once one hosts and the other joins.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol

from engine.rules import PRESETS

from ..files import private_dir, read_regular, replace_private
from ..text import player_name
from .codes import hall_path, joined_path, parse_code, public_part, socket_dir
from .messages import MAX_FOLLOWED, Follow, LobbyPage, TableEntry

if TYPE_CHECKING:
    from ..store import Saves
    from .authority import Authority
    from .remote import RemoteTable

__all__ = ["lobby_dir", "Listed", "read_listings", "Listing", "queue_lock", "quick_match",
           "cancel_quick", "QuickSeat", "LISTING_VERSION", "pid_alive", "identity_name",
           "save_identity_name", "entries", "Feed", "FolderFeed", "feed", "followed_codes"]

LISTING_VERSION = 1
#: the largest listing file read (a real one is ~300 bytes)
MAX_LISTING = 4096
#: seconds a cancelled quick table has to end before its save is left in place
END_SECONDS = 10.0
#: seconds a table waits for its listing's lock (readers hold it for a moment)
LOCK_SECONDS = 2.0
#: minutes a quick table waits with nobody connected (its player dropped) before it
#: ends and leaves the listing
QUICK_IDLE = 1.0


def lobby_dir(explicit: str | os.PathLike | None = None) -> Path:
    """The lobby dir (see the module doc), made 0700 if missing; ``ValueError`` when
    the one there is not a folder of ours."""
    given = explicit or os.environ.get("UNODUO_LOBBY_DIR")
    path = Path(given) if given else socket_dir().parent / f"unoduo-lobby-{os.getuid()}"
    private_dir(path)
    info = os.lstat(path)
    if not os.path.isdir(path) or os.path.islink(path):
        raise ValueError(f"{path} is not a folder (a symlink?): the lobby cannot use it")
    if info.st_uid != os.getuid():
        raise ValueError(f"{path} belongs to another user: the lobby cannot trust it")
    private_dir(path / "tables")
    return path


def pid_alive(pid: int) -> bool:
    """A process ``pid`` runs (a zombie does not count)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True


def _number(n: object, low: int, high: int) -> int:
    """``n`` if it is a whole number from ``low`` to ``high``; else ``ValueError``."""
    if type(n) is not int or not low <= n <= high:
        raise ValueError("a number out of range")
    return n


@dataclass(frozen=True)
class Listed:
    """One open table as the listing describes it (cleaned and range-checked)."""

    code: str
    match: str
    host: str
    preset: str
    seats: int
    names: tuple[str, ...]
    open: int
    quick: bool
    over: bool
    pid: int
    connected: int = 0  # players at the table now

    def entry(self) -> TableEntry:
        """As a lobby lists it (:class:`~.messages.TableEntry`)."""
        return TableEntry(self.code, self.match, self.host, self.preset, self.seats,
                          self.names, self.open, self.quick, self.over, self.connected)

    @classmethod
    def parse(cls, raw: object, word: str) -> "Listed":
        """``raw`` (a listing's JSON) checked; ``ValueError`` when it is not one."""
        if not isinstance(raw, dict) or raw.get("v") != LISTING_VERSION:
            raise ValueError("not a listing")
        code = parse_code(raw.get("code"))
        if public_part(code) != word:
            raise ValueError("a listing under another table's name")
        preset = raw.get("preset")
        if preset not in PRESETS:
            raise ValueError("an unknown preset")
        seats, free = _number(raw.get("seats"), 2, 10), _number(raw.get("open"), 0, 10)
        pid, connected = _number(raw.get("pid"), 1, 1 << 31), _number(raw.get("connected", 0), 0, 10)
        names = raw.get("names")
        if not isinstance(names, list) or len(names) > seats or free > seats:
            raise ValueError("seats that do not add up")
        match = str(raw.get("match", ""))
        return cls(code, "".join(c for c in match if c.isalnum() or c in "-_")[:64],
                   player_name(str(raw.get("host", "")), "Someone"), str(preset), seats,
                   tuple(player_name(str(n)) for n in names), free,
                   raw.get("quick") is True, raw.get("over") is True, pid, connected)


def read_listings(folder: Path) -> list[Listed]:
    """Every open table listed in ``folder`` (a lobby dir), oldest first; stale or
    broken listings are removed."""
    tables = Path(folder) / "tables"
    found: list[tuple[float, Listed]] = []
    try:
        entries = list(os.scandir(tables))
    except OSError:
        return []
    for entry in entries:
        if not entry.name.endswith(".json") or entry.name.startswith("."):
            continue
        path = Path(entry.path)
        try:
            mtime = entry.stat(follow_symlinks=False).st_mtime
            word = entry.name[:-5]
            listed = Listed.parse(json.loads(read_regular(path, MAX_LISTING)), word)
            if not _held(tables / f"{word}.lock") or not pid_alive(listed.pid):
                raise ValueError("its table has gone")
        except FileNotFoundError:
            continue  # removed as we looked
        except (OSError, ValueError):
            try:
                path.unlink()
            except OSError:
                pass
            continue
        found.append((mtime, listed))
    found.sort(key=lambda pair: (pair[0], pair[1].code))
    return [listed for _, listed in found]


def _held(path: Path) -> bool:
    """A live process holds ``path``'s lock (a listing's: see the module doc)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # and with it the shared lock, if we got it
    return False


class Listing:
    """The authority's side: its table's listing file, rewritten on every presence
    change (``Authority(on_presence=listing.update)``) and removed at the end; while
    it exists, this process holds its lock (see the module doc)."""

    def __init__(self, folder: str | os.PathLike, code: str, match: str, preset: str,
                 quick: bool = False) -> None:
        self.folder = lobby_dir(folder)
        self.code, self.match, self.preset, self.quick = code, match, preset, quick
        word = public_part(code)
        self.path = self.folder / "tables" / f"{word}.json"
        self.lock = self.folder / "tables" / f"{word}.lock"
        self._fd = os.open(self.lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                           0o600)
        deadline = time.monotonic() + LOCK_SECONDS
        while True:  # a reader holds it for a moment; another table never (its socket)
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(self._fd)
                    raise ValueError(f"{self.lock} is held by another table") from None
                time.sleep(0.01)

    def update(self, authority: Authority) -> None:
        names = authority.seat_names()
        seated = [names[s] for s in sorted(authority.seating.tokens) if s in authority.seating.humans]
        host = names[authority.seating.humans[0]] if authority.seating.humans else names[0]
        data = {"v": LISTING_VERSION, "code": self.code, "match": self.match,
                "host": host, "preset": self.preset,
                "seats": authority.table.seats, "names": seated,
                "open": len(authority.seating.open_seats), "quick": self.quick,
                "over": authority.over, "pid": os.getpid(),
                "connected": len({c.seat for c in authority.clients if c.seat is not None})}
        self.put(data)

    def put(self, data: dict[str, object]) -> None:
        """Write ``data`` as the listing, whole (the lock is this process's)."""
        replace_private(self.path, json.dumps(data).encode())

    def remove(self) -> None:
        """The listing and its lock gone (the lock file only if it is still ours)."""
        for path in (self.path, self.lock):
            try:
                if path == self.path or os.lstat(path).st_ino == os.fstat(self._fd).st_ino:
                    path.unlink()
            except OSError:
                pass
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


class queue_lock:
    """``with queue_lock(folder):`` — the lobby's one lock (``flock``, blocking)."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / "queue.lock"
        self.fd = -1

    def __enter__(self) -> "queue_lock":
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                          0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


@dataclass
class QuickSeat:
    """Where quick match put a player: at ``table`` (a RemoteTable); ``hosting``: at
    a table of their own, waiting for a second player (``pid``: its authority)."""

    table: RemoteTable
    hosting: bool
    code: str
    match: str | None = None
    pid: int | None = None


def mine(data_dir: Path) -> set[str]:
    """The codes of the tables this player hosts (their table files)."""
    codes = set()
    for path in (Path(data_dir) / "tables").glob("*.json"):
        try:
            codes.add(parse_code(json.loads(read_regular(path, 1 << 16))["code"]))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return codes


def quick_match(store: Saves, folder: Path, name: str, **start: Any) -> QuickSeat:
    """Join the oldest waiting quick table of someone else, else host one (see the
    module doc).  Raises what :func:`.client.connect` and
    :func:`.client.start_authority` raise."""
    from engine import Rules

    from ..plan import HUMAN, MatchPlan
    from ..table import Refused
    from . import client
    from .client import plan_to_json

    if hall_path() is not None:  # under unoduo serve: the server pairs (:mod:`.hall`)
        from . import hall_link

        info = hall_link.quick_match(store.data_dir, name, store.key)
        if info["hosting"]:
            return QuickSeat(client.sit_host(store, info, name), True, info["code"],
                             info["match"])
        return QuickSeat(client.connect(store, info["code"], want="play", name=name),
                         False, info["code"])
    own = mine(store.data_dir)
    with queue_lock(folder):
        for listed in read_listings(folder):
            if (not listed.quick or not listed.open or listed.over or not listed.connected
                    or listed.code in own):
                continue  # not waiting, or its player has gone
            try:
                table = client.connect(store, listed.code, want="play", name=name)
            except (Refused, ConnectionError, OSError):
                continue  # taken or gone since it was listed: the next one
            return QuickSeat(table, False, listed.code)
        plan = MatchPlan((player_name(name, "Player 1"), "Player 2"), (HUMAN, HUMAN),
                         Rules(preset="duo", seats=2))
        start.setdefault("idle", QUICK_IDLE)
        info = client.start_authority(store.data_dir, "--plan", plan_to_json(plan),
                                        listing=str(folder), quick=True,
                                      key=store.key, **start)
        table = client.sit_host(store, info, name)
        return QuickSeat(table, True, info["code"], info["match"], info.get("pid"))


def cancel_quick(store: Saves, folder: Path, seat: QuickSeat) -> bool:
    """Close the quick table ``seat`` hosts, unless a second player has sat down (then
    False: play on).  Its save and table file go too: nothing was played."""
    if hall_path() is not None:  # the server's table: it closes it (:mod:`.hall`)
        from . import hall_link
        from ..table import Refused

        try:
            closed = hall_link.cancel_quick(seat.code, seat.table.token or "")
        except (Refused, ConnectionError):
            closed = True  # gone already, or not ours any more: nothing to wait at
        if closed:
            seat.table.close()
        return closed
    with queue_lock(folder):
        listed = next((t for t in read_listings(folder) if t.code == seat.code), None)
        if listed is not None and not listed.open:
            return False
        seat.table.close()
        if seat.pid:
            try:
                os.kill(seat.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            deadline = time.monotonic() + END_SECONDS
            while pid_alive(seat.pid) and time.monotonic() < deadline:
                time.sleep(0.02)
        path = folder / "tables" / f"{public_part(seat.code)}.json"
        path.unlink(missing_ok=True)
    if seat.match:
        data = Path(store.data_dir)
        for gone in (lambda: store.delete(seat.match),
                     lambda: (data / "tables" / f"{seat.match}.json").unlink(),
                     lambda: joined_path(data, seat.code).unlink()):
            try:
                gone()
            except Exception:  # noqa: BLE001 - a leftover save is harmless
                pass
    return True


def forget_if_gone(folder: Path, code: str) -> bool:
    """Remove ``code``'s listing when nothing listens on its socket (its table ended
    without removing it, and its pid was reused); True if removed."""
    import socket as sockets

    from .codes import socket_path

    probe = sockets.socket(sockets.AF_UNIX, sockets.SOCK_STREAM)
    try:
        probe.connect(str(socket_path(code)))
        return False
    except OSError:
        (Path(folder) / "tables" / f"{public_part(code)}.json").unlink(missing_ok=True)
        return True
    except ValueError:  # no usable socket dir: leave the listing alone
        return False
    finally:
        probe.close()


def iter_joined(data_dir: Path) -> Iterator[tuple[float, str]]:
    """(when, code) of each table this player holds a seat token for."""
    for path in (Path(data_dir) / "joined").glob("*.json"):
        try:
            raw = json.loads(read_regular(path, 1 << 12))
            yield path.stat().st_mtime, parse_code(raw["code"])
        except (OSError, ValueError, KeyError, TypeError):
            continue


def identity_name(data_dir: Path) -> str | None:
    """The name in ``<data dir>/identity.json`` (cleaned), if any."""
    try:
        raw = json.loads(read_regular(Path(data_dir) / "identity.json", 1 << 12))
        name = raw.get("name") if isinstance(raw, dict) else None
    except (OSError, ValueError):
        return None
    return player_name(name, "") or None if isinstance(name, str) else None


def save_identity_name(data_dir: Path, name: str) -> None:
    """Rename: ``name`` into ``<data dir>/identity.json``, its other fields kept."""
    path = Path(data_dir) / "identity.json"
    try:
        raw = json.loads(read_regular(path, 1 << 12))
    except (OSError, ValueError):
        raw = {}
    raw = raw if isinstance(raw, dict) else {}
    raw["name"] = name
    private_dir(Path(data_dir))
    replace_private(path, json.dumps(raw).encode())


def entries(folder: Path) -> list[TableEntry]:
    """The open tables ``folder``'s listing shows, oldest first."""
    return [listed.entry() for listed in read_listings(folder)]


def followed_codes(data_dir: Path) -> tuple[str, ...]:
    """The codes a lobby follows as its player's own: the tables they host and the
    ones they joined, the last joined first (at most :data:`MAX_FOLLOWED`)."""
    joined = [code for _, code in sorted(iter_joined(data_dir), reverse=True)]
    return tuple(dict.fromkeys([*mine(data_dir), *joined]))[:MAX_FOLLOWED]


class Feed(Protocol):
    """Where a lobby's tables come from (:func:`feed`): ``pushed`` (the server's table
    service sends each change) or polled (:meth:`poll`, the lobby dir's listing)."""

    pushed: bool

    def follow(self, follow: Follow) -> None: ...
    def poll(self) -> None: ...
    def close(self) -> None: ...


class FolderFeed:
    """A lobby's tables from a lobby dir's listing (a plain terminal's lobby: one Unix
    user's): read again by :meth:`poll`, which the lobby calls every second —
    nothing pushes here (``pushed`` False)."""

    pushed = False

    def __init__(self, folder: Path, follow: Follow,
                 on_page: Callable[[LobbyPage], None]) -> None:
        self.folder, self._follow, self.on_page = Path(folder), follow, on_page

    def follow(self, follow: Follow) -> None:
        self._follow = follow
        self.poll()

    def poll(self) -> None:
        self.on_page(LobbyPage.of(entries(self.folder), self._follow))

    def close(self) -> None:
        pass


def feed(folder: Path, follow: Follow, on_page: Callable[[LobbyPage], None],
         on_lost: Callable[[], None]) -> Feed:
    """Where a lobby's tables come from: pushed by the server's table service under
    ``unoduo serve`` (:class:`.hall_link.Following`, ``pushed``), else the lobby dir's
    listing (:class:`FolderFeed`)."""
    if hall_path() is None:
        return FolderFeed(folder, follow, on_page)
    from .hall_link import Following

    return Following(follow, on_page, on_lost)
