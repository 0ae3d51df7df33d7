"""The state of a match, declared once: :class:`MatchState`.

Every field a :class:`~engine.match.Match` has is declared here, typed, as a slot;
:meth:`MatchState._init_state` gives each its first value and
:meth:`MatchState._reset_round` the per-round ones.  The rule layers (chance, scoring,
action cards, turn, draft) read and write these fields; everything outside the match
(views, the replay cursor, the bots, explanations) reads public properties of
:class:`~engine.match.Match` instead.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # pragma: no cover
    from typing import Iterable

    from .actions import Action, Chance
    from .cards import Card
    from .events import Event
    from .phases import Phase
    from .rules import Rules
    from .match import Match
    from .turn import _TurnTable
    from .view import SeatEvents

    #: an action's handler (``Match._on_play``…): the match, the action
    Handler = Callable[[Match, Action], None]
    #: a phase's legal-action builder
    LegalBuilder = Callable[[Match], tuple[Action, ...]]
    #: :meth:`MatchState.decision`'s read of the position
    Decision = tuple[int, list[Card], tuple[Action, ...], Phase, Card | None, str | None, int,
                     str | None]
    #: a chance outcome's generator (its own random stream -> the outcome)
    from .rng import Rng
    Generate = Callable[[Rng], Chance]

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
    _events: "list[Event[object]]"
    _seen: "list[SeatEvents]"        #: each seat's redacted events, for views
    _legal: "tuple[Action, ...] | None"  #: the legal actions, cached until the next move
    _scores: tuple[int, ...]
    _history: "list[tuple[int | None, tuple[int, ...]]]"  #: (winner or None, points) per round
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
    _table: "_TurnTable | None"      #: T1's table for the active colour and the top
                                     #: card (turn.py), or None: to be looked up (every
                                     #: write of ``_color`` sets it, a play to its own)
    _to_act: int                     #: the seat whose decision is pending (once the
                                     #: match is over: the last one; ``to_act`` is None)
    _phase: "Phase"                  #: draft colour turn drawn volley wd4 dump over
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
    _jump_from: int | None           #: H4: while the jump-in window is open, the seat
                                     #: whose card is on top; else None
    _search: bool                    #: a search copy: no log or events, ends with its round
    # -- the variant's tables (its class's _HANDLERS and _LEGAL_BY_PHASE, read through a
    #    slot: on the hot path a class attribute costs a lookup through the classes)
    _handlers: "dict[Action, Handler]"  #: each action's handler (its kind's)
    _legal_by_phase: "dict[Phase, LegalBuilder]"  #: each phase's legal-action builder

    __slots__ = tuple(__annotations__)

    # The rule layers (chance, scoring, action_cards, turn, draft: each a subclass of
    # the one before, Match of the last) see the methods of the layers below them; the
    # methods a lower layer calls on one above are declared here, for the type checker
    # and the compiled engine's method tables (setup.py), and defined once, where their
    # rule lives.
    def apply(self, action: "Action | str", seat: int | None = None) -> "list[Event[object]]":
        raise NotImplementedError
    def legal_actions(self, seat: int | None = None) -> "tuple[Action, ...]":
        raise NotImplementedError
    def _emit(self, event: "Event[object]") -> None:
        raise NotImplementedError
    def _next(self, seat: int) -> int:
        raise NotImplementedError
    def _hand_mask(self, seat: int) -> int:
        raise NotImplementedError
    def _start_round(self, first: int, order: "tuple[Card, ...]") -> None:
        raise NotImplementedError
    def _begin_turn(self, seat: int) -> None:
        raise NotImplementedError
    def _await_draw(self, seat: int, phase: "Phase", amount: int, by: int,
                    forced: bool = False) -> None:
        raise NotImplementedError
    def _draw_into(self, seat: int, count: int, why: str) -> "list[Card]":
        raise NotImplementedError
    def _moved(self, seat: int) -> None:
        raise NotImplementedError
    def _after_shed(self, seat: int, action: "Action") -> int:
        raise NotImplementedError

    def _init_state(self, rules: "Rules", seed: int, queue: "Iterable[Action | Chance]",
                    seats: int, deck: "tuple[Card, ...]", match_id: str) -> None:
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
        self._to_act = 0  # set by the setup (S1 / C2)
        self._phase = "draft"
        self._wd4_by = 0
        self._wd4_guilty = False
        self._volley_by = 0
        self._search = False

    def _reset_round(self) -> None:
        """The per-round fields a new round starts from (the piles are set by the setup)."""
        seats = self._seats
        self._hands = [[] for _ in range(seats)]
        self._masks = [0] * seats
        self._color = None
        self._table = None
        self._drawn = None
        self._pending = 0
        self._forced = False
        self._dump_colour = None
        self._dump_start = False
        self._exposed = None
        self._blocked = 0
        self._step = 0
        self._direction = 1
        self._jump_from = None

    def _set_position(self, hands: "list[list[Card]]", draw_pile: "list[Card]",
                      discard_pile: "list[Card]", to_act: int, phase: "Phase",
                      colour: str | None, p1: int, round: int, scores: tuple[int, ...],
                      pending: int, by: int, drawn: "Card | None", dump_colour: str | None,
                      dump_start: bool, exposed: int | None, blocked: int, direction: int,
                      dealer: int | None) -> None:
        """A mid-round position, every field at once (``Match.from_position``): no log,
        no events; ``draw_pile`` top first, ``discard_pile`` bottom first; ``by`` the
        seat whose Draw 2 / Wild Draw 4 is pending; ``dealer`` ``None``: as it was."""
        from .view import SeatEvents

        self._hands = hands
        masks = []
        for hand in hands:
            mask = 0
            for card in hand:
                mask |= card.bit
            masks.append(mask)
        self._masks = masks
        self._draw = draw_pile[::-1]
        self._discard = discard_pile
        self._log, self._events, self._legal = [], [], None
        self._seen = [SeatEvents(s) for s in range(self._seats)]
        self._to_act, self._phase, self._color, self._p1, self._round = (
            to_act, phase, colour, p1, round)
        self._table = None
        self._scores = scores
        self._pending, self._forced = pending, False
        self._volley_by = self._wd4_by = by
        self._wd4_guilty = False
        self._drawn = drawn
        self._dump_colour, self._dump_start = dump_colour, dump_start
        self._exposed, self._blocked = exposed, blocked
        self._direction = direction
        if dealer is not None:
            self._dealer = dealer

    # -- the public, read-only properties (views, the replay cursor, bots read these) ----

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def id(self) -> str:
        """This match object's id (a clone or a replay is another match)."""
        return self._id

    # read at every decision by the loops that drive a match (bots, the arena, the
    # bench): C getters, no Python frame
    @property
    def to_act(self) -> int | None:
        """The seat whose decision is pending; ``None`` once the match is over."""
        return None if self._over else self._to_act

    @property
    def phase(self) -> "Phase":
        """draft, colour, turn, drawn, volley, wd4, dump or over."""
        return self._phase

    def hand(self, seat: int) -> list[Card]:
        """The seat's cards, in the order they entered its hand."""
        return list(self._hands[seat])

    def decision(self) -> "Decision":
        """The search's read of the position, copying nothing: (seat to act, its hand,
        the legal actions, phase, top card, active colour, the next seat's hand size,
        the dump colour on offer).  The hand is the match's own list: read it only."""
        seat = self._to_act
        hands = self._hands
        phase = self._phase
        discard = self._discard
        return (seat, hands[seat], self._legal or self.legal_actions(), phase,
                discard[-1] if discard else None, self._color,
                len(hands[(seat + self._direction) % self._seats]),
                self._dump_colour if phase == "dump" else None)

    def hand_tuple(self, seat: int) -> tuple[Card, ...]:
        """:meth:`hand` as a tuple."""
        return tuple(self._hands[seat])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds (public)."""
        return tuple([len(h) for h in self._hands])

    @property
    def drawn(self) -> Card | None:
        """The card just drawn by the seat to act, when it may play it (T2)."""
        return self._drawn if self._phase == "drawn" else None

    @property
    def dump_colour(self) -> str | None:
        """The colour of the dump on offer (A4, S10), else ``None``."""
        return self._dump_colour if self._phase == "dump" else None

    @property
    def forced(self) -> bool:
        """The pending draw is a start card's (S8): it is only drawn."""
        return self._forced

    @property
    def pending_by(self) -> int:
        """Facing a volley or a Wild Draw 4: the seat that plays once it is drawn (the
        Wild Draw 4's player, A5/A6)."""
        return self._wd4_by if self._phase == "wd4" else self._volley_by

    @property
    def dump_start(self) -> bool:
        """The dump on offer follows a start Reverse (S10)."""
        return self._dump_start

    @property
    def blocked_passes(self) -> int:
        """Passes in a row with nothing to draw (T4)."""
        return self._blocked

    @property
    def seats(self) -> int:
        return self._seats

    @property
    def top(self) -> Card | None:
        return self._discard[-1] if self._discard else None

    @property
    def color(self) -> str | None:
        """The active colour letter, or ``None`` (draft, unnamed start Wild)."""
        return self._color

    @property
    def draw_size(self) -> int:
        return len(self._draw)

    @property
    def discard_size(self) -> int:
        return len(self._discard)

    @property
    def draw_pile(self) -> tuple[Card, ...]:
        """The draw pile, top first (omniscient: replays and tests only)."""
        return tuple(reversed(self._draw))

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first (its last card is :attr:`top`)."""
        return tuple(self._discard)

    @property
    def pending_draw(self) -> int:
        """Cards the seat to act must draw if it draws (a volley, a Wild Draw 4)."""
        return self._pending if self._phase in ("volley", "wd4") else 0

    @property
    def scores(self) -> tuple[int, ...]:
        return self._scores

    @property
    def round(self) -> int:
        return self._round

    @property
    def p1(self) -> int:
        """This round's first drafter (S1, S2)."""
        return self._p1

    @property
    def dealer(self) -> int | None:
        """This round's dealer (C2); ``None`` in UNO Duo."""
        return self._dealer

    @property
    def direction(self) -> int:
        """+1 while play goes clockwise (to seat + 1), −1 after a Reverse (C6)."""
        return self._direction

    @property
    def exposed(self) -> int | None:
        """A seat that may be caught without UNO right now (U2), else ``None``."""
        e = self._exposed
        if e is not None and len(self._hands[e]) == 1 and not self._over:
            return e
        return None

    @property
    def over(self) -> bool:
        """Whether the match has ended (E4)."""
        return self._over

    @property
    def winner(self) -> int | None:
        """The winning seat; ``None`` while playing, or for a drawn match."""
        return self._winner

    @property
    def rounds(self) -> tuple[tuple[int | None, tuple[int, ...]], ...]:
        """Each finished round as ``(seat that went out or None if blocked, points)``."""
        return tuple(self._history)

    @property
    def actions(self) -> "list[Action | Chance]":
        """The log: every decision and chance outcome, in order (a copy)."""
        return list(self._log)

    @property
    def log_length(self) -> int:
        """How many entries :attr:`actions` holds (without copying it)."""
        return len(self._log)

    def actions_from(self, start: int) -> "list[Action | Chance]":
        """The log from entry ``start`` on — what a save file has not written yet."""
        return self._log[start:]

    @property
    def events(self) -> list[Event[object]]:
        """Every event with nothing hidden (omniscient: replays, tests)."""
        return list(self._events)

    @property
    def event_count(self) -> int:
        """How many events the match has had (the length of :attr:`events`)."""
        return len(self._events)

    def _copy_state(self, other: "MatchState") -> None:
        """Copy every field into ``other`` (shallow; the caller copies what mutates)."""
        _copy_fields(self, other)


def _make_copier() -> "Callable[[MatchState, MatchState], None]":
    # the slots; compiled (setup.py), the class's fields are mypyc's, which it names in
    # __mypyc_attrs__ (for pickling) — the same names, declared once above
    fields = getattr(MatchState, "__slots__", None) or getattr(MatchState, "__mypyc_attrs__", None)
    names: tuple[str, ...] = tuple(fields or ())
    body = "\n".join(f"    dst.{n} = src.{n}" for n in names)
    scope: dict[str, Callable[[MatchState, MatchState], None]] = {}
    exec(f"def _copy_fields(src, dst):\n{body}\n", scope)  # one assignment per slot: fast
    return scope["_copy_fields"]


_copy_fields = _make_copier()
