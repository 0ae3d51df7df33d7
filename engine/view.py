"""What one seat may know: :class:`PlayerView`, the only thing widgets and bots get."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .cards import Card
    from .events import Event
    from .match import Match
    from .rules import Rules


class PlayerView:
    """A snapshot of the match as ``seat`` sees it: its own hand, everyone's card
    counts, the public piles and the events with others' secrets removed.  It holds
    no reference to the match's private state (the event list is append-only;
    the view keeps its length and redacts lazily)."""

    __slots__ = ("seat", "hand", "hand_sizes", "top", "color", "draw_size", "discard_size",
                 "pending_draw", "scores", "round", "p1", "to_act", "phase", "over",
                 "winner", "legal_actions", "exposed", "rules", "drawn", "dump_colour",
                 "rounds", "_events_src", "_events_len", "_events")

    seat: int
    hand: "tuple[Card, ...]"
    hand_sizes: tuple[int, ...]
    top: "Card | None"
    color: str | None
    legal_actions: "tuple[Action, ...]"

    def __init__(self, m: "Match", seat: int) -> None:
        self.seat = seat
        self.hand = tuple(m._hands[seat])
        self.hand_sizes = tuple(len(h) for h in m._hands)
        self.top = m._discard[-1] if m._discard else None
        self.color = m._color
        self.draw_size = len(m._draw)
        self.discard_size = len(m._discard)
        self.pending_draw = m.pending_draw
        self.scores = m._scores
        self.round = m._round
        self.p1 = m._p1
        self.to_act = m._to_act
        self.phase = m._phase
        self.over = m._over
        self.winner = m._winner
        mine = m._to_act == seat
        self.legal_actions = m.legal_actions() if mine else ()
        self.exposed = m.exposed
        self.rules: "Rules" = m._rules
        self.drawn = m._drawn if mine and m._phase == "drawn" else None
        self.dump_colour = m._dump_colour if m._phase == "dump" else None
        self.rounds = tuple(m._history)
        self._events_src = m._events
        self._events_len = len(m._events)
        self._events = None

    @property
    def colour(self) -> str | None:
        return self.color

    @property
    def events(self) -> "tuple[Event, ...]":
        """The events this seat saw, oldest first."""
        if self._events is None:
            seat = self.seat
            self._events = tuple(e.seen_by(seat) for e in self._events_src[: self._events_len])
        return self._events

    @property
    def event_count(self) -> int:
        """How many events this seat has seen (the length of :attr:`events`)."""
        return self._events_len

    def events_from(self, start: int) -> "tuple[Event, ...]":
        """``events[start:]``, redacting only those (an incremental reader's call)."""
        if self._events is not None:
            return self._events[start:]
        seat = self.seat
        return tuple(e.seen_by(seat) for e in self._events_src[start: self._events_len])

    @property
    def opponent_hand_size(self) -> int:
        return self.hand_sizes[(self.seat + 1) % len(self.hand_sizes)]

    def __repr__(self) -> str:
        return (f"<PlayerView seat {self.seat}: {' '.join(map(str, self.hand))} | "
                f"top {self.top} {self.color or '-'} | {self.phase}>")
