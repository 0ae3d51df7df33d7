"""The hard bot's worlds and rollouts for classic UNO (C1–C10), any seat count.

A *world* deals the cards the viewer has not seen to the other hands, by their
counts and as :class:`~engine.bots.classic_belief.ClassicBelief` allows (a seat
that drew instead of following holds nothing that followed; a hand shown in a
challenge is known), and the rest to the draw pile; it is set up as a
:class:`~engine.classic.ClassicMatch` with :meth:`Match.from_position`.  A rollout
plays a candidate, then the rest of the round with the normal policy for every seat
(classic points; a Wild Draw 4 challenged from counting, as the normal bot does),
and scores the round's end for the viewer (:func:`outcome_value`): the rollout is
:mod:`.rollout`'s, the same as UNO Duo's."""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING, Sequence

from ..cards import deck_cards
from ..match import Match
from ..rng import Rng
from ..classic import classic_points
from ..scoring import match_result
from .classic_belief import ClassicBelief
from .normal import CHALLENGE_ABOVE
from .rollout import play_round

if TYPE_CHECKING:  # pragma: no cover
    from ..actions import Action
    from ..cards import Card
    from ..rules import Rules
    from ..view import PlayerView

__all__ = ["classic_world", "classic_round", "classic_rollout", "round_value", "outcome_value",
           "classic_candidates"]

#: a rollout's value: points in these units, going out worth WIN_WEIGHT more, a
#: round that ends the match worth MATCH_WEIGHT (shared by the losers)
POINT_SCALE = 100.0
WIN_WEIGHT = 0.2
MATCH_WEIGHT = 3.0


def classic_world(view: "PlayerView", rng: Rng, belief: ClassicBelief | None = None,
                  pool: "list[Card] | None" = None) -> Match | None:
    """One determinization of the hidden cards from ``belief`` (updated to ``view``;
    ``pool``: its :meth:`~ClassicBelief.unseen` cards, computed once per decision) —
    ``None`` when the view's events do not account for the position (e.g. one built
    without a log)."""
    if belief is None:
        belief = ClassicBelief(view.own_seat, view.rules).update(view)
    if not belief.consistent(view):
        return None
    if pool is None:
        pool = belief.unseen(view)
    if len(pool) != view.draw_size + sum(view.hand_sizes) - len(view.hand) - sum(
            len(k) for s, k in enumerate(belief.known) if s != view.own_seat):
        return None
    hands, draw = belief.sample(view, rng, list(pool))
    n = len(view.hand_sizes)
    seat = view.own_seat
    nxt = (seat + view.direction) % n
    dealer = view.dealer
    assert dealer is not None  # classic deals
    return Match.from_position(
        view.rules, hands=hands, draw_pile=draw, discard_pile=belief.pile, to_act=seat,
        phase=view.phase, colour=view.color, p1=(dealer + 1) % n, round=view.round,
        scores=view.scores, pending=view.pending_draw, by=(nxt + view.direction) % n,
        drawn=view.drawn, exposed=view.exposed, seed=rng.next64(), dealer=view.dealer,
        direction=view.direction)


def classic_candidates(options: "list[Action]") -> "list[Action]":
    """C5: drawing while holding a playable card is never searched (it gives the next
    seats a free turn and the rollouts' noise would sometimes pick it)."""
    if any(a.kind == "play" for a in options):
        return [a for a in options if a.kind != "draw"]
    return options


def outcome_value(winner: int | None, points: Sequence[int], me: int, seats: int,
                  rules: "Rules", before: Sequence[int] | None = None) -> float:
    """The viewer's score of a round's end (``points``: what each seat scored;
    ``before``: the totals before it).  A round that ends the match (E4/C10) is worth
    ±:data:`MATCH_WEIGHT` (shared by the other sides when another wins); any other
    counts in points, as the race to the target does — winner_takes: mine less the
    other sides' mean, in units of :data:`POINT_SCALE`, plus :data:`WIN_WEIGHT` for
    going out (−its share when another side does); own_hand: the others' mean less
    mine.  A side is a seat, or with partners (H5) a team: the partner's win is the
    viewer's own, and each seat shows its team's points."""
    side = rules.team
    sides = seats // 2 if rules.teams == "partners" else seats
    mine = side(me)
    if before is not None:
        over, champion = match_result(rules, tuple(a + b for a, b in zip(before, points)))
        if over:
            if champion is None:
                return 0.0
            return MATCH_WEIGHT if side(champion) == mine else -MATCH_WEIGHT / (sides - 1)
    theirs = [p for s, p in enumerate(points) if side(s) != mine]
    others = sum(theirs) / len(theirs)
    if rules.scoring == "own_hand":
        return (others - points[me]) / POINT_SCALE
    if winner is None:
        return 0.0
    win = WIN_WEIGHT if side(winner) == mine else -WIN_WEIGHT / (sides - 1)
    return win + (points[me] - others) / POINT_SCALE


def round_value(m: Match, me: int, start_round: int) -> float:
    """The viewer's score of a rolled-out round (:func:`outcome_value`; a round still
    running — from the hands held)."""
    if m.round == start_round and not m.over:  # cut short: the hands as they are
        pts = [classic_points(m.hand(s)) for s in range(m.seats)]
        rules = m.rules
        if rules.teams == "partners":  # H5: a team's hands are counted together
            half = m.seats // 2
            pts = [pts[t] + pts[t + half] for t in range(half)]
            me = rules.team(me)
        others = [p for s, p in enumerate(pts) if s != me]
        return (sum(others) / len(others) - pts[me]) / (4 * POINT_SCALE)
    winner, points = m.rounds[-1]
    before = tuple(a - b for a, b in zip(m.scores, points))
    return outcome_value(winner, points, me, m.seats, m.rules, before)


@lru_cache(maxsize=4)
def _deck_colours(deck: str) -> tuple[int, dict[str, int]]:
    """(the deck's size, its cards per colour)."""
    cards = deck_cards(deck)
    return len(cards), {c: sum(1 for k in cards if k.colour == c) for c in "RYGB"}


def _challenges(m: Match, seat: int, by: int, before: str | None) -> bool:
    """A6/C8: whether the normal bot in ``seat`` challenges the Wild Draw 4 ``by``
    played on colour ``before`` — its counting (:func:`.counting.guilty_odds`: a hand
    of that size drawn from the cards it has not seen holds the colour) above
    :data:`~.normal.CHALLENGE_ABOVE`, as :class:`NormalBot` does."""
    if before is None:
        return False
    size, colours = _deck_colours(m.rules.deck)
    hand, pile = m.hand(seat), m.discard_pile
    total = size - len(hand) - len(pile)
    colour = (colours.get(before, 0) - sum(1 for c in hand if c.colour == before)
              - sum(1 for c in pile if c.colour == before))
    k = min(m.hand_sizes[by], total)
    if k <= 0 or total <= 0:
        return False
    return 1.0 - comb(total - colour, k) / comb(total, k) > CHALLENGE_ABOVE


def classic_round(world: Match, option: "Action") -> Match:
    """A search copy of ``world`` after ``option`` and the rest of the round with the
    normal policy (which challenges a Wild Draw 4 from its counting):
    :func:`.rollout.play_round`."""
    return play_round(world, option, _challenges)


def classic_rollout(world: Match, option: "Action", me: int) -> float:
    """:func:`classic_round`'s end, scored for ``me`` (:func:`round_value`)."""
    return round_value(classic_round(world, option), me, world.round)
