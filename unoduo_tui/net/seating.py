"""Who holds the human seats of one hosted table: the seat tokens given out, the
names the players sat down as, who asked the bots to wait and since when a taken seat
has nobody connected to it.  Pure bookkeeping, no socket and no clock of its own: the
authority (:mod:`.authority`) asks it and tells it what happened, and which
connection is on which seat stays the authority's."""

from __future__ import annotations

import hmac
from typing import Collection, Iterable, Mapping, Sequence

from .codes import new_token

__all__ = ["Seating"]


class Seating:
    """The human seats ``humans`` of one table; ``tokens`` / ``names``: the seats already
    given out and what their players are called (a restarted table)."""

    def __init__(self, humans: Iterable[int], tokens: Mapping[int, str] | None = None,
                 names: Mapping[int, str] | None = None) -> None:
        self.humans = tuple(humans)
        #: seat → the token its player holds (a seat given out)
        self.tokens: dict[int, str] = dict(tokens or {})
        #: seat → the name its player sat down as
        self.names: dict[int, str] = dict(names or {})
        self.joined: set[int] = set()  # human seats a player took since the start
        self.holding: set[int] = set()  # seats whose player asked the bots to wait
        self.away_since: dict[int, float] = {}  # taken seats nobody is connected to

    @property
    def open_seats(self) -> tuple[int, ...]:
        """Human seats no player has taken yet (a newcomer gets the first)."""
        return tuple(s for s in self.humans if s not in self.tokens)

    def held(self, offered: Sequence[str]) -> list[int]:
        """The seats ``offered`` tokens hold, in their order (compared in constant
        time)."""
        seats: list[int] = []
        for token in offered:
            for seat, mine in self.tokens.items():
                if seat not in seats and hmac.compare_digest(
                        mine.encode(), token.encode("utf-8", "replace")):
                    seats.append(seat)
        return seats

    def give_new(self) -> int | None:
        """The first seat nobody has taken, given out now with a new token (``None``:
        every seat is taken)."""
        seat = next(iter(self.open_seats), None)
        if seat is not None:
            self.tokens[seat] = new_token()
        return seat

    def names_now(self, table_names: Sequence[str]) -> list[str]:
        """Each seat's name as the table shows it now: the name its player sat down as,
        else the table's."""
        return [self.names.get(s, name) for s, name in enumerate(table_names)]

    def all_seated(self, stand_ins: Collection[int]) -> bool:
        """Every human seat's player has come (since the start), or a bot plays for
        them."""
        return all(s in self.joined or s in stand_ins for s in self.humans)

    def went_away(self, seat: int, now: float) -> bool:
        """Nobody is connected to ``seat`` from ``now`` on; False: it was away already."""
        if seat in self.away_since:
            return False
        self.away_since[seat] = now
        return True

    def came_back(self, seat: int) -> None:
        """``seat``'s player has sat down (again)."""
        self.joined.add(seat)
        self.away_since.pop(seat, None)

    def away_for(self, now: float, seconds: float) -> list[int]:
        """The seats nobody has been connected to for ``seconds`` or more, in order."""
        return [s for s, since in sorted(self.away_since.items()) if now - since >= seconds]
