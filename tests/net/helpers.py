"""An authority served in this process (its own event loop thread, a temp socket) and
scripted clients that record every byte they receive."""

from __future__ import annotations

import asyncio
import os
import queue
import shutil
import socket
import tempfile
import threading
from pathlib import Path
from typing import Any

from engine import Card, Match, Rules
from engine.rng import Rng
from unoduo_tui.net.authority import Authority
from unoduo_tui.net.codes import new_code
from unoduo_tui.net.frames import FrameReader, encode
from unoduo_tui.net.remote import RemoteTable
from unoduo_tui.plan import HUMAN, MatchPlan
from unoduo_tui.table.local import LocalTable

#: a safety net for waits on frames; a healthy test never comes near it
WAIT = 30.0


def plan(preset: str = "duo", seats: int = 2, bots: dict[int, str] | None = None,
         seed: int = 1, target: int | None = None) -> MatchPlan:
    bots = bots or {}
    kinds = tuple(f"bot:{bots[s]}" if s in bots else HUMAN for s in range(seats))
    rules = Rules(preset=preset, seats=seats, **({"target": target} if target else {}))
    return MatchPlan(tuple(f"P{s}" for s in range(seats)), kinds, rules, seed)


class Recorder:
    """A socket that keeps every byte it receives (``data``)."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self.data = bytearray()

    def recv(self, n: int) -> bytes:
        chunk = self._sock.recv(n)
        self.data += chunk
        return chunk

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class LoopThread:
    """An event loop on a thread of its own, where a test's server runs: :meth:`run` a
    coroutine there (its result, within :data:`WAIT`), :meth:`call` a function there."""

    loop: asyncio.AbstractEventLoop
    thread: threading.Thread

    def start_loop(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def stop_loop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)

    def call(self, fn):
        async def wrapped():
            return fn()
        return self.run(wrapped())

    def run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(WAIT)


class Served(LoopThread):
    """A :class:`LocalTable` behind an :class:`Authority` on a temp Unix socket."""

    def __init__(self, match_plan: MatchPlan, *, store: Any = None, clock=None,
                 tcp: bool = False, vouches: Any = None,
                 away: float | None = None, deck: list[Card] | None = None,
                 first: int | None = None) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="ud", dir="/tmp"))
        self.path = self.folder / "t.sock"
        self.table = LocalTable.start(store, match_plan, bot_pause=0, deck=deck, first=first)
        self.code = new_code()
        self.start_loop()
        kw: dict[str, Any] = {"clock": clock} if clock else {}
        if away is not None:
            kw["away"] = away
        self.authority = self.call(lambda: Authority(self.table, self.code,
                                                     vouches=vouches, **kw))
        self.run(self.authority.start(str(self.path), ("127.0.0.1", 0) if tcp else None))


    def raw(self) -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(WAIT)
        sock.connect(str(self.path))
        return sock

    def client(self, *, want: str = "play", name: str = "", token: str | None = None,
               code: str | None = None, delay: int = 0) -> "Client":
        rec = Recorder(self.raw())
        table = RemoteTable(rec, code or self.code, name=name, want=want, token=token,
                            delay=delay, reconnect=self.raw)  # type: ignore[arg-type]
        return Client(table, rec)

    def state(self) -> tuple[int | None, int, bool]:
        """(seat to act, events so far, over), read under the table's lock."""
        with self.table.lock:
            m = self.table.match
            return m.to_act, m.event_count, m.over

    def stop(self) -> None:
        if not self.thread.is_alive():
            return  # stopped already
        self.run(self.authority.close())
        self.stop_loop()
        shutil.rmtree(self.folder, ignore_errors=True)


class Client:
    """A :class:`RemoteTable` with a queue of the updates it got."""

    def __init__(self, table: RemoteTable, rec: Recorder) -> None:
        self.table = table
        self.rec = rec
        self.updates: queue.Queue = queue.Queue()
        self.chats: list[tuple] = []  # the chat lines its updates brought
        self.last = table.subscribe(self._told)

    def _told(self, update) -> None:
        if update.cause == "chat" and update.said is not None:
            self.chats.append(update.said)
        self.updates.put(update)

    def wait(self, test, what: str = "an update"):
        """The first update (the current one included) that passes ``test``."""
        update = self.last
        while not test(update):
            try:
                update = self.updates.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError(f"no {what} within {WAIT} s") from None
            self.last = update
        return update

    def frames(self) -> list[dict]:
        return FrameReader().feed(bytes(self.rec.data))


def raw_hello(sock: socket.socket, code: str, want: str = "play", **extra) -> dict:
    sock.sendall(encode({"t": "hello", "code": code, "want": want, **extra}))
    return read_one(sock)


def read_one(sock: socket.socket, reader: FrameReader | None = None) -> dict:
    reader = reader or FrameReader()
    while True:
        data = sock.recv(1 << 16)
        if not data:
            raise ConnectionError("closed")
        got = reader.feed(data)
        if got:
            return got[0]


def play_out(served: Served, clients: dict[int, Client], seed: int, limit: int = 100_000
             ) -> int:
    """Every human seat's client plays a random legal action when its view says it is
    its turn, until the match is over (or ``limit`` decisions); bots play themselves.
    Returns the decisions the clients made."""
    rng = Rng(seed, 11)
    made = 0
    while made < limit:
        to_act, count, over = served.state()
        if over:
            return made
        if to_act not in clients:  # a bot's turn: wait for the match to move
            watcher = next(iter(clients.values()))
            watcher.wait(lambda u: served.state()[:2] != (to_act, count) or u.over,
                         "a bot's move")
            for c in clients.values():
                c.table.hold(False)  # a round's end holds the bots until a client lets go
            continue
        c = clients[to_act]
        u = c.wait(lambda u: u.views[to_act].event_count == count, "the seat's turn")
        legal = u.views[to_act].legal_actions
        assert legal, "the view says it is this seat's turn"
        c.table.act(to_act, str(legal[rng.below(len(legal))]))
        made += 1
        c.wait(lambda u: u.views[to_act].event_count > count or u.cause == "refused",
               "the move's update")
        assert c.last.cause != "refused", c.last.refused
        for other in clients.values():
            other.table.hold(False)
    return made


def card_strings(value: Any) -> set[Card]:
    """Every card named anywhere in ``value``: a string that is a card, or a word of one
    (``"play R5 uno"``)."""
    found: set[Card] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, str):
            for word in v.split():
                try:
                    found.add(Card.parse(word))
                except ValueError:
                    pass
    return found


def hidden_faces(m: Match, seat: int | None) -> set[Card]:
    """Faces in another seat's hand that ``seat`` (None: a watcher) has never seen."""
    seen: set[Card] = set(m.discard_pile)
    if seat is not None:
        seen |= set(m.hand(seat))
    for e in m.events:
        if e.private is None or e.private == seat:
            seen.update(e.cards)
        if e.kind == "round_end":
            seen.update(c for hand in e.hands for c in hand)
    others = set().union(*(set(m.hand(s)) for s in range(m.seats) if s != seat))
    return others - seen


def wait_exit(pid: int) -> None:
    """Until the child process ``pid`` (a table :func:`~unoduo_tui.net.client.start_authority`
    started) has exited: everything it does on its way out is done.  Already reaped
    (its ``Popen`` collected it): it has exited."""
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


async def until(pilot, test, what: str, timeout: float = 30.0) -> None:
    """Let the app run until ``test()`` holds (``timeout``: a safety net, not a wait)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not test():
        if loop.time() > deadline:
            raise AssertionError(f"no {what} within {timeout} s")
        await pilot.pause(0.01)


def send_raw(table, message: dict) -> None:
    """``message`` (a plain map, maybe not a message at all) straight to the authority
    on ``table``'s connection: past the client's own checks and the typed encoder, as a
    hostile client would."""
    from unoduo_tui.net.frames import encode as frame

    table.send_frame(frame(message))
