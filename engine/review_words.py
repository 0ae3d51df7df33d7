"""The game review's reasons in words (#25), in the game log's language: "You drew with
R5 playable; playing it left you 3 cards" — for each flagged decision of
:mod:`engine.review`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .actions import Action
from .cards import COLOUR_NAMES, Card

if TYPE_CHECKING:  # pragma: no cover
    from .review import Decision
    from .view import PlayerView

__all__ = ["reason", "action_words"]


def _cards(n: int) -> str:
    return f"{n} card{'s' * (n != 1)}"


def _card(a: Action) -> str:
    """A play's card as the log tells it: a Wild with the colour it named, a 7 with
    the seat it swapped with (H1)."""
    text = str(a.card)
    if a.colour is not None:
        text += f" naming {COLOUR_NAMES[a.colour]}"
    if a.swap is not None:
        text += f" swapping with seat {a.swap + 1}"
    return text


def action_words(text: str) -> str:
    """A decision in a few words, for a status line: "R5", "W naming blue", "draw",
    "keep the drawn card", "dump, G2 last"…"""
    a = Action.parse(text)
    uno = " with UNO" if a.uno else ""
    if a.kind == "play":
        return _card(a) + uno
    if a.kind == "dump":
        return f"dump, {a.card} last{uno}"
    if a.kind == "jump":
        return f"jump in with {_card(a)}{uno}"
    if a.kind == "colour":
        return f"name {COLOUR_NAMES[a.colour or 'R']}"
    return {"pass": "keep the drawn card", "nodump": "no dump"}.get(a.kind, a.kind)


def _named(played: Action, best: Action, hand: Sequence[Card], card: str = "") -> str:
    """A colour named when another was better, and how many of it the seat held."""
    better = COLOUR_NAMES[best.colour or "R"]
    n = sum(1 for c in hand if c.colour == best.colour)
    return (f"You named {COLOUR_NAMES[played.colour or 'R']}{card}; {better} was better: "
            f"you held {n} {better} card{'s' * (n != 1)}")


def _reason(played: Action, best: Action, view: PlayerView) -> str:
    hand = view.hand
    if view.phase == "draft":  # S3: the drafted card is the newest in hand
        card = hand[-1]
        if played.kind == "keep":
            return f"You kept {card} in the draft; rejecting it was better"
        return f"You rejected {card} in the draft; keeping it was better"
    if best.kind == "play" and played.kind in ("draw", "pass"):
        drawn = best.card
        left = len(hand) - 1
        what = f"kept the drawn {drawn}" if played.kind == "pass" else f"drew with {drawn} playable"
        if left == 0:
            return f"You {what}, your last card: playing it went out"
        return f"You {what}; playing it left you {_cards(left)}"
    if played.kind == "play" and best.kind in ("draw", "pass"):
        instead = "keeping the drawn card" if best.kind == "pass" else "drawing"
        return f"You played {_card(played)}; {instead} was better"
    if played.kind == best.kind == "play":
        if played.card == best.card and played.colour != best.colour:
            return _named(played, best, hand, f" with {played.card}")
        if played.card == best.card and best.uno and not played.uno:
            return f"You did not say UNO playing {played.card}, down to one card"
        return f"You played {_card(played)}; {_card(best)} was better"
    if played.kind == best.kind == "colour":
        return _named(played, best, hand)
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
