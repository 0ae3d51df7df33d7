"""A game's side of the server's table service (:mod:`.hall`): its requests (open a
table, quick match, cancel one) and a lobby's :class:`Following` of the open tables.

Blocking, no Textual: a request is one short connection (the answer, or
``Refused`` / ``ConnectionError`` for the caller to word); a following is one long
connection read by a thread of its own, which calls ``on_page`` with each
:class:`~.messages.LobbyPage` pushed — and does nothing at all in between.
"""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path
from typing import Any, Callable

from . import messages as msg
from .codes import hall_path
from .frames import BadFrame, FrameReader

__all__ = ["request", "open_table", "quick_match", "cancel_quick", "Following",
           "REQUEST_SECONDS"]

#: seconds to wait for the service's answer (opening a table writes its save)
REQUEST_SECONDS = 30.0


def _connect(path: Path | None, timeout: float | None) -> socket.socket:
    where = path or hall_path()
    if where is None:
        raise ConnectionError("no table service here (not under unoduo serve)")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(str(where))
    except OSError:
        sock.close()
        raise ConnectionError("the server's table service does not answer") from None
    return sock


def _receive(sock: socket.socket, frames: FrameReader, pending: list[dict[str, Any]]
             ) -> msg.Message:
    while not pending:
        data = sock.recv(1 << 16)
        if not data:
            raise ConnectionError("the server's table service closed the connection")
        pending.extend(frames.feed(data))
    return msg.decode(pending.pop(0), msg.TO_LOBBY)


def request(message: msg.Message, path: Path | None = None) -> msg.Message:
    """``message``'s answer; ``Refused`` (the service's reason) or ``ConnectionError``."""
    from ..table import Refused

    sock = _connect(path, REQUEST_SECONDS)
    try:
        sock.sendall(msg.encode(message))
        answer = _receive(sock, FrameReader(), [])
    except (socket.timeout, OSError, BadFrame, msg.BadMessage) as exc:
        raise ConnectionError(f"the server's table service did not answer: {exc}") from None
    finally:
        sock.close()
    if isinstance(answer, msg.Refused):
        raise Refused(answer.reason)
    return answer


def _info(opened: msg.Opened) -> dict:
    """An :class:`~.messages.Opened` as :func:`.client.start_authority`'s first line."""
    return {"code": opened.code, "match": opened.match, "seat": opened.seat,
            "token": opened.token, "port": None, "pid": None, "hosting": opened.hosting}


def open_table(data_dir: str | os.PathLike[str], *what: str, away: float | None = None,
               idle: float | None = None, key: str | None = None,
               path: Path | None = None) -> dict:
    """:func:`.client.start_authority` at the service: ``what`` is ``("--plan",
    JSON)`` or ``("--resume", PATH)``.  ``RuntimeError`` with the service's reason."""
    from ..table import Refused

    option, value = what
    try:
        opened = request(msg.OpenTable(
            str(data_dir), key, value if option == "--plan" else None,
            value if option == "--resume" else None, away, idle), path)
    except (Refused, ConnectionError) as exc:
        raise RuntimeError(getattr(exc, "reason", None) or str(exc)) from None
    assert isinstance(opened, msg.Opened)
    return _info(opened)


def quick_match(data_dir: str | os.PathLike[str], name: str, key: str | None = None,
                path: Path | None = None) -> dict:
    """Where quick match puts this player (``hosting``: at their own table)."""
    opened = request(msg.QuickMatch(str(data_dir), name, key), path)
    assert isinstance(opened, msg.Opened)
    return _info(opened)


def cancel_quick(code: str, token: str, path: Path | None = None) -> bool:
    """Close the quick table ``code`` we wait at; False: a player sat down."""
    answer = request(msg.CancelQuick(code, token), path)
    assert isinstance(answer, msg.Cancelled)
    return answer.closed


class Following:
    """A lobby following the open tables: ``on_page(page)`` is called (on this
    object's thread) with each page the service pushes; :meth:`follow` turns the page
    or searches; ``on_lost()`` once the service has gone.  (``pushed``: nothing to
    :meth:`poll`, unlike :class:`.lobby.FolderFeed`.)"""

    pushed = True

    def __init__(self, follow: msg.Follow, on_page: Callable[[msg.LobbyPage], None],
                 on_lost: Callable[[], None] = lambda: None,
                 path: Path | None = None) -> None:
        self.on_page, self.on_lost = on_page, on_lost
        self._sock = _connect(path, REQUEST_SECONDS)
        self._sock.settimeout(None)
        self._sending = threading.Lock()
        self._closed = False
        self.follow(follow)
        self._thread = threading.Thread(target=self._read, daemon=True,
                                        name="unoduo-lobby")
        self._thread.start()

    def follow(self, follow: msg.Follow) -> None:
        with self._sending:
            try:
                self._sock.sendall(msg.encode(follow))
            except OSError:
                pass  # the reader sees the end

    def poll(self) -> None:
        """Nothing: the service pushes."""

    def _read(self) -> None:
        frames = FrameReader()
        pending: list[dict[str, Any]] = []
        try:
            while True:
                answer = _receive(self._sock, frames, pending)
                if isinstance(answer, msg.LobbyPage):
                    self.on_page(answer)
        except (OSError, ConnectionError, BadFrame, msg.BadMessage):
            pass
        if not self._closed:
            self.on_lost()

    def close(self) -> None:
        self._closed = True
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
