"""The game review's reasons in words (#25), in the game log's language: "You drew with
R5 playable; playing it left you 3 cards" — for each flagged decision of
:mod:`engine.review`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action
from .cards import COLOUR_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from .review import Decision
    from .view import PlayerView

__all__ = ["reason"]


def _cards(n: int) -> str:
    return f"{n} card{'s' * (n != 1)}"


def _reason(played: Action, best: Action, view: PlayerView) -> str:
    hand = view.hand
    if view.phase == "draft":  # S3: the drafted card is the newest in hand
        card = hand[-1]
        if played.kind == "keep":
            return f"You kept {card} in the draft; rejecting it was better"
        return f"You rejected {card} in the draft; keeping it was better"
    if best.kind == "play" and played.kind in ("draw", "pass"):
        left = len(hand) - 1
        what = "kept the drawn card" if played.kind == "pass" else "drew"
        if left == 0:
            return f"You {what} with {best.card} playable, your last card: playing it went out"
        return f"You {what} with {best.card} playable; playing it left you {_cards(left)}"
    if played.kind == "play" and best.kind in ("draw", "pass"):
        instead = "keeping the drawn card" if best.kind == "pass" else "drawing"
        return f"You played {played.card}; {instead} was better"
    if played.kind == best.kind == "play":
        if played.card == best.card and played.colour != best.colour:
            n = sum(1 for c in hand if c.colour == best.colour)
            return (f"You named {COLOUR_NAMES[played.colour or 'R']} with {played.card}; "
                    f"{COLOUR_NAMES[best.colour or 'R']} was better (you held {n})")
        if played.card == best.card and best.uno and not played.uno:
            return f"You did not say UNO playing {played.card}, down to one card"
        return f"You played {played.card}; {best.card} was better"
    if played.kind == best.kind == "colour":
        n = sum(1 for c in hand if c.colour == best.colour)
        return (f"You named {COLOUR_NAMES[played.colour or 'R']}; "
                f"{COLOUR_NAMES[best.colour or 'R']} was better (you held {n})")
    if "challenge" in (played.kind, best.kind):
        if played.kind == "challenge":
            return "You challenged the Wild Draw 4; taking the four was better"
        return "You took the four; challenging the Wild Draw 4 was better"
    if best.kind == "catch":
        return "You did not catch a missing UNO"
    if played.kind == "dump" and best.kind == "nodump":
        return f"You dumped with {played.card} last; not dumping was better"
    if played.kind == "nodump" and best.kind == "dump":
        return f"You did not dump; dumping with {best.card} last was better"
    if played.kind == best.kind == "dump":
        return f"You dumped with {played.card} last; {best.card} last was better"
    return f"You chose {played}; {best} was better"


def reason(d: "Decision", view: "PlayerView") -> str:
    """Why ``d`` (a flagged decision, made from ``view``) was flagged, in words."""
    text = _reason(Action.parse(d.played), Action.parse(d.best), view)
    return f"{text} (win chance {d.win_after:.0f}% instead of {d.win_before:.0f}%)"
