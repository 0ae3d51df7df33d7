"""The new-match form's remembered choices (``settings.json`` in the store's data
directory) and the theme.

The file is the player's to edit and may come from an older version: whatever in it is
not a valid choice any more is dropped field by field, never a reason to fail.  Before
issue #14 it held one opponent (``opponent``, ``name``, ``opponent_name``) and the
UNO Duo options (``rules``); :meth:`Settings.load` reads those as a two-seat UNO Duo
table.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.rules import PRESETS

from .plan import DEFAULT_LEVEL, HUMAN, bot_levels

if TYPE_CHECKING:
    from .store import Saves

__all__ = ["Settings"]

#: the remembered seats beyond the last remembered kind: the default bot
DEFAULT_KIND = f"bot:{DEFAULT_LEVEL}"


def _kind_ok(kind: object) -> bool:
    return kind == HUMAN or (isinstance(kind, str) and kind.startswith("bot:")
                             and kind[4:] in bot_levels())


@dataclass
class Settings:
    """The form's last choices and the theme, as a small JSON file.  ``kinds`` and
    ``names``: per seat, seat 0 being you; ``options``: per preset, the option values
    last chosen (the seed is per match: never remembered)."""

    preset: str = "duo"
    seats: int = 2
    kinds: list[str] = field(default_factory=lambda: [HUMAN, DEFAULT_KIND])
    names: list[str] = field(default_factory=list)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    theme: str = ""

    def kind(self, seat: int) -> str:
        """Seat ``seat``'s remembered kind (seat 0 is always you, a human)."""
        if seat == 0:
            return HUMAN
        return self.kinds[seat] if seat < len(self.kinds) else DEFAULT_KIND

    def name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else ""

    def options_for(self, preset: str) -> dict[str, Any]:
        return dict(self.options.get(preset, {}))

    @staticmethod
    def path(store: Saves | None) -> Path | None:
        data_dir = getattr(store, "data_dir", None)
        return None if data_dir is None else Path(data_dir) / "settings.json"

    @classmethod
    def load(cls, store: Saves | None) -> "Settings":
        """The saved settings; defaults for what is missing, unreadable or no longer
        valid."""
        path = cls.path(store)
        if path is None:
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        return cls.from_dict(data) if isinstance(data, dict) else cls()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Settings":
        s = cls()
        if "kinds" not in data and "opponent" in data:  # the file of a two-seat version
            data = {"preset": "duo", "seats": 2, "kinds": [HUMAN, data["opponent"]],
                    "names": [data.get("name", ""), data.get("opponent_name", "")],
                    "options": {"duo": data.get("rules")}, "theme": data.get("theme", "")}
        if data.get("preset") in PRESETS:
            s.preset = data["preset"]
        seats = data.get("seats")
        s.seats = seats if type(seats) is int and seats in PRESETS[s.preset] else \
            PRESETS[s.preset][0]
        if isinstance(data.get("kinds"), list):
            s.kinds = [k if _kind_ok(k) else DEFAULT_KIND for k in data["kinds"][:100]]
        if isinstance(data.get("names"), list):
            s.names = [n if isinstance(n, str) else "" for n in data["names"][:100]]
        if isinstance(data.get("options"), dict):
            s.options = {p: dict(v) for p, v in data["options"].items()
                         if p in PRESETS and isinstance(v, dict)}
        if isinstance(data.get("theme"), str):
            s.theme = data["theme"]
        return s

    def save(self, store: Saves | None) -> None:
        path = self.path(store)
        if path is None:
            return
        from .files import private_dir, replace_private

        try:  # 0600 whatever the umask, through no symlink, whole or not at all
            private_dir(path.parent)
            replace_private(path, json.dumps(asdict(self), indent=2, sort_keys=True).encode())
        except (OSError, TypeError, ValueError):
            pass  # remembering choices is a nicety, never a reason to fail
