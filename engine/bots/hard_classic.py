"""The hard bot's worlds and rollouts for classic UNO (C1–C10), any seat count.

A *world* deals the cards the viewer has not seen (:func:`~engine.bots.counting.unseen`:
since the last deal or refill, the discard pile is public) uniformly to the other
hands, by their counts, and the rest to the draw pile; it is set up as a
:class:`~engine.classic.ClassicMatch` with :meth:`Match.from_position`.  A rollout
plays a candidate, then the rest of the round with the normal policy for every seat,
and scores the round's end for the viewer (:func:`round_value`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..match import Match
from ..rng import Rng
from ..classic import classic_points
from .counting import _pile_and_last_wd4, unseen
from .normal import policy

if TYPE_CHECKING:  # pragma: no cover
    from ..actions import Action
    from ..view import PlayerView

__all__ = ["classic_world", "classic_rollout", "round_value", "classic_candidates"]

#: a rollout longer than this many decisions is scored from the hands as they are
ROLLOUT_LIMIT = 600
#: how much a round's points count beside going out (in units of the match target)
POINTS_WEIGHT = 0.25


def classic_world(view: "PlayerView", rng: Rng) -> Match | None:
    """One determinization of the hidden cards (``None`` when the view's events do not
    account for the discard pile, e.g. a position built without a log)."""
    pile, _, _ = _pile_and_last_wd4(view)
    if len(pile) != view.discard_size or not pile or pile[-1] is not view.top:
        return None
    cards = [card for card, n in sorted(unseen(view).items(), key=lambda kv: kv[0].code)
             for _ in range(n)]
    n = len(view.hand_sizes)
    if len(cards) != view.draw_size + sum(view.hand_sizes) - len(view.hand):
        return None
    rng.shuffle(cards)
    hands = []
    at = 0
    for seat in range(n):
        if seat == view.seat:
            hands.append(list(view.hand))
        else:
            size = view.hand_sizes[seat]
            hands.append(cards[at:at + size])
            at += size
    seat = view.seat
    nxt = (seat + view.direction) % n
    return Match.from_position(
        view.rules, hands=hands, draw_pile=cards[at:], discard_pile=pile, to_act=seat,
        phase=view.phase, colour=view.color, p1=(view.dealer + 1) % n, round=view.round,
        scores=view.scores, pending=view.pending_draw, by=(nxt + view.direction) % n,
        drawn=view.drawn, exposed=view.exposed, seed=rng.next64(), dealer=view.dealer,
        direction=view.direction)


def classic_candidates(options: list) -> list:
    """C5: drawing while holding a playable card is never searched (it gives the next
    seats a free turn and the rollouts' noise would sometimes pick it)."""
    if any(a.kind == "play" for a in options):
        return [a for a in options if a.kind != "draw"]
    return options


def round_value(m: Match, me: int, start_round: int) -> float:
    """The viewer's score of a rolled-out round: winner_takes — +1 for going out, −1/(n−1)
    when another seat does, plus the winner's points in units of the target (+ mine,
    − another's); own_hand — the others' mean points less mine; a round still
    running — from the hands held."""
    target = m.rules.target
    if m.round == start_round and not m.over:  # cut short: the hands as they are
        pts = [classic_points(m.hand(s)) for s in range(m.seats)]
        others = [p for s, p in enumerate(pts) if s != me]
        return (sum(others) / len(others) - pts[me]) / (4 * target)
    winner, points = m.rounds[-1]
    if m.rules.scoring == "own_hand":
        others = [p for s, p in enumerate(points) if s != me]
        return (sum(others) / len(others) - points[me]) / target
    if winner is None:
        return 0.0
    if winner == me:
        return 1.0 + POINTS_WEIGHT * points[winner] / target
    return -1.0 / (m.seats - 1) - POINTS_WEIGHT * points[winner] / target


def classic_rollout(world: Match, option: "Action", me: int) -> float:
    """Play ``option`` in a copy of ``world``, then the round out with the normal policy."""
    m = world.clone(history=False)
    start = m.round
    m.apply(option)
    for _ in range(ROLLOUT_LIMIT):
        if m.round != start or m.over:
            break
        seat = m.to_act
        sizes = m.hand_sizes
        nxt = (seat + m.direction) % len(sizes)
        m.apply(policy(m.hand(seat), m.legal_actions(), m.phase, m.top, m.color, sizes[nxt]))
    return round_value(m, me, start)
