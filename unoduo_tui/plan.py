"""Who sits where and under which rules: the seat kinds and :class:`MatchPlan`.

Textual-free: the CLI, the new-match form, the table and (later) a table server all
describe a match to start with one :class:`MatchPlan`.  A seat's kind is ``"human"``
or ``"bot:<level>"`` with a level from :data:`engine.bots.LEVELS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Rules
from engine import bots as engine_bots

__all__ = ["HUMAN", "DEFAULT_LEVEL", "MatchPlan", "bot_levels", "opponent_label"]

HUMAN = "human"

#: the bot a new match is against unless the player chose another (`unoduo play`, the form)
DEFAULT_LEVEL = "normal"


def bot_levels() -> tuple[str, ...]:
    """The bot levels the engine offers today (never hard-coded here)."""
    return tuple(engine_bots.LEVELS)


def opponent_label(kind: str) -> str:
    """``"bot:easy"`` → ``"Easy bot"``; ``"human"`` → ``"Human"``."""
    if kind.startswith("bot:"):
        return f"{kind[4:].capitalize()} bot"
    return "Human (hot-seat)" if kind == HUMAN else kind


@dataclass(frozen=True)
class MatchPlan:
    """A new match: one name and one kind per seat (``len`` = the number of seats),
    its rules and an optional seed (``None``: a fresh one)."""

    names: tuple[str, ...]
    kinds: tuple[str, ...]
    rules: Rules = Rules()
    seed: int | None = None

    def __post_init__(self) -> None:
        if len(self.names) != len(self.kinds):
            raise ValueError("a name for every seat and a kind for every seat")
        if len(self.kinds) != self.rules.seats:
            raise ValueError(f"{len(self.kinds)} seats, but the rules are for {self.rules.seats}")
        for kind in self.kinds:
            if kind != HUMAN and not (kind.startswith("bot:") and kind[4:] in bot_levels()):
                raise ValueError(f"unknown seat kind {kind!r}")
