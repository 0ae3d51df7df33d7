"""The middle of the table, as the game and the replay show it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal

from .discard import Discard
from .gamelog import GameLog
from .scoresheet import ScoreSheet

__all__ = ["table_row"]


def table_row(log: GameLog) -> ComposeResult:
    """The discard pile, ``log`` (the game's, or the replay's own kind) and the score
    sheet side by side (``yield from`` it in a screen's ``compose``)."""
    with Horizontal(id="table"):
        yield Discard(id="discard")
        yield log
        yield ScoreSheet(id="scores")
