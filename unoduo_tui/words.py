"""Small pieces of English the screens share.  No Textual here.

- :func:`article`: "a" or "an" before a number, by how it is said ("an 81% chance").
- :func:`hint_text`: a decision in words, with the key that makes it (the practice hint).
"""

from __future__ import annotations

from engine import Action, PlayerView
from engine.cards import COLOUR_NAMES

__all__ = ["article", "hint_text"]


def article(number: int) -> str:
    """The article before ``number`` said aloud: "an" when it starts with a vowel sound
    (8, 11, 18, 80–89, 800–899, 8000…, 11 000, 18 000…), else "a"."""
    digits = str(abs(int(number)))
    lead = digits[:len(digits) % 3 or 3]  # the group said first: "eleven thousand"
    return "an" if digits[0] == "8" or lead in ("11", "18") else "a"


def hint_text(action: Action, view: PlayerView) -> str:
    """A suggested action in words, with the key that makes it."""
    kind = action.kind
    uno = ", saying UNO (u)" if action.uno else ""
    if kind == "play":
        named = f" and name {COLOUR_NAMES[action.colour]}" if action.card.is_wild else ""
        return f"play {action.card}{named}{uno}"
    if kind == "dump":
        return (f"dump every {COLOUR_NAMES[view.dump_colour]} card, {action.card} last{uno}")
    if kind == "draw":
        owed = view.pending_draw
        return f"draw {owed} (d)" if owed else "draw (d)"
    if kind == "pass":
        return "keep the card you drew (p)" if view.phase == "drawn" else "pass (p)"
    if kind == "colour":
        return f"name {COLOUR_NAMES[action.colour]}"
    return {"keep": "keep it (k)", "reject": "reject it (r)", "nodump": "keep your cards",
            "challenge": "challenge (c)", "catch": "catch them (x)"}[kind]
