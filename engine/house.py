"""House rules and team play for classic UNO — RULES.md section H (H1–H6).

:class:`HouseMatch` is the classic match with at least one house rule on
(:meth:`Match.variant` picks it, so a classic match without them runs the classic
code unchanged).  It hooks into classic's turn code at a few points and keeps the
rest:

- H1 ``seven_zero``: a 7 that is not the last card is offered only as
  ``play X7 swap S`` (one action per other seat); a 0 passes every hand on; nobody is
  exposed after either (:meth:`_play_card`, :meth:`_swap`, :meth:`_rotate`).
- H2 ``stack_draw4``: a Wild Draw 4 stacked on a Wild Draw 4 (``same``) or also on a
  Draw 2 volley (``any``); a volley holding a Wild Draw 4 is phase ``wd4`` with its
  total pending, and only a lone one (total 4) may be challenged.
- H3 ``draw_until``: a turn's draw goes on card by card until a playable one.
- H4 ``jump_in``: after a card play with no draw pending, the one other seat holding
  an identical card may ``jump`` it out of turn (``legal_actions(seat)``,
  ``apply(..., seat=)``); any decision but a catch closes the window.
- H5 ``teams = partners``: seat s and s + n/2 score as one team.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (A_CHALLENGE, A_DRAW, JUMPS, JUMPS_UNO, SWAPS, Action, IllegalAction)
from .cards import ALL_CARDS
from .classic import ClassicMatch
from .events import new_event as ev
from .explain import why_illegal
from .match import Match, handlers, kind_handlers, legal_by_phase
from .turn import _actions_for

if TYPE_CHECKING:  # pragma: no cover
    from .cards import Card
    from .state import Handler
    from .events import Event
    from .phases import Phase
    from .view import PlayerView

__all__ = ["HouseMatch"]

_DRAW2 = sum(c.bit for c in ALL_CARDS if c.rank == "+2")
_WD4 = sum(c.bit for c in ALL_CARDS if c.rank == "W+4")
#: the ranks whose play simply passes the turn (numbers and a Wild)
_PASSES = frozenset("0123456789") | {"W"}


class HouseMatch(ClassicMatch):
    """A classic match with house rules on (see the module doc)."""

    __slots__ = ()

    # -- legal actions ---------------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> "tuple[Action, ...]":
        """Every legal action for :attr:`to_act` (``seat`` ``None`` or the seat to act),
        in a fixed order; for another seat, its jump-ins while the window is open (H4)."""
        if seat is not None:
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._seats:
                raise ValueError(f"no seat {seat!r}")
            if seat != self._to_act:
                return self._jumps(seat)
        legal = self._legal
        if legal is None:
            legal = Match.legal_actions(self)
            if self._phase == "turn" and self._rules.seven_zero:
                legal = self._legal = self._sevens_and_zeros(legal)
        return legal

    def _sevens_and_zeros(self, legal: "tuple[Action, ...]") -> "tuple[Action, ...]":
        """H1: a 7 that is not the last card is played only with a swap; neither a 7 nor
        a 0 that is not the last card says UNO (the hand changes with the move)."""
        seat = self._to_act
        if len(self._hands[seat]) < 2:
            return legal
        n = self._seats
        out: list[Action] = []
        for a in legal:
            card = a.card
            if card is not None and a.kind == "play" and card.rank in ("7", "0"):
                if a.uno:
                    continue
                if card.rank == "7":
                    out.extend(s for s in SWAPS["play"][card.code][:n] if s.swap != seat)
                    continue
            out.append(a)
        return tuple(out)

    def _legal_drawn(self) -> "tuple[Action, ...]":
        legal = ClassicMatch._legal_drawn(self)
        return self._sevens_and_zeros(legal) if self._rules.seven_zero else legal

    def _legal_volley(self) -> "tuple[Action, ...]":
        """C6 and H2 ``any``: stack a Draw 2 or a Wild Draw 4 on a Draw 2 volley."""
        if self._forced or not self._rules.stacking or self._rules.stack_draw4 != "any":
            return ClassicMatch._legal_volley(self)
        seat = self._to_act
        out = list(_actions_for(self._masks[seat] & (_DRAW2 | _WD4),
                                len(self._hands[seat]) == 2, A_DRAW))
        return self._with_catch(out)

    def _legal_wd4(self) -> "tuple[Action, ...]":
        """H2: facing a Wild Draw 4 (or a volley holding one): stack a Wild Draw 4
        (``same``/``any``), draw the total, or — a lone one — challenge."""
        if self._forced:
            return (A_DRAW,)
        seat = self._to_act
        if self._rules.stack_draw4 == "off":
            out = [A_DRAW]
        else:
            out = list(_actions_for(self._masks[seat] & _WD4, len(self._hands[seat]) == 2,
                                    A_DRAW))
        if self._pending == 4:
            out.append(A_CHALLENGE)
        return self._with_catch(out)

    def _jumps(self, seat: int) -> "tuple[Action, ...]":
        """H4: ``seat``'s jump-ins — only while the window is open, never for the seat to
        act or the seat whose card is on top, never on a Wild."""
        by = self._jump_from
        if by is None or seat == by or seat == self._to_act or self._over:
            return ()
        top = self._discard[-1]
        if top.is_wild or not self._masks[seat] & top.bit:
            return ()
        left = len(self._hands[seat]) - 1
        if self._rules.seven_zero and left and top.rank in ("7", "0"):
            if top.rank == "0":
                return JUMPS[top.code]
            return tuple(a for a in SWAPS["jump"][top.code][:self._seats] if a.swap != seat)
        return (JUMPS_UNO if left == 1 else JUMPS)[top.code]

    def _holder(self, card: "Card | None") -> int | None:
        """H4/H6: the one seat that may jump on ``card`` (a deck holds at most two)."""
        if card is None:  # not a card's action
            return None
        for seat in range(self._seats):
            if seat != self._to_act and seat != self._jump_from and self._masks[seat] & card.bit:
                return seat
        return None

    @property
    def jump_open(self) -> bool:
        """H4: a card was just played, no draw is pending and it is not a Wild."""
        return self._jump_from is not None and not self._over \
            and not self._discard[-1].is_wild

    # -- taking a decision -------------------------------------------------------------

    def decider(self, action: "Action | str") -> int | None:
        """The seat that makes ``action`` now: a jump-in's is the seat holding the card."""
        if action.__class__ is not Action:
            action = Action.parse(action)
        if action.kind == "jump":
            return self._holder(action.card)
        return None if self._over else self._to_act

    def apply(self, action: "Action | str", seat: int | None = None) -> "list[Event[object]]":
        """As :meth:`Match.apply`; a ``jump`` is taken from ``seat`` (``None``: the seat
        that holds the card), out of turn (H4)."""
        if action.__class__ is not Action:
            action = Action.parse(action)
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)
                                 or not 0 <= seat < self._seats):
            raise IllegalAction(f"no seat {seat!r}")
        if action.kind == "jump":
            jumper = self._holder(action.card) if seat is None else seat
            ok = jumper is not None and jumper != self._to_act and action in self._jumps(jumper)
        else:
            ok = action in self.legal_actions() and (seat is None or seat == self._to_act)
        if not ok:
            raise IllegalAction(self._why(action, seat))
        mark = len(self._events)
        self.push(action)  # checked above
        return self._events[mark:]

    def _why(self, action: Action, seat: int | None) -> str:
        """The rule that forbids ``action`` (H first, then the shared reasons)."""
        rules, card = self._rules, action.card
        if self._over:
            return "E4: the match is over"
        if action.kind == "jump":
            if not rules.jump_in:
                return "H4: jump-in is off in this match"
            if seat is not None and seat == self._to_act:
                return f"H4: it is your turn — play it (play {card})"
            assert card is not None  # a jump's
            holds = self._holder(card) is not None if seat is None \
                else bool(self._masks[seat] & card.bit)
            if not holds:
                return f"H4: you hold no {card}"
            # a seat jumps with the card that was on top: another decision came first
            if self._jump_from is None:
                return "H4: too late — the jump-in window has closed"
            top = self._discard[-1]
            if card.code != top.code:
                return f"H4: too late — {top} is on top now (jump in only with its twin)"
            if seat is not None and seat == self._jump_from:
                return "H4: you played the top card yourself"
            return "H1/U3: a jumped 7 swaps (jump X7 swap S); say UNO only when one card is left"
        if seat is not None and seat != self._to_act:
            return why_illegal(self, action, seat)
        if action.swap is not None:
            if not rules.seven_zero:
                return "H1: Seven-O is off in this match — a 7 swaps nothing"
            if action.swap == self._to_act:
                return "H1: swap hands with another seat"
            if action.swap >= self._seats:
                return f"H1: there is no seat {action.swap}"
            if len(self._hands[self._to_act]) < 2:
                return "H1: a 7 that is your last card goes out — no swap"
        elif rules.seven_zero and action.kind == "play" and card is not None \
                and card.rank == "7" and len(self._hands[self._to_act]) >= 2 \
                and any(a.swap is not None for a in self.legal_actions()):
            return f"H1: a 7 that is not your last card swaps hands: play {card} swap S"
        if action.kind == "challenge" and self._phase == "wd4" and self._pending > 4:
            return "H2: once a Wild Draw 4 is stacked on, nobody may challenge"
        if action.kind == "play" and card is not None and card.rank == "W+4" \
                and self._phase in ("volley", "wd4"):
            if rules.stack_draw4 == "off":
                return "H2: stacking Wild Draw 4s is off in this match"
            if self._phase == "volley":
                return "H2: a Wild Draw 4 goes on a Draw 2 volley only with stack_draw4=any"
        if action.kind == "play" and card is not None and card.rank == "+2" \
                and self._phase == "wd4":
            return "H2: a Draw 2 is never stacked on a Wild Draw 4"
        return why_illegal(self, action, seat)

    # -- moves -----------------------------------------------------------------------

    def _on_play(self, action: Action) -> None:
        self._play_card(self._to_act, action, "play")

    def _on_jump(self, action: Action) -> None:
        """H4: the jump-in is the jumper's own turn; the seats in between lose theirs,
        and any open catch window closes (C9)."""
        jumper = self._holder(action.card)
        assert jumper is not None  # apply checked the jump
        self._jump_from = None
        self._exposed = None
        self._begin_turn(jumper)
        self._play_card(jumper, action, "jump")

    def _play_card(self, seat: int, action: Action, kind: str) -> None:
        """T1/C6 with H1 (swap, pass on), H2 (a stacked total) and H4 (the window)."""
        hand = self._hands[seat]
        card = action.card
        assert card is not None  # a play's or a jump's
        phase = self._phase
        if phase == "drawn":
            hand.pop()  # T2: the drawn copy is the one played
        else:
            hand.remove(card)
        if card not in hand:
            self._masks[seat] ^= card.bit
        rank = card.rank
        guilty = rank == "W+4" and self._wd4_is_guilty(hand)
        if self._exposed is not None and self._exposed != seat:
            self._exposed = None  # U2
        self._blocked = 0
        self._discard.append(card)
        colour = action.colour
        self._color = colour or card.colour
        self._table = None
        left = len(hand)
        nxt = (seat + self._direction) % self._seats
        if phase in ("volley", "wd4"):  # H2: stacked on a volley
            total = self._pending + (4 if rank == "W+4" else 2)
        else:
            total = 2 if rank == "+2" else 4 if rank == "W+4" else 0
        self._emit(ev(kind, seat, card.alone, total, colour, action.uno, data=nxt))
        moves_hands = left > 0 and rank in ("7", "0") and self._rules.seven_zero
        if moves_hands:
            if rank == "7":
                assert action.swap is not None  # H1: a 7 that stays is played with a swap
                self._swap(seat, action.swap)
            else:
                self._rotate(seat)
            self._exposed = None  # H1: nobody is caught for a hand it did not build
        elif left == 1:
            self._exposed = None if action.uno else seat  # U1
        if left == 0:
            self._go_out(seat, card, total)
            return
        if rank in _PASSES:
            self._begin_turn(nxt)
        else:
            self._card_effect(seat, card, total, guilty, nxt)
        if self._rules.jump_in and self._phase == "turn":
            self._jump_from = seat  # H4: the window opens

    def _swap(self, seat: int, other: int) -> None:
        """H1: ``seat`` and ``other`` swap hands (each sees only the hand it now holds)."""
        hands, masks = self._hands, self._masks
        hands[seat], hands[other] = hands[other], hands[seat]
        masks[seat], masks[other] = masks[other], masks[seat]
        self._emit(ev("swap", seat, data=other))
        for s, giver in ((seat, other), (other, seat)):
            self._emit(ev("receive", s, tuple(hands[s]), len(hands[s]), private=s, data=giver))

    def _rotate(self, seat: int) -> None:
        """H1: every hand passes one seat on in the direction of play."""
        n, d = self._seats, self._direction
        hands, masks = self._hands, self._masks
        hands[:] = [hands[(s - d) % n] for s in range(n)]  # in place: a rollout's loop
        masks[:] = [masks[(s - d) % n] for s in range(n)]  # holds these very lists
        self._emit(ev("rotate", seat, data=d))
        for s in range(n):
            self._emit(ev("receive", s, tuple(hands[s]), len(hands[s]), private=s,
                          data=(s - d) % n))

    def _card_effect(self, seat: int, card: "Card", total: int, guilty: bool, nxt: int) -> None:
        if card.rank == "W+4":  # H2: the total pending may be a stacked one
            self._wd4_by = seat
            self._wd4_guilty = guilty
            self._await_draw(nxt, "wd4", total, by=(nxt + self._direction) % self._seats)
        else:
            ClassicMatch._card_effect(self, seat, card, total, guilty, nxt)

    def _go_out(self, seat: int, last: "Card", total: int) -> None:
        """E1 / H6: going out on a stacked Wild Draw 4 makes the next seat draw the total."""
        if last.rank == "W+4":
            self._draw_into(self._next(seat), total, "last")
            self._end_round(seat)
        else:
            ClassicMatch._go_out(self, seat, last, total)

    def _penalty_why(self, phase: "Phase") -> str:
        if phase == "wd4" and self._pending > 4:
            return "volley"  # H2: a stacked volley is taken, not "4 for the Wild Draw 4"
        return ClassicMatch._penalty_why(self, phase)

    def _on_draw(self, action: Action) -> None:
        """H3: a turn's draw goes on until a playable card (each card its own draw); with
        nothing left the turn passes at once.  Penalty draws are exact (C6)."""
        if self._phase != "turn" or not self._rules.draw_until:
            ClassicMatch._on_draw(self, action)
            return
        seat = self._to_act
        self._blocked = 0
        self._exposed = None
        while self._draw or len(self._discard) > 1:
            card = self._draw_into(seat, 1, "turn")[0]
            if card.colour is None or card.colour == self._color \
                    or card.rank == self._discard[-1].rank:
                self._phase = "drawn"
                self._drawn = card
                return
        self._begin_turn(self._next(seat))

    # -- H5: partners ------------------------------------------------------------------

    def _round_points(self, winner: int | None, own: "tuple[int, ...]") -> "tuple[int, ...]":
        """H5: a team scores as one (both partners show its points); C10 otherwise."""
        if self._rules.teams != "partners":
            return ClassicMatch._round_points(self, winner, own)
        n = self._seats
        half = n // 2
        team = [own[t] + own[t + half] for t in range(half)]
        if self._rules.scoring == "own_hand":
            return tuple(team[s % half] for s in range(n))
        if winner is None:
            return (0,) * n
        won = winner % half
        gain = sum(team) - team[won]
        return tuple(gain if s % half == won else 0 for s in range(n))

    # -- views -------------------------------------------------------------------------

    def view(self, seat: int) -> "PlayerView":
        """As :meth:`Match.view`; a seat not to act gets its jump-ins as legal (H4)."""
        v = ClassicMatch.view(self, seat)
        if seat != self._to_act:
            v.legal_actions = self._jumps(seat)
        return v


def _closing(handler: "Handler") -> "Handler":
    """H4: a decision closes the jump-in window (a catch does not: U2)."""
    def handle(self: Match, action: Action) -> None:
        self._jump_from = None
        handler(self, action)
    handle.__name__ = handler.__name__
    return handle


_BY_KIND = {kind: (h if kind == "catch" else _closing(h))
            for kind, h in kind_handlers(HouseMatch).items()}
def _on_jump(m: Match, action: Action) -> None:
    """H4's handler in the house rules' table (which only a HouseMatch reads)."""
    assert isinstance(m, HouseMatch)
    m._on_jump(action)


_BY_KIND["jump"] = _on_jump
HouseMatch._HANDLERS = handlers(HouseMatch, _BY_KIND)
HouseMatch._LEGAL_BY_PHASE = legal_by_phase(HouseMatch)
