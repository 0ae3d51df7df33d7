"""The authority: one process per hosted table, owning its :class:`LocalTable` (the
match, the save file with its lock, the bots) and serving clients over a socket.

Every message is a frame of :mod:`.frames` (``{"v": PROTOCOL, "t": type, ...}``) holding
one of the messages :mod:`.messages` declares (a frozen dataclass each, one encoder,
one decoder); what they mean:

Client → authority:

- ``hello {code, name?, want: "play"|"watch", tokens?, new?, delay?, key?, proof?}`` —
  the first message, within :data:`HELLO_SECONDS`; ``key`` and ``proof``: the SSH key the
  game plays as and the server's signature for it (:func:`.vouch.claim`).  ``tokens``: the seat tokens ``welcome`` gave
  this player before (at most :data:`MAX_TOKENS`, the one to prefer first), to take a
  seat back; ``new`` (default true): a seat nobody has taken yet may be given instead;
  ``delay``: a watcher sees the table this many decisions late (≤ :data:`MAX_DELAY`).
  A player is seated at the first of its tokens' seats with no connection; else at one
  whose connection does not answer a ``ping`` within :data:`PING_SECONDS` (a dropped
  link the authority has not noticed: that connection gets ``bye``); else, with
  ``new``, at the first seat nobody has taken.  A seat whose connection answers is
  never taken from it: two terminals of one account (one data dir, the same tokens)
  each get a seat of their own.
- ``pong {}`` — the answer to ``ping``.
- ``act {text}`` — the client's seat makes a decision (``"play R5 uno"``).
- ``hold {on}`` — a player asks the bots to wait (a round's end on its screen) or
  lets them go on; they go on once no connected player holds them (any human seat
  holds, not only the host's: nobody's round-over is cut short); ignored until every
  human seat has been taken.
- ``chat {text}`` — one line, ≤ :data:`CHAT_CHARS` printable characters, at most
  :data:`CHAT_BURST` lines per :data:`CHAT_WINDOW` seconds.
- ``stand_in {seat, level}`` — a seated player hands ``seat`` to a bot of ``level``:
  only a seat whose player has been away ``away`` seconds (the table's option,
  :data:`AWAY_SECONDS` by default; each update's ``may_stand_in`` lists them).  The bot
  plays it until its player is back (their hello ends it); the save file records who
  played each decision.

Authority → client:

- ``welcome {seat, token, names, kinds, seats, practice: false}`` (``seat`` None and
  no token for a watcher), then ``presence`` and ``update``;
- ``update {u, from}``: a :meth:`TableUpdate.to_dict` holding only this client's
  seat's view (a watcher: no view, and ``public``: :meth:`Match.public_view`, ``delay``
  decisions late).  A view's ``events`` list only the events after the first
  ``from`` (the client has those already): bytes per update do not grow with the log.
- ``presence {connected: [seat…], watchers, names}``; ``chat {seat, name, text}``;
  ``refused {reason}`` (the match is unchanged); ``ping {}`` (answer ``pong``); ``bye
  {reason}``: the authority ends this connection (its seat was taken over by another
  connection).

A malformed or oversized frame, another protocol version, a first message that is
not a hello, or a client that does not read its updates (:data:`QUEUE_FRAMES` frames
waiting) drops that client only.  A wrong code is refused; who may try a code, and
how often, is :class:`~.guesses.Guesses`'s to say: per guesser (the SSH key the
server vouched for in the hello's ``key`` and ``proof``, :mod:`.vouch`; else the
socket peer's Unix user; over TCP, the connection) and per table — nobody's wrong
codes lock out another guesser with the right one (the arithmetic: :mod:`.codes`).

An update goes out only once its decision is in the save file, so a killed authority
loses at most the decision in flight (``unoduo host --resume`` / ``unoduo resume``
brings the table back with the same code and seat tokens) and never one a client was
shown.  While a save fails (a full disk) every client, watchers too, gets an update
whose ``save_error`` says the table waits; it goes on by itself once a save succeeds.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections import deque
from dataclasses import replace
from typing import Callable

from engine import PlayerView

from ..table import HostedTable, Refused, TableUpdate
from ..text import player_name, printable
from .codes import MAX_DELAY
from . import messages as msg
from .door import Door, peer_key
from .frames import BadFrame, FrameReader, next_frame
from .guesses import Guesser
from .messages import ACT_CHARS, MAX_TOKENS, BadMessage
from .seating import Seating
from .vouch import Vouches

__all__ = ["Authority", "peer_key", "HELLO_SECONDS", "MAX_DELAY", "CHAT_CHARS", "QUEUE_FRAMES", "MAX_TOKENS",
           "PING_SECONDS", "AWAY_SECONDS", "ACT_CHARS"]

HELLO_SECONDS = 10.0
CHAT_CHARS = 200
CHAT_BURST, CHAT_WINDOW = 5, 10.0
QUEUE_FRAMES = 256
SEND_SECONDS = 20.0
#: seconds a seat's player is away before the others may hand it to a bot
AWAY_SECONDS = 180.0
#: seconds a seated connection has to answer a ping
PING_SECONDS = 5.0


class _Client:
    __slots__ = ("seat", "name", "delay", "queue", "writer", "sent", "chats", "closed",
                 "key", "public_at", "save_error", "pong")

    def __init__(self, writer: asyncio.StreamWriter, key: Guesser) -> None:
        self.writer = writer
        self.key = key  # who is guessing, until a hello's vouched key says better
        self.seat: int | None = None
        self.name = ""
        self.delay = 0
        self.queue: asyncio.Queue = asyncio.Queue(QUEUE_FRAMES)
        self.sent = 0  # events of its view it has already
        self.chats: deque[float] = deque()
        self.closed = False
        self.public_at = -1  # seq of the last public view sent (a watcher)
        self.save_error: str | None = None  # the table's save error it was told last
        self.pong: asyncio.Event | None = None  # set when it answers the ping sent


class Authority:
    """Serves one table (see the module doc): a :class:`~unoduo_tui.table.HostedTable`
    (a :class:`~unoduo_tui.table.local.LocalTable`), used through that interface only.
    Who holds which seat is its :class:`~.seating.Seating`'s (``seating``), who may try
    the code its :class:`~.door.Door`'s (``door``); the authority itself runs the
    connections and tells each client what it may see.

    ``tokens`` / ``names``: seats already given out (a restarted table); ``on_seats``:
    called with (tokens, names) whenever a seat is given out (the table file);
    ``clock``: monotonic seconds (tests); ``idle``: seconds with no client connected
    after which the table ends by itself (``finished``, ``idled_out``; None: never) —
    its match is on file, ``unoduo resume ID`` brings it back; ``on_presence``: called
    with the authority whenever who is connected or seated changes (the lobby's
    listing, :mod:`.lobby`); ``vouches``: the SSH server's public half, to believe the
    keys it signed (:mod:`.vouch`; None: no hello's key is believed); ``away``: seconds a
    seat's player is away before the others may hand it to a bot (None: never)."""

    def __init__(self, table: HostedTable, code: str, *, tokens: dict[int, str] | None = None,
                 names: dict[int, str] | None = None,
                 on_seats: Callable[[dict, dict], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 idle: float | None = None,
                 on_presence: Callable[["Authority"], None] | None = None,
                 vouches: Vouches | None = None,
                 away: float | None = AWAY_SECONDS) -> None:
        self.table = table
        self.code = code
        self.seating = Seating((s for s in range(table.seats) if not table.is_bot(s)),
                               tokens, names)
        self.on_seats = on_seats
        #: called (on the loop, before the clients are told) when who is seated changes
        self.on_presence = on_presence
        self.clock = clock
        self.clients: set[_Client] = set()
        self.door = Door(code, clock, vouches)
        self.finished = asyncio.Event()
        self.idle = idle
        self.idled_out = False
        self._idle_timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._servers: list[asyncio.base_events.Server] = []
        self._last: TableUpdate | None = None
        self._tasks: dict[asyncio.Task, _Client] = {}  # each connection
        self._public: deque[tuple[int, PlayerView]] = deque(maxlen=MAX_DELAY + 1)
        self._seating = asyncio.Lock()  # one player seated at a time (pings take a while)
        self._arriving: set[_Client] = set()  # seated, not yet welcomed: told nothing yet
        self.away = away

    # -- running -----------------------------------------------------------------------

    async def start(self, unix_path: str | None = None, tcp: tuple[str, int] | None = None
                    ) -> None:
        """Subscribe to the table and listen (``tcp`` port 0: any free port)."""
        self._loop = asyncio.get_running_loop()
        self.table.hold(not self._all_seated())  # the bots wait for every player
        self._last = self.table.subscribe(self._on_update)  # held: nothing moves yet
        self._public.append((self._last.seq, self._public_view()))
        self._arm_idle()  # nobody has come yet
        for seat in self.seating.tokens:  # a restarted table: its players are away until back
            self._went_away(seat)
        if unix_path is not None:
            server = await asyncio.start_unix_server(self._serve, path=unix_path,
                                                     limit=1 << 16)
            os.chmod(unix_path, 0o666)  # anyone may connect; only the code lets them in
            self._servers.append(server)
        if tcp is not None:
            self._servers.append(await asyncio.start_server(self._serve, tcp[0], tcp[1],
                                                            limit=1 << 16))

    @property
    def tcp_port(self) -> int | None:
        for server in self._servers:
            for sock in server.sockets:
                if sock.family in (socket.AF_INET, socket.AF_INET6):
                    return sock.getsockname()[1]
        return None

    async def close(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        for server in self._servers:
            server.close()
        for client in list(self.clients):
            self._drop(client)
        for client in list(self._tasks.values()):
            client.writer.transport.abort()  # its reader sees the end
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=SEND_SECONDS)
        self.table.unsubscribe(self._on_update)
        await asyncio.to_thread(self.table.close)  # its save closed off the loop: a server
        # holding many tables closes them side by side (2–3 ms each here, in close(2))
        self.finished.set()

    def _hold_or_release(self) -> None:
        """The bots wait while a connected player holds them."""
        seated = {c.seat for c in self.clients if c.seat is not None}
        self.table.hold(bool(self.seating.holding & seated))

    def _arm_idle(self) -> None:
        """Nobody connected: the table ends after ``idle`` seconds unless one comes."""
        if self.idle is None or self.clients or self._loop is None or self.finished.is_set():
            return
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        self._idle_timer = self._loop.call_later(self.idle, self.idle_out)

    def idle_out(self) -> None:
        """The idle time is up (its timer calls this): the table ends unless a client
        is connected."""
        self._idle_timer = None
        if not self.clients:
            self.idled_out = True
            self.finished.set()

    def _all_seated(self) -> bool:
        """Every human seat's player has come (since this authority started), or a bot
        plays for them."""
        return self.seating.all_seated(self.table.stand_ins)

    # -- away seats ----------------------------------------------------------------------

    def _went_away(self, seat: int) -> None:
        """Nobody is connected to ``seat`` now: once it has been so for ``away``
        seconds, every player is told it may be handed to a bot."""
        if self.away is None or self._loop is None:
            return
        if self.seating.went_away(seat, self.clock()):
            self._loop.call_later(self.away, self.resend)

    def may_stand_in(self) -> tuple[int, ...]:
        """The seats a player may hand to a bot now: away ``away`` seconds or more, no
        bot playing for them yet, the match not over."""
        if self.away is None or self.over:
            return ()
        return tuple(s for s in self.seating.away_for(self.clock(), self.away)
                     if s not in self.table.stand_ins and not self._live(s))

    def resend(self) -> None:
        """The last update again to every player (what they may do has changed)."""
        for client in list(self.clients):
            if client.seat is not None:
                self._send_update(client)

    async def _stand_in(self, client: _Client, seat: object, level: object) -> None:
        from ..plan import bot_levels

        if client.seat is None:
            self._refuse(client, "a watcher cannot hand a seat to a bot")
        elif seat not in self.may_stand_in():
            self._refuse(client, "that seat's player is not away long enough to hand it "
                         "to a bot")
        elif level not in bot_levels():
            self._refuse(client, f"a bot level is one of {', '.join(bot_levels())}")
        else:
            try:
                await asyncio.to_thread(self.table.stand_in, seat, f"bot:{level}")
            except Refused as exc:
                self._refuse(client, exc.reason)
                return
            if self._all_seated():
                self._hold_or_release()

    # -- updates from the table (any thread, under the table's lock) -------------------

    def _on_update(self, update: TableUpdate) -> None:
        # a watcher's view changes with a decision only (``delay`` counts decisions);
        # while a save fails the match holds a decision nobody may see yet
        public = None if update.cause in ("thinking", "save") else self._public_view()
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._broadcast, update, public)

    def _public_view(self) -> PlayerView:
        """The match's public view (a watcher's)."""
        return self.table.public_view()

    def _broadcast(self, update: TableUpdate, public: PlayerView | None) -> None:
        # The table tells its listeners as it writes a decision and makes it durable
        # after: waiting for that here, no client is told of a decision that is not on
        # disk yet (a killed authority loses at most the decision in flight).
        self.table.wait_saved()
        self._last = update
        if public is not None:
            self._public.append((update.seq, public))
        for client in list(self.clients):
            self._send_update(client)
        if update.over and not any(c.seat is not None for c in self.clients):
            self.finished.set()

    def _send_update(self, client: _Client) -> None:
        update = self._last
        assert update is not None
        if client.seat is None:
            seq, public = self._public[max(0, len(self._public) - 1 - client.delay)]
            if seq <= client.public_at and update.save_error == client.save_error:
                return
            client.public_at, client.save_error = seq, update.save_error
            data = replace(update, seq=seq, views={}, to_act=public.to_act, over=public.over,
                           thinking=None, can_undo=False, can_redo=False, undos=0,
                           refused=None).to_dict()
            start = min(client.sent, public.event_count)
            plain = public.to_dict(since=start)
            client.sent = public.event_count
            self._put(client, msg.Update(data, start, plain))
            return
        view = update.views.get(client.seat)
        if view is None:
            return
        data = replace(update, views={}, can_undo=False, can_redo=False, undos=0,
                       may_stand_in=self.may_stand_in()).to_dict()
        start = min(client.sent, view.event_count)
        raw = view.to_dict(since=start)
        client.sent = view.event_count
        data["views"] = [[client.seat, raw]]
        self._put(client, msg.Update(data, start))

    def _presence(self) -> None:
        if self.on_presence is not None:
            try:
                self.on_presence(self)  # the lobby's listing, before any client hears
            except Exception:  # a listing that cannot be written must not end the table
                pass
        message = msg.Presence(
            tuple(sorted({c.seat for c in self.clients if c.seat is not None})),
            sum(1 for c in self.clients if c.seat is None), tuple(self._names()))
        for client in list(self.clients):
            self._put(client, message)

    @property
    def last(self) -> TableUpdate | None:
        """The last update the table told (``None`` before :meth:`start`)."""
        return self._last

    def public_history(self) -> list[tuple[int, PlayerView]]:
        """The public views a delayed watcher may be shown: (update seq, view), oldest
        first, at most :data:`MAX_DELAY` + 1."""
        return list(self._public)

    @property
    def over(self) -> bool:
        return self._last is not None and self._last.over

    def seat_names(self) -> list[str]:
        """Each seat's name as the table shows it now."""
        return self._names()

    def _names(self) -> list[str]:
        return self.seating.names_now(self.table.names)

    # -- sending -----------------------------------------------------------------------

    def _put(self, client: _Client, message: msg.Message) -> None:
        if client.closed:
            return
        try:
            client.queue.put_nowait(msg.encode(message))
        except asyncio.QueueFull:  # a client that does not read: drop it, not the table
            self._drop(client)

    async def _writer(self, client: _Client) -> None:
        try:
            while True:
                frame = await client.queue.get()
                if frame is None:
                    break
                client.writer.write(frame)
                if client.writer.transport.get_write_buffer_size():
                    # only a client behind on reading is waited for: a wait_for per
                    # frame was ~8% of a loaded authority's time (tests.bench.net, cProfile)
                    await asyncio.wait_for(client.writer.drain(), SEND_SECONDS)
        except (OSError, asyncio.TimeoutError, ConnectionError):
            pass
        finally:
            self._drop(client)
            try:
                client.writer.close()
            except Exception:  # the transport may be gone already
                pass

    def _drop(self, client: _Client) -> None:
        if client.closed:
            return
        client.closed = True
        was_member = client in self.clients
        self.clients.discard(client)
        try:
            client.queue.put_nowait(None)
        except asyncio.QueueFull:
            client.writer.transport.abort()
        if was_member:
            if client.seat is not None and not self._live(client.seat):
                self._went_away(client.seat)
            self._presence()
            self._arm_idle()
            if client.seat in self.seating.holding and not any(
                    c.seat == client.seat for c in self.clients):
                self.seating.holding.discard(client.seat)  # a dropped player holds nobody up
                self._hold_or_release()
            if self._last is not None and self._last.over and not any(
                    c.seat is not None for c in self.clients):
                self.finished.set()

    # -- one connection ----------------------------------------------------------------

    async def take(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                   frames: FrameReader, pending: deque, key: Guesser | None = None) -> None:
        """Serve a connection someone else accepted and began to read (the server's
        table service, :mod:`.hall`): ``pending`` holds its hello first; ``key``: who
        the service found is talking."""
        await self._serve(reader, writer, frames, pending, key)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     frames: FrameReader | None = None, pending: deque | None = None,
                     key: Guesser | None = None) -> None:
        task = asyncio.current_task()
        assert task is not None
        client = _Client(writer, key or peer_key(writer))
        self._tasks[task] = client
        task.add_done_callback(lambda t: self._tasks.pop(t, None))
        sender = asyncio.ensure_future(self._writer(client))
        frames = frames or FrameReader()
        pending = pending if pending is not None else deque()
        try:
            first = await asyncio.wait_for(next_frame(reader, frames, pending), HELLO_SECONDS)
            if first is None or first.get("t") != "hello":
                return
            try:
                hello = msg.decode(first, msg.TO_AUTHORITY)
            except BadMessage as exc:
                self._refuse(client, str(exc))
                return
            assert isinstance(hello, msg.Hello)
            if not await self._welcome(client, hello):
                return
            while not client.closed:
                data = await next_frame(reader, frames, pending)
                if data is None:
                    return
                try:
                    message = msg.decode(data, msg.TO_AUTHORITY)
                except BadMessage as exc:
                    self._refuse(client, str(exc))
                    continue
                await self._handle(client, message)
        except (BadFrame, asyncio.TimeoutError, OSError, ConnectionError):
            return
        finally:
            self._drop(client)  # the writer sends what is queued (a refusal) first
            try:
                await asyncio.wait([sender], timeout=SEND_SECONDS)
            finally:
                sender.cancel()

    def _refuse(self, client: _Client, reason: str) -> None:
        self._put(client, msg.Refused(reason))

    async def _welcome(self, client: _Client, hello: msg.Hello) -> bool:
        """Check the code and give a seat; False: refused (the connection ends)."""
        why = self.door.refusal(client.key, hello)
        if why is not None:
            self._refuse(client, why)
            return False
        if hello.want == "watch":
            client.delay = hello.delay
            self._put(client, self._welcome_of(None, None))
        else:
            try:
                if not await self._sit(client, hello):
                    return False
            finally:
                self._arriving.discard(client)
        self.clients.add(client)
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        self._presence()
        self._send_update(client)
        if self._all_seated():
            self.table.hold(False)
        return True

    def _welcome_of(self, seat: int | None, token: str | None) -> msg.Welcome:
        t = self.table
        return msg.Welcome(seat, token, tuple(self._names()), tuple(t.kinds), t.seats)

    async def _sit(self, client: _Client, hello: msg.Hello) -> bool:
        """Seat a player (the module doc says which seat) and welcome it; False:
        refused, told why."""
        offered, new = list(hello.offered), hello.new
        async with self._seating:
            held = self.seating.held(offered)
            seat = next((s for s in held if not self._live(s)), None)
            if seat is None and held:
                seat = await self._unanswered(held)
            if seat is None and new:
                seat = self.seating.give_new()
            if seat is None or client.closed:
                self._refuse(client, "your seat is in use by another connection (in another "
                             "terminal?)" + ("; every other seat is taken" if new else "")
                             if held else "every seat is taken (you can watch)")
                return False
            for other in [c for c in self.clients if c.seat == seat]:
                self.bye(other, "your seat was taken over by another connection")
            client.seat = seat
            self._arriving.add(client)  # its seat is live for the next hello
        self.seating.came_back(seat)
        if seat in self.table.stand_ins:  # back: the bot that played for them stops
            await asyncio.to_thread(self.table.stand_in, seat, None)
        seating = self.seating
        if hello.name.strip():
            seating.names[seat] = player_name(hello.name)
            # kept with the match (its save file), not only with this table
            await asyncio.to_thread(self.table.name_seat, seat, seating.names[seat])
        if self.on_seats is not None:
            self.on_seats(dict(seating.tokens), dict(seating.names))
        self._put(client, self._welcome_of(seat, seating.tokens[seat]))
        return True

    def _live(self, seat: int) -> bool:
        return any(c.seat == seat for c in (*self.clients, *self._arriving))

    async def _unanswered(self, seats: list[int]) -> int | None:
        """The first of ``seats`` whose connections do not all answer a ping within
        :data:`PING_SECONDS` (None: every one answered)."""
        waits: dict[int, list[asyncio.Event]] = {}
        for c in list(self.clients):
            if c.seat in seats:
                c.pong = asyncio.Event()
                waits.setdefault(c.seat, []).append(c.pong)
                self._put(c, msg.Ping())
        tasks = [asyncio.ensure_future(e.wait()) for events in waits.values() for e in events]
        if tasks:
            await asyncio.wait(tasks, timeout=PING_SECONDS)
            for task in tasks:
                task.cancel()
        for seat in seats:
            if not self._live(seat) or not all(e.is_set() for e in waits.get(seat, ())):
                return seat
        return None

    def bye(self, client: _Client, reason: str) -> None:
        """End ``client``'s connection, telling it why."""
        self._put(client, msg.Bye(reason))
        self._drop(client)

    async def _handle(self, client: _Client, message: msg.Message) -> None:
        if isinstance(message, msg.Act):
            if client.seat is None:
                self._refuse(client, "a watcher cannot play")
            else:
                try:
                    await asyncio.to_thread(self.table.act, client.seat, message.text)
                except Refused as exc:
                    self._refuse(client, exc.reason)
        elif isinstance(message, msg.Hold):
            if client.seat is None:
                self._refuse(client, "only a player can hold the bots")
            elif self._all_seated():
                holding = self.seating.holding
                (holding.add if message.on else holding.discard)(client.seat)
                self._hold_or_release()
        elif isinstance(message, msg.Chat):
            self._chat(client, message.text)
        elif isinstance(message, msg.StandIn):
            await self._stand_in(client, message.seat, message.level)
        elif isinstance(message, msg.Pong):
            if client.pong is not None:
                client.pong.set()
        else:  # a second hello
            self._refuse(client, f"unexpected message {message.TAG!r}")

    def _chat(self, client: _Client, text: str) -> None:
        line = " ".join(printable(text).split())[:CHAT_CHARS]
        if not line:
            return
        now = self.clock()
        while client.chats and now - client.chats[0] > CHAT_WINDOW:
            client.chats.popleft()
        if len(client.chats) >= CHAT_BURST:
            self._refuse(client, "slow down: too many chat lines")
            return
        client.chats.append(now)
        name = self._names()[client.seat] if client.seat is not None else "a watcher"
        for other in list(self.clients):
            self._put(other, msg.ChatLine(client.seat, name, line))
