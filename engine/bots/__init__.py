"""Bots: given a :class:`~engine.view.PlayerView` (never the match), choose an action.

    bot = engine.bots.make("normal", seed=0)
    action = bot.choose(match.view(seat))

Levels (:data:`LEVELS`): ``random`` (the uniform baseline), ``easy`` (a beginner,
:mod:`.easy`), ``normal`` (a heuristic player, :mod:`.normal`) and ``hard``
(determinized search over the belief model, :mod:`.hard`).  Every bot is
deterministic for its seed — ``hard`` when its budget is a count of simulations
(``make("hard", simulations=N)``) rather than a time (``think_ms``, default 500).

The belief model (:mod:`.belief`) is also a feature for humans:
:func:`wd4_guilty_probability` and :func:`suggest` (the hard bot's pick).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Protocol

from ..actions import Action
from ..rng import Rng
from ..view import PlayerView

if TYPE_CHECKING:
    from .belief import Belief, wd4_guilty_probability
    from .easy import EasyBot
    from .hard import HardBot, suggest
    from .normal import NormalBot

__all__ = ["Bot", "RandomBot", "EasyBot", "NormalBot", "HardBot", "Belief", "LEVELS", "make",
           "suggest", "wd4_guilty_probability"]


class Bot(Protocol):
    name: str

    def choose(self, view: PlayerView) -> Action: ...

    def jump(self, view: PlayerView) -> Action | None:
        """H4: one of ``view.legal_actions`` (the seat's jump-ins, out of turn) or None."""


class RandomBot:
    """Uniform over the view's legal actions — the baseline for tests and speed."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed, 0x5EED)

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.own_seat} has no decision to make now")
        return legal[self._rng.below(len(legal))]

    def jump(self, view: PlayerView) -> Action | None:
        """H4: a jump-in half the time one is offered."""
        from .house import random_jump
        return random_jump(view, self._rng)


#: where each name this package gives lives: a level's module is imported when that
#: level is first made or named (#22: ``unoduo play --vs random`` starts without the
#: search and the belief model)
_HOMES = {"Belief": ".belief", "wd4_guilty_probability": ".belief", "EasyBot": ".easy",
          "NormalBot": ".normal", "HardBot": ".hard", "suggest": ".hard"}
#: each level's bot class, by its name here
_MAKERS = {"random": "RandomBot", "easy": "EasyBot", "normal": "NormalBot", "hard": "HardBot"}
LEVELS: tuple[str, ...] = tuple(_MAKERS)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def make(level: str, seed: int = 0, think_ms: int | None = None,
         simulations: int | None = None) -> Bot:
    """A bot of ``level`` (one of :data:`LEVELS`).

    ``think_ms`` bounds the hard bot's CPU time per decision (default 500 ms; and
    twice it of wall-clock time);
    ``simulations`` fixes its budget as a count of sampled deals instead, which
    makes it deterministic (with both, whichever runs out first).  The other
    levels decide at once and ignore both.
    """
    maker = _MAKERS.get(level)
    if maker is None:
        raise ValueError(f"unknown bot level {level!r}: one of {', '.join(LEVELS)}")
    made: Any = globals()[maker] if maker in globals() else __getattr__(maker)
    if level == "hard":
        return made(seed, think_ms=think_ms, simulations=simulations)  # type: ignore[no-any-return]
    return made(seed)  # type: ignore[no-any-return]
