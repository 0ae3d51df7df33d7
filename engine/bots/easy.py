"""The ``easy`` bot: a beginner.

It keeps every drafted card (S3), plays a random playable card or draws (T1, T2),
plays a drawn card when it can, stacks or dumps at random (A1, A4), names a random
colour (T5), forgets to say UNO about a third of the time (U1), catches an
exposed opponent about a third of the time (U2) and never challenges (A6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import A_DRAW, Action
from ..rng import Rng

if TYPE_CHECKING:  # pragma: no cover
    from ..view import PlayerView

__all__ = ["EasyBot"]


class EasyBot:
    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed, 0xEA5)

    def jump(self, view: "PlayerView") -> "Action | None":
        """H4: jumps in half the time it can."""
        from .house import random_jump
        return random_jump(view, self._rng)

    def choose(self, view: "PlayerView") -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.own_seat} has no decision to make now")
        rng = self._rng
        if legal[-1].kind == "catch":
            if rng.below(3) == 0:
                return legal[-1]
            legal = legal[:-1]
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase == "draft":
            return legal[0]  # keep
        if phase == "wd4":  # never challenges; stacks a Wild Draw 4 it holds (H2)
            return next((a for a in legal if a.kind == "play"), A_DRAW)
        if phase in ("turn", "drawn"):
            plays = tuple(a for a in legal if a.kind == "play")
            if plays:
                legal = plays
        forget = rng.below(3) == 0
        options = [a for a in legal if a.uno != forget and a.kind != "nodump"] or \
            [a for a in legal if a.kind != "nodump"] or list(legal)
        if phase == "dump" and rng.below(2) == 0:
            return legal[-1]  # nodump
        return options[rng.below(len(options))]
