"""The game review's worlds for a draft decision (S3, UNO Duo's keep / reject, #25).

The hard bot's belief starts after the draft (:meth:`~engine.match.Match.from_position`
sets up mid-round positions only), so a draft step is sampled here from what the
drafting seat saw, and nothing else: its view's events since the round began.  The
round's deck, top first, is a sequence of *slots* — each draft step takes one card
(keep: the next is turned up; reject: the drafted card goes up and the next is kept),
so every slot is either a card the seat saw (its own draws, every card that reached
the discard pile) or one it did not (the other seat's keeps).  A world fills the
unseen slots and the rest of the deck with a uniform shuffle of the unseen cards and
replays the round's draft so far from that deck (``first``, ``shuffle``, the keeps
and rejects both seats made — public, S3): a match at the same draft step, every
card known, ready for :func:`~engine.bots.rollout.play_round` (the rollout drafts on
by the normal bot's rule, then plays the round).

What it leaves out: the other seat's keeps are drawn uniformly, not by the normal
bot's taste for cheap cards; the match's scores (a world is a round 1 from 0 – 0),
which the round-level win chance does not read.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Callable

from .actions import Action, Chance
from .cards import Card, deck_cards
from .match import Match
from .rng import Rng

if TYPE_CHECKING:  # pragma: no cover
    from .view import PlayerView

__all__ = ["draft_slots", "draft_sampler"]


def draft_slots(view: "PlayerView") -> tuple[list["Card | None"], list[Action]]:
    """(the round's deck as far as the draft took it, top first, ``None`` where the
    seat did not see the card; the draft decisions made so far, in order), from
    ``view``'s events since its round began."""
    events = view.events
    start = max((i for i, e in enumerate(events) if e.kind == "round"), default=-1)
    slots: list[Card | None] = []
    made: list[Action] = []
    for e in events[start + 1:]:
        kind = e.kind
        if kind in ("draft", "forced_keep", "keep"):
            slots.append(e.cards[0] if e.cards else None)
        elif kind == "reject":  # the drafted card itself goes up
            slots[-1] = e.cards[0]
        if kind in ("keep", "reject"):
            made.append(Action.parse(kind))
    return slots, made


def draft_sampler(view: "PlayerView", rng: Rng) -> "Callable[[], Match]":
    """Worlds (matches at ``view``'s draft step, every card known) for its seat."""
    if view.phase != "draft" or view.seat is None:
        raise ValueError("draft_sampler: not a draft decision")
    slots, made = draft_slots(view)
    if not slots or slots[-1] != view.hand[-1]:
        raise ValueError("draft_sampler: the view's events do not account for its draft")
    unseen = Counter(deck_cards(view.rules.deck))
    unseen.subtract(c for c in slots if c is not None)
    if min(unseen.values(), default=0) < 0:
        raise ValueError("draft_sampler: the view's events do not account for its deck")
    pool = list(unseen.elements())
    rules, p1, seat = view.rules, view.p1, view.seat

    def world() -> Match:
        cards = list(pool)
        rng.shuffle(cards)
        rest = iter(cards)  # the holes in order, then the rest of the deck
        order = [c if c is not None else next(rest) for c in slots]
        order.extend(rest)
        m = Match.replay(rules, [Chance.first(p1), Chance.shuffle(order), *made],
                         seed=rng.next64())
        if m.to_act != seat or m.phase != "draft":  # pragma: no cover - a rules change
            raise ValueError("draft_sampler: the sampled world is at another decision")
        return m

    return world
