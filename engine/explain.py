"""Why an action is not legal now: a message that names the rule."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import COLOUR_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .match import Match

_PHASE_NEEDS = {
    "draft": "S3: during the draft you may only keep or reject the drafted card",
    "colour": "S9: name the start Wild's colour first (colour R, Y, G or B)",
    "volley": "A1: facing a volley you may only stack a Draw 2 or draw the total",
    "wd4": "A6: facing a Wild Draw 4 you may only draw 4 or challenge",
    "dump": "A4: dump every card of the colour (choosing the last) or nodump",
    "drawn": "T2: after drawing you may only play the drawn card or pass",
}


def why_illegal(m: "Match", action: "Action", seat: int | None) -> str:
    """The first rule that forbids ``action`` for ``seat`` (default: the seat to act)."""
    if m.over:
        return "E4: the match is over"
    if seat is not None and seat != m.to_act:
        return f"it is seat {m.to_act}'s decision, not seat {seat}'s"
    kind = action.kind
    phase = m.phase
    me = m.to_act
    hand = m._hands[me]
    if kind == "catch":
        return "U3: there is nobody to catch — the opponent said UNO or is not down to one card"
    if phase == "volley" and m._forced:
        return "S8: the start Draw 2 is simply drawn — no stacking"
    if phase == "wd4" and m._forced:
        return "S8: the start Wild Draw 4 is simply drawn — no challenge"
    if kind == "challenge" and phase != "wd4":
        return "A6: you can only challenge a Wild Draw 4 played on you"
    if kind in ("keep", "reject") or phase == "draft":
        if phase != "draft":
            return "S3: keep and reject belong to the draft"
        return _PHASE_NEEDS["draft"]
    if kind == "colour" or phase == "colour":
        if phase != "colour":
            return "T5: a Wild names its colour in the same move (e.g. play W R)"
        return _PHASE_NEEDS["colour"]
    if kind in ("dump", "nodump") and phase != "dump":
        return "A4: a dump only follows a Reverse (or a Reverse start card)"
    card = action.card
    if kind in ("play", "dump") and card not in hand:
        return f"T1: you hold no {card}"
    if phase == "drawn" and kind == "play" and card is not m._drawn:
        return f"T2: after drawing, only the drawn card ({m._drawn}) may be played"
    if phase in _PHASE_NEEDS and kind not in ("draw", "pass", "play", "dump") or (
        phase == "dump" and kind == "play"
    ) or (phase in ("volley", "wd4") and kind == "pass"):
        return _PHASE_NEEDS.get(phase, "that is not a move now")
    if phase == "volley" and kind == "play" and card.rank != "+2":
        return _PHASE_NEEDS["volley"]
    if phase == "wd4" and kind == "play":
        return _PHASE_NEEDS["wd4"]
    if phase == "dump" and kind == "dump" and card.colour != m._dump_colour:
        return f"A4: the dump is of {COLOUR_NAMES[m._dump_colour]} cards"
    if kind == "pass":
        if phase == "turn":
            return "T4: you may pass only when nothing can be drawn — draw instead"
    if kind == "draw" and phase == "drawn":
        return "T2: you have drawn already — play the drawn card or pass"
    if kind == "draw" and phase == "turn":
        return "T4: there is nothing left to draw — play or pass"
    if kind == "play" and phase == "turn" and not card.matches(m.top, m.color):
        return (f"T1: {card} does not match {m.top} (active colour "
                f"{COLOUR_NAMES.get(m.color, 'none')}) by colour, number or symbol")
    if action.uno:
        return "U3: say UNO only with the move that leaves you one card"
    leaves = len(hand) - (1 if kind == "play" else sum(c.colour == m._dump_colour for c in hand))
    if leaves == 1:  # pragma: no branch - every other UNO case is covered above
        return "that is not a move now"
    return "that is not a move now"
