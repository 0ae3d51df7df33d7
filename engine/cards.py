"""Cards, decks and card values — RULES.md section D.

A :class:`Card` is an immutable value: every ``R5`` is the same object, so
cards compare by identity, hash fast, and a hand is just a list of them.
"""

from __future__ import annotations

__all__ = ["Card", "COLOURS", "COLOUR_NAMES", "deck_cards", "hand_points", "ALL_CARDS"]

COLOURS = ("R", "Y", "G", "B")
COLOUR_NAMES: dict[str | None, str] = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
RANKS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")
WILD, WILD4 = "W", "W+4"

#: D2: points a card is worth when left in hand at the end of a round.
_POINTS_SYMBOL = {"S": 10, "R": 10, "+2": 10, WILD: 15, WILD4: 20}


class Card:
    """One UNO card face, e.g. ``Card.parse("R+2")``; ``str(card) == "R+2"``.

    Attributes: ``code`` (0–53, a stable small integer for save files),
    ``bit`` (``1 << code``, for the engine's hand masks),
    ``colour`` (``"R" "Y" "G" "B"`` or ``None`` for wilds), ``rank``
    (``"0"``–``"9"``, ``"S"``, ``"R"``, ``"+2"``, ``"W"``, ``"W+4"``),
    ``points`` (D2), ``cut_value`` (S1: a number's value, else 0),
    and the flags ``is_wild``, ``is_number``.

    Cards define no ordering on purpose: a rich comparison method would route
    every ``==`` (``card in hand``, ``hand.remove``) through a slow generic slot.
    Sort with ``key=Card.sort_key`` (colour, then rank: how a hand is shown).
    """

    __slots__ = ("code", "bit", "alone", "colour", "rank", "text", "points", "cut_value", "is_wild", "is_number")

    _by_text: dict[str, "Card"] = {}
    by_code: list["Card"] = []

    code: int
    bit: int
    alone: "tuple[Card]"
    colour: str | None
    rank: str
    text: str
    points: int
    cut_value: int
    is_wild: bool
    is_number: bool

    def __new__(cls, text: str) -> "Card":
        return cls.parse(text)

    @classmethod
    def _make(cls, code: int, colour: str | None, rank: str) -> "Card":
        card = object.__new__(cls)
        set_ = object.__setattr__
        set_(card, "code", code)
        set_(card, "bit", 1 << code)
        set_(card, "alone", (card,))  # the one-card tuple events carry, made once
        set_(card, "colour", colour)
        set_(card, "rank", rank)
        set_(card, "text", (colour or "") + rank)
        is_number = rank.isdigit()
        set_(card, "is_number", is_number)
        set_(card, "is_wild", colour is None)
        set_(card, "points", int(rank) if is_number else _POINTS_SYMBOL[rank])
        set_(card, "cut_value", int(rank) if is_number else 0)
        return card

    @classmethod
    def parse(cls, text: object) -> "Card":
        """Parse card notation (case-insensitive); ``ValueError`` names bad text."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise ValueError(f"not a card: {text!r}")
        card = cls._by_text.get(text.strip().upper())
        if card is None:
            raise ValueError(
                f"not a card: {text!r} (a colour R Y G B and 0-9, S, R or +2; or W, W+4)"
            )
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def sort_key(self) -> int:
        return self.code

    def __reduce__(self) -> tuple[object, ...]:
        return (Card.parse, (self.text,))

    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> "Card":
        return self

    def matches(self, top: "Card", colour: str | None) -> bool:
        """T1: playable on ``top`` while ``colour`` is the active colour."""
        return self.colour is None or self.colour == colour or self.rank == top.rank


def _build_table() -> None:
    code = 0
    for colour in COLOURS:
        for rank in RANKS:
            card = Card._make(code, colour, rank)
            Card._by_text[card.text] = card
            Card.by_code.append(card)
            code += 1
    for rank in (WILD, WILD4):
        card = Card._make(code, None, rank)
        Card._by_text[card.text] = card
        Card.by_code.append(card)
        code += 1


_build_table()

#: Every distinct card face, in code order.
ALL_CARDS: tuple[Card, ...] = tuple(Card.by_code)


def deck_cards(deck: str) -> list[Card]:
    """D1: the cards of a deck (``"duo112"`` or ``"classic108"``) in code order."""
    cards: list[Card] = []
    for card in ALL_CARDS:
        if card.is_wild:
            copies = 8 if (card.rank == WILD and deck == "duo112") else 4
        else:
            copies = 1 if card.rank == "0" else 2
        cards.extend([card] * copies)
    if deck not in ("duo112", "classic108"):
        raise ValueError(f"unknown deck {deck!r}: 'duo112' or 'classic108'")
    return cards


def hand_points(hand: "list[Card] | tuple[Card, ...]") -> int:
    """D2: the points of the cards in a hand."""
    return sum(card.points for card in hand)
