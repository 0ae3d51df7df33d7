"""``unoduo serve --proxy-protocol`` (#27): nodes behind a TCP balancer (HAProxy's
``send-proxy-v2``) learn each client's real address from the PROXY protocol v2 header
the balancer sends before the client's first byte — so the per-address limits and the
log see the client, not the balancer.

Refused, the connection closed at once and one log line: a connection from an address
that is not a balancer's (``--proxy-from``: who may say where a client comes from — a
forged header from anyone else is worth nothing), and one from a balancer without a
whole, well-formed header within :data:`HEADER_SECONDS`.  A ``LOCAL`` header (the
balancer's own connection, a health check) keeps the balancer's address.

The header is read here, before asyncssh sees a byte: :class:`ProxyListener` is an
asyncssh *tunnel* (an object with ``create_server``) that listens itself and hands
each connection, header read, to asyncssh's own connection object with the client's
address set as its ``peername``.  No asyncssh import here.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from typing import Any, Callable, Sequence, TypeAlias

__all__ = ["SIGNATURE", "ProxyError", "parse_header", "ProxyListener", "allowed_sources",
           "HEADER_SECONDS", "Network"]

#: an address or network the balancers' connections may come from (``--proxy-from``)
Network: TypeAlias = "ipaddress.IPv4Network | ipaddress.IPv6Network"

SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
#: seconds a balancer has to send the whole header
HEADER_SECONDS = 5.0
#: the longest header read (16 bytes and an address block of at most 216 with TLVs)
MAX_HEADER = 16 + 536


class ProxyError(Exception):
    """Not a PROXY v2 header (``str()``: why, for the log)."""


def parse_header(data: bytes) -> tuple[int, tuple[str, int] | None] | None:
    """The PROXY v2 header at the start of ``data``: (its length, the client's (address,
    port), or None for a ``LOCAL`` header or an address family other than TCP over
    IPv4/IPv6); None: not all of it yet.  :class:`ProxyError` when it is none."""
    if len(data) < 16:
        if not SIGNATURE.startswith(data[:12]):
            raise ProxyError("no PROXY v2 header")
        return None
    if data[:12] != SIGNATURE:
        raise ProxyError("no PROXY v2 header")
    version, command = data[12] >> 4, data[12] & 0x0F
    if version != 2 or command not in (0, 1):
        raise ProxyError(f"PROXY header version {version}, command {command}")
    family, length = data[13], int.from_bytes(data[14:16], "big")
    if 16 + length > MAX_HEADER:
        raise ProxyError("PROXY header too long")
    if len(data) < 16 + length:
        return None
    body = data[16:16 + length]
    if command == 0:  # LOCAL: the balancer's own connection
        return 16 + length, None
    if family == 0x11 and length >= 12:  # TCP over IPv4
        return 16 + length, (str(ipaddress.IPv4Address(body[0:4])),
                             int.from_bytes(body[8:10], "big"))
    if family == 0x21 and length >= 36:  # TCP over IPv6
        return 16 + length, (str(ipaddress.IPv6Address(body[0:16])),
                             int.from_bytes(body[32:34], "big"))
    if family == 0x00:
        return 16 + length, None
    raise ProxyError(f"PROXY header of address family {family:#x}")


def allowed_sources(text: str) -> tuple[Network, ...]:
    """``--proxy-from``: addresses or networks, comma-separated (``ValueError``)."""
    nets = tuple(ipaddress.ip_network(part.strip(), strict=False)
                 for part in text.split(",") if part.strip())
    if not nets:
        raise ValueError("--proxy-from names no address")
    return nets


def _is_from(host: str, nets: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net for net in nets)


class _HeaderFirst(asyncio.Protocol):
    """One connection until its header is read; then asyncssh's."""

    def __init__(self, listener: "ProxyListener") -> None:
        self.listener = listener
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.timer: asyncio.TimerHandle | None = None
        self.peer: tuple[str, int] = ("?", 0)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        peer = transport.get_extra_info("peername") or ("?", 0)
        self.peer = (str(peer[0]), int(peer[1]))
        if not _is_from(self.peer[0], self.listener.sources):
            self._refuse(f"not a balancer ({self.peer[0]} is not in --proxy-from)")
            return
        self.timer = asyncio.get_running_loop().call_later(
            HEADER_SECONDS, self._refuse, "no PROXY header in time")

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        try:
            found = parse_header(self.buffer)
        except ProxyError as exc:
            self._refuse(str(exc))
            return
        if found is None:
            return
        length, client = found
        if self.timer is not None:
            self.timer.cancel()
        rest, self.buffer = self.buffer[length:], b""
        inner = self.listener.session_factory("", 0)
        assert self.transport is not None
        inner.set_extra_info(peername=client or self.peer, balancer=self.peer)
        self.transport.set_protocol(inner)
        inner.connection_made(self.transport)
        if rest:
            inner.data_received(rest)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()

    def _refuse(self, why: str) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.listener.log(f"{self.peer[0]} refused: {why}")
        if self.transport is not None:
            self.transport.abort()


class ProxyListener:
    """An asyncssh tunnel (``create_server(..., tunnel=ProxyListener(...))``) that
    listens itself and reads each connection's PROXY v2 header first (see the module
    doc); ``sources``: the balancers' addresses (:func:`allowed_sources`)."""

    def __init__(self, sources: Sequence[Network], log: Callable[[str], None]) -> None:
        self.sources = tuple(sources)
        self.log = log
        self.session_factory: Any = None

    async def create_server(self, session_factory: Any, host: str, port: int
                            ) -> asyncio.AbstractServer:
        self.session_factory = session_factory
        loop = asyncio.get_running_loop()
        return await loop.create_server(lambda: _HeaderFirst(self), host, port,
                                        family=socket.AF_UNSPEC, reuse_address=True)
