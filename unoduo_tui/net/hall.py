"""The server's table service (#22): one asyncio loop holding every table ``unoduo
serve``'s players open, behind one Unix socket, and the lobby pushed from what it holds.

``unoduo serve`` runs a :class:`Hall` in its own process and event loop (the
authorities, :mod:`.authority`, are asyncio already; their bots think in a process of
their own beside it, as a worker's do, never on the loop's interpreter).  So the server owns its tables: the listing is a
view of what the hall holds — no listing files, no pids, nothing to find again — and
when the server ends, even killed with SIGKILL, its tables end with it (each is saved
move by move: ``resume`` brings it back, in the next server).  The games the server
runs reach it at ``$UNODUO_HALL`` (:func:`.codes.hall_path`): a table's hello goes
there instead of to a socket of its own, and so do the lobby's requests.

The first message of a connection says what it is for (:data:`.messages.TO_HALL`):

- :class:`~.messages.Hello` — to a table: its whole code is looked up among the
  tables held; the service's guess limits (below) come first, then the connection is
  handed to that table's authority (:meth:`.Authority.take`), which goes on as if it
  had accepted it (its own per-table limits too);
- :class:`~.messages.Follow` — a lobby follows the open tables: it is sent a
  :class:`~.messages.LobbyPage` now and again whenever its page changes (a table
  opens, closes, or who sits at one changes; changes within :data:`PUSH_SECONDS` are
  sent once).  Nothing is sent while nothing changes: an idle lobby costs nothing.
  Pages of :data:`~.messages.PAGE_TABLES`, oldest table first, searchable by host
  name, seated names, game and code; the player's own tables (``codes``) are listed
  apart (``mine``), to rejoin.  A second ``Follow`` on the connection turns the page;
- :class:`~.messages.OpenTable` (a new or resumed hosted match, its save in the
  host's own folder — under ``root``, the server's players folder, when given),
  :class:`~.messages.QuickMatch` (a seat at a quick table a player waits at — or one
  of one's own, waiting; one quick request at a time, so two players pressing it at
  once are paired) and :class:`~.messages.CancelQuick`: one answer each
  (:class:`~.messages.Opened`, :class:`~.messages.Cancelled` or
  :class:`~.messages.Refused`), then the connection ends.

**Codes** are unique as a whole among the tables held (:func:`.codes.new_code`, three
words and a number).  A wrong code names no table, so the limits that count here are
the service's own :class:`~.guesses.Guesses`, over all its tables:
:data:`HALL_PER_HOUR` wrong codes an hour in all, the last :data:`HALL_RESERVED` kept
for guessers new to the service, and per guesser (the key the server vouched for,
:mod:`.vouch`) 3 before its lock-out — the arithmetic is in :mod:`.codes`.

**A node of a cluster** (``serve --store``, #27) shares its lobby with the other
nodes through the database (:attr:`Hall.shared`,
:class:`~unoduo_tui.storage.lobby.SharedLobby`): the tables it holds are written there
as they change, the other nodes' are listed after its own, and quick match pairs
players of any two nodes.  A table lives on the node that opened it; a hello for a
code another node holds is counted here as a right guess and **relayed** there
(:meth:`Hall._relay`): this node connects to that node's **peer door**
(:meth:`Hall.start_peer`, ``serve --peer``), answers its challenge — a fresh nonce —
with an HMAC of the nonce, the code and the guesser under the cluster's secret
(:func:`peer_mac`; every node derives it from the host key file they share), and
hands over the player's hello; the table there checks the code again, with its own
limits, for that guesser, and from then on the bytes go both ways unchanged.  The peer
door takes nothing else: a connection that does not prove the secret is refused and
logged.  The nodes talk over their private network: the relay is not encrypted (the
SSH connection of the player ends at their node).
"""

from __future__ import annotations

import asyncio
import hmac
import itertools
import os
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..text import player_name
from . import messages as msg
from .authority import AWAY_SECONDS, HELLO_SECONDS, Authority, peer_key
from .codes import TableFile, joined_path, new_code, new_token
from .frames import BadFrame, FrameReader, next_frame
from .frames import encode as encode_frame
from .guesses import Guesser, Guesses
from .messages import BadMessage, TableEntry
from .vouch import Vouches

if TYPE_CHECKING:  # pragma: no cover
    from ..storage.lobby import SharedLobby
    from ..table.thinking import Thinker

__all__ = ["Hall", "HALL_PER_HOUR", "HALL_RESERVED", "PUSH_SECONDS", "QUICK_IDLE",
           "IDLE_MINUTES", "hall_environment", "peer_mac", "NO_NODE", "NO_CLUSTER"]

#: wrong codes the service compares in any hour, over all its tables …
HALL_PER_HOUR = 1_000
#: … of which the last ones are kept for guessers new to it
HALL_RESERVED = 400
#: seconds within which a lobby's page changes are sent once
PUSH_SECONDS = 0.1
#: minutes a quick table waits with nobody connected before it ends
QUICK_IDLE = 1.0
#: minutes with nobody connected before a table ends by itself
IDLE_MINUTES = 30.0
#: seconds a quick table just opened (its host not seated yet) or just promised to a
#: player counts as waiting / is not offered again
PROMISE_SECONDS = 10.0
#: a lobby more than this many bytes behind on reading its pages is dropped
FOLLOWER_BUFFER = 1 << 20
#: new codes tried before giving up on a free one
CODE_TRIES = 50
#: what a player hears when the table's node (another of the cluster) cannot be reached
NO_NODE = "the server that holds that table does not answer: try again in a moment"
#: … and when the database that says which node holds it does not answer
NO_CLUSTER = "the server cannot look that table up right now: try again in a moment"


@dataclass(eq=False)
class _Held:
    """One table the service holds."""

    authority: Authority
    match: str
    preset: str
    quick: bool
    data_dir: Path  # the host's folder
    opened_at: float
    owner: str = ""  # who opened it: their key (else their folder), for quick match
    entry: TableEntry | None = None
    promised_until: float = 0.0
    task: asyncio.Task | None = None


@dataclass(eq=False)
class _Follower:
    writer: asyncio.StreamWriter
    follow: msg.Follow
    last: msg.LobbyPage | None = None


class _Problem(Exception):
    """A request the service cannot do: ``reason``, for the lobby."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Hall:
    """The tables of one server, and the lobbies following them (see the module doc).

    ``vouches``: the server's public half, to believe the keys it signed; ``root``:
    the folder every host's data dir must be in (None: any); ``bot_pause``: the bots'
    pause, seconds; ``thinker``: where the bots think (a
    :class:`~unoduo_tui.table.thinking.BotPool`'s: not on this loop's interpreter);
    ``clock``: monotonic seconds (tests)."""

    def __init__(self, *, vouches: Vouches | None = None, root: Path | None = None,
                 bot_pause: float = 0.6, clock: Callable[[], float] = time.monotonic,
                 log: Callable[[str], None] | None = None,
                 thinker: Thinker | None = None) -> None:
        self.thinker = thinker
        #: the database the server keeps its saves in (None: the players' folders)
        self.store: str | None = None
        self.vouches = vouches
        self.root = Path(root).resolve() if root is not None else None
        self.bot_pause = bot_pause
        self.clock = clock
        self.log = log or (lambda line: None)
        #: the tables held, by code, oldest first
        self.tables: dict[str, _Held] = {}
        self.followers: set[_Follower] = set()
        #: who may try a code now, over every table
        self.guesses = Guesses(clock, per_hour=HALL_PER_HOUR, reserved=HALL_RESERVED)
        self._server: asyncio.base_events.Server | None = None
        self._push_at: asyncio.TimerHandle | None = None
        self._quick = asyncio.Lock()
        self._closing = False
        self._connections: set[asyncio.Task] = set()
        self._count = itertools.count()
        #: a node of a cluster (#27): the lobby the nodes share (a
        #: :class:`~unoduo_tui.storage.lobby.SharedLobby`), this node's name and the
        #: secret the nodes prove themselves with to each other's peer doors
        self.shared: SharedLobby | None = None
        self.node = ""
        self._secret = b""
        self._peer_server: asyncio.base_events.Server | None = None

    # -- running -----------------------------------------------------------------------

    async def start(self, path: str) -> None:
        """Listen on the Unix socket ``path`` (0600: only the server's own games)."""
        self._server = await asyncio.start_unix_server(self._serve, path=path,
                                                       limit=1 << 16)
        os.chmod(path, 0o600)

    async def start_peer(self, host: str, port: int, secret: bytes) -> tuple[str, int]:
        """A node of a cluster: listen on ``host``:``port`` (0: any) for the other
        nodes' players joining the tables held here (:meth:`_peer`); the address got."""
        self._secret = secret
        self._peer_server = await asyncio.start_server(self._peer, host, port,
                                                       limit=1 << 16)
        got = self._peer_server.sockets[0].getsockname()
        return str(got[0]), int(got[1])

    async def close(self) -> None:
        """Every table ended (each closes its save), every lobby let go."""
        self._closing = True
        if self._server is not None:
            self._server.close()
        if self._peer_server is not None:
            self._peer_server.close()
        if self._push_at is not None:
            self._push_at.cancel()
        for follower in list(self.followers):
            follower.writer.transport.abort()
        held = list(self.tables.values())
        for h in held:
            h.authority.finished.set()
        tasks = [h.task for h in held if h.task is not None]
        if tasks:
            await asyncio.wait(tasks)
        if self._connections:
            await asyncio.wait(list(self._connections), timeout=5)
        if self.shared is not None:
            await self.shared.close()

    # -- the lobby's view ----------------------------------------------------------------

    def entries(self) -> list[TableEntry]:
        """Every table held, as a lobby lists it, oldest first; then, on a node of a
        cluster, the other nodes' (oldest first)."""
        here = [h.entry for h in self.tables.values() if h.entry is not None]
        return here if self.shared is None else here + self.shared.remote

    def page(self, follow: msg.Follow) -> msg.LobbyPage:
        return msg.LobbyPage.of(self.entries(), follow)

    def _entry(self, held: _Held) -> TableEntry:
        a = held.authority
        names = a.seat_names()
        seated = tuple(player_name(names[s]) for s in sorted(a.seating.tokens) if s in a.seating.humans)
        host = names[a.seating.humans[0]] if a.seating.humans else names[0]
        return TableEntry(a.code, held.match, player_name(host, "Someone"), held.preset,
                          a.table.seats, seated, len(a.seating.open_seats), held.quick, a.over,
                          len({c.seat for c in a.clients if c.seat is not None}))

    def _changed(self, held: _Held) -> None:
        """Who sits at ``held`` changed: its entry again, and the lobbies told."""
        if held.authority.code in self.tables:
            held.entry = self._entry(held)
            self._publish(held)
        self._push_soon()

    def _publish(self, held: _Held, gone: bool = False) -> None:
        """A node of a cluster: ``held`` as the other nodes list it (``gone``: not)."""
        if self.shared is not None:
            self.shared.put(held.authority.code, None if gone else held.entry, held.owner)

    def remote_changed(self) -> None:
        """The other nodes' tables changed (:attr:`shared` says): the lobbies told."""
        self._push_soon()

    def _push_soon(self) -> None:
        if self._push_at is None and not self._closing and self.followers:
            self._push_at = asyncio.get_running_loop().call_later(PUSH_SECONDS, self._push)

    def _push(self) -> None:
        self._push_at = None
        listed = self._listed()
        for follower in list(self.followers):
            self._send_page(follower, listed)

    def _listed(self) -> tuple[list[TableEntry], dict[str, int]]:
        """The tables a lobby may list (none over), and each one's index by code."""
        shown = [e for e in self.entries() if not e.over]
        return shown, {e.code: i for i, e in enumerate(shown)}

    def _send_page(self, follower: _Follower,
                   listed: tuple[list[TableEntry], dict[str, int]]) -> None:
        entries, position = listed
        page = msg.LobbyPage.of(entries, follower.follow, position)
        if page == follower.last:
            return
        follower.last = page
        writer = follower.writer
        if writer.transport.get_write_buffer_size() > FOLLOWER_BUFFER:
            writer.transport.abort()  # a lobby that does not read: let it go
            return
        writer.write(msg.encode(page))

    # -- connections -------------------------------------------------------------------

    def _tracked(self) -> None:
        """The connection this task serves is waited for when the service closes."""
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        task.add_done_callback(self._connections.discard)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                     ) -> None:
        self._tracked()
        frames = FrameReader()
        pending: deque[dict] = deque()
        handed = False
        try:
            got = await _first(reader, writer, frames, pending, msg.TO_HALL)
            if got is None:
                return
            first, message = got
            if isinstance(message, msg.Hello):
                pending.appendleft(first)
                handed = await self._to_table(reader, writer, message, frames, pending)
            elif isinstance(message, msg.Follow):
                await self._follow(reader, writer, message, frames, pending)
            else:
                try:
                    answer = await self._request(message)
                except _Problem as problem:
                    answer = msg.Refused(problem.reason)
                await _answer(writer, answer)
        except (BadFrame, asyncio.TimeoutError, OSError, ConnectionError):
            pass
        finally:
            if not handed:
                writer.close()

    async def _to_table(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                        hello: msg.Hello, frames: FrameReader, pending: deque) -> bool:
        """Check the code against every table (the service's limits) and hand the
        connection to its table; False: refused."""
        who = self._guesser(writer, hello)
        why = self.guesses.refusal(who)
        if why is not None:  # not compared: a locked guesser learns nothing
            await _answer(writer, msg.Refused(why))
            return False
        held = self.tables.get(hello.code)
        if held is None and self.shared is not None:
            try:
                peer = self.shared.where.get(hello.code) or await self.shared.locate(
                    hello.code)
            except Exception as exc:  # noqa: BLE001 - the database: not a wrong guess
                self.log(f"cannot look a table up in the cluster: {exc}")
                await _answer(writer, msg.Refused(NO_CLUSTER))
                return False
            if peer:
                self.guesses.right(who)
                await self._relay(peer, hello.code, who, reader, writer, frames, pending)
                return True
        if held is None or not hmac.compare_digest(hello.code.encode("utf-8", "replace"),
                                                   held.authority.code.encode()):
            self.guesses.wrong(who)
            await _answer(writer, msg.Refused(msg.NO_TABLE))
            return False
        self.guesses.right(who)
        await held.authority.take(reader, writer, frames, pending, who)
        return True

    async def _relay(self, peer: str, code: str, who: Guesser, reader: asyncio.StreamReader,
                     writer: asyncio.StreamWriter, frames: FrameReader, pending: deque
                     ) -> None:
        """Hand a player's connection to the node ``peer`` (``HOST:PORT``) that holds
        the table ``code``: its challenge answered with the cluster's secret, then the
        player's hello, then every byte both ways until either end closes."""
        host, _, port = peer.rpartition(":")
        opened: list[asyncio.StreamWriter] = []
        try:
            far_reader, far = await asyncio.wait_for(
                asyncio.open_connection(host.strip("[]"), int(port), limit=1 << 16),
                HELLO_SECONDS)
            opened.append(far)
            far_frames: FrameReader = FrameReader()
            far_pending: deque = deque()
            first = await asyncio.wait_for(next_frame(far_reader, far_frames, far_pending),
                                           HELLO_SECONDS)
            said = msg.decode(first, msg.TO_JOINING_NODE) if first is not None else None
            if not isinstance(said, msg.PeerChallenge):
                raise ConnectionError(said.reason if isinstance(said, msg.Refused)
                                      else "it hung up")
            far.write(msg.encode(msg.PeerJoin(
                self.node, code, who.id, peer_mac(self._secret, said.nonce, code, who),
                who.lasts)))
            for frame in pending:  # the player's hello, and whatever came after it
                far.write(encode_frame(frame))
            pending.clear()
            far.write(frames.rest())
            await _pipe_both(reader, writer, far_reader, far)
        except (OSError, ConnectionError, asyncio.TimeoutError, ValueError, BadFrame,
                BadMessage) as exc:
            self.log(f"cannot reach the node {peer} for table {code}: {exc}")
            await _answer(writer, msg.Refused(NO_NODE))
        finally:
            writer.close()
            for far in opened:
                far.close()

    async def _peer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                    ) -> None:
        """The peer door: another node of the cluster hands one of its players to a
        table held here (:meth:`_relay`), proving it knows the cluster's secret."""
        self._tracked()
        frames = FrameReader()
        pending: deque[dict] = deque()
        handed = False
        try:
            nonce = os.urandom(16).hex()
            writer.write(msg.encode(msg.PeerChallenge(nonce)))
            got = await _first(reader, writer, frames, pending, msg.TO_PEER)
            if got is None:
                return
            join = got[1]
            assert isinstance(join, msg.PeerJoin)
            who = Guesser(join.guesser, join.lasts)
            if self._closing or not self._secret or not hmac.compare_digest(
                    join.mac, peer_mac(self._secret, nonce, join.code, who)):
                peer = writer.get_extra_info("peername") or ("?",)
                self.log(f"{peer[0]} refused at the peer door: not a node of this cluster")
                await _answer(writer, msg.Refused("not a node of this cluster"))
                return
            held = self.tables.get(join.code)
            if held is None:
                await _answer(writer, msg.Refused(msg.NO_TABLE))
                return
            handed = True
            await held.authority.take(reader, writer, frames, pending, who)
        except (BadFrame, asyncio.TimeoutError, OSError, ConnectionError):
            pass
        finally:
            if not handed:
                writer.close()

    def _guesser(self, writer: asyncio.StreamWriter, hello: msg.Hello) -> Guesser:
        """The hello's key if the server vouched for it, else who the socket says."""
        peer = peer_key(writer)
        if self.vouches is not None and peer.id == f"uid:{os.getuid()}":
            key = self.vouches.check(hello.key, hello.proof)
            if key is not None:
                return Guesser(f"key:{key}")
        return peer

    async def _follow(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                      follow: msg.Follow, frames: FrameReader, pending: deque) -> None:
        follower = _Follower(writer, follow)
        self.followers.add(follower)
        try:
            self._send_page(follower, self._listed())
            while True:
                data = await next_frame(reader, frames, pending)
                if data is None:
                    return
                try:
                    message = msg.decode(data, msg.TO_HALL)
                except BadMessage as exc:
                    writer.write(msg.encode(msg.Refused(str(exc))))
                    continue
                if isinstance(message, msg.Follow):
                    follower.follow, follower.last = message, None
                    self._send_page(follower, self._listed())
                else:
                    writer.write(msg.encode(msg.Refused("a lobby that follows only "
                                                        "follows")))
        finally:
            self.followers.discard(follower)

    # -- requests ----------------------------------------------------------------------

    async def _request(self, message: msg.Message) -> msg.Message:
        if self._closing:
            raise _Problem("the server is stopping")
        if isinstance(message, msg.OpenTable):
            return await self.open_table(message)
        if isinstance(message, msg.QuickMatch):
            return await self.quick_match(message)
        assert isinstance(message, msg.CancelQuick)
        return await self.cancel_quick(message)

    def _folder(self, data_dir: str) -> Path:
        path = Path(data_dir).resolve()
        if self.root is not None and (path == self.root or self.root not in path.parents):
            raise _Problem("that folder is not a player's of this server")
        return path

    def _new_code(self) -> str:
        for _ in range(CODE_TRIES):
            code = new_code()
            if code not in self.tables and (self.shared is None
                                            or code not in self.shared.where):
                return code
        raise _Problem("no free table code")  # pragma: no cover - 1.8e11 codes

    async def open_table(self, request: msg.OpenTable) -> msg.Opened:
        """A new or resumed hosted match at a table of the service (see the module
        doc): where its host sits."""
        from ..storage import saves_for
        from ..store import SaveFileError
        from .serve import open_match

        if (request.plan is None) == (request.resume is None):
            raise _Problem("a table opens a new match or a saved one")
        folder = self._folder(request.data_dir)
        if request.resume is not None:
            running = self._running(folder, Path(request.resume).stem)
            if running is not None:
                return self._host_seat(running)
            elsewhere = self._held_elsewhere(folder, Path(request.resume).stem)
            if elsewhere is not None:
                return elsewhere
        away = request.away if request.away is not None else AWAY_SECONDS / 60
        if not 0 <= away <= 7 * 24 * 60:
            raise _Problem("the away time is a number of minutes from 0 to a week")
        idle = request.idle if request.idle is not None else IDLE_MINUTES
        store = saves_for(folder, request.key or None, self.store)
        try:
            table, match_id, record, kept = await asyncio.to_thread(
                open_match, store, request.plan, request.resume, self.bot_pause,
                self.thinker)
        except (SaveFileError, OSError, ValueError, KeyError, TypeError) as exc:
            raise _Problem(str(exc) or type(exc).__name__) from None
        code = kept["code"] if kept is not None else self._new_code()
        if code in self.tables:  # a kept code another table holds now: a new one
            code, kept = self._new_code(), None
        held_box: list[_Held] = []

        def presence(_: Authority) -> None:
            if held_box:
                self._changed(held_box[0])

        authority = Authority(table, code, tokens=kept["tokens"] if kept else None,
                              names=kept["names"] if kept else None,
                              on_seats=lambda tokens, names: record.save(code, tokens, names),
                              idle=idle * 60 if idle > 0 else None,
                              on_presence=presence,
                              vouches=self.vouches, away=away * 60)
        held = _Held(authority, match_id, table.preset, request.quick, folder, self.clock(),
                     request.key or str(folder))
        held_box.append(held)
        host_seat = next((s for s in authority.seating.humans), None)
        if host_seat is not None and host_seat not in authority.seating.tokens:
            authority.seating.tokens[host_seat] = new_token()  # the host's own seat
        record.save(code, authority.seating.tokens, authority.seating.names)
        await authority.start()
        self.tables[code] = held
        held.entry = self._entry(held)
        self._publish(held)
        held.task = asyncio.ensure_future(self._hold(held))
        self._push_soon()
        self.log(f"table {match_id} opened ({len(self.tables)} held)")
        return self._host_seat(held)

    def _running(self, folder: Path, match_id: str) -> _Held | None:
        return next((h for h in self.tables.values()
                     if h.match == match_id and h.data_dir == folder), None)

    def _held_elsewhere(self, folder: Path, match_id: str) -> msg.Opened | None:
        """A node of a cluster: the host's seat at their match ``match_id`` when
        another node holds it still (they connected to this node since) — the code and
        their token from the table file in their folder (shared by the nodes), the
        host's seat the first one of it; None: no other node holds it."""
        if self.shared is None:
            return None
        entry = next((e for e in self.shared.remote if e.match == match_id), None)
        kept = TableFile(folder, match_id).load() if entry is not None else None
        if entry is None or kept is None or kept["code"] != entry.code or not kept["tokens"]:
            return None
        seat = min(kept["tokens"])
        return msg.Opened(entry.code, True, match_id, seat, kept["tokens"][seat])

    def _host_seat(self, held: _Held) -> msg.Opened:
        a = held.authority
        seat = next((s for s in a.seating.humans), None)
        return msg.Opened(a.code, True, held.match, seat,
                          a.seating.tokens.get(seat) if seat is not None else None)

    async def _hold(self, held: _Held) -> None:
        """Serve ``held`` until it ends; then it is no longer listed."""
        try:
            await held.authority.finished.wait()
        finally:
            await held.authority.close()
            self.tables.pop(held.authority.code, None)
            self._publish(held, gone=True)
            self._push_soon()

    async def quick_match(self, request: msg.QuickMatch) -> msg.Opened:
        """A seat at the oldest quick table someone else waits at, else a table of
        one's own (UNO Duo, seat 2 open), waiting."""
        folder = self._folder(request.data_dir)
        async with self._quick:  # one at a time: two pressing at once are paired
            if self.shared is not None:
                shared = await self._quick_shared(request)
                if shared is not None:
                    return shared
            now = self.clock()
            for held in self.tables.values():
                entry = held.entry
                if (entry is None or not held.quick or not entry.open or entry.over
                        or held.data_dir == folder or held.promised_until > now):
                    continue
                if not entry.connected and now - held.opened_at > PROMISE_SECONDS:
                    continue  # its player has gone
                held.promised_until = now + PROMISE_SECONDS
                return msg.Opened(entry.code, False)
            return await self._open_quick(request)

    async def _quick_shared(self, request: msg.QuickMatch) -> msg.Opened | None:
        """Quick match on a node of a cluster: the cluster's queue (a waiting table
        on any node, else one opened here and listed before the next player's turn,
        :meth:`~unoduo_tui.storage.lobby.SharedLobby.quick_turn`); None: the database
        does not answer (this node pairs its own players meanwhile)."""
        assert self.shared is not None  # called on a node of a cluster only
        opened: list[msg.Opened] = []
        owner = request.key or str(self._folder(request.data_dir))
        try:
            async with self.shared.quick_turn(owner, PROMISE_SECONDS, PROMISE_SECONDS
                                              ) as turn:
                if turn.code is not None:
                    return msg.Opened(turn.code, False)
                opened.append(await self._open_quick(request))
                held = self.tables.get(opened[0].code)
                if held is not None and held.entry is not None:
                    await turn.opened(held.entry)
            return opened[0]
        except _Problem:
            raise
        except Exception as exc:  # noqa: BLE001 - the database: this node's own pairing
            self.log(f"quick match without the cluster: {exc}")
            return opened[0] if opened else None

    async def _open_quick(self, request: msg.QuickMatch) -> msg.Opened:
        """A quick table of the player's own: UNO Duo, the second seat open."""
        from engine import Rules

        from ..plan import HUMAN, MatchPlan
        from .client import plan_to_json

        plan = MatchPlan((player_name(request.name, "Player 1"), "Player 2"),
                         (HUMAN, HUMAN), Rules(preset="duo", seats=2))
        return await self.open_table(msg.OpenTable(
            request.data_dir, request.key, plan_to_json(plan), idle=QUICK_IDLE,
            quick=True))

    async def cancel_quick(self, request: msg.CancelQuick) -> msg.Cancelled:
        """Close a quick table its host still waits at alone; its save and table file
        go too (nothing was played)."""
        async with self._quick:
            held = self.tables.get(request.code)
            if held is None:
                return msg.Cancelled(True)  # gone already
            a = held.authority
            seat = next((s for s in a.seating.humans), None)
            token = a.seating.tokens.get(seat, "") if seat is not None else ""
            if not held.quick or not hmac.compare_digest(token.encode(),
                                                         request.token.encode()):
                raise _Problem("that is not your quick table")
            if not a.seating.open_seats:
                return msg.Cancelled(False)
            a.finished.set()
            if held.task is not None:
                await held.task
        await asyncio.to_thread(_forget, held, self.store)
        return msg.Cancelled(True)


def _forget(held: _Held, url: str | None) -> None:
    """The save, table file and seat token of a quick table nobody played at."""
    from ..storage import saves_for

    store = saves_for(held.data_dir, None, url)
    for gone in (lambda: store.delete(held.match),
                 lambda: TableFile(held.data_dir, held.match).path.unlink(),
                 lambda: joined_path(held.data_dir, held.authority.code).unlink()):
        try:
            gone()
        except Exception:  # noqa: BLE001 - a leftover save is harmless
            pass


async def _first(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 frames: FrameReader, pending: deque, receiver: dict[str, type[msg.Message]]
                 ) -> tuple[dict, msg.Message] | None:
    """A connection's first frame and the message it is, of those ``receiver`` takes;
    None: it closed, or it was not one (refused, told why)."""
    first = await asyncio.wait_for(next_frame(reader, frames, pending), HELLO_SECONDS)
    if first is None:
        return None
    try:
        return first, msg.decode(first, receiver)
    except BadMessage as exc:
        await _answer(writer, msg.Refused(str(exc)))
        return None


async def _answer(writer: asyncio.StreamWriter, message: msg.Message) -> None:
    writer.write(msg.encode(message))
    try:
        await asyncio.wait_for(writer.drain(), HELLO_SECONDS)
    except (OSError, asyncio.TimeoutError, ConnectionError):
        pass


async def _pipe_both(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     far_reader: asyncio.StreamReader, far: asyncio.StreamWriter) -> None:
    """Every byte from each end to the other until either end closes."""
    async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        try:
            while data := await src.read(1 << 16):
                dst.write(data)
                await dst.drain()
        except (OSError, ConnectionError):
            pass

    ways = [asyncio.ensure_future(pipe(reader, far)),
            asyncio.ensure_future(pipe(far_reader, writer))]
    try:
        await asyncio.wait(ways, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for way in ways:
            way.cancel()


def peer_mac(secret: bytes, nonce: str, code: str, who: Guesser) -> str:
    """What a node answers another's peer door's challenge ``nonce`` with, to hand it
    ``who`` for the table ``code``: an HMAC-SHA256 with the cluster's secret."""
    said = "\0".join(("unoduo peer v1", nonce, code, who.id, "1" if who.lasts else "0"))
    return hmac.new(secret, said.encode("utf-8", "replace"), "sha256").hexdigest()


def hall_environment(path: Path) -> dict[str, str]:
    """What a game of the server gets in its environment to reach its hall."""
    from .codes import HALL

    return {HALL: str(path)}

