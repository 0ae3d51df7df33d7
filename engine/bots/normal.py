"""The ``normal`` bot: a heuristic player, and the hard bot's rollout policy.

The policy is :func:`policy`, a function of plain values (the seat's hand, the
legal actions, the top card, the active colour, the opponent's card count), so
the hard bot's rollouts can run it on a simulated match without building views.
:class:`NormalBot` feeds it from a :class:`~engine.view.PlayerView` and adds the
one decision that needs the belief model: whether to challenge a Wild Draw 4 (A6).

What it does: keeps cheap and useful cards in the draft (S3); sheds high-point
cards first (D2); holds Wilds back while it has other plays and the opponent is
not close to going out (T1); plays a Wild Draw 4 only when innocent (A6) unless
the opponent is about to go out; stacks every volley it can (A1); dumps after a
Reverse when it sheds enough or ends on a Skip or Draw 2 (A4); names the colour
it holds most of (T5); always says UNO and always catches (U1, U2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from ..actions import A_CATCH, A_DRAW, A_PASS, PARTS, Action
from ..cards import Card
from ..classic import CARD_POINTS
from ..phases import Phase

from .counting import classic_wd4_guilty_probability

if TYPE_CHECKING:  # pragma: no cover
    from ..view import PlayerView
    from .belief import Belief

__all__ = ["NormalBot", "policy", "draft_value", "best_colour", "holds_colour", "challenge_odds"]

_COLOURS = ("R", "Y", "G", "B")
_DUO_POINTS = CARD_POINTS["duo"]
_DRAFT_VALUE = {"S": 8.0, "+2": 8.0, "R": 6.0, "W": 9.0, "W+4": 10.0}
#: S3: reject a drafted card worth less than this (a random replacement averages ~5.5)
DRAFT_REJECT_BELOW = 4.5
#: A6: challenge when the (bluff-adjusted) chance of guilt exceeds this
CHALLENGE_ABOVE = 0.3
#: the assumed odds that a player holding the active colour plays a Wild Draw 4
#: anyway, relative to one who does not (a bluff), before any verdict is seen
BLUFF_PRIOR = 0.25


def draft_value(card: Card, others: Sequence[Card]) -> float:
    """S3: how much a drafted card is worth holding (cheap, flexible, in a held colour)."""
    value = _DRAFT_VALUE.get(card.rank)
    if value is None:
        value = 9.0 - int(card.rank)
    if card.colour is not None:
        value += 1.0 * min(3, sum(1 for c in others if c.colour == card.colour))
    return value


def best_colour(hand: Sequence[Card], without: Card | None = None,
                points: Sequence[int] = _DUO_POINTS) -> str:
    """T5: the colour with the most (and the costliest: ``points`` per card code,
    the preset's) cards in ``hand``."""
    score = {"R": 0.0, "Y": 0.0, "G": 0.0, "B": 0.0}  # _COLOURS, as a literal (the hot path)
    skip = without
    for card in hand:
        if card is skip:
            skip = None
            continue
        if card.colour is not None:
            score[card.colour] += 1.0 + points[card.code] / 20.0
    return max(_COLOURS, key=score.__getitem__)


def _pick(legal: Sequence[Action], want_uno: bool, test: "Callable[[Action], bool]"
          ) -> Action | None:
    for action in legal:
        if action.uno == want_uno and test(action):
            return action
    return None


def policy(hand: Sequence[Card], legal: Sequence[Action], phase: Phase, top: Card | None,
           colour: str | None, opp_count: int, dump_colour: str | None = None,
           challenge: bool = False, points: Sequence[int] = _DUO_POINTS) -> Action:
    """The normal player's action (``challenge``: its answer to a Wild Draw 4;
    ``points``: what each card code is worth in hand, the preset's ``CARD_POINTS``)."""
    if len(legal) == 1:
        return legal[0]
    last = legal[-1]
    if last is A_CATCH:  # U2: always catch; it does not use up the decision (actions
        return last      # are interned: the one catch action)
    if phase == "turn":
        return _turn(hand, legal, colour, opp_count, points)
    if phase == "draft":
        value = draft_value(hand[-1], hand[:-1])
        return legal[0] if value >= DRAFT_REJECT_BELOW else legal[1]  # keep / reject
    if phase == "drawn":
        return _drawn(hand, legal, colour, opp_count, points)
    if phase == "volley":  # A1: stack with the Draw 2 of the colour held most
        plays = [a for a in legal if a.kind == "play"]
        if not plays:
            return legal[0]
        uno = len(hand) == 2
        want = best_colour(hand, None, points)
        return (_pick(plays, uno, lambda a: a.card is not None and a.card.colour == want)
                or _pick(plays, uno, lambda a: True) or plays[0])
    if phase == "wd4":
        return legal[1] if challenge else legal[0]  # challenge / draw
    if phase == "dump":
        return _dump(hand, legal, dump_colour)
    if phase == "colour":
        want = best_colour(hand, None, points)
        return next(a for a in legal if a.colour == want)
    return legal[0]


def holds_colour(hand: Sequence[Card], colour: str | None) -> bool:
    """Whether ``hand`` holds a card of ``colour`` (a Wild Draw 4 would be guilty, A6)."""
    return any(c.colour == colour for c in hand if c.colour is not None)


def _turn(hand: Sequence[Card], legal: Sequence[Action], colour: str | None, opp_count: int,
          points: Sequence[int] = _DUO_POINTS) -> Action:
    n = len(hand)
    uno = n == 2
    # _COLOURS (a literal: no comprehension frame); a Wild's None is never looked up
    counts: dict[str | None, int] = {"R": 0, "Y": 0, "G": 0, "B": 0}
    for held in hand:
        if held.colour is not None:
            counts[held.colour] += 1
    danger = opp_count <= 2
    best, best_score = None, -1e9
    wild_colour = None
    for action in legal:
        kind, card, named, says_uno = PARTS[action]  # not four instance-dict reads
        if card is None or says_uno != uno:  # a turn's only actions with a card are plays
            continue
        rank = card.rank
        if card.is_wild:
            if wild_colour is None:
                wild_colour = best_colour(hand, card, points)
            if named != wild_colour:
                continue
            if rank == "W+4":
                score = 20.0 + (15.0 if danger else 0.0)
                if not danger and holds_colour(hand, colour):
                    score -= 40.0  # A6: a guilty Wild Draw 4 is a bad bet
            else:
                # keep a Wild for need: the last choice, but never drawn over (a
                # seat that draws instead can hold Wilds forever: an endless round)
                score = 15.0 if (danger or n <= 2) else 0.5
        else:
            score = float(points[card.code])
            if rank == "S":
                score += 8.0
            elif rank == "+2":
                score += 4.0 + (12.0 if danger else 0.0)
            elif rank == "R":
                score += 2.0 * (counts[card.colour] - 1)
            score += 1.5 * (counts[card.colour] - 1)
        if score > best_score:
            best, best_score = action, score
    if best is None or (best_score < 0 and legal[-1] is A_DRAW):
        return _draw_or_pass(legal)
    return best


def _draw_or_pass(legal: Sequence[Action]) -> Action:
    for action in reversed(legal):
        if action is A_DRAW or action is A_PASS:
            return action
    return legal[0]  # pragma: no cover - a turn always offers draw or pass


def _drawn(hand: Sequence[Card], legal: Sequence[Action], colour: str | None, opp_count: int,
           points: Sequence[int] = _DUO_POINTS) -> Action:
    """T2: play the drawn card, unless it is a Wild worth keeping."""
    card = hand[-1]
    uno = len(hand) == 2
    if card.is_wild:
        keep = (card.rank == "W" or holds_colour(hand[:-1], colour)) and opp_count > 2 and len(hand) > 2
        if keep:
            return legal[-1]  # pass
        want = best_colour(hand, card, points)
        return _pick(legal, uno, lambda a: a.kind == "play" and a.colour == want) or legal[-1]
    return _pick(legal, uno, lambda a: a.kind == "play") or legal[-1]


def _dump(hand: Sequence[Card], legal: Sequence[Action], colour: str | None) -> Action:
    """A4: dump when it sheds two or more cards, many points, or ends on Skip / Draw 2."""
    same = [c for c in hand if c.colour == colour]
    rest = len(hand) - len(same)
    points = sum(c.points for c in same)
    ranks = {c.rank for c in same}
    if not (rest == 0 or len(same) >= 2 or points >= 8 or ranks & {"S", "+2"}):
        return next(a for a in legal if a.kind == "nodump")
    uno = rest == 1
    others = {c.rank for c in hand if c.colour != colour}
    if rest == 0:  # going out: a last Draw 2 makes the opponent draw (E1)
        order = ("+2", "S")
    else:
        order = ("S", "+2")

    def rank_key(action: Action) -> tuple[int, bool, int]:
        card = action.card
        assert card is not None  # a dump's
        return (order.index(card.rank) if card.rank in order else 9, card.rank not in others,
                -card.points)

    dumps = [a for a in legal if a.kind == "dump" and a.uno == uno]
    return min(dumps, key=rank_key)


def challenge_odds(p: float, verdicts: Sequence[tuple[float, bool]]) -> float:
    """A6: the counted chance of guilt ``p``, adjusted for how often this opponent
    bluffs: its bluff odds start at :data:`BLUFF_PRIOR` and move with each verdict
    (guilty verdicts seen against the number the count predicted)."""
    expected = sum(q for q, _ in verdicts)
    guilty = sum(1 for _, g in verdicts if g)
    rate = (guilty + 2.0 * BLUFF_PRIOR) / (expected + 2.0)
    if p <= 0.0 or p >= 1.0:
        return p
    return p * rate / (p * rate + (1.0 - p))


class NormalBot:
    """The heuristic player (see the module docstring)."""

    name = "normal"

    def jump(self, view: "PlayerView") -> "Action | None":
        """H4: a jump-in for ``view``'s seat out of turn, or ``None`` (at once, no search)."""
        from .house import jump_choice
        return jump_choice(view)

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._belief: "Belief | None" = None

    def belief(self, view: "PlayerView") -> "Belief":
        from .belief import Belief
        if self._belief is None or self._belief.seat != view.own_seat:
            self._belief = Belief(view.own_seat, view.rules)
        return self._belief.update(view)

    def wants_challenge(self, view: "PlayerView") -> bool:
        from .belief import wd4_guilty_probability
        belief = self.belief(view)
        p = wd4_guilty_probability(view, belief)
        return challenge_odds(p, belief.verdicts) > CHALLENGE_ABOVE

    def choose(self, view: "PlayerView") -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.own_seat} has no decision to make now")
        if view.to_act != view.own_seat:
            raise ValueError(f"seat {view.own_seat} is not to act: its jump-ins are jump()'s")
        challenge = (view.phase == "wd4" and "challenge" in legal
                     and (self.wants_challenge(view) if view.rules.preset == "duo" else
                          classic_wd4_guilty_probability(view) > CHALLENGE_ABOVE))
        if view.rules.house:  # H1–H5 (engine.bots.house)
            from .house import house_policy
            return house_policy(view.hand, legal, view.phase, view.top, view.color, view.own_seat,
                                view.hand_sizes, view.direction, view.rules,
                                CARD_POINTS[view.rules.preset], challenge, view.dump_colour)
        return policy(view.hand, legal, view.phase, view.top, view.color,
                      view.hand_sizes[view.next_seat],  # the next seat's count (Duo: the opponent's)
                      view.dump_colour, challenge,
                      CARD_POINTS[view.rules.preset])
