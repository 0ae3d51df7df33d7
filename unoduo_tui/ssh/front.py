"""``unoduo serve --workers N``: the SSH front relays each session to a worker.

The server process keeps doing what only it can — SSH, keys, who is connected and
every limit of :mod:`.limits` (connections, per key, input rate and junk, resizes,
idle) — in :class:`RelaySession`, which is a :class:`~.session.PtyBridge` whose
game is not a child on a pty but a session on one of N worker processes
(:mod:`.worker`; about one per core), each running many apps in one event loop.
One Unix socket pair per worker carries :mod:`.relay` messages for all its sessions.

- A new session goes to the live worker with the fewest sessions; while none is
  alive (the only one died and its replacement is starting) it waits for one.
- A client whose window is full: the worker is told (:class:`~.relay.Flow`) and
  holds that app's frames, boundedly (:class:`~.driver.ChannelDriver`).
- A worker that dies, or leaves :attr:`~.limits.Limits.worker_stall` seconds of
  pings unanswered once it is up (a session stuck in a loop), is killed; each of its players is
  told so in one line (their matches are saved move by move: reconnecting resumes
  them) and their channels close; a new worker takes its place.
- Stopping: every player told, every app hung up, then the sockets closed — a
  worker exits at its socket's end of file, and dies with the front
  (``PR_SET_PDEATHSIG``) if the front is killed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import os
import signal
import socket
import sys
from typing import TYPE_CHECKING, Callable

from ..shutdown import RESTORE
from . import relay
from .hosted import NOT_READING, WORKER_LOST
from .limits import Limits
from .session import DEFAULT_TERM, PtyBridge, exit_status

if TYPE_CHECKING:  # pragma: no cover
    from .server import Client, GameServer

__all__ = ["WorkerPool", "WorkerLink", "RelaySession", "PING_SECONDS"]

#: seconds between two pings of a worker
PING_SECONDS = 1.0
#: seconds a new worker has to answer its first ping (it imports the app first,
#: slowly on a loaded machine; the stall limit applies once it has answered)
START_SECONDS = 60.0
#: seconds before a worker that died is replaced (a crash loop costs little)
RESPAWN_SECONDS = 1.0


class WorkerLink(asyncio.Protocol):
    """The front's end of one worker: its process, its socket, its sessions."""

    def __init__(self, pool: "WorkerPool", number: int) -> None:
        self.pool = pool
        self.number = number
        self.proc: asyncio.subprocess.Process | None = None
        self.transport: asyncio.Transport | None = None
        self.reader = relay.Reader()
        self.sessions: dict[int, RelaySession] = {}
        self.alive = False
        self.up = False  # it has answered a ping
        self.lost = asyncio.Event()
        self._pinged = 0
        self._answered = 0
        self._answered_at = 0.0
        self._tasks: set[asyncio.Task] = set()

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "unoduo_tui.ssh.worker", "--fd", str(theirs.fileno()),
                "--limits", json.dumps(dataclasses.asdict(self.pool.worker_limits)),
                pass_fds=(theirs.fileno(),), stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL, env=self.pool.env,
                start_new_session=True)  # a Ctrl+C at serve's terminal is serve's
        finally:
            theirs.close()
        await loop.connect_accepted_socket(lambda: self, ours)
        self.alive = True
        self._answered_at = loop.time()
        for job in (self._pings(), self._reap()):
            task = loop.create_task(job)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    # -- the socket --------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        try:
            messages = self.reader.feed(data)
        except relay.BadFrame as exc:
            self.pool.log(f"worker {self.pid}: bad frame ({exc}): killed")
            self.kill()
            return
        for message in messages:
            if isinstance(message, relay.Pong):
                self._answered = max(self._answered, message.n)
                self.up = True
                self._answered_at = asyncio.get_running_loop().time()
                continue
            session = self.sessions.get(getattr(message, "sid", -1))
            if session is None:
                continue
            if isinstance(message, relay.Output):
                session.on_output(message.data)
            elif isinstance(message, relay.Closed):
                self.sessions.pop(message.sid, None)
                session.on_closed(message.status, message.message)

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost("its socket closed")

    def send(self, message: relay.Message) -> None:
        if self.alive and self.transport is not None and not self.transport.is_closing():
            self.transport.write(relay.encode(message))

    # -- life and death ----------------------------------------------------------------

    async def _pings(self) -> None:
        loop = asyncio.get_running_loop()
        while self.alive:
            await asyncio.sleep(PING_SECONDS)
            if not self.alive:
                return
            stall = self.pool.limits.worker_stall if self.up else START_SECONDS
            if self._answered < self._pinged and loop.time() - self._answered_at > stall:
                self.pool.log(f"worker {self.pid} has not answered for {stall:g} s: killed")
                self.kill()
                return
            self._pinged += 1
            self.send(relay.Ping(self._pinged))

    async def _reap(self) -> None:
        assert self.proc is not None
        status = await self.proc.wait()
        self._lost(f"it exited with status {status}")

    def _lost(self, why: str) -> None:
        if not self.alive:
            return
        self.alive = False
        if not self.pool.stopping:
            self.pool.log(f"worker {self.pid} lost ({why}): "
                          f"{len(self.sessions)} players told")
            self.kill()
        # stopping: its socket closes as it hangs up its apps, and it exits once its
        # bots' pool has stopped; stop() kills what is left after the grace
        if self.transport is not None:
            self.transport.close()
        sessions, self.sessions = list(self.sessions.values()), {}
        for session in sessions:
            session.on_worker_lost()
        self.lost.set()
        self.pool.lost(self)

    async def exited(self) -> None:
        """Until the worker's process has exited (its socket closed, if it has none)."""
        if self.proc is not None:
            await self.proc.wait()
        else:
            await self.lost.wait()

    def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            try:
                os.kill(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def close(self) -> None:
        """End of file on the socket: the worker hangs up its apps and exits."""
        if self.transport is not None and self.transport.can_write_eof():
            self.transport.write_eof()


class WorkerPool:
    """The N workers of one server, each replaced when it dies."""

    def __init__(self, count: int, limits: Limits, env: dict[str, str],
                 log: Callable[[str], None]) -> None:
        self.count = count
        self.limits = limits
        #: the front keeps the idle timer (it sees every byte): the workers have none
        self.worker_limits = dataclasses.replace(limits, idle_seconds=0)
        self.env = env
        self.log = log
        self.links: list[WorkerLink] = []
        self.stopping = False
        self._sids = itertools.count(1)
        self._numbers = itertools.count()
        self._respawns: set[asyncio.Task] = set()
        #: set when a worker joins or the pool stops (:meth:`wait_pick` waits on it)
        self._changed = asyncio.Event()

    async def start(self) -> None:
        await asyncio.gather(*(self._spawn() for _ in range(self.count)))

    async def _spawn(self) -> None:
        link = WorkerLink(self, next(self._numbers))
        try:
            await link.start()
        except OSError as exc:
            self.log(f"cannot start a worker: {exc}")
            self.lost(link)
            return
        self.links.append(link)
        self._changed.set()

    def lost(self, link: WorkerLink) -> None:
        if link in self.links:
            self.links.remove(link)
        if self.stopping:
            return

        async def respawn() -> None:
            await asyncio.sleep(RESPAWN_SECONDS)
            if not self.stopping:
                await self._spawn()
        task = asyncio.get_running_loop().create_task(respawn())
        self._respawns.add(task)
        task.add_done_callback(self._respawns.discard)

    def pick(self) -> WorkerLink | None:
        """The live worker with the fewest sessions (None: none is up)."""
        live = [link for link in self.links if link.alive]
        return min(live, key=lambda link: len(link.sessions)) if live else None

    async def wait_pick(self, seconds: float,
                        gone: Callable[[], bool] = lambda: False) -> WorkerLink | None:
        """:meth:`pick`, waiting up to ``seconds`` while no worker is alive — one died
        and its replacement is starting: a player reconnecting at once gets in (None:
        still none, the pool is stopping or ``gone()``: the session ended meanwhile;
        :meth:`wake` has it look again)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not self.stopping and not gone():
            link = self.pick()
            left = deadline - loop.time()
            if link is not None or left <= 0:
                return link
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                pass
        return None

    def wake(self) -> None:
        self._changed.set()

    def new_sid(self) -> int:
        return next(self._sids)

    @property
    def pids(self) -> list[int]:
        return [link.pid for link in self.links if link.alive and link.pid is not None]

    async def stop(self) -> None:
        """Close every worker's socket and wait for them to exit (killed after the
        grace).  A worker hangs up its apps, then stops its bots' pool: killed before
        that, it would leave the pool's semaphores to multiprocessing's resource
        tracker, which says so on the server's stderr ("leaked semaphore objects")."""
        self.stopping = True
        self._changed.set()
        for task in list(self._respawns):
            task.cancel()
        links = list(self.links)
        for link in links:
            link.close()
        if links:
            await asyncio.wait([asyncio.ensure_future(link.exited()) for link in links],
                               timeout=self.limits.hangup_grace + 1)
        for link in links:
            link.kill()
            if link.proc is not None:
                await link.proc.wait()


class RelaySession(PtyBridge):
    """A :class:`~.session.PtyBridge` whose game runs on a worker: the same SSH
    requests, refusals and limits; the bytes go to and from the worker instead of a
    pty (see the module doc)."""

    def __init__(self, client: "Client") -> None:
        super().__init__(client)
        self.link: WorkerLink | None = None
        self.sid = 0
        self._hung_up = False

    @property
    def pool(self) -> WorkerPool:
        server: "GameServer" = self.client.server
        assert server.pool is not None
        return server.pool

    async def _run(self) -> None:
        identity = self.client.identity
        # a worker that has just died leaves none for a moment: wait for its replacement
        link = await self.pool.wait_pick(START_SECONDS, lambda: self._closing)
        if self._closing:  # the client left, or the server is stopping, meanwhile
            self._reaped()
            return
        if link is None or identity is None:
            self._refuse("the server is starting or stopping: try again in a moment")
            self._reaped()
            return
        self.link, self.sid = link, self.pool.new_sid()
        link.sessions[self.sid] = self
        columns, rows = self._size
        link.send(relay.Open(self.sid, columns, rows, self._term or DEFAULT_TERM,
                             self._colorterm(), str(identity.folder), identity.name,
                             identity.fingerprint, str(self.client.server.lobby_dir),
                             self.client.server.voucher.proof(identity.fingerprint)))
        if self._closing:  # the client left while we were choosing
            self._hang_up()
        else:
            self._flush_input()
            self._idle.start()

    # -- to the worker -----------------------------------------------------------------

    def _flush_input(self) -> None:
        if self.link is None or not self._pending:
            return
        data = bytes(self._pending)
        self._pending.clear()
        for chunk in relay.chunks(data):
            self.link.send(relay.Input(self.sid, chunk))

    def _resize(self) -> None:
        if self.link is not None:
            self.link.send(relay.Resize(self.sid, *self._size))

    def pause_writing(self) -> None:
        self.output_paused = True
        if self.link is not None:
            self.link.send(relay.Flow(self.sid, True))

    def resume_writing(self) -> None:
        self.output_paused = False
        if self.link is not None:
            self.link.send(relay.Flow(self.sid, False))

    def leave(self, message: str) -> None:
        super().leave(message)
        self.pool.wake()  # if it waits for a worker: it need not

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.pool.wake()

    def _hang_up(self) -> None:
        if self.link is not None and not self._hung_up:
            self._hung_up = True
            self.link.send(relay.Hangup(self.sid))

    # -- from the worker ---------------------------------------------------------------

    def on_output(self, data: bytes) -> None:
        if self._chan is None or self._closing:
            return
        self._chan.write(data)
        # the worker holds frames while the window is full; this is what was on the
        # way when it was told, and a worker that did not listen
        if self._chan.get_write_buffer_size() > 2 * self.limits.output_buffer:
            self.leave(NOT_READING)

    def on_closed(self, status: int, message: str | None) -> None:
        """The app ended: its last line, if the server has one, and its status."""
        self.link = None
        self._reaped()
        if self._closing or self._chan is None:
            return
        self._closing = True
        try:
            if message:
                self._chan.write(f"{RESTORE}\r\nunoduo: {message}\r\n".encode())
            self._chan.exit(exit_status(status) or (1 if message else 0))
        except OSError:  # the channel is closing already
            pass

    def on_worker_lost(self) -> None:
        self._hung_up = True  # nobody to tell
        self.link = None
        self.leave(WORKER_LOST)
        self._reaped()
