"""Bots: given a :class:`~engine.view.PlayerView` (never the match), choose an action.

    bot = engine.bots.make("random", seed=0)
    action = bot.choose(match.view(seat))

Every bot is deterministic for its seed.  Only the ``random`` baseline exists so
far; the easy / normal / hard levels use this same entry point.
"""

from __future__ import annotations

from typing import Protocol

from ..actions import Action
from ..rng import Rng
from ..view import PlayerView

__all__ = ["Bot", "RandomBot", "LEVELS", "make"]


class Bot(Protocol):
    name: str

    def choose(self, view: PlayerView) -> Action: ...


class RandomBot:
    """Uniform over the view's legal actions — the baseline for tests and speed."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed, 0x5EED)

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no decision to make now")
        return legal[self._rng.below(len(legal))]


_MAKERS = {"random": RandomBot}
LEVELS: tuple[str, ...] = tuple(_MAKERS)


def make(level: str, seed: int = 0, think_ms: int | None = None) -> Bot:
    """A bot of ``level`` (one of :data:`LEVELS`); ``think_ms`` bounds search bots."""
    maker = _MAKERS.get(level)
    if maker is None:
        raise ValueError(f"unknown bot level {level!r}: one of {', '.join(LEVELS)}")
    return maker(seed)
