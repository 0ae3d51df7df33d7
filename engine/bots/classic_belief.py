"""What one seat can know about the other hands in classic UNO (C1–C10), N seats.

:class:`ClassicBelief` reads a :class:`~engine.view.PlayerView`'s events (never the
match), incrementally, and keeps for the current round:

- the discard pile since the last deal or refill (every card of it is public; a
  shuffled refill, C5, puts the rest back among the unseen cards);
- per other seat, its *known* cards (shown to the viewer in a challenge, C8) and
  its *slots*: unknown cards, each with a mask of faces it cannot be.

Exclusions are *hard* when the rules force them (a Wild Draw 4 found not guilty:
its player held no card of the colour before it, C8) and *soft* when they are only
likely: a seat that drew on its turn instead of playing holds nothing that
followed the top card (colour or number) and no Wild (T1/T2: the normal and hard
bots never draw over a play); a drawn card it did not play (the turn moved on
without a pass, which keeps a playable card) did not follow either.  Exclusions land on the slots held at that moment, so older slots exclude
at least what newer ones do; a played card leaves by the oldest slot that allows
it.  :meth:`ClassicBelief.sample` deals the unseen cards to the slots, the most
constrained first, honouring the exclusions whenever the cards left allow.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..cards import ALL_CARDS, Card, deck_cards
from ..rng import Rng

if TYPE_CHECKING:  # pragma: no cover
    from typing import Iterable

    from ..events import (Challenge, Colour, Deal, Dealt, Draw, Event, Jump, Play, Receive,
                          Refill, Reshuffle, Reveal, Start)
    from ..rules import Rules
    from ..view import PlayerView

__all__ = ["ClassicBelief"]

_COLOUR_BITS: "dict[str | None, int]" = {c: sum(k.bit for k in ALL_CARDS if k.colour == c) for c in "RYGB"}
_RANK_BITS = {r: sum(k.bit for k in ALL_CARDS if k.rank == r and not k.is_wild)
              for r in {k.rank for k in ALL_CARDS}}
_WILD_BITS = sum(k.bit for k in ALL_CARDS if k.is_wild)
#: picks at random before scanning the pool for a card a slot allows
_TRIES = 12


class ClassicBelief:
    """One seat's knowledge of the round (see the module docstring); a bot keeps one
    per match and calls :meth:`update` before each decision."""

    def __init__(self, seat: int, rules: "Rules") -> None:
        self.seat, self.rules = seat, rules
        self.seats = rules.seats
        self._done = 0
        self._match: str | None = None
        self._new_round()

    def _new_round(self) -> None:
        n = self.seats
        self.pile: list[Card] = []          # the discard pile since the deal / refill
        self.colour: str | None = None      # the active colour
        self.known: list[list[Card]] = [[] for _ in range(n)]
        self.slots: list[list[list[int]]] = [[] for _ in range(n)]  # [hard, soft] masks
        #: (seat, colour before, its slots) of a WD4
        self._wd4: tuple[int, str | None, list[list[int]]] | None = None
        #: (seat, what could follow) after a turn's draw
        self._drew: tuple[int, int] | None = None

    # -- reading events ----------------------------------------------------------------

    def update(self, view: "PlayerView") -> "ClassicBelief":
        count = view.event_count
        if view.match_id != self._match or count < self._done:  # another match
            ClassicBelief.__init__(self, self.seat, view.rules)
            self._match = view.match_id
        for event in view.events_from(self._done):
            if self._drew is not None:
                self._after_draw(event)
            handler = _READERS.get(event.kind)
            if handler is not None:
                handler(self, event)
        if self._drew is not None and not (view.phase == "drawn"
                                           and view.to_act == self._drew[0]):
            self._after_draw(None)  # the turn moved on without a play or a pass
        self._done = count
        return self

    def _gain(self, seat: int, count: int) -> None:
        if seat != self.seat:
            self.slots[seat].extend([0, 0] for _ in range(count))

    def _lose(self, seat: int, card: Card) -> None:
        if seat == self.seat:
            return
        known = self.known[seat]
        if card in known:
            known.remove(card)
            return
        slots = self.slots[seat]
        if not slots:  # pragma: no cover - only if the events contradict the rules
            return
        bit = card.bit
        pick = next((i for i, s in enumerate(slots) if not (s[0] | s[1]) & bit), None)
        if pick is None:  # a soft exclusion was wrong: the oldest its hard ones allow
            pick = next((i for i, s in enumerate(slots) if not s[0] & bit), 0)
        del slots[pick]  # by place: a Wild Draw 4's slots are remembered by identity

    def _exclude(self, slots: "Iterable[list[int]]", bits: int, hard: bool) -> None:
        k = 0 if hard else 1
        for s in slots:
            s[k] |= bits

    def _on_deal(self, e: "Deal") -> None:
        self._new_round()

    def _on_dealt(self, e: "Dealt") -> None:
        self._gain(e.actor, e.ncards)

    def _on_start(self, e: "Start") -> None:
        self.pile.append(e.cards[0])
        self.colour = e.cards[0].colour

    def _on_reshuffle(self, e: "Reshuffle") -> None:  # C7: the start Wild Draw 4 went back
        self.pile.clear()

    def _on_colour(self, e: "Colour") -> None:
        self.colour = e.colour

    def _on_play(self, e: "Play | Jump") -> None:
        seat, card = e.actor, e.cards[0]
        before = self.colour
        self._lose(seat, card)
        self.pile.append(card)
        self.colour = e.colour or card.colour
        if card.rank == "W+4" and seat != self.seat:
            self._wd4 = (seat, before, list(self.slots[seat]))

    _on_jump = _on_play  # H4: a jump-in is a play out of turn

    def _on_receive(self, e: "Receive") -> None:
        """H1: after a swap or a 0 another seat holds a hand this seat knows nothing of
        (its cards are among the unseen ones again)."""
        if e.actor != self.seat:
            self.known[e.actor] = []
            self.slots[e.actor] = [[0, 0] for _ in range(e.ncards)]

    def _on_draw(self, e: "Draw") -> None:
        seat, why = e.actor, e.why
        self._drew = None
        if seat != self.seat and why == "turn" and self.pile:
            top = self.pile[-1]
            bits = (_COLOUR_BITS.get(self.colour, 0) | _WILD_BITS
                    | (0 if top.is_wild else _RANK_BITS[top.rank]))
            self._exclude(self.slots[seat], bits, hard=False)
            self._gain(seat, e.ncards)
            self._drew = (seat, bits)
        else:
            self._gain(seat, e.ncards)

    def _after_draw(self, e: "Event[object] | None") -> None:
        """T2: a drawn card that was not played at once and not kept by a pass (which
        the rules offer only for a playable card) did not follow the top card."""
        assert self._drew is not None  # called after a turn's draw
        seat, bits = self._drew
        self._drew = None
        if e is not None and e.seat == seat and e.kind in ("play", "pass"):
            return
        self._exclude(self.slots[seat][-1:], bits, hard=False)

    def _on_refill(self, e: "Refill") -> None:
        self.pile = self.pile[-1:]

    def _on_reveal(self, e: "Reveal") -> None:
        if e.cards and e.actor != self.seat:  # C8: shown to the viewer
            self.known[e.actor] = list(e.cards)
            self.slots[e.actor] = []

    def _on_challenge(self, e: "Challenge") -> None:
        wd4, self._wd4 = self._wd4, None
        if wd4 is not None and e.guilty is False and wd4[1] in _COLOUR_BITS:
            seat, before, slots = wd4  # C8: not guilty — it held none of the colour
            held = self.slots[seat]
            self._exclude([s for s in slots if any(s is h for h in held)],
                          _COLOUR_BITS[before], hard=True)

    # -- sampling ----------------------------------------------------------------------

    def unseen(self, view: "PlayerView") -> list[Card]:
        """The cards the viewer has not seen (other hands' unknown cards and the draw
        pile), in a fixed order."""
        out = Counter(deck_cards(self.rules.deck))
        out.subtract(view.hand)
        out.subtract(self.pile)
        for s, cards in enumerate(self.known):
            if s != self.seat:
                out.subtract(cards)
        return [c for c, n in sorted(out.items(), key=lambda kv: kv[0].code) for _ in range(n)]

    def consistent(self, view: "PlayerView") -> bool:
        """Whether the events read account for the view's counts (a position built
        without a log does not)."""
        if len(self.pile) != view.discard_size or not self.pile or self.pile[-1] != view.top:
            return False
        return all(len(self.known[s]) + len(self.slots[s]) == size
                   for s, size in enumerate(view.hand_sizes) if s != self.seat)

    def sample(self, view: "PlayerView", rng: Rng, pool: list[Card]
               ) -> tuple[list[list[Card]], list[Card]]:
        """One determinization: (every seat's hand, the draw pile in some order),
        dealt from ``pool`` (:meth:`unseen`, copied), the most constrained slots first."""
        n = self.seats
        order = []
        for s in range(n):
            if s != self.seat:
                for i, (hard, soft) in enumerate(self.slots[s]):
                    order.append((-(hard | soft).bit_count(), s, i, hard | soft, hard))
        order.sort()
        dealt: list[list[Card]] = [list(k) for k in self.known]
        dealt[self.seat] = list(view.hand)
        below = rng.below
        for _, s, _, mask, hard in order:
            size = len(pool)
            pick = -1
            if mask:
                for _ in range(_TRIES):
                    j = below(size)
                    if not pool[j].bit & mask:
                        pick = j
                        break
                if pick < 0:
                    allowed = [j for j in range(size) if not pool[j].bit & mask]
                    if not allowed:
                        allowed = [j for j in range(size) if not pool[j].bit & hard]
                    pick = allowed[below(len(allowed))] if allowed else below(size)
            else:
                pick = below(size)
            pool[pick], pool[-1] = pool[-1], pool[pick]
            dealt[s].append(pool.pop())
        rng.shuffle(pool)
        return dealt, pool


_READERS = {name[4:]: f for name, f in vars(ClassicBelief).items() if name.startswith("_on_")}
