"""The bots' play of the house rules (RULES.md H1–H5), from plain values or a view.

:func:`house_policy` is the normal bot's (and the hard bot's rollout policy) with a
house rule on; it decides what the house rules change and leaves the rest to
:func:`~engine.bots.normal.policy`:

- H1: a 7 swaps with the seat closest to going out (never its partner) when that
  leaves it fewer cards, a 0 is played when the hand it receives is smaller; else the
  7 or 0 is kept while another play is as good (a good hand is kept);
- H2: it stacks a Draw 2 or a Wild Draw 4 (naming its best colour) — the total goes
  on to the next seat, never a partner (partners sit opposite) — and challenges only
  a lone Wild Draw 4;
- H4: :func:`jump_choice` — it jumps in whenever it can (a card shed out of turn),
  saying UNO, a 7 only when its swap helps;
- H5: it never feeds a Draw 2 or a Wild Draw 4 to its partner when another play is
  there: at four seats, with stacking, the seat it hits may pass the total on to the
  partner, so it plays another card unless the next seat is about to go out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .normal import best_colour, policy

if TYPE_CHECKING:  # pragma: no cover
    from ..actions import Action
    from ..cards import Card
    from ..phases import Phase
    from ..rng import Rng
    from ..rules import Rules
    from ..view import PlayerView

__all__ = ["house_policy", "jump_choice", "random_jump", "swap_gain"]


def _opponents(rules: "Rules", seat: int, seats: int) -> list[int]:
    partner = rules.partner(seat)
    return [s for s in range(seats) if s != seat and s != partner]


def swap_gain(action: "Action", hand_len: int, seat: int, sizes: Sequence[int],
              direction: int, rules: "Rules") -> float:
    """H1: how many cards fewer ``seat`` holds after ``action`` (a 7's swap or a 0's
    pass) than after a plain play; −∞ for a swap with its partner."""
    left = hand_len - 1
    if action.swap is not None:  # a 7's
        if action.swap == rules.partner(seat):
            return float("-inf")
        return float(left - sizes[action.swap])
    giver = (seat - direction) % len(sizes)
    return float(left - sizes[giver])


def _moves_hands(action: "Action", hand_len: int, rules: "Rules") -> bool:
    return bool(rules.seven_zero and action.kind in ("play", "jump") and action.card is not None
            and action.card.rank in ("7", "0") and hand_len >= 2)


def house_policy(hand: Sequence["Card"], legal: Sequence["Action"], phase: "Phase",
                 top: "Card | None", colour: str | None, seat: int, sizes: Sequence[int],
                 direction: int, rules: "Rules", points: Sequence[int],
                 challenge: bool = False, dump_colour: str | None = None) -> "Action":
    """The normal player's action with house rules on (see the module doc)."""
    if len(legal) == 1:
        return legal[0]
    if legal[-1].kind == "catch":  # U2: always catch
        return legal[-1]
    seats = len(sizes)
    nxt = (seat + direction) % seats
    if phase in ("volley", "wd4"):
        return _answer(hand, legal, challenge, points)
    if phase in ("turn", "drawn"):
        special = [a for a in legal if _moves_hands(a, len(hand), rules)]
        rest = [a for a in legal if a not in special]
        if _feeds_partner(rules, seat, direction, seats) and sizes[nxt] > 2:
            feed = [a for a in rest if a.kind == "play" and _card(a).rank in ("+2", "W+4")]
            if feed and any(a.kind == "play" and a not in feed for a in rest):
                rest = [a for a in rest if a not in feed]
        best = None
        if special:
            best = max(special, key=lambda a: (swap_gain(a, len(hand), seat, sizes, direction,
                                                         rules), -a.code))
            gain = swap_gain(best, len(hand), seat, sizes, direction, rules)
            if gain > 0:
                return best
        plays = [a for a in rest if a.kind == "play"]
        if plays or best is None:
            pick = policy(hand, rest, phase, top, colour, sizes[nxt], dump_colour, challenge,
                          points)
            if pick.kind == "play" or best is None:
                return pick
        # only a 7 or a 0 to play, no gain: still better than drawing unless it costs more
        if swap_gain(best, len(hand), seat, sizes, direction, rules) >= -1:
            return best
        return next(a for a in reversed(legal) if a.kind in ("draw", "pass"))
    return policy(hand, legal, phase, top, colour, sizes[nxt], dump_colour, challenge, points)


def _feeds_partner(rules: "Rules", seat: int, direction: int, seats: int) -> bool:
    """H5: whether a volley started by ``seat`` and stacked once lands on its partner."""
    stacks = rules.stacking or rules.stack_draw4 != "off"
    return stacks and rules.partner(seat) == (seat + 2 * direction) % seats


def _answer(hand: "Sequence[Card]", legal: "Sequence[Action]", challenge: bool,
            points: Sequence[int]) -> "Action":
    """C6/H2: stack (a Draw 2 of the colour held most, else a Wild Draw 4 naming it);
    else draw, or challenge a lone Wild Draw 4."""
    plays = [a for a in legal if a.kind == "play"]
    if plays:
        uno = len(hand) == 2
        want = best_colour(hand, None, points)
        ranked = sorted(plays, key=lambda a: (_card(a).rank == "W+4",  # a Draw 2 first
                                              (_card(a).colour or a.colour) != want,
                                              a.uno != uno, a.code))
        return ranked[0]
    if challenge and any(a.kind == "challenge" for a in legal):
        return next(a for a in legal if a.kind == "challenge")
    return next(a for a in legal if a.kind == "draw")


def jump_choice(view: "PlayerView") -> "Action | None":
    """H4: the normal (and hard) bot's jump-in: always, saying UNO; a 7 only with the
    swap that helps most (a gain of at least nothing)."""
    legal = view.legal_actions
    if not legal or view.to_act == view.own_seat:
        return None
    hand_len = len(view.hand)
    special = [a for a in legal if _moves_hands(a, hand_len, view.rules)]
    if special:
        best = max(special, key=lambda a: (swap_gain(a, hand_len, view.own_seat, view.hand_sizes,
                                                     view.direction, view.rules), -a.code))
        gain = swap_gain(best, hand_len, view.own_seat, view.hand_sizes, view.direction, view.rules)
        return best if gain >= 0 else None
    return next((a for a in legal if a.uno), legal[0])


def random_jump(view: "PlayerView", rng: "Rng") -> "Action | None":
    """H4: the easy bot's jump-in: half the time it notices, then any of them."""
    legal = view.legal_actions
    if not legal or view.to_act == view.own_seat or rng.below(2):
        return None
    return legal[rng.below(len(legal))]


def _card(action: "Action") -> "Card":
    """The card of a play or a jump."""
    card = action.card
    assert card is not None
    return card
