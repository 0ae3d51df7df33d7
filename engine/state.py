"""The state of a match, declared once: :class:`MatchState`.

Every field a :class:`~engine.match.Match` has is declared here, typed, as a slot;
:meth:`MatchState._init_state` gives each its first value and
:meth:`MatchState._reset_round` the per-round ones.  The rule mixins (draft, turn,
action cards, scoring) read and write these fields; everything outside the match
(views, the replay cursor, the bots, explanations) reads public properties of
:class:`~engine.match.Match` instead.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action, Chance
    from .cards import Card
    from .events import Event
    from .rules import Rules
    from .view import SeatEvents

__all__ = ["MatchState"]


class MatchState:
    """The fields of a match (see the module doc).  Each is private to the match."""

    # -- the match as a whole
    _rules: "Rules"
    _seed: int                       #: the seed chance outcomes are drawn from
    _id: str                         #: this match object's public id
    _seats: int
    _full_deck: "tuple[Card, ...]"
    _queue: "deque[Action | Chance]"  #: log entries still to replay
    _consumed: int                   #: log entries taken from the queue
    _nchance: int                    #: chance outcomes so far (each has its own stream)
    _log: "list[Action | Chance]"
    _events: "list[Event]"
    _seen: "list[SeatEvents]"        #: each seat's redacted events, for views
    _legal: "tuple[Action, ...] | None"  #: the legal actions, cached until the next move
    _scores: tuple[int, ...]
    _history: list                   #: (winner or None, points) per finished round
    _round: int
    _over: bool
    _winner: int | None
    # -- this round
    _p1: int                         #: the first drafter (S1, S2)
    _step: int                       #: draft steps taken (S3)
    _draw: "list[Card]"              #: the draw pile, top last
    _discard: "list[Card]"           #: the discard pile, top last
    _hands: "list[list[Card]]"
    _masks: list[int]                #: the card faces each hand holds, a bit per code
    _color: str | None               #: the active colour
    _to_act: int | None
    _phase: str                      #: draft colour turn drawn volley wd4 dump over
    _drawn: "Card | None"            #: the card drawn this turn (T2)
    _pending: int                    #: cards to draw facing a volley or a Wild Draw 4
    _forced: bool                    #: the pending draw is a start card's (S8)
    _volley_by: int                  #: who plays next once the pending draw is taken
    _wd4_by: int                     #: who played the pending Wild Draw 4 (A6)
    _wd4_guilty: bool                #: whether that Wild Draw 4 was illegal (A6)
    _dump_colour: str | None         #: the colour of the dump on offer (A4)
    _dump_start: bool                #: the dump on offer follows a start Reverse (S10)
    _exposed: int | None             #: a seat that forgot UNO (U2)
    _blocked: int                    #: blocked passes in a row (T4)
    _direction: int                  #: +1 clockwise, -1 counter-clockwise (C6)
    _dealer: int | None              #: the dealer (C2; None in UNO Duo)

    __slots__ = tuple(__annotations__)

    def _init_state(self, rules: "Rules", seed: int, queue, seats: int, deck: tuple,
                    match_id: str) -> None:
        from .view import SeatEvents

        self._rules = rules
        self._seed = seed
        self._id = match_id
        self._seats = seats
        self._full_deck = deck
        self._queue = deque(queue)
        self._consumed = 0
        self._nchance = 0
        self._log = []
        self._events = []
        self._seen = [SeatEvents(s) for s in range(seats)]
        self._legal = None
        self._scores = (0,) * seats
        self._history = []
        self._round = 1
        self._over = False
        self._winner = None
        self._p1 = 0
        self._dealer = None
        self._step = 0
        self._draw = []
        self._discard = []
        self._reset_round()
        self._to_act = None
        self._phase = "draft"
        self._wd4_by = 0
        self._wd4_guilty = False
        self._volley_by = 0

    def _reset_round(self) -> None:
        """The per-round fields a new round starts from (the piles are set by the setup)."""
        seats = self._seats
        self._hands = [[] for _ in range(seats)]
        self._masks = [0] * seats
        self._color = None
        self._drawn = None
        self._pending = 0
        self._forced = False
        self._dump_colour = None
        self._dump_start = False
        self._exposed = None
        self._blocked = 0
        self._step = 0
        self._direction = 1

    def _copy_state(self, other: "MatchState") -> None:
        """Copy every field into ``other`` (shallow; the caller copies what mutates)."""
        _copy_fields(self, other)


def _make_copier():
    names = MatchState.__slots__
    body = "\n".join(f"    dst.{n} = src.{n}" for n in names)
    scope: dict = {}
    exec(f"def _copy_fields(src, dst):\n{body}\n", scope)  # one assignment per slot: fast
    return scope["_copy_fields"]


_copy_fields = _make_copier()
