"""Who may try a join code at one table now: a pure policy, one per table (the
authority asks it before it compares a code, and tells it how the comparison went).

Two limits, so that nobody's wrong codes keep out a player who has the right one, and
so that all guessers together cannot find a code in any useful time (the arithmetic
is in :mod:`.codes`):

- **per guesser** — :data:`FREE_TRIES` wrong codes, then that guesser alone is locked
  out 30 s, 60 s, 120 s … up to an hour after each further wrong code; while locked
  its codes are not even compared (so the lock really slows it).  The right code
  clears its record; so does an hour without a wrong code once its lock-out is over.  A guesser is who the
  authority knows is talking (:class:`Guesser`): the SSH key the server vouched for
  under ``unoduo serve`` (:mod:`.vouch`), else the Unix user of the socket's peer,
  else — over TCP — the connection, which makes one try.
- **per table** — at most :data:`PER_HOUR` wrong codes are compared in any hour, in
  all.  Up to ``PER_HOUR - RESERVED`` anyone not locked is compared; the last
  :data:`RESERVED` are kept for guessers who have never sent this table a wrong code
  (a key or a Unix user; a TCP connection costs nothing to make, so it is never
  one).  A player typing the code the host gave them is such a guesser: to keep them
  out for an hour takes 60 wrong codes *and* 40 keys or users new to this table, in
  that hour — and under ``unoduo serve`` one address brings at most 10 keys the
  server has never seen an hour (:class:`~unoduo_tui.ssh.identity.NewKeys`).

Memory is bounded: the records kept are the wrong codes of the last hour and the
guessers that sent one in the last two (at most :data:`PER_HOUR` and twice that), and
the guessers that ever sent one (at most :data:`MAX_REMEMBERED`,
the oldest forgotten first).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Callable

__all__ = ["Guesser", "Guesses", "FREE_TRIES", "PER_HOUR", "RESERVED", "HOUR"]

#: wrong codes a guesser may send before it is locked out
FREE_TRIES = 3
LOCKOUT_FIRST, LOCKOUT_MAX = 30.0, 3600.0  # seconds
#: wrong codes one table compares in any hour, in all …
PER_HOUR = 100
#: … of which the last ones are kept for guessers new to the table
RESERVED = 40
HOUR = 3600.0
#: guessers a table remembers as having sent it a wrong code
MAX_REMEMBERED = 20_000


@dataclass(frozen=True)
class Guesser:
    """Who is trying a code: ``id`` (``key:SHA256:…``, ``uid:1000``, ``tcp:7``) and
    whether it ``lasts`` beyond one connection (a key or a Unix user does; a TCP
    connection does not: it has no record and never counts as new to a table)."""

    id: str
    lasts: bool = True


class _Record:
    __slots__ = ("wrong", "until", "last")

    def __init__(self) -> None:
        self.wrong, self.until, self.last = 0, 0.0, 0.0


def _clean_at(record: _Record) -> float:
    """When a guesser's record goes: an hour after its last wrong code or lock-out."""
    return max(record.until, record.last) + HOUR


class Guesses:
    """One table's limits on guessing its code (see the module doc)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *,
                 per_hour: int = PER_HOUR, reserved: int = RESERVED,
                 free: int = FREE_TRIES) -> None:
        self.clock = clock
        self.per_hour, self.reserved, self.free = per_hour, reserved, free
        self._wrong: deque[float] = deque()  # when each wrong code of the last hour came
        self._records: dict[str, _Record] = {}  # guessers with a wrong code this hour
        self._ever: OrderedDict[str, None] = OrderedDict()  # ... or ever

    @property
    def kept(self) -> tuple[int, int]:
        """What is in memory now: (guessers with a record, wrong codes of the last
        hour) — bounded by twice and once :data:`PER_HOUR` (see the module doc)."""
        return len(self._records), len(self._wrong)

    def _now(self) -> float:
        now = self.clock()
        while self._wrong and self._wrong[0] <= now - HOUR:
            self._wrong.popleft()
        return now

    def _record(self, who: Guesser, now: float) -> _Record | None:
        record = self._records.get(who.id) if who.lasts else None
        if record is not None and now >= _clean_at(record):
            del self._records[who.id]  # an hour after its lock-out: a clean slate
            return None
        return record

    def refusal(self, who: Guesser) -> str | None:
        """Why ``who``'s code is not compared now (None: compare it)."""
        now = self._now()
        record = self._record(who, now)
        if record is not None and now < record.until:
            return f"too many wrong codes: try again in {math.ceil(record.until - now)} s"
        n = len(self._wrong)
        open_to_all = self.per_hour - self.reserved
        new_here = who.lasts and who.id not in self._ever
        if n >= self.per_hour or (n >= open_to_all and not new_here):
            # the wait until the oldest wrong code that keeps it shut is an hour old
            shut_by = self._wrong[n - (self.per_hour if n >= self.per_hour else open_to_all)]
            minutes = max(1, math.ceil((shut_by + HOUR - now) / 60))
            return (f"too many wrong codes at this table this hour: try again in "
                    f"{minutes} min")
        return None

    def wrong(self, who: Guesser) -> None:
        """``who`` sent a wrong code (compared after :meth:`refusal` said None)."""
        now = self._now()
        self._wrong.append(now)
        if not who.lasts:
            return
        record = self._record(who, now)
        if record is None:
            record = self._records[who.id] = _Record()
        record.wrong += 1
        record.last = now
        if record.wrong >= self.free:
            record.until = now + min(LOCKOUT_MAX,
                                     LOCKOUT_FIRST * 2.0 ** (record.wrong - self.free))
        self._ever[who.id] = None
        self._ever.move_to_end(who.id)
        if len(self._ever) > MAX_REMEMBERED:
            self._ever.popitem(last=False)
        if len(self._records) > 2 * self.per_hour:  # only stale ones make it so many
            for stale in [k for k, r in self._records.items() if now >= _clean_at(r)]:
                del self._records[stale]

    def right(self, who: Guesser) -> None:
        """``who`` sent the right code: its record goes (not the table's count)."""
        if who.lasts:
            self._records.pop(who.id, None)
