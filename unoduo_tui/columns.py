"""Seat names cut for narrow columns (the score sheet, ``unoduo list``).  No Textual
here: the headless commands use it too."""

from __future__ import annotations

__all__ = ["short_name", "short_names"]


def short_name(name: str, width: int) -> str:
    """``name`` in ``width`` cells: whole if it fits, else its first word, else cut."""
    if len(name) <= width:
        return name
    first = name.split()[0] if name.split() else name
    return first if len(first) <= width else name[:width - 1] + "…"


def short_names(a: str, b: str, width: int) -> tuple[str, str]:
    """Two seats' names in ``width`` cells each, told apart: "Player 1" and "Player 2"
    would both be "Player", so then each keeps its last character ("Play…1")."""
    short = short_name(a, width), short_name(b, width)
    if short[0] != short[1] or a == b:
        return short
    a, b = (n if len(n) <= width else n[:width - 2] + "…" + n[-1] for n in (a, b))
    return a, b
