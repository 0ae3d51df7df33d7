"""The new-match screen's remembered choices (``settings.json`` in the store's data
directory) and the theme."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .plan import DEFAULT_LEVEL

__all__ = ["Settings"]

@dataclass
class Settings:
    """The new-match screen's last choices and the theme, as a small JSON file."""

    opponent: str = f"bot:{DEFAULT_LEVEL}"
    name: str = ""
    opponent_name: str = ""
    rules: dict[str, Any] = field(default_factory=dict)
    theme: str = ""

    @staticmethod
    def path(store: Any) -> Path | None:
        data_dir = getattr(store, "data_dir", None)
        return None if data_dir is None else Path(data_dir) / "settings.json"

    @classmethod
    def load(cls, store: Any) -> "Settings":
        """The saved settings; defaults when the file is missing or unreadable."""
        path = cls.path(store)
        if path is None:
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        try:
            settings = cls(**known)
        except TypeError:
            return cls()
        if not isinstance(settings.rules, dict):
            settings.rules = {}
        return settings

    def save(self, store: Any) -> None:
        path = self.path(store)
        if path is None:
            return
        from .files import private_dir, replace_private

        try:  # 0600 whatever the umask, through no symlink, whole or not at all
            private_dir(path.parent)
            replace_private(path, json.dumps(self.__dict__, indent=2, sort_keys=True).encode())
        except OSError:
            pass  # remembering choices is a nicety, never a reason to fail
