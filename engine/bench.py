"""Speed of the engine: ``python -m engine.bench [--runs 5] [--seconds 1.0]``.

Prints, for random-vs-random play, each the median of ``--runs`` runs:

- *engine*: whole matches with uniformly random legal actions through the public
  API (``legal_actions()`` + ``apply()``) — matches/s and actions/s;
- *bots*: the same with ``bots.make("random")`` choosing from ``view(seat)``, as
  the app and the arena play;
- *replay*: ``Match.replay`` of the logs just played, in decisions/s;
- *rollouts*: the hard bot's rollouts (the rest of a round, normal policy for both
  seats) from mid-round positions, in the lean simulator and, for comparison,
  with ``Match`` + ``policy`` as the first hard bot did;
- with ``--hard N``: the hard bot's time and worlds per decision over N decisions
  with more than one candidate (seat 0 of a normal-vs-normal match, ``think_ms=500``);
- *classic*: random play of classic UNO at two seats through the public API and,
  when ``rlcard`` is importable, RLCard's ``UnoGame`` (classic UNO, 2 players) with
  random actions in the same run, and our actions/s divided by its steps/s.

A benchmark, not a test: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from . import bench_rlcard, bots
from .match import Match
from .rules import Rules

#: classic UNO at two seats: the game RLCard's UnoGame plays
CLASSIC_2 = Rules(preset="classic", seats=2)


def engine_run(seconds: float, seed: int, rules: Rules | None = None) -> tuple[float, float, list]:
    """(matches/s, actions/s, logs) for random legal actions via the public API
    (``rules``: UNO Duo by default)."""
    rules = rules or Rules()
    rng = random.Random(seed)
    choice = rng.choice
    logs = []
    actions = 0
    start = time.perf_counter()
    game = 0
    while True:
        m = Match.new(rules, seed=seed * 1_000_003 + game)
        game += 1
        while not m.over:
            m.apply(choice(m.legal_actions()))
            actions += 1
        if len(logs) < 25:  # enough to time replay; keeping every log would tax the GC
            logs.append(m.actions)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return game / elapsed, actions / elapsed, logs


def bots_run(seconds: float, seed: int) -> float:
    """actions/s with two random bots choosing from views."""
    players = [bots.make("random", seed=seed), bots.make("random", seed=seed + 1)]
    actions = 0
    start = time.perf_counter()
    game = 0
    while True:
        m = Match.new(Rules(), seed=seed * 1_000_003 + game)
        game += 1
        while not m.over:
            seat = m.to_act
            m.apply(players[seat].choose(m.view(seat)))
            actions += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return actions / elapsed


def replay_run(logs: list) -> float:
    """Decisions/s rebuilding matches with ``Match.replay``."""
    decisions = sum(1 for log in logs for e in log if not e.is_chance)
    start = time.perf_counter()
    for log in logs:
        Match.replay(Rules(), log)
    return decisions / (time.perf_counter() - start)


def _positions(seed: int, count: int = 200) -> list:
    """Mid-round positions from normal-vs-normal matches (every 5th decision)."""
    out: list = []
    players = [bots.make("normal", seed=seed), bots.make("normal", seed=seed + 1)]
    game = 0
    while len(out) < count:
        m = Match.new(Rules(), seed=seed * 7_919 + game)
        game += 1
        n = 0
        while not m.over and len(out) < count:
            if m.phase == "turn" and n % 5 == 0:
                out.append(m.clone())
            seat = m.to_act
            m.apply(players[seat].choose(m.view(seat)))
            n += 1
    return out


def rollout_run(seconds: float, seed: int) -> tuple[float, float]:
    """(lean rollouts/s, Match + policy rollouts/s) from the same positions."""
    from .bots.lean import Position, play_out
    from .bots.normal import policy

    matches = _positions(seed)
    lean = [Position.from_match(m) for m in matches]
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for p in lean:
            play_out(p.copy())
        done += len(lean)
    lean_rate = done / (time.perf_counter() - start)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for original in matches:
            m = original.clone()
            first = m.round
            while m.round == first and not m.over:
                seat = m.to_act
                m.apply(policy(m.hand(seat), m.legal_actions(), m.phase, m.top, m.color,
                               len(m.hand(1 - seat)), m.dump_colour))
        done += len(matches)
    return lean_rate, done / (time.perf_counter() - start)


def hard_decisions(count: int, seed: int = 11) -> tuple[float, float, float]:
    """(median ms, max ms, median worlds) of the hard bot over ``count`` searched
    decisions (more than one legal action, outside the draft and a W+4 answer)."""
    from .bots.hard import HardBot

    times, worlds = [], []
    game = 0
    while len(times) < count:
        m = Match.new(Rules(), seed=seed + game)
        game += 1
        other = bots.make("normal", seed=game)
        hard = HardBot(seed=game, think_ms=500)
        while not m.over and len(times) < count:
            seat = m.to_act
            view = m.view(seat)
            if seat == 0 and len(view.legal_actions) > 1 and view.phase not in ("draft", "wd4"):
                start = time.perf_counter()
                action = hard.choose(view)
                elapsed = time.perf_counter() - start
                if hard.last_worlds:
                    times.append(elapsed * 1000)
                    worlds.append(hard.last_worlds)
            else:
                action = other.choose(view)
            m.apply(action)
    return statistics.median(times), max(times), statistics.median(worlds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="per run and measure")
    parser.add_argument("--hard", type=int, default=0, metavar="N",
                        help="also time the hard bot over N searched decisions (~0.5 s each)")
    args = parser.parse_args(argv)
    runs = max(1, args.runs)

    engine, bot, replay, rollouts, classic, theirs = [], [], [], [], [], []
    rlcard = bench_rlcard.available()
    for run in range(runs):
        # classic and RLCard back to back in each run, so both meet the same machine load
        classic.append(engine_run(args.seconds, seed=run + 1, rules=CLASSIC_2)[1])
        if rlcard:
            theirs.append(bench_rlcard.rlcard_steps_per_second(args.seconds, seed=run))
        matches_s, actions_s, logs = engine_run(args.seconds, seed=run + 1)
        engine.append((matches_s, actions_s, sum(len([e for e in log if not e.is_chance])
                                                    for log in logs) / len(logs)))
        bot.append(bots_run(args.seconds, seed=run + 1))
        replay.append(replay_run(logs))
        rollouts.append(rollout_run(args.seconds, seed=run + 1))
    med = statistics.median
    actions = med(a for _, a, _ in engine)
    print(f"python {platform.python_version()} on {platform.machine()}; median of {runs} runs "
          f"of {args.seconds:g} s")
    print(f"engine  random play  {med(m for m, _, _ in engine):10.1f} matches/s "
          f"{actions:12,.0f} actions/s  ({med(n for _, _, n in engine):.0f} actions/match)")
    print(f"bots    via views                      {med(bot):12,.0f} actions/s")
    print(f"replay  Match.replay                   {med(replay):12,.0f} actions/s "
          f"({med(replay) / actions:.2f}x live play)")
    lean_rate = med(a for a, _ in rollouts)
    print(f"hard    rollouts, lean simulator       {lean_rate:12,.0f} rollouts/s "
          f"({lean_rate / med(b for _, b in rollouts):.1f}x Match + policy)")
    if args.hard:
        median_ms, max_ms, worlds = hard_decisions(args.hard)
        print(f"hard    searched decisions, 500 ms     {median_ms:9.0f} ms median, "
              f"{max_ms:.0f} ms max, {worlds:,.0f} worlds median (n={args.hard})")
    ours = med(classic)
    print(f"classic random play, 2 seats           {ours:12,.0f} actions/s")
    if rlcard:
        ratio = med(a / b for a, b in zip(classic, theirs))
        print(f"rlcard  UnoGame random, 2 players      {med(theirs):12,.0f} steps/s")
        print(f"ratio   classic actions/s / RLCard's   {ratio:12.2f}x  (median of the runs' "
              f"ratios; UNO Duo: {actions / med(theirs):.2f}x)")
    else:
        print("rlcard  not installed: comparison skipped (pip install -e '.[bench]' to compare)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
