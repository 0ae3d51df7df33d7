"""Events: what happened, structured, with who may see which cards.

Every move yields events.  An event names its acting ``seat``, the ``cards``
involved, an ``amount`` (cards drawn, volley total, round number…) and, when
the cards are secret, ``private``: the one seat allowed to see them.  Other
seats get :meth:`Event.seen_by` — the same event with the cards removed (they
learn *that* you drew two cards, not which).  :func:`describe` turns an event
into a sentence with the players' names, from one seat's point of view.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from .cards import COLOUR_NAMES, Card

__all__ = ["Event", "describe"]


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
            if not isinstance(kind, str) or not isinstance(cards, (list, tuple)):
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


def _new(kind: str, seat: int | None, cards: tuple = (), amount: int = 0,
         colour: str | None = None, uno: bool = False, private: int | None = None,
         data: Any = None) -> Event:
    return tuple.__new__(Event, (kind, seat, cards, amount, colour, uno, private, data))


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
