"""The table: the one thing the game screen talks to (#14), local now, remote later (#15).

A client of a table receives :class:`TableUpdate` values — each seat it plays gets a
fresh :class:`~engine.view.PlayerView` (its events already redacted for that seat) —
and sends decisions as action *texts* for the seat whose turn it is.  Nothing here
is a live object of the match: updates are plain values that
:meth:`TableUpdate.to_dict` / :meth:`TableUpdate.from_dict` turn into msgpack-/JSON-safe
data and back, so a socket can carry them unchanged.

:class:`Table` is the interface (a :class:`typing.Protocol`); the local table
(:class:`unoduo_tui.table.local.LocalTable`) owns the match, its save file and the
bots' thread.  A remote table (#15) implements the same methods over a socket; the
screen cannot tell them apart.

The contract a client relies on:

- :meth:`Table.subscribe` returns the state now and then calls the listener with
  every later update, **from any thread** (a Textual screen posts a message); the
  listener must not block.  Updates are numbered (``seq``); each is the whole state,
  so a client may drop one older than the last it took.
- :meth:`Table.act` raises :class:`Refused` at once for what it can tell at once (not
  your seat, not your turn, not legal now); a remote table may also refuse later, as
  an update whose ``refused`` says why.  Either way the match is unchanged.
- Bots and their pacing are the table's: an update says who is ``thinking``.
  :meth:`Table.hold` asks the bots to wait while a client shows something its
  player must see first (a shown hand); the table holds by itself at a round's end
  until a client lets go.
"""

from __future__ import annotations

from collections import abc
from dataclasses import dataclass, field, fields
from functools import cache
from types import UnionType
from typing import (Any, Callable, Literal, Mapping, Protocol, Union, get_args, get_origin,
                    get_type_hints, runtime_checkable)

from engine import Card, Event, PlayerView

__all__ = ["Cause", "Said", "Listener", "Refused", "Table", "HostedTable", "TableUpdate", "ShownHand", "shown_hand",
           "guilt_estimate", "save_wait"]

#: why an update was sent
Cause = Literal["start", "move", "undo", "redo", "thinking", "save", "refused", "closed",
                "seats", "presence", "chat"]

#: a chat line at a shared table: (the seat it came from — None: a watcher —, the
#: name it came under, the text)
Said = tuple[int | None, str, str]

#: a seat whose hand was shown to a challenger, and the cards (A6 / C8)
ShownHand = tuple[int, tuple[Card, ...]]


class Refused(ValueError):
    """The table did not take an action (or a request): ``reason`` says why, in words
    for the player.  The match is unchanged."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class TableUpdate:
    """The table as one client may see it after a change.

    ``views``: a :class:`PlayerView` for each seat the client plays (none for a
    spectator's hidden seats; a remote watcher's public view under ``None``); ``to_act``: whose decision it is (``None`` when the
    match is over); ``thinking``: the bot seat choosing now; ``save_error``: why the
    last save failed — the table takes no decision until a save succeeds, and the
    views are the last ones told before it failed (:func:`save_wait` says so to the
    player); ``refused``: the authority's
    answer to this client's last action, when it did not take it; ``can_undo`` /
    ``can_redo`` / ``undos``: practice undo (only a practice table offers it);
    ``lost``: why this client's connection to its table is gone (``None``: it is not)
    — the views are the last it was told, and :meth:`Table.rejoin` connects again;
    ``stand_ins``: the seats a bot plays for their away player (seat → ``"bot:<level>"``);
    ``may_stand_in``: the seats away long enough that this client may hand them to a
    bot (:meth:`Table.hand_to_bot`).

    At a shared table, who is there travels the same way (no callback, no widget set
    from the network): ``connected``: the seats whose player is connected now
    (``None``: a table at one keyboard, everyone is here); ``watchers``: how many
    watch; ``names``: the seats' names as the table names them now (a joiner's own
    name once they sit down; ``None``: as :attr:`Table.names`); ``banner``: a line for
    the top of the screen (the join code, on the host's); ``said``: the chat line this
    update (``cause="chat"``) brings, once."""

    seq: int
    cause: Cause
    views: Mapping[int | None, PlayerView]
    to_act: int | None
    over: bool = False
    thinking: int | None = None
    save_error: str | None = None
    refused: str | None = None
    can_undo: bool = False
    can_redo: bool = False
    undos: int = 0
    lost: str | None = None
    stand_ins: Mapping[int, str] = field(default_factory=dict)
    may_stand_in: tuple[int, ...] = ()
    connected: tuple[int, ...] | None = None
    watchers: int = 0
    names: tuple[str, ...] | None = None
    banner: str | None = None
    said: Said | None = None

    def view(self, seat: int) -> PlayerView:
        """``seat``'s view (``KeyError``: this client does not play ``seat``)."""
        return self.views[seat]

    def new_events(self, seat: int, since: int) -> tuple[Event, ...]:
        """The events ``seat`` saw after the first ``since`` (redacted for it)."""
        return self.views[seat].events_from(since)

    # -- plain data: derived from the fields above -------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain data (str, int, bool, None, lists and maps), as a socket carries it: a
        key per field, each written as its declared type says (:func:`_plain`)."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Any) -> "TableUpdate":
        """Inverse of :meth:`to_dict`, every field checked against its declared type;
        anything malformed raises ``ValueError``."""
        if not isinstance(data, dict):
            raise ValueError("an update must be a mapping")
        hints = _update_hints()
        try:
            values = {f.name: _typed(data[f.name], hints[f.name]) for f in fields(cls)}
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed update: {exc}") from None
        for seat, view in values["views"].items():
            if view.seat != seat:
                raise ValueError("a view filed under another seat")
        return cls(**values)


#: what :meth:`Table.subscribe` calls with each update
Listener = Callable[[TableUpdate], None]


@runtime_checkable
class Table(Protocol):
    """A match at a table, as its clients see it (see the module doc)."""

    #: each seat's name and kind (``"human"`` / ``"bot:<level>"``), as the file has them
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    #: what opening the match found (a recovered save file…), for the player to read
    notes: tuple[str, ...]
    #: a line for the top of the screen, told in every update's ``banner`` (the join
    #: code, on a host's screen; ``None``: no line); whoever opens the screen sets it
    banner: str | None

    @property
    def seats(self) -> int: ...

    @property
    def mine(self) -> tuple[int, ...]:
        """The seats this client plays: at one keyboard every human seat (hot-seat when
        there are several); a remote player its own seat."""

    @property
    def practice(self) -> bool:
        """Practice undo and hints are offered (one human against bots)."""

    @property
    def saved(self) -> bool:
        """Every decision so far is on disk."""

    @property
    def save_ref(self) -> str | None:
        """The save file a replay of this match can open (``None``: not here)."""

    def view(self, seat: int) -> PlayerView: ...

    def subscribe(self, listener: Listener) -> TableUpdate:
        """Call ``listener`` with every later update; returns the state now."""

    def unsubscribe(self, listener: Listener) -> None: ...

    def act(self, seat: int | None, text: str) -> None:
        """``seat`` makes the decision ``text`` (``"play R5 uno"``); :class:`Refused`
        when it may not (``None``, a watcher: never)."""

    def hold(self, on: bool) -> None:
        """While on, bots wait (a client is showing its player something).  A table
        holds by itself at the end of each round until a client lets go."""

    def undo(self) -> bool:
        """Practice: back to before the human's previous decision (False: nothing)."""

    def redo(self) -> bool:
        """Practice: the human's next undone decision again, and the bots' replies."""

    def hint(self, seat: int) -> str:
        """Practice: the hard bot's pick for ``seat`` now, as action text (slow: call
        it off the event loop)."""

    def guilt_estimate(self, seat: int) -> float | None:
        """How likely the Wild Draw 4 ``seat`` may challenge was played illegally
        (``None``: no estimate)."""

    def challenged_hand(self, seat: int, since: int = 0) -> ShownHand | None:
        """The hand ``seat``'s challenge made the W+4's player show it, among its
        events after the first ``since`` (``None``: none)."""

    def hand_to_bot(self, seat: int, level: str) -> None:
        """A seated player hands ``seat`` (one of an update's ``may_stand_in``: its
        player has been away a while) to a bot of ``level`` until its player is back;
        :class:`Refused` when it may not."""

    def rejoin(self) -> None:
        """After the connection to a remote table was lost (an update's ``lost``):
        connect again, to the same seat; :class:`Refused` saying why it could not.
        A table in this process is never lost: nothing to do."""

    def close(self) -> None: ...


@runtime_checkable
class HostedTable(Table, Protocol):
    """A table an authority serves to clients in other processes
    (:class:`unoduo_tui.net.authority.Authority`): a :class:`Table` that owns its
    match, plus what the authority needs — and nothing of the match itself.

    The contract on saving: a listener is called with a decision's update once the
    decision is written to the save file, under the table's lock, and the table makes
    it durable after; :meth:`wait_saved` returns once everything told so far is
    durable.  The authority calls it before sending an update, so no client is ever
    shown a decision that is not on disk."""

    @property
    def stand_ins(self) -> Mapping[int, str]:
        """Seats a bot plays for their away player (seat → ``"bot:<level>"``)."""

    @property
    def preset(self) -> str: ...

    def is_bot(self, seat: int | None) -> bool: ...

    def public_view(self) -> PlayerView:
        """The match's public view: no hidden card (what a watcher sees)."""

    def wait_saved(self) -> None:
        """Return once every decision told so far is durable (see the class doc)."""

    def name_seat(self, seat: int, name: str) -> None:
        """``seat``'s player sat down as ``name`` (the save file records it)."""

    def stand_in(self, seat: int, kind: str | None) -> None:
        """A bot of ``kind`` plays ``seat`` for its away player (``None``: they are
        back); :class:`Refused` when it may not."""


def shown_hand(view: PlayerView, since: int = 0) -> ShownHand | None:
    """The hand ``view``'s seat was shown by its challenge (A6 / C8) among the events
    after the first ``since``: the last such, or ``None``.  A view holds it only for the
    challenger, so every table answers :meth:`Table.challenged_hand` with this."""
    shown = None
    for e in view.events_from(since):
        if e.kind == "reveal" and e.private == view.seat and e.cards and e.seat is not None:
            shown = (e.seat, tuple(e.cards))
    return shown


def save_wait(error: str) -> str:
    """What every screen says while its table cannot save (``error``: why, such as
    "the disk is full")."""
    why = " ".join(str(error).split()) or "the save failed"
    return (f"{why[:1].upper()}{why[1:]} — the game waits until it can save, "
            "and goes on by itself once it can.")


def _plain(value: Any) -> Any:
    """A field's value as plain data: a map as ``[key, value]`` pairs (msgpack and JSON
    keep int keys apart that way), a tuple as a list, a view by its ``to_dict``."""
    if isinstance(value, PlayerView):
        return value.to_dict()
    if isinstance(value, Mapping):
        return [[k, _plain(v)] for k, v in value.items()]
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@cache
def _update_hints() -> dict[str, Any]:
    return get_type_hints(TableUpdate)


def _typed(value: Any, kind: Any) -> Any:
    """Plain ``value`` as the declared ``kind`` (the inverse of :func:`_plain`)."""
    origin = get_origin(kind)
    if origin in (Union, UnionType):
        if value is None and type(None) in get_args(kind):
            return None
        (kind,) = [k for k in get_args(kind) if k is not type(None)]
        return _typed(value, kind)
    if origin is Literal:
        if value not in get_args(kind):
            raise ValueError(f"unknown cause {value!r}")
        return value
    if origin in (Mapping, dict, abc.Mapping):
        key, item = get_args(kind)
        if not isinstance(value, list):
            raise ValueError(f"malformed update: {value!r:.40} is not a list of pairs")
        return {_typed(k, key): _typed(v, item) for k, v in value}
    if origin is tuple:
        args = get_args(kind)
        if not isinstance(value, list) or (args[-1] is not Ellipsis and len(value) != len(args)):
            raise ValueError(f"malformed update: {value!r:.40} is not a list of {kind}")
        if args[-1] is Ellipsis:
            return tuple(_typed(v, args[0]) for v in value)
        return tuple(_typed(v, k) for v, k in zip(value, args))
    if kind is PlayerView:
        return PlayerView.from_dict(value)
    if kind is bool:
        if not isinstance(value, bool):
            raise ValueError(f"malformed update: {value!r} is not true or false")
        return value
    if kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"malformed update: {value!r} is not a whole number")
        return value
    if kind is str:
        if not isinstance(value, str):
            raise ValueError(f"malformed update: {value!r} is not text")
        return value
    raise TypeError(f"no plain form for {kind!r}")  # pragma: no cover - a new field's type


def guilt_estimate(view: PlayerView) -> float | None:
    """The bots' estimate that the Wild Draw 4 the viewer faces was played illegally
    (0 outside a Wild Draw 4 decision)."""
    from engine import bots

    return float(bots.wd4_guilty_probability(view))
