"""What one SSH client may cost the server: the limits in one place, and the input
rate limiter.  No asyncssh here (the tests build limits without a server)."""

from __future__ import annotations

from dataclasses import dataclass

from ..ratelimit import TokenBucket  # its home: shared with unoduo web

__all__ = ["Limits", "TokenBucket"]


@dataclass(frozen=True)
class Limits:
    """The server's limits (``unoduo serve`` sets the first three from its options)."""

    #: connections at once, in all (each runs one game process)
    max_connections: int = 200
    #: connections at once with one key (the next one is told and closed)
    per_key: int = 3
    #: seconds without a byte of input before a connection is closed (0: never)
    idle_seconds: float = 30 * 60
    #: input bytes a second a client may send for ever (keys; the mouse, which Textual
    #: has report every move, ~12 bytes each) …
    input_rate: float = 2048.0
    #: … and at once (a paste); bytes beyond it are dropped
    input_burst: int = 32 * 1024
    #: dropped bytes that close the connection (junk, not typing)
    junk_limit: int = 256 * 1024
    #: bytes waiting for the game process to read before the channel stops reading
    pty_buffer: int = 64 * 1024
    #: seconds between two resizes passed on to the game (the last one always is)
    resize_every: float = 0.1
    #: seconds to log in (asyncssh's ``login_timeout``)
    login_seconds: float = 30.0
    #: seconds between keepalives (a dead link is noticed within ~3 of them)
    keepalive_seconds: float = 60.0
    #: the largest SSH packet and window a channel accepts
    max_packet: int = 32 * 1024
    window: int = 256 * 1024
    #: seconds a game process has to leave after SIGHUP before SIGKILL
    hangup_grace: float = 5.0
