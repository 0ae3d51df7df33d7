"""Why an action is not legal now: a message that names the rule."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import COLOUR_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .match import Match

_UNO = "U3: say UNO only with the move that leaves you exactly one card"


def why_illegal(m: "Match", action: "Action", seat: int | None) -> str:
    """The rule that forbids ``action`` for ``seat`` (default: the seat to act)."""
    if m.over:
        return "E4: the match is over"
    if seat is not None and seat != m.to_act:
        return f"it is seat {m.to_act}'s decision, not seat {seat}'s"
    kind, phase = action.kind, m.phase
    if m.rules.preset == "classic":
        why = _classic(m, action)
        if why:
            return why
    if kind == "catch":
        return "U3: there is nobody to catch — the opponent said UNO or is not down to one card"
    if phase == "draft":
        return "S3: during the draft you may only keep or reject the drafted card"
    if phase == "colour":
        return "S9: first name the start Wild's colour (colour R, Y, G or B)"
    if kind in ("keep", "reject"):
        return "S3: keep and reject belong to the draft"
    if kind == "colour":
        return "T5: a Wild names its colour in the same move (e.g. play W R)"
    if m.forced:
        what = "Draw 2" if phase == "volley" else "Wild Draw 4"
        return f"S8: the start {what} is simply drawn — no stacking, no challenge"
    to_act = m.to_act
    assert to_act is not None  # not over: answered above
    hand = m.hand(to_act)
    card = action.card
    if phase == "dump":
        colour = COLOUR_NAMES[m.dump_colour]
        if kind != "dump":
            return f"A4: dump every {colour} card (choosing the last) or nodump"
        if card is None or card not in hand:
            return f"T1: you hold no {card}"
        if card.colour != m.dump_colour:
            return f"A4: the dump is of {colour} cards"
        return _UNO
    if kind in ("dump", "nodump"):
        return "A4: a dump only follows a Reverse (or a Reverse start card)"
    if kind == "challenge":
        return "A6: you can only challenge a Wild Draw 4 played on you"
    if kind == "play" and card not in hand:
        return f"T1: you hold no {card}"
    if phase == "volley":
        if kind == "play" and card is not None and card.rank == "+2":
            return _UNO
        return "A1: facing a volley you may only stack a Draw 2 or draw the total"
    if phase == "wd4":
        return "A6: facing a Wild Draw 4 you may only draw 4 or challenge"
    if phase == "drawn":
        if kind == "draw":
            return "T2: you have drawn already — play the drawn card or pass"
        if card is not m.drawn:
            return f"T2: after drawing, only the drawn card ({m.drawn}) may be played"
        return _UNO
    if kind == "pass":
        return "T4: you may pass only when nothing can be drawn — draw instead"
    if kind == "draw":
        return "T4: there is nothing left to draw — play a card or pass"
    if card is not None and m.top is not None and not card.matches(m.top, m.color):
        return (f"T1: {card} does not match {m.top} (active colour "
                f"{COLOUR_NAMES.get(m.color, 'none')}) by colour, number or symbol")
    return _UNO


def _classic(m: "Match", action: "Action") -> str:
    """The classic preset's own reasons (C3, C6, C7), or "" for the shared ones."""
    kind, phase = action.kind, m.phase
    if kind in ("keep", "reject"):
        return "C3: classic UNO is dealt — there is no draft"
    if kind in ("dump", "nodump"):
        return "C6: a Reverse turns play around — there is no dump in classic UNO"
    if phase == "colour" and kind != "catch":
        return "C7: first name the start Wild's colour (colour R, Y, G or B)"
    if phase == "volley" and kind == "play" and action.card is not None \
            and action.card.rank == "+2" and not m.rules.stacking and not m.forced:
        return "C6: a Draw 2 is drawn — stacking is off"
    if m.forced and kind != "catch":
        return "C7: the start Draw 2 is simply drawn — nobody played it"
    return ""
