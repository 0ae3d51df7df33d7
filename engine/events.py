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

from typing import Any, Literal, NamedTuple, Sequence, get_args

from .cards import COLOUR_NAMES, Card

__all__ = ["Event", "EventKind", "EVENT_TYPES", "describe"]

#: every kind of event (UNO Duo's and classic UNO's)
EventKind = Literal["cut", "first", "round", "draft", "keep", "reject", "forced_keep", "under",
                    "start", "colour", "play", "dump", "nodump", "draw", "pass", "refill",
                    "challenge", "reveal", "catch", "round_end", "match_end",
                    "dealer_draw", "dealer", "deal", "dealt", "reshuffle"]


class Event(NamedTuple):
    kind: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    amount: int = 0
    colour: str | None = None
    uno: bool = False
    private: int | None = None
    data: Any = None

    def seen_by(self, seat: int | None) -> "Event":
        """This event as ``seat`` may know it (``None``: everything, for replays)."""
        if self.private is None or seat is None or self.private == seat:
            return self
        return self._replace(cards=())

    @property
    def hidden(self) -> bool:
        """True when this copy had secret cards removed."""
        return self.private is not None and not self.cards and self.amount > 0

    def to_data(self) -> list:
        """Plain data (cards as text): ``[kind, seat, cards, amount, colour, uno,
        private, data]``; a round's end lists the hands as card texts."""
        data = self.data
        if self.kind == "round_end":
            hands, points, totals, blocked = data
            data = [[[c.text for c in h] for h in hands], list(points), list(totals), blocked]
        elif isinstance(data, tuple):
            data = [list(x) if isinstance(x, tuple) else x for x in data]
        return [self.kind, self.seat, [c.text for c in self.cards], self.amount, self.colour,
                self.uno, self.private, data]

    @classmethod
    def from_data(cls, raw: Sequence) -> "Event":
        """Inverse of :meth:`to_data`; malformed data raises ``ValueError``."""
        try:
            kind, seat, cards, amount, colour, uno, private, data = raw
            if kind not in EVENT_TYPES or not isinstance(cards, (list, tuple)):
                raise TypeError
            if kind == "round_end":
                hands, points, totals, blocked = data
                data = (tuple(tuple(Card.parse(c) for c in h) for h in hands),
                        tuple(points), tuple(totals), bool(blocked))
            elif isinstance(data, list):
                data = tuple(tuple(x) if isinstance(x, list) else x for x in data)
            return _new(kind, seat, tuple(Card.parse(c) for c in cards), amount, colour,
                        bool(uno), private, data)
        except (TypeError, ValueError):
            raise ValueError(f"malformed event data: {raw!r}"[:200]) from None


class _Card(Event):
    __slots__ = ()

    @property
    def card(self) -> Card | None:
        """The card (``None`` in a copy that hides it)."""
        return self.cards[0] if self.cards else None


class Cut(Event):
    """S1: one card per seat; ``winner`` drafts first (``None``: cut again)."""
    __slots__ = ()
    winner = property(lambda self: self.data)


class First(Event):
    """S1: the first drafter, given rather than cut (``seat``)."""
    __slots__ = ()


class Round(Event):
    """S2: round ``number`` begins; ``seat`` drafts first."""
    __slots__ = ()
    number = property(lambda self: self.amount)


class Draft(_Card):
    """S3: ``seat`` draws ``card`` in a draft step (private)."""
    __slots__ = ()


class Keep(_Card):
    """S3: the drafter kept its card; ``card`` turns up."""
    __slots__ = ()


class Reject(_Card):
    """S3: the drafter rejected ``card``."""
    __slots__ = ()


class ForcedKeep(_Card):
    """S3: after a reject, ``card`` must be kept (private)."""
    __slots__ = ()


class Under(Event):
    """S4: ``count`` draft discards go under the draw pile."""
    __slots__ = ()
    count = property(lambda self: self.amount)


class Start(_Card):
    """S5 / C7: the start ``card``."""
    __slots__ = ()


class Colour(Event):
    """S9 / C7: ``seat`` names the start Wild's ``colour``."""
    __slots__ = ()


class Play(_Card):
    """T1: ``seat`` plays ``card`` (naming ``colour``; ``total`` of a volley for a
    Draw 2); ``next_seat`` is the seat after it."""
    __slots__ = ()
    total = property(lambda self: self.amount)
    next_seat = property(lambda self: self.data)


class Dump(Event):
    """A4: ``seat`` dumps ``cards``, ``last`` last."""
    __slots__ = ()
    last = property(lambda self: self.cards[-1])
    next_seat = property(lambda self: self.data)


class NoDump(Event):
    """A4: ``seat`` declines the dump."""
    __slots__ = ()


class Draw(Event):
    """T2, A1, A5, U2, A6, E1: ``seat`` draws ``count`` cards (private) ``why``:
    turn, volley, draw2 (classic, no stacking), wd4, catch, challenge or last."""
    __slots__ = ()
    count = property(lambda self: self.amount)
    why = property(lambda self: self.data)


class Pass(Event):
    """T2 / T4: ``why`` is keep (the drawn card) or blocked (nothing to draw)."""
    __slots__ = ()
    why = property(lambda self: self.data)


class Refill(Event):
    """T3 / C5: ``count`` discards become the draw pile, ``how``: turn_over or shuffle."""
    __slots__ = ()
    count = property(lambda self: self.amount)
    how = property(lambda self: self.data)


class Challenge(Event):
    """A6 / C8: ``seat`` challenges; the Wild Draw 4 was ``guilty`` or not."""
    __slots__ = ()
    guilty = property(lambda self: self.data)


class Reveal(Event):
    """A6 / C8: ``seat`` shows its hand (``cards``) to ``shown_to`` only."""
    __slots__ = ()
    shown_to = property(lambda self: self.private)


class Catch(Event):
    """U2 / C9: ``seat`` catches ``caught`` without UNO."""
    __slots__ = ()
    caught = property(lambda self: self.data)


class RoundEnd(Event):
    """E1–E3 / C10: round ``number`` ends; ``seat`` went out (``None``: blocked)."""
    __slots__ = ()
    number = property(lambda self: self.amount)
    hands = property(lambda self: self.data[0])
    points = property(lambda self: self.data[1])
    totals = property(lambda self: self.data[2])
    blocked = property(lambda self: self.data[3])


class MatchEnd(Event):
    """E4 / C10: the match is over; ``seat`` won (``None``: a draw, a shared win)."""
    __slots__ = ()
    totals = property(lambda self: self.data)


class DealerDraw(Event):
    """C2: ``seats`` drew ``cards`` for dealer; ``winner`` deals (``None``: draw again)."""
    __slots__ = ()
    seats = property(lambda self: self.data[0])
    winner = property(lambda self: self.data[1])


class Dealer(Event):
    """C2: the dealer of round 1, given rather than drawn (``seat``)."""
    __slots__ = ()


class Deal(Event):
    """C2, C3: round ``number`` is dealt by ``seat``."""
    __slots__ = ()
    number = property(lambda self: self.amount)


class Dealt(Event):
    """C3: ``seat`` is dealt ``cards`` (private)."""
    __slots__ = ()


class Reshuffle(_Card):
    """C7: a start Wild Draw 4 went back; the draw pile is shuffled."""
    __slots__ = ()


#: each kind's class
EVENT_TYPES: dict[str, type[Event]] = {
    "cut": Cut, "first": First, "round": Round, "draft": Draft, "keep": Keep, "reject": Reject,
    "forced_keep": ForcedKeep, "under": Under, "start": Start, "colour": Colour, "play": Play,
    "dump": Dump, "nodump": NoDump, "draw": Draw, "pass": Pass, "refill": Refill,
    "challenge": Challenge, "reveal": Reveal, "catch": Catch, "round_end": RoundEnd,
    "match_end": MatchEnd, "dealer_draw": DealerDraw, "dealer": Dealer, "deal": Deal,
    "dealt": Dealt, "reshuffle": Reshuffle,
}
assert set(EVENT_TYPES) == set(get_args(EventKind))


def _new(kind: str, seat: int | None, cards: tuple = (), amount: int = 0,
         colour: str | None = None, uno: bool = False, private: int | None = None,
         data: Any = None) -> Event:
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


def describe(event: Event, names: Sequence[str] = ("Seat 1", "Seat 2"),
             viewer: int | None = None) -> str:
    """One short sentence for ``event`` as ``viewer`` sees it (``None``: all)."""
    e = event.seen_by(viewer)
    seat = e.seat
    you = seat is not None and seat == viewer
    who = "You" if you else (names[seat] if seat is not None and seat < len(names) else "")

    def name(s: int) -> str:
        return "you" if s == viewer else names[s]

    def v(word: str) -> str:
        return _verb(word, you)

    k = e.kind
    if k == "cut":
        parts = ", ".join(f"{name(s)} {c}" for s, c in enumerate(e.cards))
        return f"Cut: {parts}" + (" — equal, cut again." if e.data is None else
                                  f" — {name(e.data)} {_verb('draft', e.data == viewer)} first.")
    if k == "dealer_draw":
        seats, winner = e.data
        parts = ", ".join(f"{name(s)} {c}" for s, c in zip(seats, e.cards))
        return f"Draw for dealer: {parts}" + (" — equal, draw again." if winner is None else
                                              f" — {name(winner)} {_verb('deal', winner == viewer)}.")
    if k == "dealer":
        return f"{who} {v('deal')} first."
    if k == "deal":
        return f"Round {e.amount} — {who} {v('deal')}."
    if k == "dealt":
        if you:
            return f"You are dealt {_cards(e.cards)}."
        return f"{who} is dealt {_n(e.amount)}."
    if k == "reshuffle":
        return f"The start card {e.cards[0]} goes back; the draw pile is shuffled."
    if k == "first":
        return f"{who} {v('draft')} first."
    if k == "round":
        return f"Round {e.amount} — {who} {v('draft')} first."
    if k == "draft":
        return f"{who} {v('draft')} {e.cards[0]}." if e.cards else f"{who} {v('draft')} a card."
    if k == "keep":
        return f"{who} {v('keep')} the card; {e.cards[0]} turns up."
    if k == "reject":
        return f"{who} {v('reject')} {e.cards[0]}."
    if k == "forced_keep":
        return (f"{who} {v('draw')} {e.cards[0]} and must keep it." if e.cards
                else f"{who} {v('draw')} a card and must keep it.")
    if k == "under":
        return f"The {e.amount} draft discards go under the draw pile, in order."
    if k == "start":
        return f"Start card: {e.cards[0]}."
    if k == "colour":
        return f"{who} {v('name')} {COLOUR_NAMES[e.colour]}."
    if k == "play":
        card = e.cards[0]
        stacked = card.rank == "+2" and e.amount > 2
        text = f"{who} {v('stack' if stacked else 'play')} {card}"
        if e.colour and card.is_wild:
            text += f" and {v('name')} {COLOUR_NAMES[e.colour]}"
        if card.rank == "+2":
            text += f" — volley at {e.amount}" if e.amount > 2 else f" — {name(e.data)} {_verb('face', e.data == viewer)} +2"
        return text + (" — UNO!" if e.uno else ".")
    if k == "dump":
        last = f" ({e.cards[-1]} last)" if len(e.cards) > 1 else ""
        return f"{who} {v('dump')} {_cards(e.cards)}{last}" + (" — UNO!" if e.uno else ".")
    if k == "nodump":
        return f"{who} {v('keep')} the rest of the colour (no dump)."
    if k == "draw":
        why = e.data
        if e.amount == 0:
            return f"{who} {v('have')} nothing to draw — the piles are empty."
        what = _cards(e.cards) if e.cards else ("a card" if e.amount == 1 else _n(e.amount))
        if why == "volley":
            return f"{who} {v('take')} the volley: {what}."
        if why == "draw2":
            return f"{who} {v('draw')} 2 for the Draw 2: {what}."
        if why == "wd4":
            return f"{who} {v('draw')} 4 for the Wild Draw 4: {what}."
        if why == "last":
            return f"{who} {v('draw')} the last card's penalty: {what}."
        if why == "catch":
            return f"{who} {v('draw')} 2 for not saying UNO: {what}."
        if why == "challenge":
            return f"{who} {v('draw')} the challenge penalty: {what}."
        return f"{who} {v('draw')} {what}."
    if k == "pass":
        if e.data == "blocked":
            return f"{who} {v('pass')} — nothing left to draw."
        return f"{who} {v('keep')} the drawn card."
    if k == "refill":
        how = "shuffled" if e.data == "shuffle" else "turned over"
        return f"The discard pile is {how} into a new draw pile ({_n(e.amount)})."
    if k == "challenge":
        verdict = ("guilty — it held a card of the active colour" if e.data
                   else "not guilty")
        return f"{who} {v('challenge')} the Wild Draw 4: {verdict}."
    if k == "reveal":
        return (f"{who} {v('show')} {name(e.private)} the hand: {_cards(e.cards)}." if e.cards
                else f"{who} {v('show')} {name(e.private)} the hand.")
    if k == "catch":
        return f"{who} {v('catch')} {name(e.data)} without UNO!"
    if k == "round_end":
        hands, points, totals, blocked = e.data
        scored = ", ".join(f"{name(s)} {points[s]}" for s in range(len(points)))
        head = "Round blocked" if blocked else f"{who} {_verb('go', you)} out"
        return f"{head} — points: {scored}; totals {'–'.join(map(str, totals))}."
    if k == "match_end":
        totals = "–".join(map(str, e.data))
        if seat is None:
            return f"Match over: a draw at {totals}."
        return f"Match over: {who} {v('win')} ({totals})."
    return k
