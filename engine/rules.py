"""Match options — RULES.md section O.

``Rules()`` is the UNO Duo reading of the rule book.  Options that only mean
something for the other preset are refused, not silently ignored.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

__all__ = ["Rules"]

_PRESETS = ("duo", "classic")
_CHOICES = {
    "deck": ("duo112", "classic108"),
    "refill": ("turn_over", "shuffle"),
    "wd4_guilty": ("colour_match", "any_playable"),
    "scoring": ("winner_takes", "own_hand"),
}
_DEFAULTS = {
    "duo": {"deck": "duo112", "target": 200, "seats": 2},
    "classic": {"deck": "classic108", "target": 500, "seats": 2, "stacking": False,
                "scoring": "winner_takes"},
}
_CLASSIC_ONLY = ("stacking", "scoring")


@dataclass(frozen=True)
class Rules:
    """The options a match is played with (stored in every save file).

    ``None`` means "the preset's default" and is replaced on construction, so a
    ``Rules`` always shows the values in force.
    """

    preset: str = "duo"
    deck: str | None = None
    target: int | None = None
    refill: str = "turn_over"
    wd4_guilty: str = "colour_match"
    stacking: bool | None = None
    scoring: str | None = None
    seats: int | None = None

    def __post_init__(self) -> None:
        if self.preset not in _PRESETS:
            raise ValueError(f"unknown preset {self.preset!r}: one of {', '.join(_PRESETS)}")
        defaults = _DEFAULTS[self.preset]
        if self.preset == "duo":
            for name in _CLASSIC_ONLY:
                if getattr(self, name) is not None:
                    raise ValueError(f"option {name!r} only exists in the classic preset")
        for name, value in defaults.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value)
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value is not None and value not in choices:
                raise ValueError(f"option {name}={value!r}: one of {', '.join(choices)}")
        if not _is_int(self.target) or self.target <= 0:
            raise ValueError(f"option target={self.target!r}: a positive whole number")
        if self.stacking is not None and not isinstance(self.stacking, bool):
            raise ValueError(f"option stacking={self.stacking!r}: true or false")
        seats = self.seats
        allowed = (2,) if self.preset == "duo" else (2, 3, 4)
        if not _is_int(seats) or seats not in allowed:
            raise ValueError(
                f"option seats={seats!r}: {self.preset} is for "
                + " to ".join(str(n) for n in sorted({allowed[0], allowed[-1]}))
                + " players"
            )

    @property
    def deck_size(self) -> int:
        return 112 if self.deck == "duo112" else 108

    def to_dict(self) -> dict[str, Any]:
        """Every option by name (``None`` for ones the preset does not have)."""
        return asdict(self)

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
