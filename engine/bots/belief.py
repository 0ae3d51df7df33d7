"""What one seat can know about the hidden cards, from public events only.

:class:`Belief` reads a :class:`~engine.view.PlayerView`'s events (never the
match) and keeps, for the current round:

- the discard pile and the viewer's own hand;
- the draw pile as *unknown cards on top of a known sequence*: the 14 draft
  discards lie at its bottom in a known order (S4), and after a turned-over
  refill the whole pile is known (T3);
- the opponent's hand as *known cards* (drawn from a known part of the pile, or
  shown in a challenge, A6) plus *slots*: unknown cards, each remembering the pool
  it came from and which card faces it cannot be;
- *pools*: multisets of cards the viewer has not seen since they were last
  gathered (the shuffled deck, S3; a shuffled refill, option ``refill=shuffle``).
  Every pool card is in an opponent slot or in the unknown part of the pile.

Exclusions are *hard* when the rules force them (after a dump the seat holds no
card of that colour, A4; a Reverse without a dump decision means it had none)
and *soft* when they are only likely (it drew on its turn instead of following
the colour or number, T1/T2; it took a volley instead of stacking, A1 — playing is
never compulsory).  Exclusions land on the slots held at that moment, so older
slots exclude at least what newer ones do; sampling serves them first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..cards import ALL_CARDS, Card, deck_cards
from ..events import Draw
from ..rng import Rng
from .counting import classic_wd4_guilty_probability

if TYPE_CHECKING:  # pragma: no cover
    from typing import Iterable

    from ..events import (Challenge, Colour, Draft, Dump, ForcedKeep, Keep, Pass, Play, Refill,
                          Reject, Reveal, Round, Start, Under)
    from ..rules import Rules
    from ..events import Event
    from ..view import PlayerView

__all__ = ["Belief", "wd4_guilty_probability"]

_NFACES = len(ALL_CARDS)
_COLOUR_BITS: "dict[str | None, int]" = {c: sum(k.bit for k in ALL_CARDS if k.colour == c) for c in "RYGB"}
_RANK_BITS = {r: sum(k.bit for k in ALL_CARDS if k.rank == r and not k.is_wild)
              for r in {k.rank for k in ALL_CARDS}}
_DRAW2_BITS = _RANK_BITS["+2"]


class Slot:
    """One unknown card in the opponent's hand: its pool and its exclusions (bit masks)."""

    __slots__ = ("pool", "hard", "soft")

    def __init__(self, pool: int) -> None:
        self.pool, self.hard, self.soft = pool, 0, 0

    def allows(self, card: Card, soft: bool = True) -> bool:
        return not (card.bit & (self.hard | self.soft if soft else self.hard))


class _OldPile:
    """The draw pile as it was before a refill (T3): its pool, how many of its cards
    are unknown, the known ones in order — the next draw may still take them."""

    __slots__ = ("pool", "unknown", "known")

    def __init__(self, pool: int, unknown: int, known: list[Card]) -> None:
        self.pool, self.unknown, self.known = pool, unknown, known


class Belief:
    """The viewer's knowledge, updated incrementally with :meth:`update` (a bot keeps
    one per match; the events of a view are append-only)."""

    def __init__(self, seat: int, rules: "Rules") -> None:
        self.seat, self.opp, self.rules = seat, 1 - seat, rules
        self._done = 0
        self._match: str | None = None
        self.p1: int | None = None
        self.verdicts: list[tuple[float, bool]] = []  # (counted chance, guilty) per challenge
        self._challenged_p: float | None = None
        #: sample()'s card lists ("known": the opponent's known cards; a pool's index:
        #: its cards), listed once until the next event (a decision samples thousands)
        self._cards: dict[object, list[Card]] = {}
        self._new_round()

    # -- state -----------------------------------------------------------------------

    def _new_round(self) -> None:
        self.pools = [[0] * _NFACES]
        for card in deck_cards(self.rules.deck):
            self.pools[0][card.code] += 1
        self.pile_pool, self.pile_unknown = 0, sum(self.pools[0])
        self.pile_known: list[Card] = []
        self.discard: list[Card] = []
        self.mine: list[Card] = []
        self.opp_known = [0] * _NFACES
        self.slots: list[Slot] = []
        self.colour: str | None = None
        self.blocked = 0
        self.played = False  # any play this round (a start Draw 2 / Reverse is not one)
        #: (colour, top, slots, known) when the opponent's Wild Draw 4 left its hand
        self.wd4: tuple[str | None, Card | None, list[Slot], list[int]] | None = None
        self._old_pile: _OldPile | None = None  # the pile left before a refill event
        #: (colour, slots) waiting on a dump decision
        self._reverse: tuple[str | None, list[Slot]] | None = None

    @property
    def unseen(self) -> dict[Card, int]:
        """Cards the viewer has not seen, by face: in opponent slots or the unknown pile."""
        out: dict[Card, int] = {}
        for pool in self.pools:
            for code, n in enumerate(pool):
                if n:
                    out[ALL_CARDS[code]] = out.get(ALL_CARDS[code], 0) + n
        return out

    @property
    def opponent_known(self) -> dict[Card, int]:
        return {ALL_CARDS[c]: n for c, n in enumerate(self.opp_known) if n}

    def may_hold(self, card: Card) -> bool:
        """Whether the opponent can hold ``card`` (known, or allowed in some slot)."""
        return bool(self.opp_known[card.code]) or any(
            s.allows(card, soft=False) and self.pools[s.pool][card.code] for s in self.slots)

    @property
    def match_id(self) -> str | None:
        """The match whose events this belief has read (``None``: none yet)."""
        return self._match

    # -- reading events --------------------------------------------------------------

    def update(self, view: "PlayerView") -> "Belief":
        count = view.event_count
        if view.match_id != self._match or count < self._done:  # another match: start again
            Belief.__init__(self, self.seat, view.rules)
            self._match = view.match_id
        for event in view.events_from(self._done):
            self._read(event)
        self._done = count
        return self

    def _read(self, e: "Event[object]") -> None:
        if self._cards:
            self._cards = {}  # what sample() listed may change with any event
        kind, seat = e.kind, e.seat
        if self._reverse is not None and not (kind == "catch"
                                              or (isinstance(e, Draw) and e.why == "catch")):
            colour, held = self._reverse
            self._reverse = None
            if not (kind in ("dump", "nodump") and seat == self.opp):
                self._exclude(held, _COLOUR_BITS[colour], hard=True)  # A4/S10: it had none
        handler = _READERS.get(kind)
        if handler is not None:
            handler(self, e)
            if self._cards:  # a handler that sampled before it changed the pools
                self._cards = {}

    def _on_round(self, e: "Round") -> None:
        self._new_round()
        self.p1 = e.seat

    def _pop_pile(self) -> Card | None:
        """The next card of the pile: a Card when its place was known, else None."""
        old = self._old_pile
        if old is not None and (old.unknown or old.known):
            if old.unknown:
                old.unknown -= 1
                return None
            return old.known.pop(0)
        if self.pile_unknown:
            self.pile_unknown -= 1
            return None
        return self.pile_known.pop(0) if self.pile_known else None

    def _pool_of_next(self) -> int:
        old = self._old_pile
        return old.pool if old is not None and old.unknown else self.pile_pool

    def _gain(self, seat: int, card: Card | None) -> None:
        """``seat`` takes the pile's next card (``card``: what the viewer saw, if any)."""
        pool = self._pool_of_next()
        known = self._pop_pile()
        if seat == self.seat:
            assert card is not None  # the viewer sees its own cards
            if known is None:
                self.pools[pool][card.code] -= 1
            self.mine.append(card)
        elif known is None:
            self.slots.append(Slot(pool))
        else:
            self.opp_known[known.code] += 1

    def _lose(self, seat: int, card: Card) -> None:
        """``seat`` puts ``card`` face up (a play, a dump, a draft reject)."""
        if seat == self.seat:
            self.mine.remove(card)
            return
        if self.opp_known[card.code]:
            self.opp_known[card.code] -= 1
            return
        # the oldest (most constrained) slot its hard exclusions allow: whichever slot
        # it really came from, the slots left then exclude no more than the truth
        pick = next((s for s in self.slots if s.allows(card, soft=False)
                     and self.pools[s.pool][card.code]), None)
        if pick is None:  # pragma: no cover - only if the events contradict the rules
            pick = next(s for s in self.slots if self.pools[s.pool][card.code])
        self.slots.remove(pick)
        self.pools[pick.pool][card.code] -= 1

    def _exclude(self, slots: "Iterable[Slot]", bits: int, hard: bool) -> None:
        for s in slots:
            if hard:
                s.hard |= bits
            else:
                s.soft |= bits

    def _on_draft(self, e: "Draft | ForcedKeep") -> None:
        self._gain(e.actor, e.cards[0] if e.cards else None)

    def _on_keep(self, e: "Keep | Start") -> None:
        turned = e.cards[0]
        pool = self._pool_of_next()
        if self._pop_pile() is None:
            self.pools[pool][turned.code] -= 1
        self.discard.append(turned)

    def _on_reject(self, e: "Reject") -> None:
        card = e.cards[0]
        if e.actor == self.seat:
            self.mine.remove(card)
        else:  # S3: the drafter's newest card, an unknown slot until now
            slot = self.slots.pop()
            self.pools[slot.pool][card.code] -= 1
        self.discard.append(card)

    def _on_under(self, e: "Under") -> None:
        """S4: the draft discards, first discarded first, go under the pile."""
        self.pile_known = self.pile_known + self.discard
        self.discard = []

    def _on_start(self, e: "Start") -> None:
        self._on_keep(e)
        start = e.cards[0]
        self.colour = start.colour
        if start.rank == "R" and self.opp != self.p1:
            self._reverse = (start.colour, list(self.slots))  # S10: P2's dump decision

    def _on_colour(self, e: "Colour") -> None:
        self.colour = e.colour

    def _on_play(self, e: "Play") -> None:
        seat, card = e.actor, e.cards[0]
        before, top = self.colour, (self.discard[-1] if self.discard else None)
        self._lose(seat, card)
        self.discard.append(card)
        self.colour = e.colour or card.colour
        self.played, self.blocked = True, 0
        if seat == self.opp:
            if card.rank == "W+4":
                self.wd4 = (before, top, list(self.slots), list(self.opp_known))
            elif card.rank == "R":
                self._reverse = (card.colour, list(self.slots))

    def _on_dump(self, e: "Dump") -> None:
        for card in e.cards:
            self._lose(e.actor, card)
            self.discard.append(card)
        self.colour = e.colour
        self.blocked = 0
        if e.actor == self.opp:
            self._exclude(self.slots, _COLOUR_BITS[e.colour], hard=True)  # A4: all of them

    def _on_draw(self, e: "Draw") -> None:
        seat, why = e.actor, e.why
        if seat == self.opp and why == "turn":  # T1/T2: likely nothing to follow with
            top = self.discard[-1]
            self._exclude(self.slots, _COLOUR_BITS.get(self.colour, 0) | _RANK_BITS[top.rank],
                          hard=False)
        elif seat == self.opp and why == "volley" and self.played:  # A1: did not stack
            self._exclude(self.slots, _DRAW2_BITS, hard=False)
        for i in range(e.ncards):
            self._gain(seat, e.cards[i] if e.cards else None)
        self._old_pile = None
        if why != "catch":
            self.blocked = 0

    def _on_pass(self, e: "Pass") -> None:
        self.blocked = self.blocked + 1 if e.why == "blocked" else 0

    def _on_refill(self, e: "Refill") -> None:
        """T3: the rest of the discard pile becomes the pile (the next draw event may
        still take cards left in the old pile first: it is logged after the refill)."""
        self._old_pile = _OldPile(self.pile_pool, self.pile_unknown, self.pile_known)
        top, rest = self.discard[-1], self.discard[:-1]
        self.discard = [top]
        if e.how == "shuffle":
            pool = [0] * _NFACES
            for card in rest:
                pool[card.code] += 1
            self.pools.append(pool)
            self.pile_pool, self.pile_unknown, self.pile_known = len(self.pools) - 1, len(rest), []
        else:
            self.pile_unknown, self.pile_known = 0, list(rest)

    def _on_reveal(self, e: "Reveal") -> None:
        """A6: the challenged hand, shown to the challenger only."""
        if e.actor != self.opp or not e.cards:
            return
        self._challenged_p = self._wd4_chance()
        known = list(self.opp_known)
        for card in e.cards:
            if known[card.code]:
                known[card.code] -= 1
            else:
                slot = next((s for s in self.slots if self.pools[s.pool][card.code]), None)
                if slot is not None:
                    self.slots.remove(slot)
                    self.pools[slot.pool][card.code] -= 1
        self.opp_known = [0] * _NFACES
        for card in e.cards:
            self.opp_known[card.code] += 1

    def _on_challenge(self, e: "Challenge") -> None:
        if e.actor == self.seat and self._challenged_p is not None:
            self.verdicts.append((self._challenged_p, bool(e.guilty)))
            self._challenged_p = None

    # -- the Wild Draw 4 -------------------------------------------------------------

    def _wd4_guilty_card(self, card: Card) -> bool:
        assert self.wd4 is not None  # read only for the opponent's Wild Draw 4
        colour, top = self.wd4[0], self.wd4[1]
        if self.rules.wd4_guilty == "colour_match":
            return card.colour == colour and colour is not None
        return not card.is_wild and (card.colour == colour or (top is not None and card.rank == top.rank))

    def _wd4_chance(self, samples: int = 600) -> float:
        """A6: the chance, by counting cards, that the opponent's last Wild Draw 4 was
        played holding a card that makes it guilty (exact when no slot has exclusions)."""
        if self.wd4 is None:
            return 0.0
        _, _, held, known = self.wd4
        guilty = [c for c in ALL_CARDS if self._wd4_guilty_card(c)]
        if any(known[c.code] for c in guilty):
            return 1.0
        slots = [s for s in held if s in self.slots]  # not the cards drawn since (A6)
        if not any(s.allows(c, soft=False) and self.pools[s.pool][c.code]
                   for s in slots for c in guilty):
            return 0.0
        if all(not s.hard and not s.soft and s.pool == slots[0].pool for s in slots):
            pool = self.pools[slots[0].pool]
            total = sum(pool)
            bad = sum(pool[c.code] for c in guilty)
            p_none = 1.0
            for i in range(len(slots)):  # hypergeometric: no guilty card in len(slots) draws
                p_none *= max(0, total - bad - i) / max(1, total - i)
            return 1.0 - p_none
        rng = Rng(sum(self.opp_known) * 7919 + len(self.discard), 0x6D4)
        hits = 0
        guilty_codes = {c.code for c in guilty}
        for _ in range(samples):
            hand, _ = self.sample(rng, only=slots, pile=False)
            hits += any(c.code in guilty_codes for c in hand)
        return hits / samples

    # -- sampling a world --------------------------------------------------------------

    def sample(self, rng: Rng, only: list[Slot] | None = None,
               pile: bool = True) -> tuple[list[Card], list[Card]]:
        """One deal consistent with what is known: (the opponent's hand, the draw pile
        top first).  ``only``: deal just these slots (the hand is then only theirs);
        ``pile=False`` leaves the pile unshuffled and empty (faster)."""
        slots = self.slots if only is None else only
        listed = self._cards
        hand: list[Card]
        if only is not None:
            hand = []
        else:
            known = listed.get("known")
            if known is None:
                known = listed["known"] = [ALL_CARDS[c] for c, n in enumerate(self.opp_known)
                                           for _ in range(n)]
            hand = list(known)
        pile_unknown: list[Card] = []
        for index, pool in enumerate(self.pools):
            mine = [s for s in slots if s.pool == index]
            in_pile = pile and index == self.pile_pool and self.pile_unknown
            if not mine and not in_pile:
                continue
            cards = listed.get(index)
            if cards is None:
                cards = listed[index] = [ALL_CARDS[c] for c, n in enumerate(pool)
                                         for _ in range(n)]
            cards = list(cards)  # dealt in place
            for level in (2, 1, 0):
                if _assign(cards, mine, level, rng):
                    break
            hand.extend(cards[:len(mine)])
            if in_pile:
                pile_unknown = cards[len(mine):]
                rng.shuffle(pile_unknown)
        return hand, (pile_unknown + self.pile_known) if pile else []


def _assign(cards: list[Card], slots: list[Slot], level: int, rng: Rng) -> bool:
    """Deal ``cards[i]`` to ``slots[i]`` (oldest first), each uniformly among the
    cards left that it allows (``level`` 2: hard and soft exclusions, 1: hard only,
    0: none) — a partial Fisher–Yates shuffle in place.  False when one cannot."""
    n = len(cards)
    for i, s in enumerate(slots):
        mask = (s.hard | s.soft) if level == 2 else (s.hard if level == 1 else 0)
        for _ in range(6):
            j = i + rng.below(n - i)
            if not cards[j].bit & mask:
                break
        else:
            allowed = [k for k in range(i, n) if not cards[k].bit & mask]
            if not allowed:
                return False
            j = allowed[rng.below(len(allowed))]
        cards[i], cards[j] = cards[j], cards[i]
    return True


#: each event kind's reader (a kind's reader takes that kind's event: the table is
#: keyed by the kind, so its values are typed by their own signatures only)
_READERS: "dict[str, Callable[[Belief, Any], None]]" = {
    "round": Belief._on_round, "draft": Belief._on_draft, "forced_keep": Belief._on_draft,
    "keep": Belief._on_keep, "reject": Belief._on_reject, "under": Belief._on_under,
    "start": Belief._on_start, "colour": Belief._on_colour, "play": Belief._on_play,
    "dump": Belief._on_dump, "draw": Belief._on_draw, "pass": Belief._on_pass,
    "refill": Belief._on_refill, "reveal": Belief._on_reveal, "challenge": Belief._on_challenge,
}


def wd4_guilty_probability(view: "PlayerView", belief: Belief | None = None) -> float:
    """The chance that the Wild Draw 4 just played on the viewer was illegal (A6):
    that its player still held a card of the colour active before it (or, with
    option ``wd4_guilty=any_playable``, a playable non-wild card).  Counted from
    public events only; 0 or 1 when the cards force it.  Outside a Wild Draw 4
    decision it is 0.  Classic UNO at any seat count counts it as the normal bot
    does (C8: :func:`.counting.classic_wd4_guilty_probability`); the belief is UNO
    Duo's, of two seats."""
    if view.rules.preset != "duo":
        return classic_wd4_guilty_probability(view)
    if view.phase != "wd4" or view.to_act != view.own_seat:
        return 0.0
    belief = (belief or Belief(view.own_seat, view.rules)).update(view)
    return belief._wd4_chance()
