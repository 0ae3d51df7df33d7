"""End of a round, scoring and the end of the match — RULES.md E1–E4 (and D2).

A layer of :class:`engine.match.Match` (above :mod:`.chance`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import hand_points
from .events import new_event as ev
from .chance import ChanceLog

if TYPE_CHECKING:  # pragma: no cover
    from .cards import Card
    from .rules import Rules


def match_result(rules: "Rules", scores: "tuple[int, ...]") -> "tuple[bool, int | None]":
    """E4 / C10: (is the match over, its winner) once a round has left ``scores``: over
    when a total reaches the target.  UNO Duo and classic ``own_hand``: the lowest total
    wins; classic ``winner_takes``: the highest (only the seat that went out scored, so
    it is the one at the target).  A tie for the win is shared (None).  H5: with
    partners, a team's total (shown on both its seats) and the team's lower seat."""
    if rules.teams == "partners":
        scores = scores[:len(scores) // 2]  # seat t < n/2 shows team t's total
    if not scores or max(scores) < rules.target:
        return False, None
    best = max(scores) if rules.scoring == "winner_takes" else min(scores)
    return True, (scores.index(best) if scores.count(best) == 1 else None)


class Scoring(ChanceLog):
    """E1–E4 for :class:`Match`."""

    __slots__ = ()

    def _go_out(self, seat: int, last: "Card", total: int) -> None:
        """E1: a last Draw 2 or Wild Draw 4 is still drawn, in the same move."""
        if last.rank == "+2":
            self._draw_into(self._next(seat), total, "last")
        elif last.rank == "W+4":
            self._draw_into(self._next(seat), 4, "last")
        self._end_round(seat)

    def _end_search(self) -> None:
        self._over = True
        self._phase = "over"
        self._log.clear()  # what the copy appended (Match.search_copy): never read
        self._events.clear()

    def _hand_value(self, hand: "tuple[Card, ...]") -> int:
        """D2: what a hand left at the end of a round counts (classic: C1)."""
        return hand_points(hand)

    def _round_points(self, winner: int | None, own: "tuple[int, ...]") -> "tuple[int, ...]":
        """E2/E3: each seat's points for the round (``own``: the points of each hand):
        every seat but the round's winner scores its own hand (classic: C10)."""
        return tuple(0 if s == winner else points for s, points in enumerate(own))

    def _next_round_start(self) -> int:
        """S2: what :meth:`_start_round` takes for the next round: the seat after this
        round's first player (classic: the next dealer, C2)."""
        return self._next(self._p1)

    def _end_round(self, winner: "int | None") -> None:
        """E2/E3: score the round (``winner`` None: blocked), then E4 or the next round."""
        hands = tuple(tuple(h) for h in self._hands)
        points = self._round_points(winner, tuple(self._hand_value(h) for h in hands))
        self._scores = tuple(a + b for a, b in zip(self._scores, points))
        self._history.append((winner, points))
        self._emit(ev("round_end", winner, amount=self._round,
                      data=(hands, points, self._scores, winner is None)))
        if self._search:  # a search copy ends with its round (Match.search_copy)
            self._end_search()
            return
        over, champion = match_result(self._rules, self._scores)
        if over:  # E4
            self._winner = champion
            self._over = True
            self._phase = "over"
            self._emit(ev("match_end", champion, data=self._scores))
            return
        self._round += 1
        self._start_round(self._next_round_start(), self._shuffle_all())  # S2, S3
