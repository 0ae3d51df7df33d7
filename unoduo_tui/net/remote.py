"""The remote table: a :class:`~unoduo_tui.table.Table` whose match is in an authority
process, reached over its socket (:mod:`.authority` documents the messages).

:meth:`RemoteTable.connect` says hello and waits for the welcome and the first update
(a wrong code, a full table… raise :class:`~unoduo_tui.table.Refused`; no table there
raises :class:`ConnectionError`).  A reader thread then turns each ``update`` into a
:class:`TableUpdate` and calls the listeners, as the local table does from its bots'
thread.  :meth:`act` refuses at once what it can tell from the view (not this client's
seat, not its turn, not a legal action now); anything else the authority refuses
comes back as an update with ``cause="refused"``.  There is no practice undo or hint
at a shared table.  Who is connected (``presence``), the seats' names, the join-code
banner and each chat line travel in the updates too (``connected``, ``names``,
``banner``, ``said``; causes ``"presence"`` and ``"chat"``): the table is the screen's
only door.
"""

from __future__ import annotations

import socket
import threading
from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

from engine import Action, PlayerView

from ..table import (Listener, Refused, ShownHand, TableUpdate, guilt_estimate, save_wait,
                     shown_hand)
from . import messages as msg
from .codes import parse_code, socket_path
from .frames import BadFrame, FrameReader
from .messages import MAX_TOKENS
from .vouch import claim

__all__ = ["RemoteTable", "Presence"]

#: seconds to wait for the authority's welcome
CONNECT_SECONDS = 10.0


class _NoTable(ConnectionError):
    """The server's table service holds no table with that code (as good as none
    listening on its socket)."""


class Presence:
    """Who is at the table: ``connected`` seats, ``watchers``, the seats' ``names``."""

    __slots__ = ("connected", "watchers", "names")

    def __init__(self, connected: tuple[int, ...], watchers: int, names: tuple[str, ...]):
        self.connected, self.watchers, self.names = connected, watchers, names


class RemoteTable:
    """A seat (or a watcher's place) at a table served by an authority.

    ``tokens``: the seat tokens this player holds for the table (``token``: one more,
    preferred); ``new_seat``: a seat nobody took yet may be given instead (False: only
    a seat of these tokens — a host's screen, a rejoin); ``reconnect``: opens a new
    socket to the same table, for :meth:`rejoin` (:meth:`connect` gives one)."""

    def __init__(self, sock: socket.socket, code: str, *, name: str = "", want: msg.Want = "play",
                 token: str | None = None, tokens: Sequence[str] = (), delay: int = 0,
                 new_seat: bool = True,
                 reconnect: Callable[[], socket.socket] | None = None,
                 vouched: dict[str, str] | None = None) -> None:
        self._lock = threading.RLock()
        self._sending = threading.Lock()
        self._listeners: list[Listener] = []
        self._told = 0  # updates told (their seq: the authority's is ``remote_seq``)
        self.remote_seq = -1  # the authority's seq of the last update it sent
        self.notes: tuple[str, ...] = ()
        self.public: PlayerView | None = None  # a watcher's view
        self.closed_reason: str | None = None
        self.presence: Presence | None = None
        self.code = code
        #: a line the screen shows at the top: the join code, on the host's screen (told
        #: in every update's ``banner``)
        self.banner: str | None = None
        self.token: str | None = None
        self._update: TableUpdate | None = None
        self._want, self._name, self._delay = want, name, delay
        self._reconnect = reconnect
        self._shut = False  # closed by this side: for good
        self._vouched = vouched  # the key we play as, if not the environment's
        offered = [t for t in (token, *tokens) if t]
        self._hello(sock, list(dict.fromkeys(offered)), new_seat)

    def _hello(self, sock: socket.socket, tokens: list[str], new_seat: bool) -> None:
        """Say hello on ``sock``; take the welcome and the first update; then read on
        in a thread of its own."""
        self._sock = sock
        self._frames = FrameReader()
        self._pending: list[dict] = []
        self._events: tuple = ()  # the events of this client's view so far
        self._fresh = False  # an update has come on this connection
        vouched = self._vouched or claim()  # under unoduo serve: the key we play as
        hello = msg.Hello(self.code, self._want, self._name,
                          tuple(tokens[:MAX_TOKENS]) if self._want == "play" else (),
                          new_seat, self._delay if self._want == "watch" else 0,
                          vouched.get("key"), vouched.get("proof"))
        sock.settimeout(CONNECT_SECONDS)
        try:
            sock.sendall(msg.encode(hello))
            welcome = self._receive()
            if isinstance(welcome, msg.Refused) and welcome.reason == msg.NO_TABLE:
                raise _NoTable(f"no table with the code {self.code} is open here")
            if isinstance(welcome, msg.Refused):
                raise Refused(welcome.reason)
            if not isinstance(welcome, msg.Welcome):
                raise ConnectionError("the table answered with something else")
            self.seat: int | None = welcome.seat
            self.token = welcome.token
            self.names = welcome.names
            self.kinds = welcome.kinds
            self._seats = welcome.seats
            while not self._fresh:
                self._dispatch(self._receive())
        except (socket.timeout, OSError, BadFrame, KeyError, TypeError, ValueError) as exc:
            sock.close()
            if isinstance(exc, (Refused, _NoTable)):
                raise
            raise ConnectionError(f"the table did not answer properly: {exc}") from None
        sock.settimeout(None)
        self._reader = threading.Thread(target=self._read, daemon=True, name="unoduo-remote")
        self._reader.start()

    @classmethod
    def connect(cls, code: str, *, name: str = "", want: msg.Want = "play", token: str | None = None,
                tokens: Sequence[str] = (), delay: int = 0, new_seat: bool = True,
                socket_dir: str | Path | None = None,
                tcp: tuple[str, int] | None = None,
                vouched: dict[str, str] | None = None) -> "RemoteTable":
        """Join (``want="play"``) or watch the table with ``code`` (``vouched``: the
        key this game plays as and the server's proof, when not in the environment)."""
        code = parse_code(code)

        def reconnect() -> socket.socket:
            if tcp is not None:
                return socket.create_connection(tcp, timeout=CONNECT_SECONDS)
            path = socket_path(code, socket_dir)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(CONNECT_SECONDS)
            try:
                sock.connect(str(path))
            except OSError:
                sock.close()
                raise ConnectionError(f"no table with the code {code} is open here") from None
            return sock

        return cls(reconnect(), code, name=name, want=want, token=token, tokens=tokens,
                   delay=delay, new_seat=new_seat, reconnect=reconnect, vouched=vouched)

    def rejoin(self) -> None:
        """After the connection was lost: connect again, to the same seat (a watcher: to
        watch again).  :class:`Refused` saying why when the table cannot be reached or
        refuses (the update told then says so too)."""
        with self._lock:
            if self.closed_reason is None or self._shut:
                return
        if self._reconnect is None:
            raise Refused("this connection cannot be opened again")
        try:
            sock = self._reconnect()
            self._hello(sock, [self.token] if self.token else [], False)
        except (Refused, ConnectionError, OSError) as exc:
            reason = exc.reason if isinstance(exc, Refused) else (str(exc) or type(exc).__name__)
            with self._lock:
                self.closed_reason = reason
                if self._update is not None:
                    self._tell(replace(self._update, cause="closed", lost=reason))
            raise Refused(reason) from None

    # -- the wire ----------------------------------------------------------------------

    def _receive(self) -> msg.Message:
        """The next message (``BadMessage``, a ``ValueError``, for one that is not)."""
        while not self._pending:
            data = self._sock.recv(1 << 16)
            if not data:
                raise ConnectionError("the table closed the connection")
            self._pending.extend(self._frames.feed(data))
        return msg.decode(self._pending.pop(0), msg.TO_CLIENT)

    def _send(self, message: msg.Message) -> None:
        try:
            self.send_frame(msg.encode(message))
        except OSError:
            raise Refused("the connection to the table is lost") from None

    def send_frame(self, frame: bytes) -> None:
        """``frame`` to the authority as it is, unchecked (:meth:`act` and the rest send
        their messages this way; a test sends what a hostile client would).  Raises
        ``OSError``."""
        with self._sending:  # the reader thread answers pings: frames never interleave
            self._sock.sendall(frame)

    def _read(self) -> None:
        try:
            while True:
                self._dispatch(self._receive())
        except (OSError, BadFrame, ValueError, KeyError, TypeError) as exc:
            reason = self.closed_reason or str(exc) or "the connection to the table is lost"
        with self._lock:
            self.closed_reason = reason
            if self._update is not None:
                self._tell(replace(self._update, cause="closed", lost=reason, refused=None))

    def _dispatch(self, message: msg.Message) -> None:
        if isinstance(message, msg.Update):
            self._take(message)
        elif isinstance(message, msg.Ping):
            try:
                self._send(msg.Pong())
            except Refused:
                pass  # the reader sees the end
        elif isinstance(message, msg.Bye):
            self.closed_reason = message.reason or "the table ended the connection"
        elif isinstance(message, msg.Refused):
            with self._lock:
                if self._update is not None:
                    self._tell(replace(self._update, cause="refused", refused=message.reason))
        elif isinstance(message, msg.Presence):
            with self._lock:
                self.presence = Presence(message.connected, message.watchers, message.names)
                self.names = self.presence.names
                if self._update is not None:
                    self._tell(replace(self._update, cause="presence", refused=None))
        elif isinstance(message, msg.ChatLine):
            with self._lock:
                if self._update is not None:
                    self._tell(replace(self._update, cause="chat", refused=None),
                               said=(message.seat, message.name, message.text))

    def _take(self, message: msg.Update) -> None:
        """An update: the events it lists follow the ``start`` the client has already."""
        data, start = message.u, message.start
        raw = message.public if self.seat is None else (data["views"][0][1]
                                                        if data["views"] else None)
        view = None
        if raw is not None:
            if not isinstance(start, int) or not 0 <= start <= len(self._events):
                raise ValueError("an update skipped events")
            view = PlayerView.from_dict(raw, earlier=self._events[:start])
            self._events = view.events
        update = TableUpdate.from_dict({**data, "views": []})
        self.remote_seq = update.seq
        if view is not None:
            update = replace(update, views={self.seat: view})  # a watcher's: under None
        with self._lock:
            if view is not None and self.seat is None:
                self.public = view
            if not self._fresh and not self._shut:  # a new connection's first: it is open
                self.closed_reason = None
            self._fresh = True
            self._tell(update)

    def _tell(self, update: TableUpdate, said: tuple | None = None) -> None:
        """To the listeners, numbered here: a refusal, the connection's end, who is
        here and a chat line are new updates too (a screen drops one no newer than
        the last it took); each carries who is here now and the banner."""
        self._told += 1
        now = self.presence
        update = replace(update, seq=self._told, said=said, banner=self.banner,
                         connected=None if now is None else now.connected,
                         watchers=0 if now is None else now.watchers,
                         names=None if now is None else now.names)
        self._update = update
        for listener in list(self._listeners):
            listener(update)

    # -- the Table interface -----------------------------------------------------------

    @property
    def seats(self) -> int:
        return self._seats

    @property
    def mine(self) -> tuple[int, ...]:
        """This client's seat; none for a watcher, whose public view (``seat=None``: no
        hand, no legal actions) is filed under ``None`` in each update's ``views``."""
        return () if self.seat is None else (self.seat,)

    @property
    def practice(self) -> bool:
        return False

    @property
    def saved(self) -> bool:
        """The authority saves every decision (its save errors come in updates)."""
        return self._update is not None and self._update.save_error is None

    @property
    def save_ref(self) -> str | None:
        return None  # the save file is the host's

    def view(self, seat: int) -> PlayerView:
        with self._lock:
            assert self._update is not None
            if seat not in self._update.views:
                raise Refused("that seat's hand is not yours to see")
            return self._update.views[seat]

    def subscribe(self, listener: Listener) -> TableUpdate:
        """The state now (who is here and the banner as they are now) and every later
        update."""
        with self._lock:
            self._listeners.append(listener)
            assert self._update is not None
            now = self.presence
            return replace(self._update, banner=self.banner, said=None,
                           connected=None if now is None else now.connected,
                           watchers=0 if now is None else now.watchers,
                           names=None if now is None else now.names)

    def unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def act(self, seat: int | None, text: str) -> None:
        with self._lock:
            if self.closed_reason is not None:
                raise Refused(self.closed_reason)
            if self._update is not None and self._update.save_error:
                raise Refused(save_wait(self._update.save_error))
            if self.seat is None:
                raise Refused("you are watching: a watcher cannot play")
            if seat is None or seat not in self.mine:
                raise Refused("you can only play for your own seat")
            view = self.view(seat)
            try:
                action = Action.parse(text)
            except ValueError as exc:
                raise Refused(str(exc)) from None
            if view.to_act != seat and action.kind != "jump":  # H4: a jump-in is out of turn
                raise Refused(f"it is not {self.names[seat]}'s turn")
            if action not in view.legal_actions:
                raise Refused(f"{text!r} is not a legal action now")
        self._send(msg.Act(str(action)))

    def hold(self, on: bool) -> None:
        if self.seat is not None and self.closed_reason is None:
            self._send(msg.Hold(bool(on)))

    def chat(self, text: str) -> None:
        self._send(msg.Chat(str(text)))

    def hand_to_bot(self, seat: int, level: str) -> None:
        """Ask the table to let a ``level`` bot play ``seat`` for its away player (the
        authority's answer is an update: the bot playing, or why not)."""
        with self._lock:
            if self.closed_reason is not None:
                raise Refused(self.closed_reason)
            if self.seat is None:
                raise Refused("a watcher cannot hand a seat to a bot")
            if self._update is None or seat not in self._update.may_stand_in:
                raise Refused("that seat's player is not away long enough")
        self._send(msg.StandIn(seat, str(level)))

    def undo(self) -> bool:
        return False

    def redo(self) -> bool:
        return False

    def hint(self, seat: int) -> str:
        raise Refused("no hints at a shared table")

    def guilt_estimate(self, seat: int) -> float | None:
        return guilt_estimate(self.view(seat)) if seat == self.seat else None

    def challenged_hand(self, seat: int, since: int = 0) -> ShownHand | None:
        if seat != self.seat:
            return None
        return shown_hand(self.view(seat), since)

    def close(self) -> None:
        with self._lock:
            self._shut = True
            self.closed_reason = self.closed_reason or "closed"
            self._listeners.clear()
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
