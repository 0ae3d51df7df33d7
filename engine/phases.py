"""The phases of a match: what kind of decision is pending (one list, for every layer)."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["Phase", "PHASES", "MID_ROUND", "parse_phase"]

#: draft (S3), colour (S9 / C7: a start Wild's colour), turn (T1), drawn (T2: the drawn
#: card), volley (A1 / C6), wd4 (A5 / C8), dump (A4), over (E4)
Phase = Literal["draft", "colour", "turn", "drawn", "volley", "wd4", "dump", "over"]
PHASES: tuple[Phase, ...] = get_args(Phase)
#: the phases a position can be set up in (Match.from_position)
MID_ROUND: tuple[Phase, ...] = ("turn", "drawn", "volley", "wd4", "dump", "colour")


def parse_phase(text: object) -> Phase:
    """``text`` as a :data:`Phase` (``ValueError`` naming the choices otherwise)."""
    for p in PHASES:
        if text == p:
            return p
    raise ValueError(f"no phase {text!r}: one of {', '.join(PHASES)}")
