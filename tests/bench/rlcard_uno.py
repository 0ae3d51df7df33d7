"""Optional baseline: RLCard's UNO game step rate with uniformly random actions.

Used by ``python -m tests.bench.engine`` to report our actions/s relative to RLCard's.
Only the standard library is imported at module import time; ``rlcard`` (and
``numpy``, which it depends on) are imported lazily inside the functions, so
this module is safe to import when rlcard is not installed.

We drive RLCard's *raw* game object (``init_game`` / ``get_legal_actions`` /
``step`` / ``is_over``), not the ``rlcard.make('uno')`` Env wrapper, because the
Env adds observation encoding (numpy planes) that our engine does not do.
``allow_step_back`` is left off (RLCard's default), since it deep-copies the
dealer, round and players on every step.

Note: RLCard's ``UnoGame.step()`` itself builds and returns the next player's
state dict (hand, target, *all* played cards, legal actions, card counts) on
every call; that is part of its raw API and cannot be switched off, so it is
included in the measured rate.
"""

from __future__ import annotations

import random
import statistics
import time

__all__ = ["available", "rlcard_rates", "rlcard_work", "rlcard_steps_per_second", "median_rate"]

_AVAILABLE: bool | None = None


def _game_class():
    """Return RLCard's UNO game class, whatever the installed version calls it."""
    try:
        from rlcard.games.uno.game import UnoGame
        return UnoGame
    except ImportError:
        pass
    from rlcard.games.uno import Game  # re-exported alias in rlcard.games.uno
    return Game


def available() -> bool:
    """True if rlcard and its UNO game can be imported (result is cached)."""
    global _AVAILABLE
    if _AVAILABLE is None:
        try:
            import numpy  # noqa: F401  (rlcard's game needs a numpy RandomState)
            _game_class()
        except Exception:  # ImportError, or a broken install raising anything else
            _AVAILABLE = False
        else:
            _AVAILABLE = True
    return _AVAILABLE


def _new_game(seed: int):
    """Create a 2-player RLCard UNO game with default settings and a seeded RNG."""
    import numpy as np

    cls = _game_class()
    try:
        game = cls(allow_step_back=False, num_players=2)
    except TypeError:  # older rlcard versions: 2 players fixed, no num_players kwarg
        game = cls(allow_step_back=False)
    # RLCard's Env seeds the game by replacing game.np_random; do the same.
    # The dealer, round and players all draw from this RandomState.
    game.np_random = np.random.RandomState(seed)
    return game


def _measure(seconds: float = 1.0, seed: int = 0) -> tuple[int, int, int, float, float]:
    """Play complete games back to back for about ``seconds`` of wall time.

    Returns ``(steps, games_finished, games_aborted, elapsed_seconds, cpu_seconds)``
    (``cpu_seconds``: this process's CPU time, ``time.process_time``).
    ``steps`` counts ``step()`` calls only; the timed loop also includes
    ``init_game``, ``get_legal_actions``, ``is_over`` and the random choice.
    """
    game = _new_game(seed)
    rng = random.Random(seed)  # local RNG: repeatable, no global side effects
    choice = rng.choice
    perf = time.perf_counter

    steps = games = aborted = 0
    cpu = time.process_time()
    start = perf()
    deadline = start + seconds
    while True:
        game.init_game()
        try:
            while not game.is_over():
                game.step(choice(game.get_legal_actions()))
                steps += 1
        except IndexError:
            # RLCard can (very rarely) pop from an empty deck when the draw pile
            # and discard pile are both exhausted. The steps taken still count.
            aborted += 1
        else:
            games += 1
        # The clock is checked between games only, so the loop runs whole
        # games and overshoots ``seconds`` by at most one game (~a millisecond).
        now = perf()
        if now >= deadline:
            break
    return steps, games, aborted, now - start, time.process_time() - cpu


def rlcard_rates(seconds: float = 1.0, seed: int = 0) -> tuple[float, float]:
    """RLCard UNO game steps per second of wall-clock time and per second of this
    process's CPU time, with uniformly random legal actions."""
    steps, elapsed, cpu = rlcard_work(seconds, seed)
    return steps / elapsed, steps / max(cpu, 1e-9)


def rlcard_work(seconds: float = 1.0, seed: int = 0) -> tuple[int, float, float]:
    """(steps, wall-clock seconds, CPU seconds) of :func:`rlcard_rates`' loop."""
    if not available():
        raise RuntimeError("rlcard (with its UNO game) is not importable")
    steps, _games, _aborted, elapsed, cpu = _measure(seconds, seed)
    return steps, elapsed, cpu


def rlcard_steps_per_second(seconds: float = 1.0, seed: int = 0) -> float:
    """RLCard UNO game steps per second (wall clock) with uniformly random legal actions."""
    return rlcard_rates(seconds, seed)[0]


def median_rate(runs: int = 5, seconds: float = 1.0) -> float:
    """Median of ``runs`` calls to :func:`rlcard_steps_per_second` (seeds 0..runs-1)."""
    return statistics.median(
        rlcard_steps_per_second(seconds, seed) for seed in range(runs)
    )


if __name__ == "__main__":
    ok = available()
    print("rlcard available:", ok)
    if ok:
        import rlcard

        steps, games, aborted, elapsed, _cpu = _measure(1.0, 0)
        print(f"rlcard {getattr(rlcard, '__version__', '?')}: {steps} steps, "
              f"{games} games finished, {aborted} aborted, in {elapsed:.3f}s "
              f"-> {steps / elapsed:,.0f} steps/s, "
              f"{steps / max(games + aborted, 1):.1f} steps/game")
        print(f"median_rate(): {median_rate():,.0f} steps/s")
