"""A worker of ``unoduo serve --workers N``: many players' apps in one process.

``python -m unoduo_tui.ssh.worker --fd N --limits JSON``: the front (:mod:`.front`)
starts it with one end of a Unix socket pair as descriptor ``N`` and speaks
:mod:`.relay` on it.  Each :class:`~.relay.Open` starts the lobby app of that
player (:func:`~unoduo_tui.sessions.session_app`, its own data dir, name, key and
terminal) as a :class:`~.hosted.HostedApp` in this event loop; its screen goes back as
:class:`~.relay.Output`, its end as :class:`~.relay.Closed`.

The worker ends when the front does: the socket's end of file (the front stopped, or
was killed) hangs up every app and exits; ``PR_SET_PDEATHSIG`` kills it if the front
dies while this loop is stuck.  SIGTERM hangs up every app too.  A message it cannot
handle is logged (stderr: the server's log) and that session closed, not the worker.
Every move was saved as it was made: a worker killed costs its players their
connection, not their match.  The bots of its tables think in a process of its own
(:class:`~unoduo_tui.table.thinking.BotPool`), never on this loop's interpreter.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import json
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..shutdown import die_with_parent
from . import relay
from .hosted import CRASHED, HostedApp
from .limits import Limits

if TYPE_CHECKING:  # pragma: no cover
    from ..table.thinking import Thinker

__all__ = ["main", "Worker"]


def _log(line: str) -> None:
    # sys.__stderr__: Textual points sys.stderr at an app's print capture while it runs
    print(f"{time.strftime('%H:%M:%S')} worker {os.getpid()}: {line}", file=sys.__stderr__,
          flush=True)


class Worker(asyncio.Protocol):
    """The worker's end of the relay: its sessions by ``sid``."""

    def __init__(self, limits: Limits, thinker: Thinker | None = None) -> None:
        self.limits = limits
        self.thinker = thinker  # where the bots think (a pool: not on this loop's GIL)
        self.sessions: dict[int, HostedApp] = {}
        self.transport: asyncio.Transport | None = None
        self.reader = relay.Reader()
        self.done = asyncio.Event()
        self._out: list[bytes] = []  # frames queued for the front (send, flush)

    # -- the socket --------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        try:
            messages = self.reader.feed(data)
        except relay.BadFrame as exc:  # the front speaks nothing else: stop
            _log(f"bad frame from the front ({exc}): stopping")
            self.transport.close()  # type: ignore[union-attr]
            return
        for message in messages:
            try:
                self.handle(message)
            except Exception as exc:  # one session's trouble is not the others'
                _log(f"cannot handle {type(message).__name__}: {exc!r}")
                sid = getattr(message, "sid", None)
                if sid is not None:
                    self._drop(sid, f"the server could not handle that session ({exc!r})")

    def connection_lost(self, exc: Exception | None) -> None:
        self.hang_up_all()
        self.done.set()

    def send(self, message: relay.Message) -> None:
        """Queue ``message`` for the front; what one turn of the loop sends (the frames
        of every session drawn in it) goes in one write (#22: a write a frame, a
        system call and a wake-up of the front each, were a sixth of a worker's CPU)."""
        if self.transport is None or self.transport.is_closing():
            return
        self._out.append(relay.encode(message))
        if len(self._out) == 1:
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Write what :meth:`send` queued (called soon after; and before exiting)."""
        data = b"".join(self._out)
        self._out.clear()
        if data and self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    # -- the messages ------------------------------------------------------------------

    def handle(self, message: relay.Message) -> None:
        if isinstance(message, relay.Ping):
            self.send(relay.Pong(message.n))
        elif isinstance(message, relay.Open):
            self.open(message)
        else:
            host = self.sessions.get(getattr(message, "sid", -1))
            if host is None:
                return  # a session that has just ended
            if isinstance(message, relay.Input):
                host.input(message.data)
            elif isinstance(message, relay.Resize):
                host.resize(message.columns, message.rows)
            elif isinstance(message, relay.Flow):
                (host.pause_output if message.paused else host.resume_output)()
            elif isinstance(message, relay.Hangup):
                host.hangup()

    def open(self, message: relay.Open) -> None:
        from ..sessions import SessionConfig, session_app
        from .hosted import HostedApp

        sid = message.sid
        if sid in self.sessions:
            raise ValueError(f"session {sid} is open already")
        config = SessionConfig(Path(message.data_dir), message.name, Path(message.lobby_dir),
                               message.key, message.term, message.colorterm, message.proof)

        def output(data: bytes) -> None:
            for chunk in relay.chunks(data):
                self.send(relay.Output(sid, chunk))

        host = HostedApp(session_app(config, thinker=self.thinker, shared_loop=True), output,
                         self.limits,
                         (message.columns, message.rows))
        self.sessions[sid] = host
        host.start().add_done_callback(lambda task: self._ended(sid, task))

    def _ended(self, sid: int, task: asyncio.Task) -> None:
        self.sessions.pop(sid, None)
        if task.cancelled():
            status, message = 1, None
        elif task.exception() is not None:
            _log(f"session {sid} failed: {task.exception()!r}")
            status, message = 1, CRASHED
        else:
            status, message = task.result()
        self.send(relay.Closed(sid, status, message))

    def _drop(self, sid: int, why: str) -> None:
        host = self.sessions.pop(sid, None)
        if host is not None:
            host.hangup()
        self.send(relay.Closed(sid, 1, why))

    def hang_up_all(self) -> None:
        for host in list(self.sessions.values()):
            host.hangup()

    async def wait_all(self, seconds: float) -> None:
        tasks = [h.task for h in self.sessions.values() if h.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=seconds)


def _preload() -> None:
    """Import what every session's app needs now, once, so the first player does not
    wait for it; then keep the collector off those objects (they live for ever)."""
    from .. import app, apps, sessions  # noqa: F401
    from ..screens import game, lobby, new_match  # noqa: F401

    apps.lobby_app_class()
    gc.collect()
    gc.freeze()
    gc.set_threshold(_YOUNG, 10, _NEVER)  # no full collection but ours (_collections)


#: the collector's first threshold (Python's default)
_YOUNG = 700
#: a second threshold no count reaches: no full collection on its own
_NEVER = 1 << 30
#: seconds between two collections of what is new since the last one
YOUNG_GC_SECONDS = 5.0
#: seconds between two collections of everything (the garbage of ended sessions)
FULL_GC_SECONDS = 600.0


async def _collections() -> None:
    """The collector's oldest generation, by this timer only.

    Many apps make one big heap.  Left to Python, full collections ran 19 times a
    minute with 15 players and stopped every session of the worker for up to 1.4 s
    each; and left to a timer alone, the cyclic garbage of every session (the screens
    a player has left, the new-match form) piled up between two collections, a few
    MiB a player.  So every :data:`YOUNG_GC_SECONDS` what is new since the last
    collection is collected and what survives is frozen out of the collector's sight
    (``gc.freeze``): each collection looks only at a few seconds of new objects
    (measured: ~20 ms with 30 players playing).  Every :data:`FULL_GC_SECONDS`
    everything is unfrozen and collected once, for the sessions that have ended."""
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(YOUNG_GC_SECONDS)
        if time.monotonic() - last_full >= FULL_GC_SECONDS:
            gc.unfreeze()
            last_full = time.monotonic()
        gc.collect()
        gc.freeze()


async def _serve(fd: int, limits: Limits) -> None:
    from ..table.thinking import BotPool

    loop = asyncio.get_running_loop()
    sock = socket.socket(fileno=fd)
    bots = BotPool(1)
    bots.start()
    worker = Worker(limits, bots.think)
    await loop.connect_accepted_socket(lambda: worker, sock)
    loop.add_signal_handler(signal.SIGTERM, worker.hang_up_all)
    loop.add_signal_handler(signal.SIGINT, lambda: None)  # the front decides
    collector = loop.create_task(_collections())
    try:
        await worker.done.wait()
        await worker.wait_all(limits.hangup_grace)
        await asyncio.sleep(0)  # the sessions' last words (their done callbacks)
    finally:
        worker.flush()
        collector.cancel()
        bots.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m unoduo_tui.ssh.worker")
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--limits", default="{}")
    args = parser.parse_args(argv)
    die_with_parent()
    known = {f.name for f in dataclasses.fields(Limits)}
    limits = Limits(**{k: v for k, v in json.loads(args.limits).items() if k in known})
    _preload()
    asyncio.run(_serve(args.fd, limits))
    return 0


if __name__ == "__main__":
    sys.exit(main())
