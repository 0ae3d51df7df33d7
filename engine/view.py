"""What one seat may know: :class:`PlayerView`, the only thing widgets and bots get.

A view is a self-contained value: it holds this seat's hand, the public state, and
the events with every other seat's secrets already removed — nothing that leads back
to the match, so nothing appended later and no other hand can be read through it.
:meth:`PlayerView.to_dict` / :meth:`PlayerView.from_dict` turn it into plain data
(str, int, bool, None, lists and maps: msgpack- and JSON-safe) and back, for remote
play.

Views are taken at every decision, so the redacted events are kept per seat by the
match (:class:`SeatEvents`, filled lazily, appended as events happen) in frozen
chunks: a view costs a tuple of chunk references plus a short tail, not a copy of
the whole event list.
"""

from __future__ import annotations

from typing import Any, Sequence

from .actions import Action
from .cards import Card
from .events import Event
from .phases import Phase, parse_phase
from .rules import Rules

__all__ = ["PlayerView", "SeatEvents"]

#: events per frozen chunk: a view copies at most this many event references
CHUNK = 32
#: a seat's redacted events at one moment: (frozen chunks, tail, count)
EventSnapshot = tuple[tuple[tuple[Event[object], ...], ...], tuple[Event[object], ...], int]


class SeatEvents:
    """One seat's redacted events, appended to as the match's events grow.

    ``chunks`` holds full, immutable tuples of :data:`CHUNK` events; ``tail`` the
    rest, a tuple too (a snapshot shares it).  ``upto`` is how many of the match's events
    have been redacted so far."""

    __slots__ = ("seat", "chunks", "frozen", "tail", "upto")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.chunks: list[tuple[Event[object], ...]] = []
        self.frozen: tuple[tuple[Event[object], ...], ...] = ()
        self.tail: tuple[Event[object], ...] = ()
        self.upto = 0

    def copy(self) -> "SeatEvents":
        other = SeatEvents.__new__(SeatEvents)
        other.seat, other.frozen, other.upto, other.tail = self.seat, self.frozen, self.upto, self.tail
        other.chunks = list(self.chunks)
        return other

    def snapshot(self, events: Sequence[Event[object]]) -> "EventSnapshot":
        """(frozen chunks, tail, count) of this seat's events, after catching up with
        the match's ``events`` (the tail is an immutable tuple, shared until it grows)."""
        n = len(events)
        upto = self.upto
        if upto < n:
            seat = self.seat
            if n - upto == 1:
                e = events[upto]
                tail = self.tail + ((e if e.private is None or e.private == seat
                                     else _redact(e)),)
            else:
                tail = self.tail + tuple([e if e.private is None or e.private == seat
                                          else _redact(e) for e in events[upto:n]])
            self.upto = n
            if len(tail) >= CHUNK:
                while len(tail) >= CHUNK:
                    self.chunks.append(tail[:CHUNK])
                    tail = tail[CHUNK:]
                self.frozen = tuple(self.chunks)
            self.tail = tail
        return self.frozen, self.tail, n


def _redact(e: Event[object]) -> Event[object]:
    """``e`` without its cards (another seat's secret): :meth:`Event.seen_by`, faster."""
    return tuple.__new__(type(e), (e[0], e[1], (), *e[3:]))


class PlayerView:
    """The match as ``seat`` sees it at one moment: its own hand, everyone's card
    counts, the public piles and state, and the events with others' secrets removed.

    A value: it keeps no reference to the match, and two views with the same
    contents are equal.  ``match_id`` tells one match from another (a bot that is
    reused notices a new match by it)."""

    seat: int | None  #: None: a spectator's public view (Match.public_view)
    match_id: str
    hand: "tuple[Card, ...]"
    hand_sizes: tuple[int, ...]
    top: "Card | None"
    color: str | None
    draw_size: int
    discard_size: int
    pending_draw: int
    scores: tuple[int, ...]
    round: int
    p1: int
    to_act: int | None
    phase: Phase
    over: bool
    winner: int | None
    legal_actions: "tuple[Action, ...]"
    exposed: int | None
    rules: Rules
    drawn: "Card | None"
    dump_colour: str | None
    rounds: tuple[tuple[int | None, tuple[int, ...]], ...]
    dealer: int | None
    direction: int
    event_count: int
    # the events: frozen chunks and a tail (SeatEvents.snapshot), and the tuple of them
    # once built (or given whole: from_dict)
    _chunks: tuple[tuple[Event[object], ...], ...]
    _tail: tuple[Event[object], ...]
    _events: tuple[Event[object], ...] | None

    __slots__ = tuple(__annotations__)

    @property
    def events(self) -> "tuple[Event[object], ...]":
        """The events this seat saw, oldest first (redacted for this seat)."""
        events = self._events
        if events is None:
            if self._chunks:
                events = tuple(e for chunk in self._chunks for e in chunk) + self._tail
            else:
                events = self._tail
            self._events = events
        return events

    def events_from(self, start: int) -> "tuple[Event[object], ...]":
        """``events[start:]`` without building :attr:`events` (an incremental reader's call)."""
        if self._events is not None:
            return self._events[start:]
        k, at = divmod(start, CHUNK)
        chunks = self._chunks
        if k >= len(chunks):
            return self._tail[start - len(chunks) * CHUNK:]
        out = list(chunks[k][at:])
        for chunk in chunks[k + 1:]:
            out.extend(chunk)
        out.extend(self._tail)
        return tuple(out)

    @property
    def own_seat(self) -> int:
        """:attr:`seat` of a seat's view (the bots', a review's); a spectator's view
        (seat ``None``) has none: ``ValueError``."""
        if self.seat is None:
            raise ValueError("a spectator's view belongs to no seat")
        return self.seat

    @property
    def next_seat(self) -> int:
        """The seat that plays after this one in the direction of play (a spectator's
        view, seat ``None``: after the seat to act)."""
        seat = self.seat if self.seat is not None else (self.to_act or 0)
        return (seat + self.direction) % len(self.hand_sizes)

    # -- plain data --------------------------------------------------------------------

    def to_dict(self, since: int = 0) -> dict[str, Any]:
        """This view as plain data: cards and actions as their text, events as lists
        (``since``: only the events after the first ``since``, for a reader that has
        those — see :meth:`from_dict`'s ``earlier``)."""
        return {
            "seat": self.seat, "match_id": self.match_id,
            "hand": [c.text for c in self.hand], "hand_sizes": list(self.hand_sizes),
            "top": _text(self.top), "color": self.color, "draw_size": self.draw_size,
            "discard_size": self.discard_size, "pending_draw": self.pending_draw,
            "scores": list(self.scores), "round": self.round, "p1": self.p1,
            "to_act": self.to_act, "phase": self.phase, "over": self.over,
            "winner": self.winner, "legal_actions": [str(a) for a in self.legal_actions],
            "exposed": self.exposed, "rules": self.rules.to_dict(), "drawn": _text(self.drawn),
            "dump_colour": self.dump_colour,
            "rounds": [[w, list(points)] for w, points in self.rounds],
            "dealer": self.dealer, "direction": self.direction,
            "events": [e.to_data() for e in (self.events_from(since) if since
                                             else self.events)],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], earlier: "tuple[Event[object], ...]" = ()
                  ) -> "PlayerView":
        """Inverse of :meth:`to_dict`; malformed data raises ``ValueError``.
        ``earlier``: the events before the ones ``data`` lists (``to_dict(since)``)."""
        if not isinstance(data, dict):
            raise ValueError("a view must be a mapping")
        missing = sorted(set(_FIELDS) - set(data))
        if missing:
            raise ValueError(f"view data lacks {', '.join(missing)}")
        try:
            self = object.__new__(cls)
            self.seat = _seat(data["seat"])  # None: a spectator's public view
            self.match_id = str(data["match_id"])
            self.hand = tuple(Card.parse(c) for c in data["hand"])
            self.hand_sizes = tuple(_int(n) for n in data["hand_sizes"])
            self.top = _card(data["top"])
            self.color = _colour(data["color"])
            self.draw_size = _int(data["draw_size"])
            self.discard_size = _int(data["discard_size"])
            self.pending_draw = _int(data["pending_draw"])
            self.scores = tuple(_int(n) for n in data["scores"])
            self.round = _int(data["round"])
            self.p1 = _int(data["p1"])
            self.to_act = _seat(data["to_act"])
            self.phase = parse_phase(data["phase"])
            self.over = bool(data["over"])
            self.winner = _seat(data["winner"])
            self.legal_actions = tuple(Action.parse(a) for a in data["legal_actions"])
            self.exposed = _seat(data["exposed"])
            self.rules = Rules.from_dict(dict(data["rules"]))
            self.drawn = _card(data["drawn"])
            self.dump_colour = _colour(data["dump_colour"])
            self.rounds = tuple((_seat(w), tuple(_int(n) for n in points))
                                for w, points in data["rounds"])
            self.dealer = _seat(data["dealer"])
            self.direction = _int(data["direction"])
            if self.direction not in (1, -1):
                raise ValueError(f"malformed view data: direction {self.direction!r}")
            self._tail = tuple(earlier) + tuple(Event.from_data(e) for e in data["events"])
        except (TypeError, KeyError, IndexError) as exc:
            raise ValueError(f"malformed view data: {exc}") from None
        self._chunks = ()
        self.event_count = len(self._tail)
        self._events = self._tail
        return self

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _FIELDS if name != "events") + (self.events,)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<PlayerView seat {self.seat}: {' '.join(map(str, self.hand))} | "
                f"top {self.top} {self.color or '-'} | {self.phase}>")


_FIELDS = ("seat", "match_id", "hand", "hand_sizes", "top", "color", "draw_size",
           "discard_size", "pending_draw", "scores", "round", "p1", "to_act", "phase", "over",
           "winner", "legal_actions", "exposed", "rules", "drawn", "dump_colour", "rounds",
           "dealer", "direction", "events")


def _text(card: "Card | None") -> str | None:
    return None if card is None else card.text


def _card(text: object) -> "Card | None":
    return None if text is None else Card.parse(text)


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"malformed view data: {value!r} is not a whole number")
    return value


def _seat(value: object) -> int | None:
    return None if value is None else _int(value)


def _colour(value: object) -> str | None:
    if value is None or (isinstance(value, str) and value in ("R", "Y", "G", "B")):
        return value
    raise ValueError(f"malformed view data: {value!r} is not a colour")
