"""Match options — RULES.md section O.

:data:`OPTIONS` is the one table of options: each option's name, label, rule id,
choices (with their labels) and default per preset.  :class:`Rules` validates
against it, and a new-match form can be generated from it.  ``Rules()`` is the UNO
Duo reading of the rule book.  Options that only mean something for the other preset
are refused, not silently ignored.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping, NamedTuple

__all__ = ["Rules", "Option", "Choice", "OPTIONS", "PRESETS", "PARTNER_SEATS", "option"]

#: the presets, each with the seat counts it is for (OpenSpiel's min/max_num_players)
PRESETS: Mapping[str, range] = {"duo": range(2, 3), "classic": range(2, 11)}


class Choice(NamedTuple):
    value: Any
    label: str


class Option(NamedTuple):
    """One match option.  ``choices``: the allowed values per preset (``None``: any
    positive whole number); ``default``: per preset — a preset it does not name does
    not have the option."""

    name: str
    label: str
    rule: str
    choices: Mapping[str, "tuple[Choice, ...] | None"]
    default: Mapping[str, Any]
    #: a house rule (H): stored only when it is not at its default, so the save files
    #: and views of matches without it read exactly as they did before it existed
    house: bool = False

    def values(self, preset: str) -> "tuple[Any, ...] | None":
        """The allowed values in ``preset`` (``None``: any positive whole number)."""
        choices = self.choices[preset]
        return None if choices is None else tuple(c.value for c in choices)


_DECKS = (Choice("duo112", "duo112 — 112 cards, 8 Wilds (D1)"),
          Choice("classic108", "classic108 — the classic 108 cards (C1)"))
_REFILLS = (Choice("turn_over", "turn_over — discards flipped, not shuffled (T3)"),
            Choice("shuffle", "shuffle — discards shuffled (C5)"))


def _on_off(off: str, on: str) -> "tuple[Choice, ...]":
    """An on/off option's two choices, each with what it means."""
    return (Choice(False, f"off — {off}"), Choice(True, f"on — {on}"))


_GUILT = (Choice("colour_match", "colour_match — held the active colour (A6)"),
          Choice("any_playable", "any_playable — held any playable card"))

OPTIONS: tuple[Option, ...] = (
    Option("deck", "Deck", "D1", {"duo": _DECKS, "classic": _DECKS},
           {"duo": "duo112", "classic": "classic108"}),
    Option("target", "Points to end the match", "E4", {"duo": None, "classic": None},
           {"duo": 200, "classic": 500}),
    Option("refill", "Empty draw pile", "T3", {"duo": _REFILLS, "classic": _REFILLS},
           {"duo": "turn_over", "classic": "shuffle"}),
    Option("wd4_guilty", "Wild Draw 4 challenge", "A6", {"duo": _GUILT, "classic": _GUILT},
           {"duo": "colour_match", "classic": "colour_match"}),
    Option("stacking", "Stack Draw 2s", "C6",
           {"classic": (Choice(False, "off — a Draw 2 is drawn"),
                        Choice(True, "on — stack a Draw 2 on a Draw 2"))},
           {"classic": False}),
    Option("scoring", "Scoring", "C10",
           {"classic": (Choice("winner_takes", "winner_takes — the winner scores all hands"),
                        Choice("own_hand", "own_hand — each seat scores its hand, lowest wins"))},
           {"classic": "winner_takes"}),
    Option("seats", "Players", "C1",
           {preset: tuple(Choice(n, f"{n} players") for n in seats)
            for preset, seats in PRESETS.items()},
           {"duo": 2, "classic": 2}),
    Option("seven_zero", "Seven-O", "H1",
           {"classic": _on_off("7 and 0 are plain numbers",
                              "a 7 swaps hands with a seat, a 0 passes every hand on")},
           {"classic": False}, house=True),
    Option("stack_draw4", "Stack Wild Draw 4s", "H2",
           {"classic": (Choice("off", "off — a Wild Draw 4 is drawn or challenged"),
                        Choice("same", "same — stack a Wild Draw 4 on a Wild Draw 4"),
                        Choice("any", "any — also on a Draw 2 volley (needs Stack Draw 2s)"))},
           {"classic": "off"}, house=True),
    Option("draw_until", "Draw until playable", "H3",
           {"classic": _on_off("a turn's draw is one card", "draw until a card can be played")},
           {"classic": False}, house=True),
    Option("jump_in", "Jump-in", "H4",
           {"classic": _on_off("play only in turn",
                              "play an identical card out of turn")},
           {"classic": False}, house=True),
    Option("teams", "Teams", "H5",
           {"classic": (Choice("off", "off — every seat for itself"),
                        Choice("partners", "partners — opposite seats play as a team"))},
           {"classic": "off"}, house=True),
)

#: H5: the seat counts partners can be played at
PARTNER_SEATS = (4, 6, 8, 10)

_BY_NAME = {o.name: o for o in OPTIONS}


def option(name: str) -> Option:
    """The option called ``name`` (``KeyError`` if there is none)."""
    return _BY_NAME[name]


@dataclass(frozen=True, init=False)
class Rules:
    """The options a match is played with (stored in every save file).

    ``None`` means "the preset's default" and is replaced on construction, so a
    ``Rules`` always shows the values in force (and ``None`` for an option the
    preset does not have): the options both presets have are never ``None``.
    """

    preset: str
    deck: str
    target: int
    refill: str
    wd4_guilty: str
    stacking: bool | None  # classic only (C6), as every option below
    scoring: str | None
    seats: int
    seven_zero: bool | None
    stack_draw4: str | None
    draw_until: bool | None
    jump_in: bool | None
    teams: str | None

    def __init__(self, preset: str = "duo", deck: str | None = None, target: int | None = None,
                 refill: str | None = None, wd4_guilty: str | None = None,
                 stacking: bool | None = None, scoring: str | None = None,
                 seats: int | None = None, seven_zero: bool | None = None,
                 stack_draw4: str | None = None, draw_until: bool | None = None,
                 jump_in: bool | None = None, teams: str | None = None) -> None:
        given = dict(locals())  # the fields' values as given (None: the preset's default)
        del given["self"]
        for name, value in given.items():
            object.__setattr__(self, name, value)
        self.__post_init__()

    def __post_init__(self) -> None:
        preset = self.preset
        if preset not in PRESETS:
            raise ValueError(f"unknown preset {preset!r}: one of {', '.join(PRESETS)}")
        for opt in OPTIONS:
            value = getattr(self, opt.name)
            if preset not in opt.default:
                if value is not None:
                    raise ValueError(f"option {opt.name!r} only exists in the "
                                     + " and ".join(opt.default) + " preset")
                continue
            if value is None:
                object.__setattr__(self, opt.name, value := opt.default[preset])
            allowed = opt.values(preset)
            if allowed is None:
                if not _is_int(value) or value <= 0:
                    raise ValueError(f"option {opt.name}={value!r}: a positive whole number")
            elif opt.name == "seats":
                if not _is_int(value) or value not in allowed:
                    raise ValueError(f"option seats={value!r}: {preset} is for "
                                     + " to ".join(str(n) for n in sorted({allowed[0], allowed[-1]}))
                                     + " players")
            elif not any(value is v or (type(value) is type(v) and value == v) for v in allowed):
                raise ValueError(f"option {opt.name}={value!r}: one of "
                                 + ", ".join(str(v).lower() if isinstance(v, bool) else str(v)
                                             for v in allowed))
        if self.stack_draw4 == "any" and not self.stacking:
            raise ValueError("option stack_draw4=any needs stacking=on "
                             "(a Wild Draw 4 goes on a Draw 2 volley)")
        if self.teams == "partners" and self.seats not in PARTNER_SEATS:
            raise ValueError(f"option teams=partners: {', '.join(map(str, PARTNER_SEATS[:-1]))} "
                             f"or {PARTNER_SEATS[-1]} players, not {self.seats}")

    @property
    def house(self) -> bool:
        """Whether any house rule (H1–H5) is on."""
        return any(getattr(self, o.name) not in (None, o.default.get(self.preset))
                   for o in OPTIONS if o.house)

    def partner(self, seat: int) -> int | None:
        """H5: ``seat``'s partner (the seat opposite), or ``None`` without teams."""
        if self.teams != "partners":
            return None
        return (seat + self.seats // 2) % self.seats

    def team(self, seat: int) -> int:
        """H5: ``seat``'s team, numbered by its lower seat (without teams: the seat)."""
        return seat % (self.seats // 2) if self.teams == "partners" else seat

    @property
    def deck_size(self) -> int:
        return 112 if self.deck == "duo112" else 108

    def to_dict(self) -> dict[str, Any]:
        """Every option by name (``None`` for ones the preset does not have); a house
        rule (H) only when it is on, so older readers and files are unchanged."""
        data = asdict(self)
        for opt in OPTIONS:
            if opt.house and data[opt.name] in (None, opt.default.get(self.preset)):
                del data[opt.name]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        """Inverse of :meth:`to_dict`; unknown names are refused (``ValueError``)."""
        if not isinstance(data, dict):
            raise ValueError("rules must be a mapping of option names to values")
        names = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in data if k not in names)
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(unknown)}")
        return cls(**data)

    def describe(self) -> str:
        """One line for headers and transcripts: only what differs from the preset."""
        base = Rules(preset=self.preset)
        diffs = [
            f"{f.name}={getattr(self, f.name)}"
            for f in fields(self)
            if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name)
        ]
        return self.preset + (f" ({', '.join(diffs)})" if diffs else "")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
