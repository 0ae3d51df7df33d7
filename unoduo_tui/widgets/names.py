"""How the table's widgets name the seats."""

from __future__ import annotations

from typing import Sequence

__all__ = ["SeatNames"]


class SeatNames:
    """A mixin for widgets that name the seats: ``names`` (by seat) and ``say_you``
    (the viewer's own seat is "you"; False in the replay viewer: every seat by its
    name).  Set both with :meth:`name_seats`."""

    names: tuple[str, ...] = ("You", "Opponent")
    say_you: bool = True

    def name_seats(self, names: Sequence[str], say_you: bool = True) -> None:
        self.names = tuple(names)
        self.say_you = say_you
