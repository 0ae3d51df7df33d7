"""Events: what happened, structured, with who may see which cards.

Every move yields events.  An event names its acting ``seat``, the ``cards``
involved, an ``amount`` (cards drawn, volley total, round number…) and, when
the cards are secret, ``private``: the one seat allowed to see them.  Other
seats get :meth:`Event.seen_by` — the same event with the cards removed (they
learn *that* you drew two cards, not which).  :func:`describe` turns an event
into a sentence with the players' names, from one seat's point of view.

Each kind (:data:`EventKind`) has its own class (:data:`EVENT_TYPES`), a
:class:`Event` with named fields for what it carries — ``Draw.why``,
``Challenge.guilty``, ``RoundEnd.points`` — as cheap as the tuple it is.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Literal, NamedTuple, Sequence, TypeGuard, TypeVar, get_args

from .cards import COLOUR_NAMES, Card

__all__ = ["Event", "EventKind", "EVENT_TYPES", "describe", "new_event"]

#: every kind of event (UNO Duo's and classic UNO's)
EventKind = Literal["cut", "first", "round", "draft", "keep", "reject", "forced_keep", "under",
                    "start", "colour", "play", "dump", "nodump", "draw", "pass", "refill",
                    "challenge", "reveal", "catch", "round_end", "match_end",
                    "dealer_draw", "dealer", "deal", "dealt", "reshuffle",
                    "jump", "swap", "rotate", "receive"]


#: what an event of one kind carries beyond the common fields (its named fields read it)
D = TypeVar("D", covariant=True)


class Event(NamedTuple, Generic[D]):
    """An event (see the module doc); ``Event[D]``: one whose ``data`` is a ``D``."""

    kind: str
    seat: int | None
    cards: tuple[Card, ...]
    amount: int
    colour: str | None
    uno: bool
    private: int | None
    data: D

    def seen_by(self, seat: int | None) -> "Event[D]":
        """This event as ``seat`` may know it (``None``: everything, for replays)."""
        if self.private is None or seat is None or self.private == seat:
            return self
        return self._replace(cards=())

    @property
    def actor(self) -> int:
        """:attr:`seat` of an event a seat made (a play, a draw, a challenge…)."""
        seat = self.seat
        if seat is None:
            raise ValueError(f"a {self.kind} event of no seat")
        return seat

    @property
    def hidden(self) -> bool:
        """True when this copy had secret cards removed."""
        return self.private is not None and not self.cards and self.amount > 0

    def to_data(self) -> list[object]:
        """Plain data (cards as text): ``[kind, seat, cards, amount, colour, uno,
        private, data]``; a round's end lists the hands as card texts."""
        return [self.kind, self.seat, [c.text for c in self.cards], self.amount, self.colour,
                self.uno, self.private, _plain(self.data)]

    @classmethod
    def from_data(cls, raw: Sequence[object]) -> "Event[object]":
        """Inverse of :meth:`to_data`; malformed data raises ``ValueError``."""
        try:
            kind, seat, cards, amount, colour, uno, private, data = raw
            if (not isinstance(kind, str) or kind not in EVENT_TYPES
                    or not isinstance(amount, int) or not _seat_or_none(seat)
                    or not _seat_or_none(private) or not (colour is None or isinstance(colour, str))):
                raise TypeError
            if kind == "round_end":
                hands, points, totals, blocked = _items(data)
                data = (tuple(tuple(Card.parse(c) for c in _items(h)) for h in _items(hands)),
                        tuple(_items(points)), tuple(_items(totals)), bool(blocked))
            elif isinstance(data, list):
                data = tuple(tuple(x) if isinstance(x, list) else x for x in data)
            return new_event(kind, seat, tuple(Card.parse(c) for c in _items(cards)), amount,
                             colour, bool(uno), private, data)
        except (TypeError, ValueError):
            raise ValueError(f"malformed event data: {raw!r}"[:200]) from None


def _plain(value: object) -> object:
    """``value`` as plain data: a card as its text, a tuple as a list (of plain data)."""
    if isinstance(value, Card):
        return value.text
    if isinstance(value, tuple):
        return [_plain(x) for x in value]
    return value


def _items(value: object) -> "list[object] | tuple[object, ...]":
    """``value`` when it is a list or a tuple (``TypeError`` otherwise)."""
    if not isinstance(value, (list, tuple)):
        raise TypeError
    return value


def _seat_or_none(value: object) -> "TypeGuard[int | None]":
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


class _Card(Event[D]):
    __slots__ = ()

    @property
    def card(self) -> Card | None:
        """The card (``None`` in a copy that hides it)."""
        return self.cards[0] if self.cards else None


class Cut(Event[int | None]):
    """S1: one card per seat; ``winner`` drafts first (``None``: cut again)."""
    __slots__ = ()

    @property
    def winner(self) -> int | None:
        return self.data


class First(Event[None]):
    """S1: the first drafter, given rather than cut (``seat``)."""
    __slots__ = ()


class Round(Event[None]):
    """S2: round ``number`` begins; ``seat`` drafts first."""
    __slots__ = ()

    @property
    def number(self) -> int:
        return self.amount


class Draft(_Card[None]):
    """S3: ``seat`` draws ``card`` in a draft step (private)."""
    __slots__ = ()


class Keep(_Card[None]):
    """S3: the drafter kept its card; ``card`` turns up."""
    __slots__ = ()


class Reject(_Card[None]):
    """S3: the drafter rejected ``card``."""
    __slots__ = ()


class ForcedKeep(_Card[None]):
    """S3: after a reject, ``card`` must be kept (private)."""
    __slots__ = ()


class Under(Event[None]):
    """S4: ``ncards`` draft discards go under the draw pile."""
    __slots__ = ()

    @property
    def ncards(self) -> int:
        return self.amount


class Start(_Card[None]):
    """S5 / C7: the start ``card``."""
    __slots__ = ()


class Colour(Event[None]):
    """S9 / C7: ``seat`` names the start Wild's ``colour``."""
    __slots__ = ()


class Play(_Card[int]):
    """T1: ``seat`` plays ``card`` (naming ``colour``; ``total`` of a volley for a
    Draw 2); ``next_seat`` is the seat after it."""
    __slots__ = ()

    @property
    def total(self) -> int:
        return self.amount

    @property
    def next_seat(self) -> int:
        return self.data


class Dump(Event[int]):
    """A4: ``seat`` dumps ``cards``, ``last`` last."""
    __slots__ = ()

    @property
    def last(self) -> Card:
        return self.cards[-1]

    @property
    def next_seat(self) -> int:
        return self.data


class NoDump(Event[None]):
    """A4: ``seat`` declines the dump."""
    __slots__ = ()


class Draw(Event[str]):
    """T2, A1, A5, U2, A6, E1: ``seat`` draws ``ncards`` cards (private) ``why``:
    turn, volley, draw2 (classic, no stacking), wd4, catch, challenge or last."""
    __slots__ = ()

    @property
    def ncards(self) -> int:
        return self.amount

    @property
    def why(self) -> str:
        return self.data


class Pass(Event[str]):
    """T2 / T4: ``why`` is keep (the drawn card) or blocked (nothing to draw)."""
    __slots__ = ()

    @property
    def why(self) -> str:
        return self.data


class Refill(Event[str]):
    """T3 / C5: ``ncards`` discards become the draw pile, ``how``: turn_over or shuffle."""
    __slots__ = ()

    @property
    def ncards(self) -> int:
        return self.amount

    @property
    def how(self) -> str:
        return self.data


class Challenge(Event[bool]):
    """A6 / C8: ``seat`` challenges; the Wild Draw 4 was ``guilty`` or not."""
    __slots__ = ()

    @property
    def guilty(self) -> bool:
        return self.data


class Reveal(Event[None]):
    """A6 / C8: ``seat`` shows its hand (``cards``) to ``shown_to`` only."""
    __slots__ = ()

    @property
    def shown_to(self) -> int:
        seat = self.private
        assert seat is not None  # a hand is shown to the challenger only
        return seat


class Catch(Event[int]):
    """U2 / C9: ``seat`` catches ``caught`` without UNO."""
    __slots__ = ()

    @property
    def caught(self) -> int:
        return self.data


#: a round's end: every hand, each seat's points, the totals, blocked (E3)
RoundEndData = tuple[tuple[tuple[Card, ...], ...], tuple[int, ...], tuple[int, ...], bool]


class RoundEnd(Event[RoundEndData]):
    """E1–E3 / C10: round ``number`` ends; ``seat`` went out (``None``: blocked)."""
    __slots__ = ()

    @property
    def number(self) -> int:
        return self.amount

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return self.data[0]

    @property
    def points(self) -> tuple[int, ...]:
        return self.data[1]

    @property
    def totals(self) -> tuple[int, ...]:
        return self.data[2]

    @property
    def blocked(self) -> bool:
        return self.data[3]


class MatchEnd(Event[tuple[int, ...]]):
    """E4 / C10: the match is over; ``seat`` won (``None``: a draw, a shared win)."""
    __slots__ = ()

    @property
    def totals(self) -> tuple[int, ...]:
        return self.data


class DealerDraw(Event[tuple[tuple[int, ...], int | None]]):
    """C2: ``seats`` drew ``cards`` for dealer; ``winner`` deals (``None``: draw again)."""
    __slots__ = ()

    @property
    def seats(self) -> tuple[int, ...]:
        return self.data[0]

    @property
    def winner(self) -> int | None:
        return self.data[1]


class Dealer(Event[None]):
    """C2: the dealer of round 1, given rather than drawn (``seat``)."""
    __slots__ = ()


class Deal(Event[None]):
    """C2, C3: round ``number`` is dealt by ``seat``."""
    __slots__ = ()

    @property
    def number(self) -> int:
        return self.amount


class Dealt(Event[None]):
    """C3: ``seat`` is dealt ``ncards`` cards (``cards``, private)."""
    __slots__ = ()

    @property
    def ncards(self) -> int:
        return self.amount


class Reshuffle(_Card[None]):
    """C7: a start Wild Draw 4 went back; the draw pile is shuffled."""
    __slots__ = ()


class Jump(_Card[int]):
    """H4: ``seat`` jumps in out of turn with ``card``, identical to the top card;
    ``next_seat`` is the seat after it."""
    __slots__ = ()

    @property
    def next_seat(self) -> int:
        return self.data


class Swap(Event[int]):
    """H1: ``seat``'s 7 swaps its hand with ``other``'s (public as counts only)."""
    __slots__ = ()

    @property
    def other(self) -> int:
        return self.data


class Rotate(Event[int]):
    """H1: ``seat``'s 0 passes every hand one seat on, in ``direction`` (+1: to seat + 1)."""
    __slots__ = ()

    @property
    def direction(self) -> int:
        return self.data


class Receive(Event[int]):
    """H1: after a swap or a 0, ``seat`` now holds ``giver``'s hand: ``ncards`` cards
    (``cards``, private to ``seat``)."""
    __slots__ = ()

    @property
    def ncards(self) -> int:
        return self.amount

    @property
    def giver(self) -> int:
        return self.data


#: each kind's class
EVENT_TYPES: "dict[str, type[Event[object]]]" = {
    "cut": Cut, "first": First, "round": Round, "draft": Draft, "keep": Keep, "reject": Reject,
    "forced_keep": ForcedKeep, "under": Under, "start": Start, "colour": Colour, "play": Play,
    "dump": Dump, "nodump": NoDump, "draw": Draw, "pass": Pass, "refill": Refill,
    "challenge": Challenge, "reveal": Reveal, "catch": Catch, "round_end": RoundEnd,
    "match_end": MatchEnd, "dealer_draw": DealerDraw, "dealer": Dealer, "deal": Deal,
    "dealt": Dealt, "reshuffle": Reshuffle,
    "jump": Jump, "swap": Swap, "rotate": Rotate, "receive": Receive,
}
assert set(EVENT_TYPES) == set(get_args(EventKind))


def new_event(kind: str, seat: int | None, cards: tuple[Card, ...] = (), amount: int = 0,
              colour: str | None = None, uno: bool = False, private: int | None = None,
              data: object = None) -> "Event[object]":
    """The event ``kind`` (a key of :data:`EVENT_TYPES`, whose class it is made as)
    with these fields: the one constructor the rule modules use (``ev``)."""
    return tuple.__new__(EVENT_TYPES[kind], (kind, seat, cards, amount, colour, uno, private, data))


def _verb(word: str, you: bool) -> str:
    if you:
        return word
    if word == "have":
        return "has"
    if word.endswith(("s", "ch", "sh", "x", "o")):
        return word + "es"
    return word + "s"


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(c.text for c in cards)


def _n(count: int, what: str = "card") -> str:
    return f"{count} {what}" + ("" if count == 1 else "s")


class _Reader:
    """Who reads an event: the names and the viewer, for :func:`describe`'s table."""

    __slots__ = ("names", "viewer", "you", "who")

    def __init__(self, seat: int | None, names: Sequence[str], viewer: int | None) -> None:
        self.names, self.viewer = names, viewer
        self.you = you = seat is not None and seat == viewer
        self.who = "You" if you else (names[seat] if seat is not None and seat < len(names)
                                      else "")

    def name(self, s: int) -> str:
        return "you" if s == self.viewer else self.names[s]

    def v(self, word: str) -> str:
        """``word`` as the event's seat does it (you draw, Ann draws)."""
        return _verb(word, self.you)

    def verb_of(self, word: str, s: int) -> str:
        """``word`` as seat ``s`` does it."""
        return _verb(word, s == self.viewer)


def _cut(e: Cut, r: _Reader) -> str:
    parts = ", ".join(f"{r.name(s)} {c}" for s, c in enumerate(e.cards))
    w = e.winner
    return f"Cut: {parts}" + (" — equal, cut again." if w is None else
                              f" — {r.name(w)} {r.verb_of('draft', w)} first.")


def _dealer_draw(e: DealerDraw, r: _Reader) -> str:
    parts = ", ".join(f"{r.name(s)} {c}" for s, c in zip(e.seats, e.cards))
    w = e.winner
    return f"Draw for dealer: {parts}" + (" — equal, draw again." if w is None else
                                          f" — {r.name(w)} {r.verb_of('deal', w)}.")


def _dealt(e: Dealt, r: _Reader) -> str:
    if r.you:
        return f"You are dealt {_cards(e.cards)}."
    return f"{r.who} is dealt {_n(e.ncards)}."


def _play(e: Play, r: _Reader) -> str:
    card = e.cards[0]
    # H2: a Wild Draw 4's event carries its volley's total only when stacked on one
    stacked = (card.rank == "+2" and e.total > 2) or (card.rank == "W+4" and e.total > 4)
    text = f"{r.who} {r.v('stack' if stacked else 'play')} {card}"
    if e.colour and card.is_wild:
        text += f" and {r.v('name')} {COLOUR_NAMES[e.colour]}"
    if card.rank == "+2" or stacked:
        nxt = e.next_seat
        text += (f" — volley at {e.total}" if stacked
                 else f" — {r.name(nxt)} {r.verb_of('face', nxt)} +2")
    return text + (" — UNO!" if e.uno else ".")


def _jump(e: Jump, r: _Reader) -> str:
    return f"{r.who} {r.v('jump')} in with {e.card}" + (" — UNO!" if e.uno else ".")


def _rotate(e: Rotate, r: _Reader) -> str:
    side = "left" if e.direction == 1 else "right"
    return f"{r.who} {r.v('play')} a 0: every hand passes to the {side}."


def _receive(e: Receive, r: _Reader) -> str:
    giver = "your" if e.giver == r.viewer else f"{r.names[e.giver]}'s"
    if r.you:
        return f"You now hold {giver} hand: {_cards(e.cards)}."
    return f"{r.who} now holds {giver} hand ({_n(e.ncards)})."


def _dump(e: Dump, r: _Reader) -> str:
    last = f" ({e.last} last)" if len(e.cards) > 1 else ""
    return f"{r.who} {r.v('dump')} {_cards(e.cards)}{last}" + (" — UNO!" if e.uno else ".")


#: what a Draw event says, by its ``why`` (None: an ordinary draw)
_DRAW_WHY = {"volley": "{who} {take} the volley: {what}.",
             "draw2": "{who} {draw} 2 for the Draw 2: {what}.",
             "wd4": "{who} {draw} 4 for the Wild Draw 4: {what}.",
             "last": "{who} {draw} the last card's penalty: {what}.",
             "catch": "{who} {draw} 2 for not saying UNO: {what}.",
             "challenge": "{who} {draw} the challenge penalty: {what}."}


def _draw(e: Draw, r: _Reader) -> str:
    if e.ncards == 0:
        return f"{r.who} {r.v('have')} nothing to draw — the piles are empty."
    what = _cards(e.cards) if e.cards else ("a card" if e.ncards == 1 else _n(e.ncards))
    text = _DRAW_WHY.get(e.why, "{who} {draw} {what}.")
    return text.format(who=r.who, take=r.v("take"), draw=r.v("draw"), what=what)


def _challenge(e: Challenge, r: _Reader) -> str:
    verdict = "guilty — it held a card of the active colour" if e.guilty else "not guilty"
    return f"{r.who} {r.v('challenge')} the Wild Draw 4: {verdict}."


def _reveal(e: Reveal, r: _Reader) -> str:
    to = r.name(e.shown_to)
    return (f"{r.who} {r.v('show')} {to} the hand: {_cards(e.cards)}." if e.cards
            else f"{r.who} {r.v('show')} {to} the hand.")


def _round_end(e: RoundEnd, r: _Reader) -> str:
    points = e.points
    scored = ", ".join(f"{r.name(s)} {points[s]}" for s in range(len(points)))
    head = "Round blocked" if e.blocked else f"{r.who} {_verb('go', r.you)} out"
    return f"{head} — points: {scored}; totals {'–'.join(map(str, e.totals))}."


def _match_end(e: MatchEnd, r: _Reader) -> str:
    totals = "–".join(map(str, e.totals))
    if e.seat is None:
        return f"Match over: a draw at {totals}."
    # H5: partners show their team's total, and a win is never tied (E4, C10): the
    # seats that show the winner's total are its team
    mates = [s for s, t in enumerate(e.totals) if t == e.totals[e.seat] and s != e.seat]
    if not mates:
        return f"Match over: {r.who} {r.v('win')} ({totals})."
    if mates[0] == r.viewer:
        return f"Match over: You and {r.who} win ({totals})."
    return f"Match over: {r.who} & {r.name(mates[0])} win ({totals})."


#: each kind's sentence (one entry per :data:`EventKind`)
_DESCRIBE: dict[str, Callable[[Any, _Reader], str]] = {
    "cut": _cut,
    "dealer_draw": _dealer_draw,
    "dealer": lambda e, r: f"{r.who} {r.v('deal')} first.",
    "deal": lambda e, r: f"Round {e.number} — {r.who} {r.v('deal')}.",
    "dealt": _dealt,
    "reshuffle": lambda e, r: f"The start card {e.card} goes back; the draw pile is shuffled.",
    "first": lambda e, r: f"{r.who} {r.v('draft')} first.",
    "round": lambda e, r: f"Round {e.number} — {r.who} {r.v('draft')} first.",
    "draft": lambda e, r: (f"{r.who} {r.v('draft')} {e.card}." if e.cards
                           else f"{r.who} {r.v('draft')} a card."),
    "keep": lambda e, r: f"{r.who} {r.v('keep')} the card; {e.card} turns up.",
    "reject": lambda e, r: f"{r.who} {r.v('reject')} {e.card}.",
    "forced_keep": lambda e, r: (f"{r.who} {r.v('draw')} {e.card} and must keep it." if e.cards
                                 else f"{r.who} {r.v('draw')} a card and must keep it."),
    "under": lambda e, r: f"The {e.ncards} draft discards go under the draw pile, in order.",
    "start": lambda e, r: f"Start card: {e.card}.",
    "colour": lambda e, r: f"{r.who} {r.v('name')} {COLOUR_NAMES[e.colour]}.",
    "play": _play,
    "dump": _dump,
    "nodump": lambda e, r: f"{r.who} {r.v('keep')} the rest of the colour (no dump).",
    "draw": _draw,
    "pass": lambda e, r: (f"{r.who} {r.v('pass')} — nothing left to draw." if e.why == "blocked"
                          else f"{r.who} {r.v('keep')} the drawn card."),
    "refill": lambda e, r: (f"The discard pile is "
                            f"{'shuffled' if e.how == 'shuffle' else 'turned over'} "
                            f"into a new draw pile ({_n(e.ncards)})."),
    "challenge": _challenge,
    "reveal": _reveal,
    "catch": lambda e, r: f"{r.who} {r.v('catch')} {r.name(e.caught)} without UNO!",
    "round_end": _round_end,
    "match_end": _match_end,
    "jump": _jump,
    "swap": lambda e, r: f"{r.who} {r.v('swap')} hands with {r.name(e.other)}.",
    "rotate": _rotate,
    "receive": _receive,
}
assert set(_DESCRIBE) == set(EVENT_TYPES)


def describe(event: "Event[object]", names: Sequence[str] = ("Seat 1", "Seat 2"),
             viewer: int | None = None) -> str:
    """One short sentence for ``event`` as ``viewer`` sees it (``None``: all): the
    kind's entry of a table, with the event's named fields."""
    e = event.seen_by(viewer)
    return _DESCRIBE[e.kind](e, _Reader(e.seat, names, viewer))
