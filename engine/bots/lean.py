"""A lean copy of the rules for the hard bot's rollouts: one round, no events, no text.

:func:`play_out` plays the rest of a round from a :class:`Position` with the
normal policy (:func:`engine.bots.normal.policy`) for both seats and returns the
round's end.  It is the same game as :class:`~engine.match.Match` — the same
moves (T1–T5, A1–A6, U1–U2, E1–E3) and the same choices as ``policy`` — written
as one loop over plain lists, so a rollout costs a few microseconds a move
instead of building actions, legal tuples and events.

``tests/engine/test_lean.py`` plays thousands of positions both ways (``Match``
+ ``policy``, and :func:`play_out`) and checks that they end the round the same
way: same winner, same final hands, same points.

A rollout never starts a new round: the hard bot scores a round's end by match
equity, and shuffling the next round's deck would be wasted work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..cards import ALL_CARDS, Card
from ..rng import Rng
from .normal import best_colour, holds_colour

if TYPE_CHECKING:  # pragma: no cover
    from ..actions import Action
    from ..match import Match

__all__ = ["Position", "play_out", "ROLLOUT_LIMIT"]

#: decisions: far beyond a real round; a guard only
ROLLOUT_LIMIT = 600

_PASSES = frozenset("0123456789") | {"W"}
#: the normal policy's score of playing a coloured card, before the colour bonus
_BASE = [0.0] * len(ALL_CARDS)
for _c in ALL_CARDS:
    if not _c.is_wild:
        _BASE[_c.code] = _c.points + {"S": 8.0, "+2": 4.0}.get(_c.rank, 0.0)
_POINTS = [c.points for c in ALL_CARDS]


class Position:
    """A mid-round position with every card known (a determinized world).

    ``draw`` is the draw pile with its *top last* (as ``Match`` keeps it);
    ``discard`` is bottom first.  ``hands`` are in the order cards entered them.
    """

    __slots__ = ("hands", "draw", "discard", "to_act", "phase", "color", "pending", "by",
                 "forced", "dump_colour", "dump_start", "exposed", "blocked", "scores",
                 "target", "shuffle_rng")

    def __init__(self, hands: Sequence[Sequence[Card]], draw: Sequence[Card],
                 discard: Sequence[Card], to_act: int, phase: str, color: str | None,
                 scores: Sequence[int], target: int, *, pending: int = 0, by: int | None = None,
                 forced: bool = False,
                 dump_colour: str | None = None, dump_start: bool = False,
                 exposed: int | None = None, blocked: int = 0,
                 shuffle_rng: Rng | None = None) -> None:
        self.hands = [list(hands[0]), list(hands[1])]
        self.draw = list(draw)
        self.discard = list(discard)
        self.to_act, self.phase, self.color = to_act, phase, color
        self.pending = pending
        self.by = 1 - to_act if by is None else by
        self.forced = forced
        self.dump_colour, self.dump_start = dump_colour, dump_start
        self.exposed, self.blocked = exposed, blocked
        self.scores = tuple(scores)
        self.target = target
        self.shuffle_rng = shuffle_rng  # refill=shuffle only (T3); None: turned over

    @classmethod
    def from_match(cls, m: "Match", shuffle_rng: Rng | None = None) -> "Position":
        """The match's current position (omniscient: tests and benchmarks)."""
        if m.rules.refill == "shuffle" and shuffle_rng is None:
            shuffle_rng = Rng(m.seed, 0x1EA7)
        phase = m.phase
        return cls([m.hand(s) for s in range(m.seats)], m.draw_pile[::-1], m.discard_pile,
                   m.to_act, phase, m.color, m.scores, m.rules.target,
                   pending=m.pending_draw, by=m.pending_by, forced=m.forced,
                   dump_colour=m.dump_colour, dump_start=m.dump_start and phase == "dump",
                   exposed=m.exposed, blocked=m.blocked_passes, shuffle_rng=shuffle_rng)

    def copy(self) -> "Position":
        """An independent copy (one per rollout: the hot path, so no loops)."""
        other = object.__new__(Position)
        other.hands = [list(self.hands[0]), list(self.hands[1])]
        other.draw = list(self.draw)
        other.discard = list(self.discard)
        other.to_act, other.phase, other.color = self.to_act, self.phase, self.color
        other.pending, other.by, other.forced = self.pending, self.by, self.forced
        other.dump_colour, other.dump_start = self.dump_colour, self.dump_start
        other.exposed, other.blocked, other.scores = self.exposed, self.blocked, self.scores
        other.target, other.shuffle_rng = self.target, self.shuffle_rng
        return other


class RoundEnd:
    """How a rollout ended: ``winner`` (a seat, or None when blocked, E3),
    ``points`` per seat (E2), the final ``hands``; ``finished`` is False only if
    the guard :data:`ROLLOUT_LIMIT` stopped it."""

    __slots__ = ("winner", "points", "hands", "finished")

    def __init__(self, winner, points, hands, finished=True) -> None:
        self.winner, self.points, self.hands, self.finished = winner, points, hands, finished


def play_out(p: Position, first: "Action | None" = None, limit: int = ROLLOUT_LIMIT) -> RoundEnd:
    """Play ``p`` to the end of its round: ``first`` (any legal action of the seat to
    act, e.g. the searched candidate) and then the normal policy for both seats.
    Returns the :class:`RoundEnd`; ``p``'s hands and piles end as the round does
    (its other fields are left as they were)."""
    hands = p.hands
    draw = p.draw
    discard = p.discard
    seat = p.to_act
    phase = p.phase
    color = p.color
    pending = p.pending
    by = p.by
    forced = p.forced
    dump_colour = p.dump_colour
    dump_start = p.dump_start
    exposed = p.exposed
    blocked = p.blocked
    shuffle_rng = p.shuffle_rng
    winner = -1  # -1: playing; a seat; None: blocked

    def draw_into(who: int, count: int) -> None:
        nonlocal draw, discard, exposed
        hand = hands[who]
        got = 0
        for _ in range(count):
            if not draw:
                if len(discard) <= 1:
                    break
                top = discard.pop()
                if shuffle_rng is None:
                    draw = discard[::-1]  # T3: turned over
                else:
                    order = sorted(discard, key=_code)
                    shuffle_rng.shuffle(order)
                    draw = order[::-1]
                discard = [top]
            hand.append(draw.pop())
            got += 1
        if got and exposed == who:
            exposed = None

    for _ in range(limit):
        hand = hands[seat]
        opp = 1 - seat
        kind = None  # the decision: "play" card/colour, "draw", "pass", "dump", "nodump"
        card = None
        named = None
        uno = True
        if first is not None:  # the searched action, as given
            kind, card, named, uno = first.kind, first.card, first.colour, first.uno
            first = None
            if kind == "catch":
                exposed_seat = exposed
                exposed = None
                draw_into(exposed_seat, 2)
                continue
        elif (exposed is not None and exposed != seat and len(hands[exposed]) == 1
              and phase != "drawn" and phase != "colour" and not forced):
            exposed_seat = exposed  # U2: the normal policy always catches
            exposed = None
            draw_into(exposed_seat, 2)
            continue
        elif phase == "turn":
            top = discard[-1]
            trank = top.rank
            n = len(hand)
            danger = len(hands[opp]) <= 2
            counts = {"R": -1, "Y": -1, "G": -1, "B": -1}  # count - 1
            for c in hand:
                if c.colour is not None:
                    counts[c.colour] += 1
            best = None
            best_score = -1e9
            for c in hand:
                colour = c.colour
                if colour is None:
                    if c.rank == "W+4":
                        score = 35.0 if danger else 20.0
                        if not danger and holds_colour(hand, color):
                            score -= 40.0
                    else:
                        score = 15.0 if (danger or n <= 2) else 0.5
                elif colour == color or c.rank == trank:
                    score = _BASE[c.code] + 1.5 * counts[colour]
                    rank = c.rank
                    if rank == "+2":
                        if danger:
                            score += 12.0
                    elif rank == "R":
                        score += 2.0 * counts[colour]
                else:
                    continue
                if score > best_score or (score == best_score and c.code < best.code):
                    best, best_score = c, score
            can_draw = bool(draw) or len(discard) > 1
            if best is None or (best_score < 0 and can_draw):
                kind = "draw" if can_draw else "pass"
            else:
                kind, card = "play", best
                if best.colour is None:
                    named = best_colour(hand, best)
                uno = n == 2
        elif phase == "drawn":
            c = hand[-1]
            if c.colour is None:
                keep = ((c.rank == "W" or holds_colour(hand[:-1], color))
                        and len(hands[opp]) > 2 and len(hand) > 2)
                if keep:
                    kind = "pass"
                else:
                    kind, card, named = "play", c, best_colour(hand, c)
            else:
                kind, card = "play", c
            uno = len(hand) == 2
        elif phase == "volley":
            if forced:
                kind = "draw"
            else:
                plays = [c for c in hand if c.rank == "+2"]
                if not plays:
                    kind = "draw"
                else:
                    want = best_colour(hand)
                    mine = [c for c in plays if c.colour == want]
                    kind, card = "play", min(mine or plays, key=_code)
                    uno = len(hand) == 2
        elif phase == "wd4":
            kind = "draw"  # the rollout policy never challenges
        elif phase == "dump":
            same = [c for c in hand if c.colour == dump_colour]
            rest = len(hand) - len(same)
            points = 0
            ranks = set()
            for c in same:
                points += c.points
                ranks.add(c.rank)
            if not (rest == 0 or len(same) >= 2 or points >= 8 or "S" in ranks
                    or "+2" in ranks):
                kind = "nodump"
            else:
                others = {c.rank for c in hand if c.colour != dump_colour}
                order = ("+2", "S") if rest == 0 else ("S", "+2")
                best = None
                best_key = None
                for c in same:
                    rank = c.rank
                    key = (order.index(rank) if rank in order else 9, rank not in others,
                           -c.points, c.code)
                    if best_key is None or key < best_key:
                        best, best_key = c, key
                kind, card, uno = "dump", best, rest == 1
        elif phase == "colour":
            kind, named = "colour", best_colour(hand)
        else:  # pragma: no cover - a round's positions only
            raise ValueError(f"play_out: no decision in phase {phase!r}")

        # -- the move ------------------------------------------------------------
        if kind == "play":
            if phase == "drawn":
                hand.pop()  # T2: the drawn copy is the one played
            else:
                hand.remove(card)
            rank = card.rank  # (a Wild Draw 4's guilt is not kept: rollouts never challenge)
            if exposed is not None and exposed != seat:
                exposed = None
            blocked = 0
            total = pending + 2 if phase == "volley" else 2
            discard.append(card)
            color = named or card.colour
            left = len(hand)
            if left == 1:
                exposed = None if uno else seat
            if left == 0:
                if rank == "+2":
                    draw_into(opp, total)
                elif rank == "W+4":
                    draw_into(opp, 4)
                winner = seat
                break
            if rank in _PASSES:
                seat, phase, pending, forced = opp, "turn", 0, False
            elif rank == "+2":
                seat, phase, pending, forced, by = opp, "volley", total, False, seat
            elif rank == "S":
                phase, pending, forced = "turn", 0, False
            elif rank == "R":
                if holds_colour(hand, card.colour):
                    phase, dump_colour, dump_start = "dump", card.colour, False
                else:
                    seat, phase, pending, forced = opp, "turn", 0, False
            else:  # W+4 (A5)
                seat, phase, pending, forced, by = opp, "wd4", 4, False, seat
        elif kind == "draw":
            if exposed is not None and exposed != seat:
                exposed = None
            blocked = 0
            if phase == "turn":
                draw_into(seat, 1)
                c = hand[-1]
                if c.colour is None or c.colour == color or c.rank == discard[-1].rank:
                    phase = "drawn"  # the drawn card is the hand's last
                else:
                    seat = opp
            else:  # a volley (A1) or a Wild Draw 4 (A5)
                draw_into(seat, pending)
                seat, phase, pending, forced = by, "turn", 0, False
        elif kind == "pass":
            if phase == "drawn":  # T2: keep the drawn card
                if exposed is not None and exposed != seat:
                    exposed = None
                blocked = 0
            else:  # T4: nothing to draw
                if exposed is not None and exposed != seat:
                    exposed = None
                blocked += 1
                if blocked >= 2:
                    winner = None  # E3
                    break
            seat, phase, pending, forced = opp, "turn", 0, False
        elif kind == "dump":
            dumped = [c for c in hand if c.colour == dump_colour]
            hand[:] = [c for c in hand if c.colour != dump_colour]
            at = len(dumped) - 1 - dumped[::-1].index(card)
            dumped.append(dumped.pop(at))
            if exposed is not None and exposed != seat:
                exposed = None
            blocked = 0
            discard.extend(dumped)
            color = dump_colour
            left = len(hand)
            if left == 1:
                exposed = None if uno else seat
            if left == 0:
                if card.rank == "+2":
                    draw_into(opp, 2)
                winner = seat
                break
            if card.rank == "+2":
                seat, phase, pending, forced, by = opp, "volley", 2, False, seat
            elif card.rank == "S":
                phase, pending, forced = "turn", 0, False
            else:
                seat, phase, pending, forced = opp, "turn", 0, False
        elif kind == "nodump":
            if exposed is not None and exposed != seat:
                exposed = None
            blocked = 0
            if not dump_start:
                seat = opp
            phase, pending, forced = "turn", 0, False
        elif kind == "colour":
            color = named
            if discard[-1].rank == "W+4":  # S8: a start Wild Draw 4 is only drawn
                seat, phase, pending, forced, by = opp, "wd4", 4, True, seat
            else:
                seat, phase, pending, forced = opp, "turn", 0, False
        else:  # pragma: no cover - a challenge is never searched
            raise ValueError(f"play_out: cannot play {kind!r}")
    else:
        p.draw, p.discard = draw, discard
        return RoundEnd(None, (0, 0), (tuple(hands[0]), tuple(hands[1])), finished=False)
    p.draw, p.discard = draw, discard  # the piles as the round left them (hands: in place)

    final = (tuple(hands[0]), tuple(hands[1]))
    points = tuple(0 if s == winner else sum(_POINTS[c.code] for c in final[s]) for s in (0, 1))
    return RoundEnd(winner, points, final)


def _code(card: Card) -> int:
    return card.code
