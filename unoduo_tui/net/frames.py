"""The wire format between a table's authority and its clients: length-prefixed msgpack.

A frame is a 4-byte big-endian length, then that many bytes of msgpack holding one
map: ``{"v": PROTOCOL, "t": <message type>, ...}``.  Both ends read with
:class:`FrameReader`, which is fed whatever bytes arrived and returns the whole
messages among them.  Anything that is not a well-formed frame of this protocol —
a length over :data:`MAX_FRAME`, bytes msgpack cannot read, a value that is not a
map with a known version and a string type, an extension type, a map key that is not
a string — raises :class:`BadFrame`; the authority then drops that one client.

Unpacking is bounded: every msgpack length is capped, so a hostile frame cannot make
the reader allocate more than about the frame's own size.
"""

from __future__ import annotations

import asyncio
import struct
from collections import deque
from typing import Any

import msgpack

__all__ = ["PROTOCOL", "MAX_FRAME", "BadFrame", "encode", "FrameReader", "next_frame"]

#: the protocol version every message carries; a peer speaking another is refused
PROTOCOL = 1

#: the largest frame either end accepts (a view of a long 10-seat match is ~100 KB)
MAX_FRAME = 1 << 20

_LENGTH = struct.Struct(">I")

#: every msgpack error a hostile payload can provoke (ExtraData, FormatError and
#: StackError are ValueErrors)
_DECODE_ERRORS = (ValueError, TypeError, msgpack.UnpackException, RecursionError,
                  OverflowError)


class BadFrame(ValueError):
    """Bytes that are not a frame of this protocol (the peer is dropped)."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as a frame (``v`` is filled in)."""
    if not isinstance(message.get("t"), str):
        raise ValueError("a message needs a string type 't'")
    body = msgpack.packb({**message, "v": PROTOCOL}, use_bin_type=True)
    if len(body) > MAX_FRAME:
        raise ValueError(f"a {len(body)}-byte message is over the {MAX_FRAME}-byte limit")
    return _LENGTH.pack(len(body)) + body


def _reject_ext(code: int, data: bytes) -> None:
    raise ValueError(f"msgpack extension type {code} is not part of the protocol")


def _unpack(body: bytes) -> Any:
    """One frame's body, by a fresh unpacker with every length capped."""
    return msgpack.unpackb(
        body, raw=False, strict_map_key=True, use_list=True, ext_hook=_reject_ext,
        max_str_len=MAX_FRAME, max_bin_len=MAX_FRAME, max_array_len=1 << 17,
        max_map_len=1 << 12, max_ext_len=0,
    )


def decode(body: bytes) -> dict[str, Any]:
    """The message in one frame's body (``BadFrame`` when it is not one)."""
    try:
        message = _unpack(body)
    except _DECODE_ERRORS as exc:
        raise BadFrame(f"not msgpack: {exc}") from None
    if not isinstance(message, dict):
        raise BadFrame("a message is a map")
    if message.get("v") != PROTOCOL:
        raise BadFrame(f"protocol version {message.get('v')!r}, this end speaks {PROTOCOL}")
    if not isinstance(message.get("t"), str):
        raise BadFrame("a message needs a string type 't'")
    return message


class FrameReader:
    """Turns a byte stream into messages: :meth:`feed` what arrived, get the whole
    messages it completed.  After a :class:`BadFrame` the stream is unusable (there is
    no resynchronising a length-prefixed stream): drop the peer."""

    __slots__ = ("_buffer", "_broken")

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._broken = False

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        if self._broken:
            raise BadFrame("the stream already failed")
        self._buffer += data
        messages = []
        try:
            while len(self._buffer) >= _LENGTH.size:
                (size,) = _LENGTH.unpack_from(self._buffer)
                if size > MAX_FRAME:
                    raise BadFrame(f"a {size}-byte frame is over the {MAX_FRAME}-byte limit")
                end = _LENGTH.size + size
                if len(self._buffer) < end:
                    break
                body = bytes(self._buffer[_LENGTH.size:end])
                del self._buffer[:end]
                messages.append(decode(body))
        except BadFrame:
            self._broken = True
            self._buffer.clear()
            raise
        return messages

    @property
    def pending(self) -> int:
        """Bytes received that are not yet a whole frame."""
        return len(self._buffer)

    def rest(self) -> bytes:
        """The bytes received that are not yet a whole frame, taken (a connection
        handed on as a byte stream: :mod:`.hall`'s relay to another node)."""
        rest = bytes(self._buffer)
        self._buffer.clear()
        return rest


async def next_frame(reader: asyncio.StreamReader, frames: FrameReader,
                     pending: "deque[Any]") -> Any:
    """The next frame of a connection (``pending`` holds those read but not taken
    yet), or ``None`` at its end; ``BadFrame`` as :meth:`FrameReader.feed`."""
    while not pending:
        data = await reader.read(1 << 16)
        if not data:
            return None
        pending.extend(frames.feed(data))
    return pending.popleft()
