"""Speed of the engine: ``python -m tests.bench.engine [--runs 5] [--seconds 1.0]``.

Prints, for random-vs-random play, each the median of ``--runs`` runs, per second of
wall-clock time and, in brackets, per second of this process's CPU time
(``time.process_time``: what the other processes of a busy machine cost us less):

- *engine*: whole UNO Duo matches with uniformly random legal actions through the
  public API (``legal_actions()`` + ``apply()``) — matches/s and actions/s;
- *bots*: the same with ``bots.make("random")`` choosing from ``view(seat)``, as
  the app and the arena play;
- *replay*: ``Match.replay`` of 25 logs played (untimed) before, in decisions/s;
- *rollouts*: the hard bot's rollouts (the rest of a round, normal policy for both
  seats) from mid-round positions, on ``search_copy`` + ``push`` and, for comparison,
  on a full ``clone`` and the checked ``apply`` (dealing the next round, as the first
  hard bot did);
- with ``--rollouts N``: the hard bot's rollouts per second of search, for UNO Duo and
  classic at 2 and 4 seats (N searched decisions each, ``think_ms=200``, seat 0 against
  normal bots): every rollout it plays over the time its searches took, worlds sampled
  included;
- with ``--hard N``: the hard bot's time and worlds per decision over N decisions
  with more than one candidate (seat 0 of a normal-vs-normal match, ``think_ms=500``);
- *classic*: random play of classic UNO at two seats through the public API and,
  when ``rlcard`` is importable, RLCard's ``UnoGame`` (classic UNO, 2 players) with
  random actions, and our rates (classic, and UNO Duo) divided by its rate: the median
  of the runs' ratios.  Within a run the three take turns in ``--slices`` slices of
  ``--seconds / --slices`` each (the order rotating from slice to slice), so all three
  meet the same machine load: on a shared machine the speed of one minute differs from
  the next by up to 10 %, as much as the ratio's distance to its goal.

What each side counts.  Both loops are the same shape — is it over, the legal
actions, a uniform ``random.Random.choice`` among them, one call that makes the move —
and time everything in them, including setting up each match / game.  Ours counts
``apply()`` calls: every decision (play, draw, pass, colour, challenge, catch), not
the chance outcomes (shuffles) the match logs itself; each apply also records the
log and the events and returns the move's events.  RLCard counts ``step()`` calls:
a play or a draw (it plays a drawn card that fits within the same step, so it has
no separate "play the drawn card / pass" decision, no UNO call and no challenge),
and each step returns the next player's state dict.  RLCard's game is one hand;
ours is a match of hands to 500 points.  Neither side keeps anything across its
games (no logs are retained while timing).

Since #13's speed pass the engine makes the event of a play (but a stacked Draw 2's),
of a turn's draw and of keeping a drawn card once and shares it, as it shares cards
and actions (events are immutable values): ``apply`` still appends every move's
events to the match's list and returns them, equal to what it built before — it no
longer allocates one per move, so the garbage collector (about 13% of this loop
before) has almost nothing to do.  The loops here are unchanged, and nothing here
touches the garbage collector.

The engine timed is the one installed: compiled (setup.py: mypyc, #23) unless built
with ``UNODUO_PURE=1`` or without a C compiler; the first line says which.

A benchmark, not a test: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from typing import Callable, NamedTuple

import engine as engine_package
from engine import bots
from tests.bench import rlcard_uno as bench_rlcard
from engine.match import Match
from engine.rules import Rules

#: classic UNO at two seats: the game RLCard's UnoGame plays
CLASSIC_2 = Rules(preset="classic", seats=2)


class Rate(NamedTuple):
    """Work per second of wall-clock time and per second of this process's CPU time."""

    wall: float
    cpu: float


class Clock:
    """Wall-clock and CPU time since it was made."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def elapsed(self) -> float:
        return time.perf_counter() - self.wall

    def rate(self, work: float) -> Rate:
        return Work(work, time.perf_counter() - self.wall, time.process_time() - self.cpu).rate()


class Work(NamedTuple):
    """Work done, and the wall-clock and CPU seconds it took."""

    work: float
    wall: float
    cpu: float

    def __add__(self, other: object) -> "Work":
        assert isinstance(other, Work)
        return Work(self.work + other.work, self.wall + other.wall, self.cpu + other.cpu)

    def rate(self) -> Rate:
        return Rate(self.work / self.wall, self.work / max(self.cpu, 1e-9))


def engine_work(seconds: float, seed: int, rules: Rules) -> "tuple[Work, int]":
    """(the actions, the matches) of random legal actions via the public API over about
    ``seconds`` (whole matches)."""
    choice = random.Random(seed).choice
    actions = game = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while True:
        m = Match.new(rules, seed=seed * 1_000_003 + game)
        game += 1
        while not m.over:
            m.apply(choice(m.legal_actions()))
            actions += 1
        if time.perf_counter() - wall >= seconds:
            return Work(actions, time.perf_counter() - wall, time.process_time() - cpu), game


def engine_run(seconds: float, seed: int, rules: Rules | None = None) -> tuple[Rate, Rate]:
    """(matches/s, actions/s) for random legal actions via the public API
    (``rules``: UNO Duo by default)."""
    done, games = engine_work(seconds, seed, rules or Rules())
    return Work(games, done.wall, done.cpu).rate(), done.rate()


def compared(seconds: float, slices: int, run: int, rlcard: bool) -> "list[Rate]":
    """(classic at 2 seats, UNO Duo, RLCard's UnoGame) steps per second over
    ``seconds`` each, taking turns in ``slices`` slices (see the module doc); without
    RLCard, the two of ours."""
    sides: "list[Callable[[float, int], Work]]" = [
        lambda s, k: engine_work(s, k, CLASSIC_2)[0], lambda s, k: engine_work(s, k, Rules())[0]]
    if rlcard:
        sides.append(lambda s, k: Work(*bench_rlcard.rlcard_work(s, k)))
    slices = max(1, slices)
    done = [Work(0, 0.0, 0.0) for _ in sides]
    for i in range(slices):
        for j in range(len(sides)):
            side = (i + j) % len(sides)  # each side first in turn
            done[side] += sides[side](seconds / slices, run * 1000 + i + 1)
    return [w.rate() for w in done]


def sample_logs(seed: int, count: int = 25, rules: Rules | None = None) -> list:
    """The logs of ``count`` random matches (untimed: what :func:`replay_run` replays)."""
    rules = rules or Rules()
    choice = random.Random(seed).choice
    logs = []
    for game in range(count):
        m = Match.new(rules, seed=seed * 1_000_003 + game)
        while not m.over:
            m.apply(choice(m.legal_actions()))
        logs.append(m.actions)
    return logs


def bots_run(seconds: float, seed: int) -> Rate:
    """actions/s with two random bots choosing from views."""
    players = [bots.make("random", seed=seed), bots.make("random", seed=seed + 1)]
    actions = 0
    clock = Clock()
    game = 0
    while True:
        m = Match.new(Rules(), seed=seed * 1_000_003 + game)
        game += 1
        while not m.over:
            seat = m.to_act
            m.apply(players[seat].choose(m.view(seat)))
            actions += 1
        if clock.elapsed() >= seconds:
            return clock.rate(actions)


def replay_run(logs: list) -> Rate:
    """Decisions/s rebuilding matches with ``Match.replay``."""
    decisions = sum(1 for log in logs for e in log if not e.is_chance)
    clock = Clock()
    for log in logs:
        Match.replay(Rules(), log)
    return clock.rate(decisions)


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
    """(search-copy rollouts/s, checked ``clone`` + ``apply`` rollouts/s) from the same
    positions: :func:`.bots.rollout.play_round` (``search_copy`` + ``push``) and, for
    comparison, the same rollout through a full clone and the checked ``apply``."""
    from engine.bots.normal import policy
    from engine.bots.rollout import play_round

    matches = _positions(seed)
    firsts = [policy(m.hand(m.to_act), m.legal_actions(), m.phase, m.top, m.color,
                     len(m.hand(1 - m.to_act)), m.dump_colour) for m in matches]
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for m, first in zip(matches, firsts):
            play_round(m, first)
        done += len(matches)
    fast = done / (time.perf_counter() - start)
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
    return fast, done / (time.perf_counter() - start)


def hard_decisions(count: int, seed: int = 11) -> tuple[float, float, float]:
    """(median ms, max ms, median worlds) of the hard bot over ``count`` searched
    decisions (more than one legal action, outside the draft and a W+4 answer)."""
    from engine.bots.hard import HardBot

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


def hard_rollouts(count: int, rules: Rules, seed: int = 11, think_ms: int = 200) -> Rate:
    """The hard bot's rollouts per second of search (wall and CPU) over ``count``
    searched decisions of seat 0 against normal bots."""
    from engine.bots.hard import HardBot

    done, wall, cpu, decisions = 0, 0.0, 0.0, 0
    game = 0
    while decisions < count:
        m = Match.new(rules, seed=seed + game)
        game += 1
        others = [bots.make("normal", seed=game * 10 + s) for s in range(rules.seats)]
        hard = HardBot(seed=game, think_ms=think_ms)
        while not m.over and decisions < count:
            seat = m.to_act
            view = m.view(seat)
            if seat == 0:
                w, c = time.perf_counter(), time.process_time()
                action = hard.choose(view)
                if hard.last_rollouts:
                    wall += time.perf_counter() - w
                    cpu += time.process_time() - c
                    done += hard.last_rollouts
                    decisions += 1
            else:
                action = others[seat].choose(view)
            m.apply(action)
    return Rate(done / wall, done / max(cpu, 1e-9))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.engine", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="per run and measure")
    parser.add_argument("--slices", type=int, default=5,
                        help="turns each of the compared loops takes per run (see the doc)")
    parser.add_argument("--hard", type=int, default=0, metavar="N",
                        help="also time the hard bot over N searched decisions (~0.5 s each)")
    parser.add_argument("--rollouts", type=int, default=0, metavar="N",
                        help="also measure the hard bot's rollouts/s over N searched decisions "
                             "per preset (~0.2 s each)")
    args = parser.parse_args(argv)
    runs = max(1, args.runs)

    engine, bot, replay, rollouts, classic, duo, theirs = [], [], [], [], [], [], []
    rlcard = bench_rlcard.available()
    for run in range(runs):
        # classic, UNO Duo and RLCard taking turns in each run: all meet the same load
        rates = compared(args.seconds, args.slices, run, rlcard)
        classic.append(rates[0])
        duo.append(rates[1])
        if rlcard:
            theirs.append(rates[2])
        logs = sample_logs(seed=run + 1)
        engine.append((*engine_run(args.seconds, seed=run + 1),
                       sum(1 for log in logs for e in log if not e.is_chance) / len(logs)))
        bot.append(bots_run(args.seconds, seed=run + 1))
        replay.append(replay_run(logs))
        rollouts.append(rollout_run(args.seconds, seed=run + 1))
    med = statistics.median

    def both(rates: list, unit: str) -> str:
        """The median wall-clock rate, then the median CPU-time rate."""
        return (f"{med(r.wall for r in rates):12,.0f} {unit}  "
                f"({med(r.cpu for r in rates):,.0f} per CPU s)")

    actions = [a for _, a, _ in engine]
    build = "compiled (setup.py)" if engine_package.compiled() else "pure Python"
    print(f"python {platform.python_version()} on {platform.machine()}, the engine {build}; "
          f"median of {runs} runs of {args.seconds:g} s")
    print(f"engine  random play, UNO Duo {med(m.wall for m, _, _ in engine):9.1f} matches/s "
          f"{both(actions, 'actions/s')} ({med(n for _, _, n in engine):.0f} actions/match)")
    print(f"bots    via views                      {both(bot, 'actions/s')}")
    print(f"replay  Match.replay                   {both(replay, 'actions/s')} "
          f"({med(r.wall for r in replay) / med(a.wall for a in actions):.2f}x live play)")
    fast = med(a for a, _ in rollouts)
    print(f"hard    rollouts, search_copy + push   {fast:12,.0f} rollouts/s "
          f"({fast / med(b for _, b in rollouts):.1f}x clone + apply)")
    if args.hard:
        median_ms, max_ms, worlds = hard_decisions(args.hard)
        print(f"hard    searched decisions, 500 ms     {median_ms:9.0f} ms median, "
              f"{max_ms:.0f} ms max, {worlds:,.0f} worlds median (n={args.hard})")
    if args.rollouts:
        for label, rules in (("UNO Duo", Rules()), ("classic 2 seats", CLASSIC_2),
                             ("classic 4 seats", Rules(preset="classic", seats=4))):
            rate = hard_rollouts(args.rollouts, rules)
            print(f"hard    rollouts/s, {label:18} {rate.wall:12,.0f} rollouts/s  "
                  f"({rate.cpu:,.0f} per CPU s; n={args.rollouts} decisions)")
    print(f"classic random play, 2 seats           {both(classic, 'actions/s')}")
    print(f"duo     random play, taking turns      {both(duo, 'actions/s')}")
    if rlcard:
        print(f"rlcard  UnoGame random, 2 players      {both(theirs, 'steps/s  ')}")
        wall = med(a.wall / b.wall for a, b in zip(classic, theirs))
        cpu = med(a.cpu / b.cpu for a, b in zip(classic, theirs))
        duo_cpu = med(a.cpu / b.cpu for a, b in zip(duo, theirs))
        print(f"ratio   classic actions/s / RLCard's   {wall:12.2f}x wall, {cpu:.2f}x CPU  (median "
              f"of the runs' ratios; UNO Duo: {duo_cpu:.2f}x CPU)")
    else:
        print("rlcard  not installed: comparison skipped (pip install -e '.[bench]' to compare)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
