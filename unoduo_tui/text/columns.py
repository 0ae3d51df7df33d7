"""Seat names cut for narrow columns (the score sheet, ``unoduo list``).  No Textual
here: the headless commands use it too."""

from __future__ import annotations

from typing import Sequence

__all__ = ["short_name", "short_names", "distinct_names"]


def short_name(name: str, width: int) -> str:
    """``name`` in ``width`` cells: whole if it fits, else its first word, else cut."""
    if len(name) <= width:
        return name
    first = name.split()[0] if name.split() else name
    return first if len(first) <= width else name[:width - 1] + "…"


def distinct_names(names: Sequence[str], width: int) -> list[str]:
    """Every name in ``width`` cells (:func:`short_name`), told apart: names cut to the
    same text ("Random bot 1", "Random bot 2" → "Random") keep their ends instead
    ("Rando…1", "Rando…2")."""
    base = [short_name(n, width) for n in names]
    short = list(base)
    for i, name in enumerate(names):
        same = [names[j] for j, s in enumerate(base) if s == base[i] and names[j] != name]
        if not same or len(name) <= width:
            continue
        k = 1
        while k < width - 2 and name[-k:] in {other[-k:] for other in same}:
            k += 1
        short[i] = name[:max(1, width - k - 1)] + "…" + name[-k:]
    return short


def short_names(a: str, b: str, width: int) -> tuple[str, str]:
    """Two seats' names in ``width`` cells each, told apart (:func:`distinct_names`):
    "Player 1" and "Player 2" would both be "Player", so then each keeps its end
    ("Play…1")."""
    first, second = distinct_names((a, b), width)
    return first, second
