"""Saves for the record's tests: finished matches written through the store (so its
hook tells the index), played by seeded random choices to a low target."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Sequence

from engine import Match, Rules
from unoduo_tui.store import Seat, Store

ANN_V_NORMAL = (Seat("Ann", "human"), Seat("Normal bot", "bot:normal"))


def finished(rules: Rules, seed: int, winner: int | None = None, tries: int = 200) -> Match:
    """A finished match (``winner``: the first seed from ``seed`` on that seat wins)."""
    for s in range(seed, seed + tries):
        rng = random.Random(s)
        m = Match.new(rules, seed=s)
        while not m.over:
            m.apply(rng.choice(m.legal_actions()))
        if winner is None or m.winner == winner:
            return m
    raise AssertionError("no such match")


def save(store: Store, m: Match, seats: Sequence[Seat] = ANN_V_NORMAL, **extra) -> Path:
    """``m`` written whole (the store writes its footer and tells the index)."""
    with store.new_match(m, tuple(seats), extra=extra or None) as handle:
        return handle.path


def play_and_save(store: Store, seed: int, winner: int | None = None,
                  seats: Sequence[Seat] = ANN_V_NORMAL, rules: Rules | None = None) -> Path:
    rules = rules or Rules(target=40)
    return save(store, finished(rules, seed, winner), seats)
