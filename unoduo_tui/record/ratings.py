"""Ratings: openskill's Plackett–Luce model, one rating per player and preset.

- **The model.** :class:`openskill.models.PlackettLuce` (openskill's default): it rates
  a full ranking of any number of players in one step — a two-seat match is the
  ranking winner, loser; a 3–10 seat free-for-all is the seats ordered by their totals
  (E4 / C10), tied totals sharing a place — and its cost grows linearly with the
  seats (the Bradley–Terry and Thurstone–Mosteller "full" models compare every pair).
  Its defaults: a new player is μ 25, σ 25/3; β 25/6; τ 25/300.
- **The number.** Shown on a familiar, Elo-like range: ``1500 + 20·(μ − 25)``, with
  ``± 40·σ`` (two σ: about 95 % of where the player's skill may lie).  A new player
  is 1500 ± 333, the normal bot's rating; the random bot is near 0.  Provisional until
  :data:`PROVISIONAL_UNDER` rated matches.  A leaderboard orders by the cautious end,
  value − uncertainty.
- **Bots are anchors**: each level has a fixed μ and a small σ per preset
  (:data:`ANCHORS`, from ``python -m tests.bench.ratings``); results never
  move them.  The normal bot, the default opponent, is 1500.
- **Not rated**: practice (any undo), what-if branches, unfinished matches (an
  abandoned one never ends), bot-only matches, a player at two seats, and — under a
  server — a match with a human known only by a typed name.  **Farming**: a pair of
  human identities is rated at most :data:`PAIR_CAP` times per preset and UTC day;
  later matches that day still count in the record.
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["ANCHORS", "PAIR_CAP", "PROVISIONAL_UNDER", "MU", "SIGMA", "shown", "update",
           "anchor", "model"]

MU, SIGMA, BETA = 25.0, 25.0 / 3, 25.0 / 6
#: display points per unit of μ (the bots' anchors then span about 0 to 1800)
SCALE = 20.0
PROVISIONAL_UNDER = 10
#: rated matches a pair of human identities may have per preset and UTC day
PAIR_CAP = 3

#: the bots' fixed ratings (μ, σ) per preset and level: normal is μ 25 (1500) and the
#: others sit at the gap their measured win share p makes in the model (μ difference
#: c·logit(p), c = √(2β² + σa² + σb²)).  Measured by
#:   python -m tests.bench.ratings --matches 200 --hard-matches 40 --seed 1 --jobs 2
#: (two-seat duplicate pairs): duo — easy beat random 200 of 200, normal beat easy 200 of
#: 200, hard beat normal 30 of 40; classic — 200 of 200, 200 of 200, 34 of 40.  A level
#: that won every match sits at the floor (w + ½)/(n + 1) gives: it is at least that far
#: ahead.  Shown: random 47, easy 774, normal 1500, hard 1629 (duo) / 1702 (classic).
ANCHORS: dict[str, dict[str, tuple[float, float]]] = {
    "duo": {"random": (-47.65, 1.0), "easy": (-11.32, 1.0), "normal": (25.0, 1.0),
            "hard": (31.46, 1.0)},
    "classic": {"random": (-47.65, 1.0), "easy": (-11.32, 1.0), "normal": (25.0, 1.0),
                "hard": (35.11, 1.0)},
}

_MODEL = None


def model():
    """The one Plackett–Luce model (openskill imported on first use)."""
    global _MODEL
    if _MODEL is None:
        from openskill.models import PlackettLuce

        _MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)
    return _MODEL


def anchor(preset: str, level: str) -> tuple[float, float]:
    """A bot level's fixed (μ, σ); a level the table does not know: normal's."""
    levels = ANCHORS.get(preset, ANCHORS["duo"])
    return levels.get(level, levels["normal"])


def shown(mu: float, sigma: float) -> tuple[int, int]:
    """(value, uncertainty) as a player sees them: 1500 + 20·(μ − 25), ± 40·σ."""
    return round(1500 + SCALE * (mu - MU)), round(SCALE * 2 * sigma)


def update(players: Sequence[tuple[float, float, bool]],
           places: Sequence[int]) -> list[tuple[float, float]]:
    """One rated match: each seat's (μ, σ, fixed) and place (0 best, ties shared) to
    each seat's new (μ, σ); a fixed seat (a bot) keeps its own."""
    m = model()
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in players]
    rated = m.rate(teams, ranks=[float(p) for p in places])
    return [(mu, sigma) if fixed else (team[0].mu, team[0].sigma)
            for (mu, sigma, fixed), team in zip(players, rated)]
