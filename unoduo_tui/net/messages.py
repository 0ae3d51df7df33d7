"""The messages between a table's authority and its clients, declared once (#22).

One frozen dataclass per message; its ``TAG`` is the frame's ``t`` and its fields are
the frame's other keys (``start`` travels as ``from``).  :func:`encode` turns a message
into a frame (:mod:`.frames`), :func:`decode` a frame's map into the message — the one
decoder both ends use, checked against the same field declarations: a field of the
wrong type, a text or list over its bound, an unknown message or a message that does
not travel that way is a :class:`BadMessage` saying so, in words the other end is sent
back (``refused``).  Its cost is bounded: a frame is at most :data:`.frames.MAX_FRAME`
bytes with every msgpack length capped, and the checks are one pass over the fields,
stopping at the first that is wrong (a list's length is checked before its items).

Client → authority (:data:`TO_AUTHORITY`): :class:`Hello`, :class:`Pong`,
:class:`Act`, :class:`Hold`, :class:`Chat`, :class:`StandIn`.
Authority → client (:data:`TO_CLIENT`): :class:`Welcome`, :class:`Update`,
:class:`Presence`, :class:`ChatLine`, :class:`Refused`, :class:`Ping`, :class:`Bye`.
What each means is :mod:`.authority`'s module doc.

A lobby → the server's table service (:data:`TO_HALL`, :mod:`.hall`): :class:`Hello`
(to a table: the service hands the connection to it), :class:`Follow`,
:class:`OpenTable`, :class:`QuickMatch`, :class:`CancelQuick`.  The service → a lobby
(:data:`TO_LOBBY`): :class:`LobbyPage`, :class:`Opened`, :class:`Cancelled`,
:class:`Refused`.  A :class:`Record` (:class:`TableEntry`) is a message's part, with
its fields declared and checked the same way.

Between the nodes of a cluster (#27): a node's peer door → the node joining one of
its tables (:data:`TO_JOINING_NODE`): :class:`PeerChallenge`, :class:`Refused`; that
node → the door (:data:`TO_PEER`): :class:`PeerJoin`, then the player's own hello.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, Literal, Union

from . import frames
from .codes import MAX_DELAY

__all__ = ["Message", "BadMessage", "encode", "decode", "schema", "Want", "TO_AUTHORITY", "TO_CLIENT",
           "Hello", "Pong", "Act", "Hold", "Chat", "StandIn", "Welcome", "Update",
           "Presence", "ChatLine", "Refused", "Ping", "Bye", "MAX_TOKENS", "ACT_CHARS",
           "TEXT_CHARS", "MAX_SEATS", "Record", "TableEntry", "Follow", "LobbyPage",
           "OpenTable", "QuickMatch", "CancelQuick", "Opened", "Cancelled", "TO_HALL",
           "TO_LOBBY", "PAGE_TABLES", "MAX_FOLLOWED", "NO_TABLE", "PeerChallenge", "PeerJoin",
           "TO_PEER", "TO_JOINING_NODE"]

#: seat tokens a hello may offer
MAX_TOKENS = 8
#: the longest action text (``"play R5 uno"`` is 11)
ACT_CHARS = 100
#: the longest name, token, reason or chat line a message may carry (chat is clipped
#: to :data:`.authority.CHAT_CHARS` by the authority; this only bounds the frame)
TEXT_CHARS = 2_000
#: the most seats a table has (a list of seats or names is at most this long)
MAX_SEATS = 99
#: the tables one lobby page lists
PAGE_TABLES = 8
#: the server's table service's refusal of a code no table it holds has (the client
#: hears it as a closed table: :class:`ConnectionError`)
NO_TABLE = "no open table has that code"
#: the codes a lobby follows as its own (hosted or joined: shown apart, to rejoin)
MAX_FOLLOWED = 64


class BadMessage(ValueError):
    """A frame's map that is no message of this protocol going this way; ``str()`` is
    the reason, for the other end."""


def _limit(chars: int | None = None, items: int | None = None, problem: str | None = None,
           low: int | None = None, high: int | None = None) -> dict:
    return {"chars": chars, "items": items, "problem": problem, "low": low, "high": high}


def bounded(default: Any = dataclasses.MISSING, **limits: Any) -> Any:
    """A field with bounds (``chars``, ``items``, ``low``/``high``) and the words its
    refusal uses (``problem``)."""
    meta = {"limit": _limit(**limits)}
    if isinstance(default, (list, dict, set)):
        raise TypeError("a message's fields are immutable: use a tuple")
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class Message:
    """A message: ``TAG`` is its frame's ``t``."""

    TAG: ClassVar[str] = ""
    #: wire names that differ from the field's (``from`` is a Python keyword)
    WIRE: ClassVar[dict[str, str]] = {}


# -- client → authority ----------------------------------------------------------------

_TOKENS = f"tokens are at most {MAX_TOKENS} texts; new is true or false"


#: what a hello asks for: a seat, or to watch
Want = Literal["play", "watch"]


@dataclass(frozen=True)
class Hello(Message):
    """The first message: which table (``code``), who (``name``), to ``play`` or
    ``watch``; a player's seat ``tokens`` (``new``: a free seat may be given instead);
    a watcher's ``delay``; ``key``/``proof``: the SSH key vouched for (:mod:`.vouch`);
    ``token``: the one token of a hello before #21."""

    TAG: ClassVar[str] = "hello"
    code: str = bounded(chars=TEXT_CHARS, problem="wrong code")
    want: Want = bounded(problem="want is play or watch")
    name: str = bounded("", chars=TEXT_CHARS)
    tokens: tuple[str, ...] = bounded((), items=MAX_TOKENS, chars=100, problem=_TOKENS)
    new: bool = bounded(True, problem=_TOKENS)
    delay: int = bounded(0, low=0, high=MAX_DELAY,
                         problem=f"a delay is a whole number of moves, 0–{MAX_DELAY}")
    key: str | None = bounded(None, chars=TEXT_CHARS)
    proof: str | None = bounded(None, chars=TEXT_CHARS)
    token: str | None = bounded(None, chars=100, problem=_TOKENS)

    @property
    def offered(self) -> tuple[str, ...]:
        """The tokens to try, the old single ``token`` first."""
        return ((self.token,) if self.token else ()) + self.tokens


@dataclass(frozen=True)
class Pong(Message):
    TAG: ClassVar[str] = "pong"


@dataclass(frozen=True)
class Act(Message):
    """The client's seat makes the decision ``text`` (``"play R5 uno"``)."""

    TAG: ClassVar[str] = "act"
    text: str = bounded(chars=ACT_CHARS, problem="an action is a short text, like 'play R5'")


@dataclass(frozen=True)
class Hold(Message):
    """A player asks the bots to wait (``on``) or lets them go on."""

    TAG: ClassVar[str] = "hold"
    on: bool = bounded(problem="only a player can hold the bots: on is true or false")


@dataclass(frozen=True)
class Chat(Message):
    """One chat line from the client."""

    TAG: ClassVar[str] = "chat"
    text: str = bounded(chars=TEXT_CHARS, problem="chat is a line of text")


@dataclass(frozen=True)
class StandIn(Message):
    """Hand the away player's ``seat`` to a bot of ``level``."""

    TAG: ClassVar[str] = "stand_in"
    seat: int = bounded(low=0, high=MAX_SEATS - 1, problem="there is no such seat")
    level: str = bounded(chars=40, problem="a bot level is a short text")


# -- authority → client ----------------------------------------------------------------


@dataclass(frozen=True)
class Welcome(Message):
    """Seated (``seat`` None and no ``token`` for a watcher); the table's seats."""

    TAG: ClassVar[str] = "welcome"
    seat: int | None = bounded(low=0, high=MAX_SEATS - 1)
    token: str | None = bounded(chars=100)
    names: tuple[str, ...] = bounded(items=MAX_SEATS, chars=TEXT_CHARS)
    kinds: tuple[str, ...] = bounded(items=MAX_SEATS, chars=100)
    seats: int = bounded(low=2, high=MAX_SEATS)
    practice: bool = False


@dataclass(frozen=True)
class Update(Message):
    """A :meth:`~unoduo_tui.table.TableUpdate.to_dict` (``u``) holding this client's
    seat's view, its events after the first ``start`` only; a watcher's ``public``
    view instead.  The views are checked by their own ``from_dict``."""

    TAG: ClassVar[str] = "update"
    WIRE: ClassVar[dict[str, str]] = {"start": "from"}
    u: dict
    start: int = bounded(low=0)
    public: dict | None = None


@dataclass(frozen=True)
class Presence(Message):
    """Who is at the table: the ``connected`` seats, how many ``watchers``, the seats'
    ``names`` as the table shows them now."""

    TAG: ClassVar[str] = "presence"
    connected: tuple[int, ...] = bounded(items=MAX_SEATS, low=0, high=MAX_SEATS - 1)
    watchers: int = bounded(low=0)
    names: tuple[str, ...] = bounded(items=MAX_SEATS, chars=TEXT_CHARS)


@dataclass(frozen=True)
class ChatLine(Message):
    """A chat line to every client: from ``seat`` (None: a watcher) named ``name``."""

    TAG: ClassVar[str] = "chat"
    seat: int | None = bounded(low=0, high=MAX_SEATS - 1)
    name: str = bounded(chars=TEXT_CHARS)
    text: str = bounded(chars=TEXT_CHARS)


@dataclass(frozen=True)
class Refused(Message):
    """The last request was not taken (the match is unchanged)."""

    TAG: ClassVar[str] = "refused"
    reason: str = bounded(chars=TEXT_CHARS)


@dataclass(frozen=True)
class Ping(Message):
    TAG: ClassVar[str] = "ping"


@dataclass(frozen=True)
class Bye(Message):
    """The authority ends this connection, saying why."""

    TAG: ClassVar[str] = "bye"
    reason: str = bounded(chars=TEXT_CHARS)


# -- a lobby and the server's table service (:mod:`.hall`) --------------------------


@dataclass(frozen=True)
class Record:
    """A part of a message (a table in a lobby page): fields declared and checked as a
    message's are; travels as a map."""


_CODE_CHARS = 64


@dataclass(frozen=True)
class TableEntry(Record):
    """One open table as a lobby lists it: its ``code``, ``match`` id, ``host``'s name,
    ``preset``, ``seats``, the ``names`` seated so far, the ``open`` human seats,
    ``quick`` (a quick-match table), ``over`` and how many players are ``connected``."""

    code: str = bounded(chars=_CODE_CHARS)
    match: str = bounded(chars=_CODE_CHARS)
    host: str = bounded(chars=TEXT_CHARS)
    preset: str = bounded(chars=40)
    seats: int = bounded(low=2, high=MAX_SEATS)
    names: tuple[str, ...] = bounded(items=MAX_SEATS, chars=TEXT_CHARS)
    open: int = bounded(low=0, high=MAX_SEATS)
    quick: bool = False
    over: bool = False
    connected: int = bounded(0, low=0, high=MAX_SEATS)

    def describe(self) -> str:
        """``Ann's table — classic, 4 seats, 2 open`` (``full``; `` (quick match)``)."""
        free = f"{self.open} open" if self.open else "full"
        game = "UNO Duo" if self.preset == "duo" else self.preset
        quick = " (quick match)" if self.quick else ""
        return f"{self.host}'s table — {game}, {self.seats} seats, {free}{quick}"

    def matches(self, query: str) -> bool:
        """``query`` (casefolded) is in its host's name, a seated name, its game or its
        code."""
        game = "uno duo" if self.preset == "duo" else self.preset
        return any(query in text.casefold()
                   for text in (self.host, self.code, self.preset, game, *self.names))


@dataclass(frozen=True)
class Follow(Message):
    """A lobby follows the open tables: page ``page`` of those matching ``query`` (its
    host's name, a seated name, its game or code), without the tables of ``codes``
    (its player's own, listed apart in :attr:`LobbyPage.mine`).  Sent again on the
    same connection to turn the page or search; the service answers with a
    :class:`LobbyPage` now and whenever that page changes."""

    TAG: ClassVar[str] = "follow"
    query: str = bounded("", chars=100, problem="a search is a short text")
    page: int = bounded(0, low=0, high=100_000, problem="a page is a whole number")
    codes: tuple[str, ...] = bounded((), items=MAX_FOLLOWED, chars=_CODE_CHARS,
                                     problem=f"a lobby follows at most {MAX_FOLLOWED} codes")


@dataclass(frozen=True)
class LobbyPage(Message):
    """The ``tables`` of page ``page`` (of ``pages``; ``total`` match ``query``), and
    the followed ``codes``' tables still open (``mine``)."""

    TAG: ClassVar[str] = "lobby_page"
    tables: tuple[TableEntry, ...] = bounded(items=PAGE_TABLES)
    mine: tuple[TableEntry, ...] = bounded(items=MAX_FOLLOWED)
    page: int = bounded(low=0)
    pages: int = bounded(low=1)
    total: int = bounded(low=0)
    query: str = bounded("", chars=100)

    @classmethod
    def of(cls, entries: "list[TableEntry]", follow: Follow,
           position: dict[str, int] | None = None) -> "LobbyPage":
        """The page ``follow`` asks for of ``entries`` (the open tables, oldest
        first): the ones matching its query, but for its own codes (listed apart, in
        ``mine``).  ``position``: each entry's index by code, when ``entries`` holds
        no table that is over — then a page with no query costs its own length, not
        the listing's (the server's table service pages every lobby on each change)."""
        query = follow.query.strip().casefold()
        if position is not None and not query:
            return cls._unsearched(entries, follow, position)
        own = set(follow.codes)
        mine: list[TableEntry] = []
        shown: list[TableEntry] = []
        for entry in entries:
            if entry.over:
                continue
            if entry.code in own:
                mine.append(entry)
            elif not query or entry.matches(query):
                shown.append(entry)
        size = PAGE_TABLES
        pages = max(1, -(-len(shown) // size))
        page = min(follow.page, pages - 1)
        return cls(tuple(shown[page * size:(page + 1) * size]), tuple(mine[:MAX_FOLLOWED]),
                   page, pages, len(shown), follow.query)

    @classmethod
    def _unsearched(cls, entries: "list[TableEntry]", follow: Follow,
                    position: dict[str, int]) -> "LobbyPage":
        own = sorted({position[c] for c in follow.codes if c in position})
        total = len(entries) - len(own)
        size = PAGE_TABLES
        pages = max(1, -(-total // size))
        page = min(follow.page, pages - 1)
        at, skip = page * size, set(own)
        for p in own:  # the at-th entry not of its own: past each of its own before it
            if p <= at:
                at += 1
            else:
                break
        shown: list[TableEntry] = []
        while at < len(entries) and len(shown) < size:
            if at not in skip:
                shown.append(entries[at])
            at += 1
        return cls(tuple(shown), tuple(entries[p] for p in own), page, pages, total,
                   follow.query)


_WHERE = "data_dir names the player's folder"


@dataclass(frozen=True)
class OpenTable(Message):
    """Open a table in the service: a new match (``plan``, :func:`.client.plan_to_json`)
    or a hosted one saved at ``resume``, its save in ``data_dir`` (the host's folder,
    ``key`` their store's); ``away`` minutes (:data:`.authority.AWAY_SECONDS`);
    ``idle`` minutes with nobody connected before it ends (0: never)."""

    TAG: ClassVar[str] = "open"
    data_dir: str = bounded(chars=4096, problem=_WHERE)
    key: str | None = bounded(None, chars=TEXT_CHARS)
    plan: str | None = bounded(None, chars=1 << 16)
    resume: str | None = bounded(None, chars=4096)
    away: float | None = None
    idle: float | None = None
    quick: bool = False


@dataclass(frozen=True)
class QuickMatch(Message):
    """Quick match for the player of ``data_dir`` named ``name``: a seat at a waiting
    player's table, else a table of their own (UNO Duo), waiting."""

    TAG: ClassVar[str] = "quick"
    data_dir: str = bounded(chars=4096, problem=_WHERE)
    name: str = bounded("", chars=TEXT_CHARS)
    key: str | None = bounded(None, chars=TEXT_CHARS)


@dataclass(frozen=True)
class CancelQuick(Message):
    """Close the quick table ``code`` its host (``token``) waits at, unless a second
    player has sat down."""

    TAG: ClassVar[str] = "cancel_quick"
    code: str = bounded(chars=_CODE_CHARS)
    token: str = bounded(chars=100)


@dataclass(frozen=True)
class Opened(Message):
    """A table to sit at: ``code``; the host's ``seat`` and ``token`` and the
    ``match`` id when this lobby hosts it (``hosting``), else none (a quick match
    joined: sit with a new seat)."""

    TAG: ClassVar[str] = "opened"
    code: str = bounded(chars=_CODE_CHARS)
    hosting: bool = True
    match: str | None = bounded(None, chars=_CODE_CHARS)
    seat: int | None = bounded(None, low=0, high=MAX_SEATS - 1)
    token: str | None = bounded(None, chars=100)


@dataclass(frozen=True)
class Cancelled(Message):
    """The quick table is ``closed`` (False: a second player sat down: play on)."""

    TAG: ClassVar[str] = "cancelled"
    closed: bool


# -- between the nodes of a cluster (:mod:`.hall`'s peer door) -------------------------


@dataclass(frozen=True)
class PeerChallenge(Message):
    """A node's first word to another node that connects to join one of its tables: a
    fresh ``nonce`` (hex) the other must sign with the cluster's secret."""

    TAG: ClassVar[str] = "peer_challenge"
    nonce: str = bounded(chars=64)


@dataclass(frozen=True)
class PeerJoin(Message):
    """A node hands one of its players to the table ``code`` another node holds:
    ``guesser`` is who the first node found is talking (``lasts``: beyond this
    connection), ``node`` the first node's name, ``mac`` the HMAC of the challenge's
    nonce, the code and the guesser (:func:`.hall.peer_mac`) with the cluster's secret.  The player's own
    hello follows, then the connection is theirs."""

    TAG: ClassVar[str] = "peer_join"
    node: str = bounded(chars=TEXT_CHARS)
    code: str = bounded(chars=_CODE_CHARS, problem="wrong code")
    guesser: str = bounded(chars=TEXT_CHARS)
    mac: str = bounded(chars=64)
    lasts: bool = True


#: the messages each end may receive, by tag
TO_AUTHORITY: dict[str, type[Message]] = {m.TAG: m for m in (Hello, Pong, Act, Hold, Chat,
                                                             StandIn)}
TO_CLIENT: dict[str, type[Message]] = {m.TAG: m for m in (Welcome, Update, Presence, ChatLine,
                                                          Refused, Ping, Bye)}
TO_HALL: dict[str, type[Message]] = {m.TAG: m for m in (Hello, Follow, OpenTable, QuickMatch,
                                                        CancelQuick)}
TO_LOBBY: dict[str, type[Message]] = {m.TAG: m for m in (LobbyPage, Opened, Cancelled,
                                                         Refused)}
#: what a node's peer door receives first (then the player's hello and theirs)
TO_PEER: dict[str, type[Message]] = {m.TAG: m for m in (PeerJoin,)}
#: what a node joining a table of another hears first
TO_JOINING_NODE: dict[str, type[Message]] = {m.TAG: m for m in (PeerChallenge, Refused)}


# -- the encoder and the decoder -------------------------------------------------------


def encode(message: Message) -> bytes:
    """``message`` as one frame."""
    return frames.encode({"t": type(message).TAG, **_fields(message)})


def _fields(item: Message | Record) -> dict[str, Any]:
    cls = type(item)
    wire = getattr(cls, "WIRE", {})
    data: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        value = getattr(item, f.name)
        if isinstance(value, tuple):
            value = [_fields(v) if isinstance(v, Record) else v for v in value]
        elif isinstance(value, Record):
            value = _fields(value)
        data[wire.get(f.name, f.name)] = value
    return data


@cache
def schema(cls: type[Message] | type[Record]
           ) -> tuple[tuple[str, str, Any, dict, bool, Any], ...]:
    """Each field of the message or record ``cls``: (name, wire name, type, limits,
    required, default) — what :func:`decode` checks a frame against (worked out once a
    class)."""
    hints = typing.get_type_hints(cls)
    wires = getattr(cls, "WIRE", {})
    out = []
    for f in dataclasses.fields(cls):
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        out.append((f.name, wires.get(f.name, f.name), hints[f.name],
                    f.metadata.get("limit") or _limit(), required,
                    None if required else f.default))
    return tuple(out)


def decode(data: dict[str, Any], receiver: dict[str, type[Message]]) -> Message:
    """The message in a frame's map (:func:`.frames.decode`'s), as ``receiver``
    (:data:`TO_AUTHORITY` or :data:`TO_CLIENT`) takes it; :class:`BadMessage` saying
    what is wrong.  Keys it does not know are left alone (a newer peer's extras)."""
    tag = data.get("t")
    cls = receiver.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise BadMessage(f"unknown message {str(tag)[:20]!r}")
    return _build(cls, data, str(tag))


def _build(cls: Any, data: dict[str, Any], what: str) -> Any:
    values = {}
    for name, wire, kind, limit, required, default in schema(cls):
        if wire not in data:
            if required:
                raise BadMessage(limit["problem"] or f"{what} needs {wire}")
            values[name] = default
            continue
        values[name] = _check(data[wire], kind, limit, f"{what}'s {wire}")
    return cls(**values)


def _check(value: Any, kind: Any, limit: dict, what: str) -> Any:
    """``value`` as ``kind`` within ``limit`` (lists become tuples), else BadMessage."""
    problem = limit["problem"]
    origin = typing.get_origin(kind)
    if origin in (Union, types.UnionType):
        options = typing.get_args(kind)
        if value is None and type(None) in options:
            return None
        (kind,) = [k for k in options if k is not type(None)]
        return _check(value, kind, limit, what)
    if origin is Literal:
        if value in typing.get_args(kind) and isinstance(value, str):
            return value
        raise BadMessage(problem or f"{what} is one of {', '.join(typing.get_args(kind))}")
    if origin is tuple:
        if not isinstance(value, list) or (limit["items"] is not None
                                           and len(value) > limit["items"]):
            raise BadMessage(problem or f"{what} is a list of at most {limit['items']}")
        (item, _) = typing.get_args(kind)
        return tuple(_check(v, item, limit, what) for v in value)
    if kind is bool:
        if isinstance(value, bool):
            return value
        raise BadMessage(problem or f"{what} is true or false")
    if kind is int:
        if (not isinstance(value, int) or isinstance(value, bool)
                or (limit["low"] is not None and value < limit["low"])
                or (limit["high"] is not None and value > limit["high"])):
            raise BadMessage(problem or f"{what} is a whole number in range")
        return value
    if kind is str:
        if not isinstance(value, str) or (limit["chars"] is not None
                                          and len(value) > limit["chars"]):
            raise BadMessage(problem or f"{what} is a text of at most {limit['chars']}")
        return value
    if kind is float:
        if (not isinstance(value, (int, float)) or isinstance(value, bool)
                or value != value or value in (float("inf"), float("-inf"))):
            raise BadMessage(problem or f"{what} is a number")
        return float(value)
    if kind is dict:
        if not isinstance(value, dict):
            raise BadMessage(problem or f"{what} is a map")
        return value
    if isinstance(kind, type) and issubclass(kind, Record):
        if not isinstance(value, dict):
            raise BadMessage(problem or f"{what} is a map")
        return _build(kind, value, what)
    raise TypeError(f"no check for {kind!r}")  # pragma: no cover - a declaration's slip
