"""The match: state, the public API, chance, replay and views.

A :class:`Match` is built only from its log: :meth:`Match.new` starts one (and
records the cut and the shuffle as chance outcomes), :meth:`apply` adds a
decision, and :meth:`Match.replay` rebuilds the identical match from the log
without calling any random generator.  The rules themselves live in one layer
per rule area, each a subclass of the one before (single inheritance: the compiled
engine's classes, setup.py, allow no other): :class:`~engine.state.MatchState` (the
fields), :mod:`.chance`, :mod:`.scoring` (E), :mod:`.action_cards` (A), :mod:`.turn`
(T, U), :mod:`.draft` (S), then :class:`Match`.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
import os
from collections import Counter, deque
from typing import TYPE_CHECKING, Callable, ClassVar, Iterable, Iterator, Sequence

from .actions import A_CATCH, Action, ActionError, Chance, IllegalAction, parse_entry
from .cards import Card, deck_cards
from .draft import Draft
from .events import Event, describe
from .explain import why_illegal
from .rules import PRESETS, Rules
from .phases import MID_ROUND, Phase
from .state import _copy_fields
from .turn import _BLOCK_BITS, _TURN_CACHES
from .view import PlayerView, SeatEvents

if TYPE_CHECKING:  # pragma: no cover
    from .rng import Rng
    from .state import Handler, LegalBuilder
    from .view import EventSnapshot

__all__ = ["Match"]

_ID_BASE = int.from_bytes(os.urandom(8), "big")
_ID_COUNT = itertools.count()


def _new_id() -> str:
    """A match id unique in this process and unlikely to repeat across processes
    (a random base plus a counter); it tells nothing about the seed."""
    return format((_ID_BASE + next(_ID_COUNT)) & 0xFFFF_FFFF_FFFF_FFFF, "016x")


@lru_cache(maxsize=None)
def _deck(deck: str) -> "tuple[Card, ...]":
    """D1 / C1: a deck's cards in code order (made once per deck)."""
    return tuple(deck_cards(deck))


def _cards(cards: "Iterable[Card | str]") -> "list[Card]":
    """Cards or their notation, as Cards (a Card as it is: the hard bot's worlds)."""
    return [c if c.__class__ is Card else Card.parse(c) for c in cards]


def random_seed() -> int:
    """An unguessable 64-bit seed (``os.urandom``: what :mod:`secrets` uses, without
    importing it and OpenSSL's hashes at start-up)."""
    return int.from_bytes(os.urandom(8), "big")


class Match(Draft):
    """One UNO Duo match: every round until a seat reaches the target (E4).

    Its fields are declared once, in :class:`~engine.state.MatchState`."""

    __slots__ = ()
    #: each action's handler and each phase's legal-action builder, per variant (set
    #: below each class: :func:`handlers`, :func:`legal_by_phase`)
    _HANDLERS: ClassVar["dict[Action, Handler]"]
    _LEGAL_BY_PHASE: ClassVar["dict[Phase, LegalBuilder]"]

    min_seats = PRESETS["duo"][0]  # OpenSpiel's game info
    max_seats = PRESETS["duo"][-1]

    def __init__(self, rules: Rules | None, seed: int = 0,
                 queue: "Iterable[Action | Chance]" = ()) -> None:
        """Use :meth:`new` or :meth:`replay`.  ``rules=None`` makes a blank match whose
        fields the engine sets itself (a position, a copy): a class of the compiled
        engine (setup.py) can be made only through its ``__init__``."""
        if rules is not None:
            self._setup(rules, seed, queue)

    def _setup(self, rules: Rules, seed: int, queue: "Iterable[Action | Chance]") -> None:
        """Deal the match ``rules`` and ``seed`` give, replaying ``queue`` first."""
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
        if _variant_of(rules) is not type(self):
            raise ValueError(f"the {rules.preset!r} preset is played by "
                             f"{_variant_of(rules).__name__}; use Match.new or Match.replay")
        self._init_state(rules, seed, queue, rules.seats, _deck(rules.deck), _new_id())
        self._handlers, self._legal_by_phase = self._HANDLERS, self._LEGAL_BY_PHASE
        self._start_match()

    # -- construction ----------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules | None = None, seed: int | None = None,
            deck: "Sequence[Card | str] | None" = None, first: int | None = None) -> "Match":
        """A new match.  ``seed=None`` draws an unguessable seed from ``os.urandom``.

        ``deck`` (top first, Cards or notation) fixes round 1's shuffled deck and
        skips the cut; ``first`` fixes the first drafter (``deck`` alone: seat 0).
        """
        rules = Rules() if rules is None else rules
        if seed is None:
            seed = random_seed()
        elif not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        queue: list[Action | Chance] = []
        if deck is not None and first is None:
            first = 0
        if first is not None:
            if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < rules.seats:
                raise ValueError(f"first must be a seat number 0–{rules.seats - 1}, not {first!r}")
            queue.append(Chance.first(first))
        if deck is not None:
            cards = [Card.parse(c) for c in deck]
            if Counter(c.code for c in cards) != Counter(c.code for c in deck_cards(rules.deck)):
                raise ValueError(f"deck must be a permutation of the {rules.deck} deck "
                                 f"({rules.deck_size} cards); got {len(cards)} cards that are not")
            queue.append(Chance.shuffle(cards))
        return cls.variant(rules)(rules, seed, queue)

    @classmethod
    def variant(cls, rules: Rules) -> "type[Match]":
        """The class that plays ``rules``' preset (python-chess's ``find_variant``):
        :class:`Match` for UNO Duo, :class:`~engine.classic.ClassicMatch` for classic,
        :class:`~engine.house.HouseMatch` for classic with a house rule (H)."""
        variant = _variant_of(rules)
        return variant if cls is Match or issubclass(variant, cls) else cls

    @classmethod
    def from_position(cls, rules: Rules, *, hands: "Sequence[Sequence[Card | str]]",
                      draw_pile: "Sequence[Card | str]", discard_pile: "Sequence[Card | str]",
                      to_act: int, phase: Phase, colour: str | None,
                      p1: int, round: int = 1, scores: Sequence[int] | None = None,
                      pending: int = 0, by: int | None = None, drawn: Card | None = None,
                      dump_colour: str | None = None, dump_start: bool = False,
                      exposed: int | None = None, blocked: int = 0, seed: int = 0,
                      dealer: int | None = None, direction: int = 1) -> "Match":
        """A match set up at a mid-round position (``draw_pile`` top first,
        ``discard_pile`` bottom first): the hard bot's determinizations, and tests.

        The phase is one of turn, drawn, volley, wd4, dump or colour; ``by`` is the
        seat whose Draw 2 / Wild Draw 4 is pending.  The position has no log, so it
        cannot be replayed or saved; a later round is shuffled from ``seed``.
        """
        if phase not in MID_ROUND:
            raise ValueError(f"from_position: no mid-round position in phase {phase!r}")
        variant = cls.variant(rules)
        m = variant(None)  # set up as it stands: no round is dealt to be thrown away
        m._init_state(rules, seed, (), rules.seats, _deck(rules.deck), _new_id())
        m._handlers, m._legal_by_phase = variant._HANDLERS, variant._LEGAL_BY_PHASE
        m._nchance = 2  # as if its first round's cut and shuffle were drawn (later shuffles)
        m._set_position(
            [_cards(h) for h in hands], _cards(draw_pile), _cards(discard_pile), to_act, phase, colour, p1, round,
            (0,) * m._seats if scores is None else tuple(scores), pending,
            (to_act + 1) % m._seats if by is None else by,
            Card.parse(drawn) if drawn is not None else None, dump_colour, dump_start,
            exposed, blocked, direction,
            dealer if dealer is not None or rules.preset != "classic" else p1)
        return m

    @classmethod
    def replay(cls, rules: Rules, actions: "Iterable[object]", seed: int | None = None) -> "Match":
        """Rebuild a match from its log (``m.actions``: objects, texts or word tuples).

        No random generator is used while the log lasts; chance after its end
        comes from ``seed`` (:func:`random_seed` when ``None``).  A bad
        entry raises :class:`IllegalAction` whose ``index`` is its position (text that is
        no entry at all: :class:`MalformedAction`'s message, as an IllegalAction).
        """
        m = cls._start_replay(rules, actions, seed)
        queue = m._queue
        try:
            while queue:
                m._replay_one(queue.popleft())
        except ActionError as exc:
            raise m._replay_error(exc) from None
        return m

    @classmethod
    def replay_steps(cls, rules: Rules, actions: "Iterable[object]", seed: int | None = None
                     ) -> Iterator["Match"]:
        """Like :meth:`replay`, yielding the (same, mutating) match once set up and
        again after each decision of the log — for step-through replays and checks."""
        m = cls._start_replay(rules, actions, seed)
        yield m
        queue = m._queue
        while queue:
            try:
                m._replay_one(queue.popleft())
            except ActionError as exc:
                raise m._replay_error(exc) from None
            yield m

    @classmethod
    def _start_replay(cls, rules: Rules, actions: "Iterable[object]", seed: int | None) -> "Match":
        entries = []
        for i, raw in enumerate(actions):
            try:
                entries.append(parse_entry(raw))
            except (ValueError, TypeError, AttributeError) as exc:
                err = IllegalAction(f"log entry {i}: {exc}")
                err.index = i
                raise err from None
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
        m = cls.variant(rules)(None)
        m._consumed = 0
        try:
            m._setup(rules, random_seed() if seed is None else seed, entries)
        except ActionError as exc:
            raise m._replay_error(exc) from None
        return m

    # -- the public API (the read-only properties are MatchState's) ---------------------

    def legal_actions(self, seat: int | None = None) -> "tuple[Action, ...]":
        """Every legal action for :attr:`to_act`, in a fixed order (empty when over).
        ``seat``: that seat's (none but the seat to act's; house rules' jump-ins, H4)."""
        legal = self._legal
        if seat is not None and seat != self._to_act:
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._seats:
                raise ValueError(f"no seat {seat!r}")
            return ()
        if legal is not None:
            return legal
        phase = self._phase
        if phase != "turn":
            legal = self._legal = self._legal_by_phase[phase](self)
            return legal
        seat = self._to_act  # the turn's (built here: the engine's hottest path; the
        # tables are turn.py's, T1)
        uno = len(self._hands[seat]) == 2
        table = self._table or self._turn_table()
        mask = self._masks[seat] & table.playable  # T1
        # one cache per (says UNO, can draw: T2 / T4): the key stays the small mask itself
        k = (2 if uno else 0) + (1 if self._draw or len(self._discard) > 1 else 0)
        cache = _TURN_CACHES[k]
        legal = cache.get(mask)
        if legal is None:  # _TurnTable.build, inlined: a quarter of random play's turns
            shift = table.shift
            rests = table.rests[k]
            rest = mask & table.rest
            parts = rests.get(rest) or table.rest_parts(rest, uno, k)
            bits = (mask >> shift) & _BLOCK_BITS
            block = table.blocks[uno][bits]
            if block is None:
                block = table.block_plays(bits, uno)
            legal = parts[0] + block + parts[1]
            if len(cache) < 8192:  # bounded (about 1 MB; random play with big hands
                cache[mask] = legal  # misses 23% at 8192, 40% at 1024): once full a miss is built
        exposed = self._exposed
        if exposed is not None and exposed != seat and len(self._hands[exposed]) == 1:
            legal += (A_CATCH,)  # U2
        self._legal = legal
        return legal


    def apply(self, action: "Action | str", seat: int | None = None) -> list[Event[object]]:
        """Make a decision; returns its events.  An illegal or malformed action raises
        :class:`IllegalAction` naming the rule, and leaves the match untouched."""
        legal = self._legal or self.legal_actions()  # () when over: nothing is legal
        if action.__class__ is not Action:
            action = Action.parse(action)
        if action not in legal or (seat is not None and seat != self._to_act):
            raise IllegalAction(why_illegal(self, action, seat))
        events = self._events
        mark = len(events)
        self._legal = None
        self._log.append(action)
        self._handlers[action](self, action)
        return events[mark:]

    def decider(self, action: "Action | str") -> int | None:
        """The seat that makes ``action`` now: the seat to act (with jump-in, H4, a
        ``jump`` is the seat's that holds the card: :class:`~engine.house.HouseMatch`)."""
        return None if self._over else self._to_act

    @property
    def jump_open(self) -> bool:
        """H4: whether the jump-in window is open — a public fact (whether any seat
        holds the twin of the top card is not); never without jump-in."""
        return False

    def push(self, action: Action) -> None:
        """Make a decision without checking it (python-chess's ``push``, OpenSpiel's
        ``apply_action``): the search's fast path.  ``action`` must be one of
        :meth:`legal_actions` (an object, not text); an illegal one leaves the match
        in a state the rules never reach.  Use :meth:`apply` for anything a player
        sent."""
        self._legal = None
        self._log.append(action)
        self._handlers[action](self, action)

    def play_out(self, choose: "Callable[..., Action]", limit: int) -> None:
        """:meth:`push` what ``choose`` picks until the match is over (a search copy:
        its round) or ``limit`` decisions were made — the rollout loop, without a
        call per read.  ``choose(seat, hand, legal, phase, top, colour, next_size,
        dump_colour)`` gets what :meth:`decision` returns and gives one of ``legal``;
        it is not asked when ``legal`` holds one action (a forced draw, a turn with
        nothing to play: a third of a rollout's decisions), which is taken as it is."""
        hands, handlers, seats, log = self._hands, self._handlers, self._seats, self._log
        legal_actions = self.legal_actions
        for _ in range(limit):
            if self._over:
                return
            legal = legal_actions()  # the cache is empty after every push
            if len(legal) == 1:
                action = legal[0]
            else:
                seat = self._to_act
                phase = self._phase
                discard = self._discard
                action = choose(seat, hands[seat], legal, phase,
                                discard[-1] if discard else None, self._color,
                                len(hands[(seat + self._direction) % seats]),
                                self._dump_colour if phase == "dump" else None)
            self._legal = None
            log.append(action)
            handlers[action](self, action)

    def search_copy(self) -> "Match":
        """A copy for search: its log and events start empty, and what it appends to
        them (its round's moves; a play's event is not even looked up) is never read and
        is dropped when it ends with its round — the round is scored (``rounds``,
        ``scores``), then the copy is over without dealing the next one (no shuffle
        a rollout would throw away).  Neither viewed, replayed nor saved."""
        other = type(self)(None)
        _copy_fields(self, other)
        other._draw = list(self._draw)
        other._discard = list(self._discard)
        other._hands = [list(h) for h in self._hands]
        other._masks = list(self._masks)
        other._history = list(self._history)
        other._log, other._events = [], []
        other._queue = deque()
        other._search = True
        return other

    def shuffle_draw_pile(self, rng: "Rng") -> None:
        """Put a search copy's draw pile in a new order (the game review's hindsight:
        every hand known, the pile's order not); a match itself is never changed so."""
        if not self._search:
            raise ValueError("only a search copy's draw pile may be shuffled")
        rng.shuffle(self._draw)

    def _emit(self, event: Event[object]) -> None:
        self._events.append(event)

    def _hand_mask(self, seat: int) -> int:
        mask = 0
        for card in self._hands[seat]:
            mask |= card.bit
        return mask

    def _next(self, seat: int) -> int:
        """The seat after ``seat`` in the direction of play."""
        return (seat + self._direction) % self._seats

    def seat_events(self, seat: int) -> "EventSnapshot":
        """``seat``'s redacted events as an immutable snapshot (for :class:`PlayerView`):
        (frozen chunks, tail, count)."""
        return self._seen[seat].snapshot(self._events)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know — the only thing widgets and bots receive."""
        if not isinstance(seat, int) or not 0 <= seat < self._seats:
            raise ValueError(f"no seat {seat!r}")
        v = object.__new__(PlayerView)  # field by field: views are taken every decision
        v.seat = seat
        v.match_id = self._id
        hands = self._hands
        v.hand = tuple(hands[seat])
        v.hand_sizes = tuple([len(h) for h in hands])
        discard = self._discard
        v.top = discard[-1] if discard else None
        v.color = self._color
        v.draw_size = len(self._draw)
        v.discard_size = len(discard)
        phase = v.phase = self._phase
        v.pending_draw = self._pending if phase in ("volley", "wd4") else 0
        v.scores = self._scores
        v.round = self._round
        v.p1 = self._p1
        to_act = v.to_act = None if self._over else self._to_act
        v.over = self._over
        v.winner = self._winner
        mine = to_act == seat
        v.legal_actions = (self._legal or self.legal_actions()) if mine else ()
        e = self._exposed
        v.exposed = e if e is not None and len(hands[e]) == 1 and not self._over else None
        v.rules = self._rules
        v.drawn = self._drawn if mine and phase == "drawn" else None
        v.dump_colour = self._dump_colour if phase == "dump" else None
        v.rounds = tuple(self._history)
        v.dealer = self._dealer
        v.direction = self._direction
        v._chunks, v._tail, v.event_count = self._seen[seat].snapshot(self._events)
        v._events = None
        return v

    def public_view(self, seen: SeatEvents | None = None) -> PlayerView:
        """What a spectator may know (#15): a view of seat ``None`` — no hand, no legal
        actions, no drawn card, every private event redacted as for a seat that holds
        none of the cards.  ``seen``: a ``SeatEvents(-1)`` the caller keeps for this
        match, so each call redacts only the new events (else all, afresh)."""
        v = self.view(self._to_act)
        v.seat, v.hand, v.legal_actions, v.drawn = None, (), (), None
        public = SeatEvents(-1) if seen is None else seen  # a seat no event is private to
        if public.seat != -1:
            raise ValueError("a public view's events are those of seat -1")
        v._chunks, v._tail, v.event_count = public.snapshot(self._events)
        v._events = None
        return v

    def describe(self, event: Event[object], names: Sequence[str], viewer: int | None = None) -> str:
        return describe(event, names, viewer)

    def clone(self, history: bool = True) -> "Match":
        """An independent copy (for search); far cheaper than ``copy.deepcopy``.
        ``history=False``: without its log, events and queue (see :meth:`restore_history`)."""
        other = type(self)(None)
        _copy_fields(self, other)
        other._id = _new_id()
        other._draw = list(self._draw)
        other._discard = list(self._discard)
        other._hands = [list(h) for h in self._hands]
        other._masks = list(self._masks)
        other._history = list(self._history)
        if history:
            other._log = list(self._log)
            other._events = list(self._events)
            other._queue = deque(self._queue)
            other._seen = [s.copy() for s in self._seen]
        else:
            other.restore_history([], [], ())
        return other

    def __repr__(self) -> str:
        state = "over" if self._over else f"{self._phase}, seat {self._to_act} to act"
        return (f"<Match round {self._round}, scores {'-'.join(map(str, self._scores))}, "
                f"{state}>")


def kind_handlers(cls: "type[Match]") -> "dict[str, Handler]":
    """Each action kind's handler in ``cls`` (a variant overrides some)."""
    return {"keep": cls._on_keep, "reject": cls._on_reject, "colour": cls._on_colour,
            "play": cls._on_play, "draw": cls._on_draw, "pass": cls._on_pass,
            "dump": cls._on_dump, "nodump": cls._on_nodump, "challenge": cls._on_challenge,
            "catch": cls._on_catch}


def handlers(cls: "type[Match]", by_kind: "dict[str, Handler] | None" = None
             ) -> "dict[Action, Handler]":
    """Each action's handler in ``cls`` (its kind's, from ``by_kind`` or
    :func:`kind_handlers`), keyed by the action itself: an action's attributes are read
    through its instance dict (a ``str`` subclass has no slots), a dict lookup by the
    action is half that.  A kind the variant does not play (H4's ``jump`` outside the
    house rules) has no handler: its actions are never legal there."""
    if by_kind is None:
        by_kind = kind_handlers(cls)
    return {action: by_kind[action.kind] for action in Action.by_code
            if action.kind in by_kind}


def legal_by_phase(cls: "type[Match]") -> "dict[Phase, LegalBuilder]":
    """Each phase's legal-action builder in ``cls`` (a variant overrides some)."""
    return {"draft": _legal_draft, "colour": _legal_colour,
            "drawn": cls._legal_drawn, "volley": cls._legal_volley, "wd4": cls._legal_wd4,
            "dump": cls._legal_dump, "over": _legal_over}


def _legal_over(m: Match) -> "tuple[Action, ...]":
    return ()


def _legal_draft(m: Match) -> "tuple[Action, ...]":
    return _DRAFT


def _legal_colour(m: Match) -> "tuple[Action, ...]":
    return _COLOURS

_DRAFT = (Action.parse("keep"), Action.parse("reject"))
_COLOURS = tuple(Action.parse(f"colour {c}") for c in "RYGB")


Match._HANDLERS = handlers(Match)
Match._LEGAL_BY_PHASE = legal_by_phase(Match)
_VARIANTS: "dict[str, type[Match]]" = {"duo": Match}


from .classic import ClassicMatch  # noqa: E402  (a variant of Match: imported once it exists)


_VARIANTS["classic"] = ClassicMatch

from .house import HouseMatch  # noqa: E402  (a variant of ClassicMatch)


def _variant_of(rules: Rules) -> "type[Match]":
    """The class that plays ``rules`` (a house rule on: :class:`HouseMatch`)."""
    return HouseMatch if rules.house else _VARIANTS[rules.preset]
