"""Actions and chance outcomes: small immutable values with one canonical text.

An :class:`Action` *is* its canonical text (a ``str`` subclass), so two actions
are equal exactly when their texts are, ``"draw" in m.legal_actions()`` works,
and every action is interned: parsing returns the same object each time.  Each
action also has a small integer ``code`` for compact save files.

The log (``Match.actions``) holds decisions (:class:`Action`) and chance
outcomes (:class:`Chance`: the cut, the first seat when it was given, and every
shuffle) in the order they happened — OpenSpiel's "chance is an action".
"""

from __future__ import annotations

from operator import attrgetter

from .cards import ALL_CARDS, COLOURS, Card

__all__ = [
    "Action", "ActionError", "Chance", "IllegalAction", "MalformedAction", "parse_entry",
    "KEEP", "REJECT", "PLAY", "DRAW", "PASS", "DUMP", "NODUMP", "CHALLENGE", "CATCH", "COLOUR",
    "JUMP",
]

KEEP, REJECT, PLAY, DRAW, PASS = "keep", "reject", "play", "draw", "pass"
DUMP, NODUMP, CHALLENGE, CATCH, COLOUR = "dump", "nodump", "challenge", "catch", "colour"
JUMP, SWAP = "jump", "swap"
#: H1: the seats a 7 may swap with (the most seats a preset has)
_SWAP_SEATS = range(10)


class ActionError(ValueError):
    """An action that was not taken: :class:`MalformedAction` (not an action at all)
    or :class:`IllegalAction` (an action, not legal now) — as python-chess has
    ``InvalidMoveError`` beside ``IllegalMoveError``.  Callers that only care "was it
    accepted?" catch this one type.

    ``index`` is set by :meth:`Match.replay` to the log position of the first
    entry that failed.
    """

    index: int | None = None


class IllegalAction(ActionError):
    """An action that is not legal now; the message names the rule that forbids it."""


class MalformedAction(ActionError):
    """Text that is not an action at all (``"play R55"``, ``"bogus"``)."""


class Action(str):
    """A decision, e.g. ``Action.parse("play W+4 R uno")``.

    Attributes: ``kind`` (keep reject play draw pass dump nodump challenge catch
    colour jump), ``card`` (for play/dump/jump), ``colour`` (the colour a Wild names,
    or the one chosen by ``colour``), ``uno`` (says UNO), ``swap`` (H1: the seat a 7
    swaps hands with, else ``None``), ``code`` (small int).
    """

    kind: str
    card: Card | None
    colour: str | None
    uno: bool
    code: int
    swap: int | None = None
    is_chance = False

    _table: dict[str, "Action"] = {}
    by_code: list["Action"] = []

    @classmethod
    def _make(cls, kind: str, card: Card | None = None, colour: str | None = None,
              uno: bool = False, swap: int | None = None) -> "Action":
        words = [kind]
        if card is not None:
            words.append(card.text)
        if colour is not None:
            words.append(colour)
        if uno:
            words.append("uno")
        if swap is not None:
            words += [SWAP, str(swap)]
        action = str.__new__(cls, " ".join(words))
        action.kind, action.card, action.colour, action.uno = kind, card, colour, uno
        if swap is not None:
            action.swap = swap
        action.code = len(cls.by_code)
        cls.by_code.append(action)
        cls._table[str(action)] = action
        return action

    @classmethod
    def parse(cls, text: object) -> "Action":
        """Parse action text (whitespace and letter case are forgiven)."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise MalformedAction(f"not an action: {text!r}")
        words = text.split()
        if words:
            words[0] = words[0].lower()
            words[1:] = [w.lower() if w.lower() in ("uno", SWAP) else w.upper()
                         for w in words[1:]]
        action = cls._table.get(" ".join(words))
        if action is None:
            raise MalformedAction(
                f"not an action: {text!r} (e.g. 'keep', 'play R5', 'play W+4 G uno', 'draw', "
                "'play R7 swap 2', 'jump R5')"
            )
        return action

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (Action.parse, (str(self),))

    def __copy__(self) -> "Action":
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> "Action":
        return self


def _build_actions() -> None:
    for kind in (KEEP, REJECT, DRAW, PASS, NODUMP, CHALLENGE, CATCH):
        Action._make(kind)
    for colour in COLOURS:
        Action._make(COLOUR, colour=colour)
    for card in ALL_CARDS:
        for uno in (False, True):
            if card.is_wild:
                for colour in COLOURS:
                    Action._make(PLAY, card, colour, uno)
            else:
                Action._make(PLAY, card, None, uno)
    for card in ALL_CARDS:
        if not card.is_wild:
            for uno in (False, True):
                Action._make(DUMP, card, None, uno)
    # the house rules' (H1, H4), after every older action: save files keep their codes
    sevens = [c for c in ALL_CARDS if c.rank == "7"]
    for card in sevens:
        for seat in _SWAP_SEATS:
            Action._make(PLAY, card, swap=seat)
    for card in ALL_CARDS:
        if not card.is_wild:
            for uno in (False, True):
                Action._make(JUMP, card, None, uno)
    for card in sevens:
        for seat in _SWAP_SEATS:
            Action._make(JUMP, card, swap=seat)


_build_actions()


def _a(text: str) -> Action:
    return Action._table[text]


A_KEEP, A_REJECT, A_DRAW, A_PASS = _a("keep"), _a("reject"), _a("draw"), _a("pass")
A_NODUMP, A_CHALLENGE, A_CATCH = _a("nodump"), _a("challenge"), _a("catch")
A_COLOURS = tuple(_a(f"colour {c}") for c in COLOURS)

#: PLAYS[code] / PLAYS_UNO[code]: the play actions for a card, without and with
#: "uno" (four colour choices for a Wild) — precomputed for legal_actions().
PLAYS: list[tuple[Action, ...]] = []
PLAYS_UNO: list[tuple[Action, ...]] = []
DUMPS: list[tuple[Action, ...]] = []
DUMPS_UNO: list[tuple[Action, ...]] = []
for _card in ALL_CARDS:
    _cols = COLOURS if _card.is_wild else (None,)
    PLAYS.append(tuple(_a(f"play {_card}" + (f" {c}" if c else "")) for c in _cols))
    PLAYS_UNO.append(tuple(
        x for c in _cols for x in (_a(f"play {_card}" + (f" {c}" if c else "")),
                                   _a(f"play {_card}" + (f" {c}" if c else "") + " uno"))
    ))
    if _card.is_wild:
        DUMPS.append(())
        DUMPS_UNO.append(())
    else:
        DUMPS.append((_a(f"dump {_card}"),))
        DUMPS_UNO.append((_a(f"dump {_card}"), _a(f"dump {_card} uno")))

#: H1: SWAPS[kind][code]: a 7's swap actions (``play``/``jump``), one per seat 0–9
SWAPS: dict[str, dict[int, tuple[Action, ...]]] = {
    kind: {c.code: tuple(_a(f"{kind} {c} swap {s}") for s in _SWAP_SEATS)
           for c in ALL_CARDS if c.rank == "7"} for kind in (PLAY, JUMP)}
#: H4: JUMPS[code] / JUMPS_UNO[code]: the jump-in actions for a card
JUMPS = [(_a(f"jump {c}"),) if not c.is_wild else () for c in ALL_CARDS]
JUMPS_UNO = [(_a(f"jump {c}"), _a(f"jump {c} uno")) if not c.is_wild else () for c in ALL_CARDS]


#: each action's (kind, card, colour, says UNO): one dict lookup where reading the
#: attributes costs one each (an Action's live in its instance dict: a ``str``
#: subclass has no slots) — for the engine's and the bots' hot paths
PARTS: dict[Action, tuple[str, Card | None, str | None, bool]] = {
    a: (a.kind, a.card, a.colour, a.uno) for a in Action.by_code}


class Chance(str):
    """A chance outcome in the log: ``cut R5 G7`` (one card per seat, seat order),
    ``first 1`` (the first drafter, when given rather than cut) or
    ``shuffle <cards top first>`` (the order a shuffle produced)."""

    kind: str
    cards: tuple[Card, ...]
    seat: int | None
    is_chance = True

    @classmethod
    def cut(cls, cards: "tuple[Card, ...] | list[Card]") -> "Chance":
        return cls._new("cut", tuple(cards), None)

    @classmethod
    def first(cls, seat: int) -> "Chance":
        return cls._new("first", (), seat)

    @classmethod
    def shuffle(cls, cards: "tuple[Card, ...] | list[Card]") -> "Chance":
        return cls._new("shuffle", tuple(cards), None)

    @classmethod
    def _new(cls, kind: str, cards: tuple[Card, ...], seat: int | None) -> "Chance":
        text = " ".join([kind, *map(_TEXT, cards)] + ([str(seat)] if seat is not None else []))
        entry = str.__new__(cls, text)
        entry.kind, entry.cards, entry.seat = kind, cards, seat
        return entry

    @classmethod
    def parse(cls, text: object) -> "Chance":
        if isinstance(text, Chance):
            return text
        if not isinstance(text, str):
            raise MalformedAction(f"not a chance outcome: {text!r}")
        words = text.split()
        kind = words[0].lower() if words else ""
        try:
            if kind in ("cut", "shuffle") and len(words) > 1:
                cards = tuple(Card.parse(w) for w in words[1:])
                return cls.cut(cards) if kind == "cut" else cls.shuffle(cards)
            if kind == "first" and len(words) == 2 and words[1].isdigit():
                return cls.first(int(words[1]))
        except ValueError as exc:
            raise MalformedAction(f"not a chance outcome: {text!r} ({exc})") from None
        raise MalformedAction(
            f"not a chance outcome: {text!r} (e.g. 'cut R5 G7', 'first 0', 'shuffle R5 ...')"
        )

    def __repr__(self) -> str:
        return f"Chance({str(self)!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (Chance.parse, (str(self),))


_CHANCE_WORDS = ("cut", "first", "shuffle")
_TEXT = attrgetter("text")


def parse_entry(entry: object) -> "Action | Chance":
    """A log entry from its text, or a ``(kind, ...)`` tuple of words."""
    if isinstance(entry, (Action, Chance)):
        return entry
    if isinstance(entry, (tuple, list)):
        entry = " ".join(str(w) for w in entry)
    if isinstance(entry, str) and entry.split()[:1] and entry.split()[0].lower() in _CHANCE_WORDS:
        return Chance.parse(entry)
    return Action.parse(entry)
