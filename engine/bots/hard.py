"""The ``hard`` bot: determinized Monte Carlo search over the belief model.

For each decision worth searching, it repeatedly

1. samples a *world* from :class:`~engine.bots.belief.Belief`: the opponent's
   hidden cards and the unknown part of the draw pile (the known parts — the draft
   discards at the bottom, S4, a turned-over refill, T3 — stay where they are);
2. sets up that world with :meth:`~engine.match.Match.from_position` and, for every
   candidate action, plays it in a search copy and then the rest of the round with
   the normal policy for both seats (:mod:`.rollout`, the engine's unchecked
   ``push``: the same rollout as classic's; the same world for every candidate, so
   their difference is not noise from the deal);
3. scores the round's end by *match equity* — the chance of winning the match
   from the new totals (E2, E4) — so points matter, not just going out.

It picks the candidate with the best mean.  In classic UNO (any seat count) a world
deals the unseen cards by hand counts as the N-seat belief allows
(:mod:`.classic_belief`) and rolls out a
:class:`~engine.classic.ClassicMatch` (:mod:`.hard_classic`); it keeps the normal
move unless the search's mean beats it over at least 8 worlds (an arena of hard vs
three normal bots at 4 seats found no gain in asking for 2 standard errors).  The budget is ``think_ms`` of
CPU time per decision (this thread's: a busy machine does not starve the search; at
most :data:`WALL_FACTOR` times it of wall-clock time; default 500; it stops before
starting a rollout it has no time for) or a fixed count of worlds (``simulations``),
which makes it deterministic.  UNO Duo's rollouts, like classic's, challenge a Wild
Draw 4 from counting as the normal bot would.  Drafting
(S3) and answering a Wild Draw 4 (A6, with the belief's bluff-adjusted odds) use
the normal bot's rules; it always says UNO and always catches (U1, U2).
"""

from __future__ import annotations

import math
import time
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Sequence

from ..actions import Action
from ..match import Match
from ..rng import Rng
from .belief import Belief
from .classic_belief import ClassicBelief
from .hard_classic import _challenges, classic_candidates, classic_rollout, classic_world
from .rollout import play_round
from .normal import NormalBot, best_colour

if TYPE_CHECKING:  # pragma: no cover
    from ..view import PlayerView

__all__ = ["HardBot", "suggest", "match_equity"]

#: mean points of a round's loser between heuristic players (normal vs easy and
#: normal vs normal, measured with the arena): the equity table's round model
ROUND_POINTS_MEAN = 33.0
_STEP = 5  # the equity table's grid, in points


@lru_cache(maxsize=8)
def _equity_table(target: int) -> tuple[tuple[float, ...], ...]:
    """E[a][b]: the chance to win the match from totals a (mine) and b (theirs), in
    units of ``_STEP``, if each later round has a 50/50 loser who scores
    exponentially distributed points with mean :data:`ROUND_POINTS_MEAN` (E2, E4)."""
    top = -(-target // _STEP)
    rate = _STEP / ROUND_POINTS_MEAN
    probs = []
    for x in range(1, top + 1):  # points rounded up to the grid: at least one step
        probs.append(math.exp(-rate * (x - 1)) - math.exp(-rate * x))
    probs[-1] += math.exp(-rate * top)  # everything beyond the target ends the match
    table = [[0.0] * top for _ in range(top)]
    for a in range(top - 1, -1, -1):
        row = table[a]
        for b in range(top - 1, -1, -1):
            value = 0.0
            for x, p in enumerate(probs, start=1):
                mine = table[a + x][b] if a + x < top else 0.0  # I pass the target: I lose
                theirs = row[b + x] if b + x < top else 1.0
                value += p * (mine + theirs)
            row[b] = value / 2.0
    return tuple(tuple(r) for r in table)


def match_equity(mine: int, theirs: int, target: int) -> float:
    """E4: the chance to win the match from these totals (1 / 0 / ½ once it is over)."""
    if mine >= target or theirs >= target:
        return 1.0 if mine < theirs else (0.5 if mine == theirs else 0.0)
    return _equity_table(target)[mine // _STEP][theirs // _STEP]


def rollout_value(end: Match, scores: Sequence[int], me: int, target: int) -> float:
    """``me``'s match equity after a rolled-out round (``end``: the search copy it left;
    a round cut short scores nothing) from totals ``scores``."""
    points = end.rounds[-1][1] if end.over else (0, 0)
    return match_equity(scores[me] + points[me], scores[1 - me] + points[1 - me], target)


def candidates(view: "PlayerView") -> list[Action]:
    """The actions worth searching: always say UNO (U1); for a Wild, the two colours
    the seat holds most of (T5)."""
    legal = [a for a in view.legal_actions if a.kind != "catch"]
    if any(a.uno for a in legal):
        legal = [a for a in legal if a.uno or a.kind in ("draw", "pass", "nodump")]
    hand = view.hand
    out = []
    for action in legal:
        if action.colour is not None and action.card is not None:
            first = best_colour(hand, action.card)
            rest = [c for c in hand if c.colour != first]
            second = best_colour(rest, action.card) if rest else first
            if action.colour not in (first, second):
                continue
        out.append(action)
    return out


#: the search's clock: this thread's CPU time (a worker thread of the app counts only
#: its own)
_cpu = time.thread_time
#: a search stops at this many times ``think_ms`` of wall-clock time even when its CPU
#: budget is not used up (a machine so busy that the search got a third of a core)
WALL_FACTOR = 2.0

#: worlds between two pruning checks, and the margin (standard errors of the paired
#: difference to the leader) below which an option stops being searched
_BATCH = 32
_PRUNE_Z = 3.0
#: classic: how sure the search must be (standard errors) to overrule the normal move
_OVERRIDE_Z = 0.0


def _survivors(values: list[list[float]], active: list[int]) -> list[int]:
    """The options of ``active`` not clearly worse than the leader, paired by world."""
    means = {i: sum(values[i]) / len(values[i]) for i in active}
    lead = max(active, key=means.__getitem__)
    keep = []
    for i in active:
        if i == lead:
            keep.append(i)
            continue
        a, b = values[lead], values[i]
        k = len(b)
        diffs = [x - y for x, y in zip(a, b)]  # every active option saw every world
        mean = sum(diffs) / k
        var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
        if mean <= _PRUNE_Z * math.sqrt(var / k):
            keep.append(i)
    return keep


class HardBot(NormalBot):
    """Determinized search (see the module docstring)."""

    name = "hard"

    def __init__(self, seed: int = 0, think_ms: int | None = None,
                 simulations: int | None = None, prune: bool = True) -> None:
        super().__init__(seed)
        if think_ms is None and simulations is None:
            think_ms = 500
        self.think_ms = think_ms
        self.simulations = simulations
        self.prune = prune
        self._rng = Rng(seed, 0x4A2D)
        #: the wall-clock cap, in multiples of ``think_ms`` (the arena lifts it: a
        #: strength run's result must not depend on how busy the machine is)
        self.wall_factor = WALL_FACTOR
        self.last_worlds = 0  # worlds sampled for the last decision (for benchmarks)
        self.last_rollouts = 0  # rollouts played for the last decision (for benchmarks)
        self._values: list[list[float]] = []  # per option, per world, of the last search
        self._cbelief: ClassicBelief | None = None

    def choose(self, view: "PlayerView") -> Action:
        started = (time.perf_counter(), _cpu())
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.own_seat} has no decision to make now")
        self.last_worlds = self.last_rollouts = 0
        if legal[-1].kind == "catch":
            return legal[-1]  # U2: a catch does not use up the decision
        if len(legal) == 1 or view.phase in ("draft", "wd4"):
            return super().choose(view)
        options = candidates(view)
        if view.rules.preset != "duo":
            options = classic_candidates(options)
        if len(options) == 1:
            return options[0]
        values = self._search(view, options, started)
        if values is None:  # no time for a single world
            return super().choose(view)
        best = max(range(len(options)), key=values.__getitem__)
        if view.rules.preset != "duo":  # classic: the normal move unless clearly beaten
            usual = super().choose(view)
            if usual in options and not self._clearly_better(best, options.index(usual)):
                return usual
        return options[best]

    def classic_belief(self, view: "PlayerView") -> ClassicBelief:
        """The classic N-seat belief, updated to ``view`` (one per match and seat)."""
        if self._cbelief is None or self._cbelief.seat != view.own_seat:
            self._cbelief = ClassicBelief(view.own_seat, view.rules)
        return self._cbelief.update(view)

    def _clearly_better(self, a: int, b: int) -> bool:
        """Whether option ``a`` beat ``b`` by more than :data:`_OVERRIDE_Z` standard
        errors of their paired difference over the worlds both saw."""
        va, vb = self._values[a], self._values[b]
        k = min(len(va), len(vb))
        if a == b or k < 8:
            return a == b
        diffs = [x - y for x, y in zip(va[:k], vb[:k])]
        mean = sum(diffs) / k
        var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
        return mean > _OVERRIDE_Z * math.sqrt(var / k)

    def _search(self, view: "PlayerView", options: list[Action],
                started: "tuple[float, float]") -> list[float] | None:
        """Mean equity of each option over sampled worlds (``None``: no time for one).

        Every :data:`_BATCH` worlds, an option whose paired difference to the leader
        is below zero by more than :data:`_PRUNE_Z` standard errors stops being
        played out (its mean stays as it was), so the budget goes to the options
        still in doubt; when one is left the search stops early."""
        seat, scores, target = view.own_seat, view.scores, view.rules.target
        sample = self.sampler(view)
        if view.rules.preset == "duo":
            def evaluate(world: Match, option: Action) -> float:
                # the rollout's seats challenge a Wild Draw 4 from counting, as the
                # normal bot does (without, a guilty one was free in the search)
                end = play_round(world, option, _challenges)
                return rollout_value(end, scores, seat, target)
        else:  # classic, any seat count (hard_classic)
            def evaluate(world: Match, option: Action) -> float:
                return classic_rollout(world, option, seat)
        # the budget is this thread's CPU time (what other processes of a busy machine
        # take does not starve the search), with a margin for sampling a world, picking
        # the answer and a rollout longer than the last ones; and at most WALL_FACTOR
        # times it of wall-clock time (a starved machine still gets its answer)
        if self.think_ms is None:
            deadline = wall_deadline = math.inf
        else:
            budget = self.think_ms / 1000.0
            deadline = started[1] + budget * 0.97 - 0.002
            wall_deadline = started[0] + budget * self.wall_factor
        limit = self.simulations if self.simulations is not None else 1 << 30
        n = len(options)
        values: list[list[float]] = [[] for _ in options]  # per option, per world
        active = list(range(n))
        worlds = 0
        per_rollout = 0.0
        clock = _cpu
        while worlds < limit and len(active) > 1:
            if time.perf_counter() > wall_deadline:
                break
            world = sample()
            if world is None:
                break
            sums = []
            now = clock()
            for i in active:
                if now + 2 * per_rollout > deadline:
                    break
                sums.append(evaluate(world, options[i]))
                after = clock()
                per_rollout = max(per_rollout * 0.9, after - now)
                now = after
            if len(sums) < len(active):
                break
            for i, v in zip(active, sums):
                values[i].append(v)
            worlds += 1
            if self.prune and worlds % _BATCH == 0:
                active = _survivors(values, active)
        self.last_worlds = worlds
        self.last_rollouts = sum(len(v) for v in values)
        if not worlds:
            return None
        live = set(active)  # a pruned option is never the answer
        self._values = values
        return [sum(v) / len(v) if i in live else -math.inf for i, v in enumerate(values)]

    def sampler(self, view: "PlayerView") -> "Callable[[], Match | None]":
        """Worlds for ``view``'s seat, one per call, from the belief this bot keeps
        (UNO Duo: :class:`Belief`; classic: :class:`ClassicBelief`, ``None`` when
        the view does not account for the position) — the search's and the game
        review's (:mod:`engine.review`, #25)."""
        if view.rules.preset == "duo":
            belief = self.belief(view)
            return lambda: self._world(view, belief)
        cbelief = self.classic_belief(view)
        pool = cbelief.unseen(view)
        return lambda: classic_world(view, self._rng, cbelief, pool)

    def _world(self, view: "PlayerView", belief: Belief) -> Match:
        """One determinization of the hidden cards: this position, every card known."""
        seat = view.own_seat
        opp_hand, pile = belief.sample(self._rng)
        hands = [list(view.hand), opp_hand] if seat == 0 else [opp_hand, list(view.hand)]
        return Match.from_position(
            view.rules, hands=hands, draw_pile=pile, discard_pile=belief.discard,
            to_act=seat, phase=view.phase, colour=view.color, p1=view.p1, round=view.round,
            scores=view.scores, pending=view.pending_draw, by=1 - seat, drawn=view.drawn,
            dump_colour=view.dump_colour, dump_start=not belief.played, exposed=view.exposed,
            blocked=belief.blocked, seed=self._rng.next64())


def suggest(view: "PlayerView", think_ms: int = 300, seed: int = 0) -> Action:
    """The hard bot's pick for the seat of ``view`` (a practice hint)."""
    return HardBot(seed, think_ms=think_ms).choose(view)
