"""The hard bot's rollouts — one design for both presets, on the engine itself.

A rollout plays a searched candidate in a :meth:`~engine.match.Match.search_copy` of a
determinized world (a position set up with :meth:`~engine.match.Match.from_position`,
every card known), then the rest of the round with the normal policy
(:func:`engine.bots.normal.policy`) for every seat, through
:meth:`~engine.match.Match.push` — the engine's unchecked apply, without a log or
events.  The copy ends with its round (it scores it and deals no next one), so
there is no second copy of the rules to keep honest: UNO Duo and classic roll out
the same way and differ only in how a world is sampled and how its end is valued
(:mod:`.hard` and :mod:`.hard_classic`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from ..actions import Action
from ..classic import CARD_POINTS
from .normal import policy

if TYPE_CHECKING:  # pragma: no cover
    from ..cards import Card
    from ..match import Match
    from ..phases import Phase

__all__ = ["ROLLOUT_LIMIT", "play_round"]

#: decisions: far beyond a real round; a rollout this long is scored as it stands
ROLLOUT_LIMIT = 600
#: every play of a Wild Draw 4 (one set lookup; an Action's attributes cost more)
_WD4_PLAYS = frozenset(a for a in Action.by_code if a.kind == "play" and a.card is not None
                       and a.card.rank == "W+4")

#: a Wild Draw 4's answer in a rollout: (the match, the seat answering, the seat that
#: played it, the colour before it) -> challenge?  ``None``: never challenge
Challenger = Callable[["Match", int, int, "str | None"], bool]


def play_round(world: "Match", first: "Action", challenger: Challenger | None = None,
               limit: int = ROLLOUT_LIMIT) -> "Match":
    """A search copy of ``world`` after ``first`` (a legal action of the seat to act)
    and then the normal policy for every seat, until the round ends (``over``: its
    result is the copy's last ``rounds`` entry) or ``limit`` decisions were made."""
    to_act = world.to_act
    assert to_act is not None  # a world is a position with a decision to make
    m = world.search_copy()
    points = CARD_POINTS[m.rules.preset]
    m.push(first)
    if m.rules.house:  # H1–H5: the house policy reads every seat's count
        return _house_round(m, points, challenger, limit, to_act, world.color)
    if challenger is None:  # nothing to track: the policy as it is, one frame fewer
        def plain(seat: int, hand: "list[Card]", legal: "tuple[Action, ...]", phase: "Phase",
                  top: "Card | None", colour: "str | None", next_size: int,
                  dump_colour: "str | None") -> "Action":
            return policy(hand, legal, phase, top, colour, next_size, dump_colour,
                          False, points)
        m.play_out(plain, limit)
        return m
    by, before = to_act, world.color

    def choose(seat: int, hand: "list[Card]", legal: "tuple[Action, ...]", phase: "Phase",
               top: "Card | None", colour: "str | None", next_size: int,
               dump_colour: "str | None") -> "Action":
        nonlocal by, before
        if phase == "wd4":  # the answer to the Wild Draw 4 ``by`` played on ``before``
            return policy(hand, legal, phase, top, colour, next_size, dump_colour,
                          len(legal) > 1 and challenger(m, seat, by, before), points)
        action = policy(hand, legal, phase, top, colour, next_size, dump_colour, False, points)
        if action in _WD4_PLAYS:  # only a Wild Draw 4 leads to a wd4 decision
            by, before = seat, colour
        return action

    m.play_out(choose, limit)
    return m


def _house_round(m: "Match", points: "Sequence[int]", challenger: Challenger | None, limit: int,
                 by: int, before: "str | None") -> "Match":
    """:func:`play_round`'s rest of the round with a house rule on (H1–H5): the house
    policy (:func:`engine.bots.house.house_policy`) for every seat; nobody jumps in a
    rollout (a jump-in is decided at once, without search: H4)."""
    from .house import house_policy

    rules = m.rules

    def choose(seat: int, hand: "list[Card]", legal: "tuple[Action, ...]", phase: "Phase",
               top: "Card | None", colour: "str | None", next_size: int,
               dump_colour: "str | None") -> "Action":
        nonlocal by, before
        challenge = (challenger is not None and phase == "wd4" and m.pending_draw == 4
                     and challenger(m, seat, by, before))
        action = house_policy(hand, legal, phase, top, colour, seat, m.hand_sizes, m.direction,
                              rules, points, challenge, dump_colour)
        if action.kind == "play":
            by, before = seat, colour
        return action

    m.play_out(choose, limit)
    return m
