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

from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Mapping, Protocol, get_args, runtime_checkable

from engine import Card, Event, PlayerView

__all__ = ["Cause", "Listener", "Refused", "Table", "TableUpdate", "ShownHand", "shown_hand",
           "guilt_estimate", "save_wait"]

#: why an update was sent
Cause = Literal["start", "move", "undo", "redo", "thinking", "save", "refused", "closed",
                "seats"]

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
    spectator's hidden seats); ``to_act``: whose decision it is (``None`` when the
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
    bot (:meth:`Table.hand_to_bot`)."""

    seq: int
    cause: Cause
    views: Mapping[int, PlayerView]
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

    def view(self, seat: int) -> PlayerView:
        """``seat``'s view (``KeyError``: this client does not play ``seat``)."""
        return self.views[seat]

    def new_events(self, seat: int, since: int) -> tuple[Event, ...]:
        """The events ``seat`` saw after the first ``since`` (redacted for it)."""
        return self.views[seat].events_from(since)

    # -- plain data --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain data (str, int, bool, None, lists and maps), as a socket carries it."""
        return {"seq": self.seq, "cause": self.cause,
                "views": [[seat, v.to_dict()] for seat, v in self.views.items()],
                "to_act": self.to_act, "over": self.over, "thinking": self.thinking,
                "save_error": self.save_error, "refused": self.refused,
                "can_undo": self.can_undo, "can_redo": self.can_redo, "undos": self.undos,
                "lost": self.lost, "stand_ins": [[s, k] for s, k in self.stand_ins.items()],
                "may_stand_in": list(self.may_stand_in)}

    @classmethod
    def from_dict(cls, data: Any) -> "TableUpdate":
        """Inverse of :meth:`to_dict`; anything malformed raises ``ValueError``."""
        if not isinstance(data, dict):
            raise ValueError("an update must be a mapping")
        try:
            cause = data["cause"]
            if cause not in get_args(Cause):
                raise ValueError(f"unknown cause {cause!r}")
            views = {}
            for seat, raw in data["views"]:
                view = PlayerView.from_dict(raw)
                if view.seat != _seat(seat):
                    raise ValueError("a view filed under another seat")
                views[view.seat] = view
            return cls(seq=_int(data["seq"]), cause=cause, views=views,
                       to_act=_opt_seat(data["to_act"]), over=_bool(data["over"]),
                       thinking=_opt_seat(data["thinking"]),
                       save_error=_opt_str(data["save_error"]),
                       refused=_opt_str(data["refused"]), can_undo=_bool(data["can_undo"]),
                       can_redo=_bool(data["can_redo"]), undos=_int(data["undos"]),
                       lost=_opt_str(data["lost"]),
                       stand_ins={_seat(s): _str(k) for s, k in data["stand_ins"]},
                       may_stand_in=tuple(_seat(s) for s in data["may_stand_in"]))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed update: {exc}") from None


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

    def act(self, seat: int, text: str) -> None:
        """``seat`` makes the decision ``text`` (``"play R5 uno"``); :class:`Refused`
        when it may not."""

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


def shown_hand(view: PlayerView, since: int = 0) -> ShownHand | None:
    """The hand ``view``'s seat was shown by its challenge (A6 / C8) among the events
    after the first ``since``: the last such, or ``None``.  A view holds it only for the
    challenger, so every table answers :meth:`Table.challenged_hand` with this."""
    shown = None
    for e in view.events_from(since):
        if e.kind == "reveal" and e.private == view.seat and e.cards:
            shown = (e.seat, tuple(e.cards))
    return shown


def save_wait(error: str) -> str:
    """What every screen says while its table cannot save (``error``: why, such as
    "the disk is full")."""
    why = " ".join(str(error).split()) or "the save failed"
    return (f"{why[:1].upper()}{why[1:]} — the game waits until it can save, "
            "and goes on by itself once it can.")


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"malformed update: {value!r} is not a whole number")
    return value


def _seat(value: object) -> int:
    return _int(value)


def _opt_seat(value: object) -> int | None:
    return None if value is None else _int(value)


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"malformed update: {value!r} is not true or false")
    return value


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"malformed update: {value!r} is not text")
    return value


def _opt_str(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"malformed update: {value!r} is not text")
    return value


def guilt_estimate(view: PlayerView) -> float | None:
    """The bots' estimate that the Wild Draw 4 the viewer faces was played illegally
    (``None`` when the bots have none: the hint is optional and never breaks a prompt)."""
    from engine import bots

    estimate = getattr(bots, "wd4_guilty_probability", None)
    if estimate is None:
        return None
    try:
        return float(estimate(view))
    except Exception:
        return None
