"""What one SSH client may cost the server: the limits in one place (:class:`Limits`),
who may come in (:class:`Gate`) and the input rate limiter.  No asyncssh here (the
tests build limits without a server).

A connection is **waiting** from its first byte until its game starts: key exchange,
authentication and the session request, all within :attr:`Limits.login_seconds`.
Waiting connections have their own pool (:attr:`~Limits.max_waiting` in all,
:attr:`~Limits.waiting_per_address` from one address), so connections that never log
in — a few bytes of ``SSH-2.0-x`` each — cannot take a player's place; one over
either cap is disconnected at once.  A connection whose game starts is **playing**:
:attr:`~Limits.max_connections` in all, :attr:`~Limits.per_address` from one address
and :attr:`~Limits.per_key` with one key; one over is told why on its terminal and
closed, and nobody else notices.

"One address" is the client's IPv4 address, or the /64 of an IPv6 one (what one
household or one cloud machine is given); ``127.0.0.1`` and ``127.0.0.2`` are two
addresses like any other (:func:`address_of`).
"""

from __future__ import annotations

import ipaddress
from collections import Counter
from dataclasses import dataclass

from ..ratelimit import TokenBucket  # its home: shared with unoduo web

__all__ = ["Limits", "TokenBucket", "Gate", "Place", "Refusal", "address_of"]


@dataclass(frozen=True)
class Limits:
    """The server's limits (``unoduo serve`` sets some from its options)."""

    #: players at once, in all (each runs one game process)
    max_connections: int = 200
    #: players at once from one address (the next one is told and closed)
    per_address: int = 8
    #: players at once with one key (the next one is told and closed)
    per_key: int = 3
    #: connections still logging in, in all, and from one address (the next one is
    #: disconnected at once)
    max_waiting: int = 128
    waiting_per_address: int = 4
    #: seconds from the first byte to the game's start: key exchange, logging in and
    #: asking for the game (asyncssh's ``login_timeout``, and ours after it)
    login_seconds: float = 10.0
    #: keys this server has never seen that one address may bring in an hour
    #: (:class:`~.identity.NewKeys`; a restart does not reset it)
    new_keys_per_hour: int = 10
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
    #: seconds between keepalives (a dead link is noticed within ~3 of them)
    keepalive_seconds: float = 60.0
    #: the largest SSH packet and window a channel accepts
    max_packet: int = 32 * 1024
    window: int = 256 * 1024
    #: seconds a game process has to leave after SIGHUP before SIGKILL
    hangup_grace: float = 5.0
    #: bytes of screen kept for a client whose window stays full before it is closed
    #: (``serve --workers``: the game writes into the server, not into a pty)
    output_buffer: int = 1 << 20
    #: seconds a worker may leave the server's pings unanswered before it is taken
    #: for hung, killed and its players told
    worker_stall: float = 10.0



def address_of(host: str) -> str:
    """The address a peer's limits count against: IPv4 as it is (an IPv4-mapped IPv6
    address too), IPv6 by its /64; anything else (a test's Unix socket) as given."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Refusal(Exception):
    """Why a connection may not come in (``str()``: one sentence for the client)."""


class Place:
    """One connection's place at the :class:`Gate`: waiting, playing (with ``key``),
    or gone."""

    __slots__ = ("address", "key", "state")

    def __init__(self, address: str) -> None:
        self.address = address
        self.key: str | None = None
        self.state = "waiting"

    @property
    def playing(self) -> bool:
        return self.state == "playing"


class Gate:
    """Counts the waiting and the playing connections by address (and the playing by
    key) against :class:`Limits`: :meth:`enter` on the first byte, :meth:`admit` when
    the game is asked for, :meth:`leave` when the connection ends.  Each raises
    :class:`Refusal` without changing a count."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.waiting: Counter[str] = Counter()
        self.playing: Counter[str] = Counter()
        self.keys: Counter[str] = Counter()

    @property
    def players(self) -> int:
        return sum(self.playing.values())

    def enter(self, address: str) -> Place:
        lim = self.limits
        if self.waiting[address] >= lim.waiting_per_address:
            raise Refusal(f"{self.waiting[address]} connections from your address are "
                          "logging in already: try again in a moment")
        if sum(self.waiting.values()) >= lim.max_waiting:
            raise Refusal("the unoduo server is busy with others logging in: try again "
                          "in a moment")
        self.waiting[address] += 1
        return Place(address)

    def refusal(self, place: Place, key: str) -> str | None:
        """Why ``place`` may not start a game with ``key`` now (None: it may)."""
        lim = self.limits
        if place.state != "waiting":
            return "one game per connection"
        if self.players >= lim.max_connections:
            return (f"the server is full ({self.players} players): try again later")
        if self.playing[place.address] >= lim.per_address:
            return (f"already {self.playing[place.address]} players from your address "
                    f"({place.address}): close one to open another")
        if self.keys[key] >= lim.per_key:
            return (f"already {self.keys[key]} connections with this key: close one to "
                    "open another")
        return None

    def admit(self, place: Place, key: str) -> None:
        """``place`` starts playing with ``key``; :class:`Refusal` saying why not."""
        why = self.refusal(place, key)
        if why is not None:
            raise Refusal(why)
        self._drop(self.waiting, place.address)
        self.playing[place.address] += 1
        self.keys[key] += 1
        place.state, place.key = "playing", key

    def leave(self, place: Place) -> None:
        if place.state == "waiting":
            self._drop(self.waiting, place.address)
        elif place.state == "playing":
            self._drop(self.playing, place.address)
            assert place.key is not None
            self._drop(self.keys, place.key)
        place.state = "gone"

    @staticmethod
    def _drop(counts: Counter[str], name: str) -> None:
        counts[name] -= 1
        if counts[name] <= 0:
            del counts[name]
