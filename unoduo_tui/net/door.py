"""The door of one hosted table: its join code and who may try it now.

A connection's hello is let in when its code is the table's (compared in constant
time) and the guesser it comes from is not locked out (:class:`~.guesses.Guesses`,
the arithmetic in :mod:`.codes`).  The guesser is the SSH key the server vouched for
(:mod:`.vouch`) when the peer is a game the server started, else the socket peer's
Unix user, else — over TCP — the connection itself."""

from __future__ import annotations

import asyncio
import hmac
import itertools
import os
import socket
import struct
import time
from typing import Callable

from . import messages as msg
from .guesses import Guesser, Guesses
from .vouch import Vouches

__all__ = ["Door", "peer_key"]

_tcp_connections = itertools.count(1)


def peer_key(writer: asyncio.StreamWriter) -> Guesser:
    """Who is connecting, as far as the socket tells: the Unix user, or (TCP) this
    connection."""
    sock = writer.get_extra_info("socket")
    if sock is not None and sock.family == socket.AF_UNIX:
        uid = _peer_uid(sock)
        return Guesser(f"uid:{uid}" if uid is not None else "unix")
    return Guesser(f"tcp:{next(_tcp_connections)}", lasts=False)


def _peer_uid(sock: socket.socket) -> int | None:
    try:
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        uid: int = struct.unpack("3i", creds)[1]
        return uid
    except OSError:
        return None


class Door:
    """The code ``code`` and its lock-out (see the module doc); ``vouches``: the SSH
    server's public half, to believe the keys it signed (None: no hello's key is
    believed)."""

    def __init__(self, code: str, clock: Callable[[], float] = time.monotonic,
                 vouches: Vouches | None = None) -> None:
        self.code = code
        #: who may try the code now (per guesser, per table)
        self.guesses = Guesses(clock)
        self.vouches = vouches

    def guesser(self, peer: Guesser, hello: msg.Hello) -> Guesser:
        """The hello's key if the SSH server vouched for it and the peer is a process
        of our own Unix user (a game the server started), else who the socket says."""
        if self.vouches is not None and peer.id == f"uid:{os.getuid()}":
            key = self.vouches.check(hello.key, hello.proof)
            if key is not None:
                return Guesser(f"key:{key}")
        return peer

    def refusal(self, peer: Guesser, hello: msg.Hello) -> str | None:
        """Why ``hello`` (from ``peer``) may not come in, or ``None``: its code is right
        and its guesser may try; the guesses are counted either way."""
        who = self.guesser(peer, hello)
        why = self.guesses.refusal(who)
        if why is not None:  # not compared: a locked guesser learns nothing
            return why
        if not hmac.compare_digest(hello.code.encode("utf-8", "replace"), self.code.encode()):
            self.guesses.wrong(who)
            return "wrong code"
        self.guesses.right(who)
        return None
