"""What the SSH front and its workers say to each other (``unoduo serve --workers``).

The front terminates SSH (keys, limits) and relays each session's bytes to a worker
process that runs many apps (:mod:`.worker`); one Unix socket per worker carries all
of that worker's sessions, each message naming its session by ``sid``.  Every message
is one frozen dataclass below, declared once: :func:`encode` is the one encoder and
:class:`Reader` the one decoder, on the frames of :mod:`unoduo_tui.net.frames`
(length-prefixed msgpack maps, bounded).  A frame that is not exactly one of these
messages — an unknown type, a field missing, extra or of the wrong type, a number out
of range — is :class:`~unoduo_tui.net.frames.BadFrame`, and the stream is dropped.

front → worker: :class:`Open`, :class:`Input`, :class:`Resize`, :class:`Flow`,
:class:`Hangup`, :class:`Ping`.  worker → front: :class:`Output`, :class:`Closed`,
:class:`Pong`.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, Union

from ..net.frames import MAX_FRAME, BadFrame, FrameReader
from ..net.frames import encode as encode_frame

__all__ = ["Open", "Input", "Resize", "Flow", "Hangup", "Ping", "Output", "Closed", "Pong",
           "MESSAGES", "Message", "encode", "Reader", "BadFrame", "CHUNK", "chunks"]

#: the most bytes of a session's input or output in one message (a 1000×1000 screen
#: is many frames of this)
CHUNK = 64 * 1024
#: the range of every whole number on the wire (a session id, a size, a status)
_INT = (0, (1 << 53) - 1)


@dataclass(frozen=True)
class Open:
    """A new session: its player and terminal (see :class:`~unoduo_tui.sessions.SessionConfig`)."""
    sid: int
    columns: int
    rows: int
    term: str
    colorterm: str | None
    data_dir: str
    name: str
    key: str | None
    lobby_dir: str
    #: the server's signature for ``key`` (:mod:`~unoduo_tui.net.vouch`): the session's
    #: hellos carry it, as a game process's carry its environment's
    proof: str | None = None


@dataclass(frozen=True)
class Input:
    """Bytes the client sent (already through the input limit)."""
    sid: int
    data: bytes


@dataclass(frozen=True)
class Resize:
    sid: int
    columns: int
    rows: int


@dataclass(frozen=True)
class Flow:
    """The client's window is full (``paused``), or open again."""
    sid: int
    paused: bool


@dataclass(frozen=True)
class Hangup:
    """The client has gone, or the server ends the session: the app ends."""
    sid: int


@dataclass(frozen=True)
class Ping:
    """Are you there (and not stuck)?  Answered with the same ``n``."""
    n: int


@dataclass(frozen=True)
class Output:
    """Bytes for the client's terminal."""
    sid: int
    data: bytes


@dataclass(frozen=True)
class Closed:
    """The session's app has ended: its exit status, and the line to tell the player
    (None: nothing)."""
    sid: int
    status: int
    message: str | None


@dataclass(frozen=True)
class Pong:
    n: int


MESSAGES: tuple[type, ...] = (Open, Input, Resize, Flow, Hangup, Ping, Output, Closed, Pong)
Message = Union[Open, Input, Resize, Flow, Hangup, Ping, Output, Closed, Pong]


class _Field(typing.NamedTuple):
    name: str
    kind: type
    optional: bool


def _fields(cls: type) -> tuple[_Field, ...]:
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        args = typing.get_args(hint)
        optional = (typing.get_origin(hint) in (Union, types.UnionType)
                    and type(None) in args)
        kind = next(a for a in args if a is not type(None)) if optional else hint
        if kind not in (int, bool, str, bytes):
            raise TypeError(f"{cls.__name__}.{f.name}: {hint} is not a wire type")
        out.append(_Field(f.name, kind, optional))
    return tuple(out)


_BY_NAME: dict[str, tuple[type, tuple[_Field, ...]]] = {
    cls.__name__: (cls, _fields(cls)) for cls in MESSAGES}
_KEYS: dict[str, frozenset[str]] = {
    name: frozenset(f.name for f in fields) | {"t", "v"}
    for name, (cls, fields) in _BY_NAME.items()}


def encode(message: Message) -> bytes:
    """``message`` as one frame."""
    name = type(message).__name__
    if _BY_NAME.get(name, (None,))[0] is not type(message):
        raise TypeError(f"{message!r} is not a relay message")
    return encode_frame({"t": name, **{f.name: getattr(message, f.name)
                                        for f in _BY_NAME[name][1]}})


def _value(field: _Field, value: Any) -> Any:
    if value is None and field.optional:
        return None
    if field.kind is int:
        ok = type(value) is int and _INT[0] <= value <= _INT[1]
    else:
        ok = type(value) is field.kind
    if not ok:
        raise BadFrame(f"{field.name}: {type(value).__name__} is not a {field.kind.__name__}")
    return value


def decode(raw: dict[str, Any]) -> Message:
    """The message one frame holds (``BadFrame`` if it is not exactly one)."""
    name = raw.get("t")
    entry = _BY_NAME.get(name) if isinstance(name, str) else None
    if entry is None or not isinstance(name, str):
        raise BadFrame(f"not a relay message: {str(name)[:40]!r}")
    cls, fields = entry
    if raw.keys() != _KEYS[name]:
        raise BadFrame(f"{name}: fields {sorted(map(str, raw.keys() ^ _KEYS[name]))[:5]} "
                       "missing or unknown")
    return cls(**{f.name: _value(f, raw[f.name]) for f in fields})


class Reader:
    """Turns a relay stream into messages: :meth:`feed` what arrived, get the whole
    messages in it.  ``BadFrame`` once, and the stream is unusable after it."""

    __slots__ = ("_frames", "_broken")

    def __init__(self) -> None:
        self._frames = FrameReader()
        self._broken = False

    def feed(self, data: bytes) -> list[Message]:
        if self._broken:
            raise BadFrame("the stream already failed")
        try:
            return [decode(raw) for raw in self._frames.feed(data)]
        except BadFrame:
            self._broken = True
            raise


def chunks(data: bytes, size: int = CHUNK) -> list[bytes]:
    """``data`` in pieces a message can carry."""
    return [data[i:i + size] for i in range(0, len(data), size)] or [b""]


assert CHUNK < MAX_FRAME // 2  # a chunk and its message's other fields fit a frame
