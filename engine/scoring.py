"""End of a round, scoring and the end of the match — RULES.md E1–E4 (and D2).

A mixin of :class:`engine.match.Match`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import hand_points
from .events import new_event as ev
from .state import MatchState

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


class Scoring(MatchState):
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

    def _end_round(self, winner: "int | None") -> None:
        """E2/E3: score the round (``winner`` None: blocked), then E4 or the next round."""
        hands = tuple(tuple(h) for h in self._hands)
        points = tuple(0 if s == winner else hand_points(h) for s, h in enumerate(hands))
        self._scores = tuple(a + b for a, b in zip(self._scores, points))
        self._history.append((winner, points))
        self._emit(ev("round_end", winner, amount=self._round,
                      data=(hands, points, self._scores, winner is None)))
        if self._search:  # a search copy ends with its round (Match.search_copy)
            self._end_search()
            return
        over, winner = match_result(self._rules, self._scores)
        if over:  # E4
            self._winner = winner
            self._over = True
            self._phase = "over"
            self._emit(ev("match_end", self._winner, data=self._scores))
            return
        self._round += 1
        self._start_round(self._next(self._p1), self._shuffle_all())  # S2, S3
