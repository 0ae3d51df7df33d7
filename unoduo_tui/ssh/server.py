"""``unoduo serve``: the game over SSH, with asyncssh (#16).

Anyone with an SSH client plays: ``ssh -p 2222 NAME@HOST``.  Their public key is who
they are (any key is accepted; :mod:`.identity`), so there are no accounts and no
passwords; a client with no key is told, in an auth banner, how to make one, and
refused.  Each connection gets one session running the lobby in a child process on a
pty (:mod:`.session`).  Only the game: exec and subsystems (sftp, scp) are refused on
the channel's stderr with exit status 1, port and agent forwarding and X11 are off,
and the client's environment is ignored but for ``TERM`` (and an allowed
``COLORTERM``).  The limits are :class:`~.limits.Limits`; who may come in — the
connections still logging in, the players per address and per key — is
:class:`~.limits.Gate`'s to say, and how many keys it has never seen one address may
bring an hour is :class:`~.identity.NewKeys`'s.  A connection over a limit on players
is told why on its terminal (stderr, exit status 1); one over the logging-in pool is
disconnected at once with the reason.  Each game process gets the server's signature
for its key (:mod:`~unoduo_tui.net.vouch`), so the tables it hosts know who guesses
their codes.

The serve dir (``--data-dir``, default the user data dir + ``/serve``, 0700) holds
``host_key`` (ed25519, made on first start, 0600), ``players/<key>/`` (each player's
data dir), ``sockets/`` (0700: ``hall.sock``, the server's table service), ``lobby/``
(unused under serve: a lobby's folder for a plain terminal) and ``new_keys.log`` (the
last hour's new keys by address, :class:`~.identity.NewKeys`).

The tables the players open are the server's: its table service
(:class:`~unoduo_tui.net.hall.Hall`) holds them in this process's event loop and
lists them to every lobby, pushed; they end with the server, however it ends (each is
saved move by move, and ``resume`` brings it back).
"""

from __future__ import annotations

import asyncio
import os
import shlex
import signal
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import asyncssh

from ..files import FileProblem, private_dir, put_new, read_regular
from ..net.hall import Hall, hall_environment
from ..table.thinking import BotPool
from ..net.vouch import Voucher, Vouches
from ..text import printable
from .identity import NEW_KEYS_FILE, Identity, NewKeys, identify, known
from .limits import Gate, Limits, Place, Refusal, address_of

if TYPE_CHECKING:
    from ..storage.cluster import Cluster
    from .proxy import Network
from .session import PtyBridge

if TYPE_CHECKING:
    from .front import WorkerPool

__all__ = ["GameServer", "Client", "child_argv", "load_host_key", "HostKeyError",
           "no_key_banner", "serve_dir_of", "PID_FILE"]

#: the running server's pid, in the serve dir (``serve --drain`` signals it)
PID_FILE = "serve.pid"


def child_argv(player_dir: Path, name: str) -> list[str]:
    """The game process one connection runs: the lobby, in the player's folder.
    ``--name=NAME`` in one word: a login like ``--help`` is a name, not an option."""
    return [sys.executable, "-m", "unoduo_tui.cli", "lobby", "--data-dir", str(player_dir),
            f"--name={name}"]


def no_key_banner(host: str, port: int) -> str:
    where = f"-p {port} {host}" if port != 22 else host
    return ("unoduo knows you by your SSH key, and your client offered none.\r\n"
            "Make one with: ssh-keygen -t ed25519\r\n"
            f"then connect again: ssh {where}\r\n")


class HostKeyError(Exception):
    """The host key file cannot be used (one line, for ``unoduo serve`` to print)."""


def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's key at ``path``, made (ed25519, 0600, whole or not at all) if there
    is none; :class:`HostKeyError` when the file there is readable by others, not a
    regular file or not a key."""
    try:
        if not os.path.lexists(path):
            private_dir(path.parent)
            key = asyncssh.generate_private_key("ssh-ed25519")
            try:
                put_new(path, key.export_private_key())
                return key
            except FileExistsError:  # another server made it just now: use that one
                pass
        mode = os.lstat(path).st_mode
        if stat.S_ISREG(mode) and mode & 0o077:
            raise HostKeyError(f"the host key {path} is open to others (mode "
                               f"{stat.S_IMODE(mode):o}): chmod 600 it, or remove it "
                               "to make a new one")
        return asyncssh.import_private_key(read_regular(path, limit=64 * 1024))
    except OSError as exc:  # FileProblem too: a folder, a symlink, a hard link …
        why = str(exc).replace(f"{path}: ", "").replace("save file", "key file")
        raise HostKeyError(f"cannot use the host key {path}: {why}") from None
    except (asyncssh.KeyImportError, ValueError) as exc:
        raise HostKeyError(f"the host key {path} is not a private key ({exc})") from None


def serve_dir_of(data_dir: str | None) -> Path:
    """``--data-dir`` as given, else the user data dir (``$UNODUO_DATA_DIR`` …) +
    ``/serve``."""
    from ..store import data_dir as user_data_dir

    return Path(data_dir).expanduser() if data_dir else user_data_dir() / "serve"


def _own_private_dir(path: Path) -> Path:
    """``path`` made, and made 0700, if it is a folder of ours; ``OSError`` if not."""
    private_dir(path)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise FileProblem(f"{path} is not a folder of this user")
    os.chmod(path, 0o700)
    return path


class GameServer:
    """The shared state of one ``unoduo serve``: its limits, folders and who is on."""

    def __init__(self, serve_dir: Path, limits: Limits = Limits(),
                 child_command: Sequence[str] | None = None,
                 log: Callable[[str], None] | None = None, workers: int = 0,
                 store: str | None = None, proxy_from: Sequence[Network] | None = None,
                 health: tuple[str, int] | None = None,
                 peer: tuple[str, int] | None = None) -> None:
        self.serve_dir = _own_private_dir(serve_dir)
        self.sockets_dir = _own_private_dir(serve_dir / "sockets")
        self.lobby_dir = _own_private_dir(serve_dir / "lobby")
        self.limits = limits
        self.child_command = list(child_command) if child_command else None
        self.log = log or (lambda line: None)
        #: every connection, logging in or playing
        self.clients: set[Client] = set()
        #: who may come in: the connections logging in and the players, counted
        self.gate = Gate(limits)
        #: the keys new to this server each address brought in the last hour
        self.new_keys = NewKeys(serve_dir / NEW_KEYS_FILE, limits.new_keys_per_hour)
        #: signs each game's key for the tables it hosts (in memory only)
        self.voucher = Voucher()
        #: every session whose child has not been reaped yet
        self.running: set[PtyBridge] = set()
        self.host_key: asyncssh.SSHKey | None = None
        self._acceptor: asyncssh.SSHAcceptor | None = None
        #: ``workers`` > 0: the games run in that many worker processes (:mod:`.front`)
        self.workers = workers
        self.pool: WorkerPool | None = None
        #: the tables the players open, and the lobbies following them
        self.bots = BotPool(1)  # where the hall's bots think: not on this loop's GIL
        self.hall = Hall(vouches=Vouches(self.voucher.public), root=serve_dir / "players",
                         log=self.log, thinker=self.bots.think)
        self.hall_path = self.sockets_dir / "hall.sock"
        #: ``--store``: the database every node shares (None: the files, as before)
        self.store = store
        self.cluster: Cluster | None = None
        #: ``--proxy-protocol --proxy-from``: the balancers' addresses (None: no header)
        self.proxy_from = proxy_from
        #: ``--health``: where a balancer asks whether this node takes players
        self.health = health
        #: ``--peer``: where the other nodes join this node's tables (None: the
        #: listening address, any free port)
        self.peer = peer
        self.draining = False
        self._health_server: asyncio.base_events.Server | None = None
        self._beats: asyncio.Task | None = None

    async def start(self, host: str, port: int, host_key: Path) -> tuple[str, int]:
        """Listen on ``host``:``port`` (0: any free port); the address it got."""
        self.host_key = load_host_key(host_key)
        _open_files_to_the_hard_limit()  # each table the hall holds keeps its save open
        self.hall_path.unlink(missing_ok=True)  # a killed server's: ours (0700 folder)
        await asyncio.to_thread(self.bots.start)
        await self.hall.start(str(self.hall_path))
        try:
            if self.store is not None:
                await self._join_cluster(host, host_key)
            if self.workers:
                await self._start_workers()
            lim = self.limits
            tunnel: Any = ()
            if self.proxy_from is not None:
                from .proxy import ProxyListener

                tunnel = ProxyListener(self.proxy_from, self.log)
            self._acceptor = await asyncssh.create_server(
                lambda: Client(self), host, port, tunnel=tunnel,
                server_host_keys=[self.host_key],
                encoding=None, line_editor=False, allow_pty=True,
                agent_forwarding=False, x11_forwarding=False, sftp_factory=None,
                allow_scp=False, password_auth=False, kbdint_auth=True,
                public_key_auth=True, host_based_auth=False, gss_host=None,
                login_timeout=lim.login_seconds, keepalive_interval=lim.keepalive_seconds,
                keepalive_count_max=3, max_pktsize=lim.max_packet, window=lim.window)
        except BaseException:  # e.g. the port is taken: nothing left running
            if self.pool is not None:
                await self.pool.stop()
            await self.hall.close()
            await asyncio.to_thread(self.bots.close)
            if self.cluster is not None:
                await asyncio.to_thread(self.cluster.close)
            raise
        if self.health is not None:
            self._health_server = await asyncio.start_server(self._answer_health,
                                                             *self.health)
        if self.cluster is not None:
            self._beats = asyncio.get_running_loop().create_task(self._beat())
        sock = self._acceptor.sockets[0].getsockname()
        return sock[0], sock[1]

    async def _join_cluster(self, host: str, host_key: Path) -> None:
        """``--store``: this node in the database (:class:`~..storage.cluster.Cluster`),
        its peer door open and its lobby shared with the other nodes'."""
        import hashlib

        from ..net.hall import PUSH_SECONDS
        from ..storage.cluster import Cluster
        from ..storage.lobby import SharedLobby

        assert self.store is not None
        # the nodes prove themselves to each other with a secret they all have: the
        # host key file they share (README: Run a cluster)
        secret = hashlib.sha256(b"unoduo cluster v1\0" + host_key.read_bytes()).digest()
        where = await self.hall.start_peer(*(self.peer or (host, 0)), secret)
        shown = self.peer[0] if self.peer else host
        peer = f"[{shown}]:{where[1]}" if ":" in shown else f"{shown}:{where[1]}"
        self.cluster = await asyncio.to_thread(Cluster, self.store, None, peer)
        self.hall.store = self.store
        self.hall.node = self.cluster.node
        shared = SharedLobby(self.store, self.cluster.node, self.hall.remote_changed,
                             self.log, PUSH_SECONDS)
        await shared.start()
        self.hall.shared = shared
        self.log(f"node {self.cluster.node} of the cluster; its tables joined at {peer}")

    @property
    def health_port(self) -> int | None:
        if self._health_server is None:
            return None
        return int(self._health_server.sockets[0].getsockname()[1])

    async def _answer_health(self, reader: asyncio.StreamReader,
                             writer: asyncio.StreamWriter) -> None:
        """``--health``: HTTP 200 while this node takes players, 503 while it drains
        or its database does not answer (any request; one answer, then closed)."""
        try:
            await asyncio.wait_for(reader.read(1024), 2)
        except (asyncio.TimeoutError, OSError):
            pass
        ok = not self.draining
        if ok and self.cluster is not None:
            try:
                await asyncio.wait_for(asyncio.to_thread(self.cluster.beat), 2)
            except Exception:  # noqa: BLE001 - whatever it is, this node cannot serve
                ok = False
        body = b"ok\n" if ok else (b"draining\n" if self.draining else b"no database\n")
        status = b"200 OK" if ok else b"503 Service Unavailable"
        writer.write(b"HTTP/1.0 " + status + b"\r\nContent-Type: text/plain\r\n"
                     b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        try:
            await writer.drain()
        except OSError:
            pass
        writer.close()

    async def _beat(self) -> None:
        """The node's heartbeat (:func:`~unoduo_tui.storage.cluster.heartbeat`), each
        player's files pushed to the database after it."""
        from ..storage.cluster import heartbeat

        assert self.cluster is not None

        async def push_files() -> None:
            for client in list(self.clients):
                await asyncio.to_thread(client.push_files)
        await heartbeat(self.cluster, push_files)

    def drain(self) -> None:
        """Stop taking players (the health check says so, new connections are refused);
        each one playing is told to reconnect — through the balancer, to another node,
        where their match resumes exactly (every move is saved as it is made) — and the
        server stops once they have gone."""
        if self.draining:
            return
        self.draining = True
        self.log(f"draining: {len(self.running)} players told to reconnect")
        for session in list(self.running):
            session.leave("this server is going down for maintenance: connect again to "
                          "go on with your match (it is saved)")

    async def _start_workers(self) -> None:
        from .front import WorkerPool
        from .session import DEFAULT_TERM, child_env

        env = child_env(DEFAULT_TERM, None, {"UNODUO_SOCKET_DIR": str(self.sockets_dir),
                                             "UNODUO_LOBBY_DIR": str(self.lobby_dir),
                                             **hall_environment(self.hall_path),
                                             **self.store_environment()})
        self.pool = WorkerPool(self.workers, self.limits, env, self.log)
        await self.pool.start()

    def store_environment(self) -> dict[str, str]:
        """What a game process gets to keep its player's saves where the server does."""
        from ..storage import STORE_ENV

        return {STORE_ENV: self.store} if self.store is not None else {}

    def new_session(self, client: "Client") -> PtyBridge:
        """A session's game: a child process on a pty, or one of the workers' apps."""
        if self.pool is not None:
            from .front import RelaySession
            return RelaySession(client)
        return PtyBridge(client)

    @property
    def fingerprint(self) -> str:
        assert self.host_key is not None
        return self.host_key.get_fingerprint()

    async def stop(self) -> None:
        """Stop listening, hang up every game (their matches are saved move by move)
        and wait until every child is reaped."""
        if self._acceptor is not None:
            self._acceptor.close()
        live = list(self.running)
        for session in live:
            session.leave("the server is stopping; your match is saved")
        if live:
            await asyncio.wait([asyncio.ensure_future(s.exited.wait()) for s in live],
                               timeout=self.limits.hangup_grace + 5)
        for client in list(self.clients):
            client.close()
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
        if self.pool is not None:
            await self.pool.stop()
        await self.hall.close()
        await asyncio.to_thread(self.bots.close)
        self.hall_path.unlink(missing_ok=True)
        if self._health_server is not None:
            self._health_server.close()
        if self._beats is not None:
            self._beats.cancel()
        if self.cluster is not None:
            await asyncio.to_thread(self.cluster.close)


def _open_files_to_the_hard_limit() -> None:
    """As many open files as the system lets this process have: the hall holds a save
    file open per table (10,000 tables: 10,000 files), and the default soft limit is
    often 1,024."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass  # as it was: the tables past it are refused, one line each


class Client(asyncssh.SSHServer):
    """One connection: its place at the gate, its key, its identity and its one
    session."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.place: Place | None = None
        self.address = ""
        self._offered: asyncssh.SSHKey | None = None
        self.fingerprint: str | None = None
        self.identity: Identity | None = None
        self.session: PtyBridge | None = None
        self._told = False
        #: this player's place among the cluster's (``--store``: who plays where)
        self.place_number: int | None = None
        #: ``--store``: the player's shared files as last pulled or pushed (name →
        #: digest: :meth:`~unoduo_tui.storage.cluster.Cluster.push_files`)
        self.files: dict[str, str] | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.address = address_of(str((conn.get_extra_info("peername") or ("?",))[0]))
        loop = asyncio.get_running_loop()
        try:
            self.place = self.server.gate.enter(self.address)
        except Refusal as why:
            loop.call_soon(conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, str(why))
            return
        self.server.clients.add(self)
        # not playing within the time to log in: closed (asyncssh's login_timeout
        # covers the login; this, a session never asked for after it)
        loop.call_later(self.server.limits.login_seconds, self._close_unless_playing)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.clients.discard(self)
        if self.place is not None:
            self.server.gate.leave(self.place)
        self._leave_cluster()

    def _leave_cluster(self) -> None:
        number, self.place_number = self.place_number, None
        if number is not None and self.server.cluster is not None:
            cluster = self.server.cluster
            asyncio.get_running_loop().run_in_executor(None, cluster.leave, number)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()

    def _close_unless_playing(self) -> None:
        if self.place is not None and not self.place.playing:
            self.close()

    # -- authentication: any key, nothing else -----------------------------------------

    def begin_auth(self, username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # asyncssh calls this for every key offered and then, synchronously, checks the
        # signature of a signed request: the last key seen when auth succeeds is the one
        # the client proved it holds
        self._offered = key
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return not self._told  # only to tell a client with no key how to get one, once

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        if not self._told and self.conn is not None:
            self._told = True
            host, port = self.conn.get_extra_info("sockname")[:2]
            self.conn.send_auth_banner(no_key_banner(host, port))
        return False

    def auth_completed(self) -> None:
        assert self._offered is not None
        self.fingerprint = self._offered.get_fingerprint()

    # -- only the game -----------------------------------------------------------------

    def session_requested(self) -> Any:
        if self.session is not None or self.fingerprint is None:
            return False  # one game per connection
        self.session = self.server.new_session(self)
        return self.session

    def connection_requested(self, *args: Any) -> bool:
        return False

    def server_requested(self, *args: Any) -> bool:
        return False

    def unix_connection_requested(self, *args: Any) -> bool:
        return False

    def unix_server_requested(self, *args: Any) -> bool:
        return False

    # -- the session's questions -------------------------------------------------------

    def admit(self, session: PtyBridge) -> str | None:
        """``None`` and the session counted as a player, or why it may not start."""
        assert self.conn is not None and self.fingerprint is not None
        server, place, fingerprint = self.server, self.place, self.fingerprint
        if place is None or server.draining:
            return "the server is closing: connect again"
        if server.cluster is not None:
            return self._admit_cluster(session, place, fingerprint)
        why = server.gate.refusal(place, fingerprint)
        if why is None and not known(server.serve_dir, fingerprint):
            why = server.new_keys.refusal(self.address)
        if why is not None:
            server.log(f"{self.address} refused: {why}")
            return why
        username = self.conn.get_extra_info("username") or ""
        try:
            self.identity = identify(server.serve_dir, fingerprint, username)
        except OSError as exc:
            server.log(f"cannot use the folder of {fingerprint}: {printable(exc)}")
            return "the server cannot keep your data right now"
        if self.identity.new:
            server.new_keys.add(self.address)
        server.gate.admit(place, fingerprint)
        return self._started(session)

    def _admit_cluster(self, session: PtyBridge, place: Place, fingerprint: str
                       ) -> str | None:
        """:meth:`admit` on a node of a cluster (``--store``): the limits on players
        per address and per key count every node's (:mod:`~unoduo_tui.storage.cluster`),
        the new keys an address brought and who a key is are the database's."""
        server, cluster = self.server, self.server.cluster
        assert cluster is not None and self.conn is not None
        why = server.gate.refusal(place, fingerprint)  # this node's own: its players
        username = self.conn.get_extra_info("username") or ""
        try:
            if why is None and not cluster.known(fingerprint):
                count, wait = cluster.new_keys(self.address)
                if count >= server.limits.new_keys_per_hour:
                    why = (f"{count} keys new to this server came from your address in the "
                           f"last hour: connect with a key it knows, or try again in "
                           f"{max(1, round(wait / 60))} min")
            if why is None:
                self.place_number, why = cluster.enter(
                    self.address, fingerprint, server.limits.per_address,
                    server.limits.per_key)
            if why is not None:
                server.log(f"{self.address} refused: {why}")
                return why
            name, new = cluster.identity(fingerprint, username)
            self.identity = identify(server.serve_dir, fingerprint, name, known_name=name)
            # the settings and table tokens they left on whichever node they were
            self.files = cluster.pull_files(fingerprint, self.identity.folder)
            if new:
                cluster.add_new_key(self.address)
        except Exception as exc:  # noqa: BLE001 - the database or the folder: refused
            server.log(f"cannot admit {fingerprint}: {printable(exc)}")
            if self.place_number is not None:
                cluster.leave(self.place_number)
                self.place_number = None
            return "the server cannot keep your data right now: try again in a moment"
        server.gate.admit(place, fingerprint)
        return self._started(session)

    def _started(self, session: PtyBridge) -> str | None:
        server = self.server
        assert self.identity is not None and self.fingerprint is not None
        server.running.add(session)
        server.log(f"{printable(self.identity.name)} ({self.fingerprint}) from "
                   f"{self.address} connected")
        return None

    def push_files(self) -> None:
        """``--store``: the player's shared files that changed, to the database (on
        a thread: at each heartbeat, and when the session ends)."""
        cluster, files, identity = self.server.cluster, self.files, self.identity
        if cluster is None or files is None or identity is None:
            return
        try:
            self.files = cluster.push_files(identity.fingerprint, identity.folder, files)
        except Exception as exc:  # noqa: BLE001 - the database down: the next beat
            self.server.log(f"cannot keep the files of {identity.fingerprint}: "
                            f"{printable(exc)}")

    def session_closed(self, session: PtyBridge) -> None:
        if self.place is not None:
            self.server.gate.leave(self.place)
        if self.server.cluster is not None:
            asyncio.get_running_loop().run_in_executor(None, self.push_files)
        self._leave_cluster()
        if self.identity is not None:
            self.server.log(f"{printable(self.identity.name)} left")
        self.close()  # one game per connection: it is over

    def child_argv(self) -> list[str]:
        assert self.identity is not None
        if self.server.child_command:
            return list(self.server.child_command)
        return child_argv(self.identity.folder, self.identity.name)

    def child_env(self) -> dict[str, str]:
        assert self.identity is not None
        # USER / LOGNAME as sshd sets them: the player, not the server's Unix user (the
        # app's default name for "you" is the login name)
        # UNODUO_KEY and the server's word for it (the tables this game hosts check it)
        return {"UNODUO_SOCKET_DIR": str(self.server.sockets_dir),
                "UNODUO_LOBBY_DIR": str(self.server.lobby_dir),
                **hall_environment(self.server.hall_path),
                **self.server.store_environment(),
                **self.server.voucher.environment(self.identity.fingerprint),
                "USER": self.identity.name, "LOGNAME": self.identity.name}


# -- the command -----------------------------------------------------------------------

def _stderr_log(line: str) -> None:
    import time

    print(f"{time.strftime('%H:%M:%S')} {line}", file=sys.stderr, flush=True)


async def _serve(server: GameServer, host: str, port: int, host_key: Path) -> None:
    where = await server.start(host, port, host_key)
    pid_file = server.serve_dir / PID_FILE
    pid_file.write_text(f"{os.getpid()}\n")
    print(f"unoduo serve: listening on {where[0]} port {where[1]}; host key "
          f"{server.fingerprint} (players: ssh -p {where[1]} NAME@HOST)"
          + (f"; health on port {server.health_port}" if server.health_port else ""),
          flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)

    async def drain() -> None:
        server.drain()
        while server.running:  # each player told; gone once their session closes
            await asyncio.sleep(0.2)
        stop.set()
    loop.add_signal_handler(signal.SIGUSR1, lambda: loop.create_task(drain()))
    try:
        await stop.wait()
        await server.stop()
    finally:
        pid_file.unlink(missing_ok=True)


def run_serve(serve_dir: Path, host: str, port: int, host_key: Path | None,
              limits: Limits, child_command: str | None, workers: int = 0,
              store: str | None = None, proxy_from: Sequence[Network] | None = None,
              health: tuple[str, int] | None = None,
              peer: tuple[str, int] | None = None) -> int:
    """``unoduo serve``: serve until SIGINT / SIGTERM (SIGUSR1: drain, then stop).
    Raises :class:`HostKeyError` or ``OSError`` (the folders, the address) for the CLI
    to print as one line.  ``workers`` > 0: the games run in that many worker
    processes; ``store``: the database a cluster's nodes share; ``proxy_from``: read
    the PROXY v2 header from these balancers; ``health``: answer health checks there;
    ``peer``: where the other nodes join this node's tables."""
    server = GameServer(serve_dir, limits,
                        shlex.split(child_command) if child_command else None,
                        log=_stderr_log, workers=workers, store=store,
                        proxy_from=proxy_from, health=health, peer=peer)
    asyncio.run(_serve(server, host, port, host_key or serve_dir / "host_key"))
    return 0
