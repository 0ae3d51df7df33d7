"""The game review (#25): what the hard bot thinks of every decision of a match.

For each decision of each seat it values every legal alternative **from that seat's
view at that moment**: the hidden hands and the draw pile are sampled from the belief
the hard bot keeps (:meth:`engine.bots.hard.HardBot.sampler`) and each alternative is
played out to the round's end with the hard bot's rollout (:mod:`engine.bots.rollout`;
the same sampled worlds for every alternative, so their difference is not noise from
the deal).  It never reads a hidden card: it receives per-seat
:class:`~engine.view.PlayerView`\\ s only (:func:`positions` takes them from the
match), except in the separate *hindsight* mode, which plays the alternatives out
from the real position — every hand as it was, the draw pile's cards in orders drawn
at random (the real order would make each playout of the rollout policy one fixed
outcome: every value 0 or 100, every loss 0 or 100 points).

**Win chance** (0–100), the value of an alternative: the seat's chance of winning
the *round* (going out first, E1/C9), in both presets, from round rollouts.  Measured
against the match level (UNO Duo's match equity after the round,
:func:`~engine.bots.hard.match_equity`, E2/E4) over seeded matches, the match level
moved a decision's value by so little (one decision of ~60 in a round, the equity
table damping it again) that the sampling noise hid the players' differences — random
96.5, easy 98.6, normal 98.7 accuracy — while at the round level the levels separate
in order (random 90.7, easy 93.7, normal 94.3, hard 96.7 over 40 single-round matches
against normal bots: ``python -m tests.bench.review levels --matches 40 --target 1
--seed 100 --budget 480``, as the README says); classic has no N-seat match-equity
model, and a rollout to a 500-point match's end costs many rounds.  So the labels
and ``win_before`` / ``win_after`` are the round's; UNO Duo's curve is the match's
(below), classic's the round's (each round starts again near an even share).  What
the labels miss: points (a decision that loses points but not the round is not
flagged).

``win_after`` is the value of the move played (the seat's chance after it: what the
curve shows and what the calibration is checked on), ``win_before`` the position's
value — as a chess engine's evaluation before a move, the best alternative's, but
less one standard error (the smaller of the best's own and that of its paired
difference to the move played over the same worlds; never below ``win_after``): noise
in the sampled worlds is not the player's fault, and the best of several noisy means
is itself biased upwards.  ``loss`` is their difference, in points of win chance.
The ``best`` move is the one valued highest, or the move played when the loss is 0
(no alternative was measurably better).  Labels, by ``loss``
(:data:`THRESHOLDS`): ``best`` below 1 point, ``good`` below 3, ``inaccuracy``
below 6, ``mistake`` below 12, ``blunder`` from 12; ``forced`` when there was one
legal action (never flagged).  Draft decisions (S3, keep / reject) are reviewed
from worlds of what the drafting seat saw (:mod:`engine.review_draft`: the deck's
unseen cards shuffled again and the draft so far replayed), rolled out through the
rest of the draft (the normal bot's rule) and the round.

The raw rollout frequencies are mapped to win chances by a calibration fitted on
simulated positions, per preset and seat count (:mod:`engine.review_calibration`;
without house rules), so that "40%" means the seat went on to win about 40% of the
time.  In UNO Duo each
decision also carries the seat's chance of winning the *match* (``match_after``,
the curve's value, so it spans the match's rounds): the calibrated round chance
times the mean match equity (:func:`~engine.bots.hard.match_equity`, E2/E4, from
the totals and the rolled-out points) of the worlds the seat went out in, plus the
rest times that of the worlds it did not.

**Accuracy** (0–100) is lichess's, from win chances (https://lichess.org/page/accuracy,
lila's ``AccuracyPercent``): each decision's accuracy is 100 when ``win_after`` is not
below ``win_before``, else ``103.1668 * exp(-0.04354 * (win_before - win_after))
- 3.1669 + 1`` (lila's "uncertainty bonus"), clamped to 0–100.  A seat's accuracy is
the mean of two means of its decisions' accuracies, as lila's ``gameAccuracy``: one
weighted by volatility (each decision by the standard deviation of the win chance
over the window of ``n / 10`` values, 2 to 8, that ends just after it, clamped to
0.5–12), one harmonic (each accuracy counted as at least 1).  Lichess's series is
the game's, one value per ply; a seat's here is its own win chance before each of
its decisions, then after its last (the other seats' moves come in between).  Forced
decisions do not count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Iterator, Sequence

from .actions import Action, parse_entry
from .bots.hard import HardBot, rollout_value
from .bots.hard_classic import classic_round
from .bots.rollout import play_round
from .match import Match
from .review_calibration import calibrated, fitted
from .review_draft import draft_sampler
from .review_words import reason
from .rng import Rng
from .rules import Rules
from .view import PlayerView

__all__ = ["LABELS", "FLAGGED", "THRESHOLDS", "Position", "Decision", "SeatSummary",
           "Review", "positions", "Reviewer", "review", "summarise", "move_accuracy",
           "game_accuracy", "label_of", "decision_count"]

LABELS = ("best", "good", "inaccuracy", "mistake", "blunder", "forced")
#: the labels a review points out, worst last
FLAGGED = ("inaccuracy", "mistake", "blunder")
#: (label, loss below which it applies), in points of win chance
THRESHOLDS = (("best", 1.0), ("good", 3.0), ("inaccuracy", 6.0), ("mistake", 12.0),
              ("blunder", math.inf))

#: rollouts per reviewed decision (split among its alternatives) and the bounds on
#: the worlds each alternative sees
BUDGET, MIN_WORLDS, MAX_WORLDS = 480, 16, 160


def label_of(loss: float, forced: bool = False) -> str:
    """The label of a decision that lost ``loss`` points of win chance."""
    if forced:
        return "forced"
    return next(name for name, below in THRESHOLDS if loss < below)


@dataclass(frozen=True)
class Position:
    """One decision to review: the seat's view just before it and what it played.

    ``index``: the decision's place in the match's log (chance entries count);
    ``step``: how many decisions came before it (a replay cursor's position);
    ``world``: hindsight only — the real position (a search copy of the match)."""

    index: int
    step: int
    seat: int
    view: PlayerView
    played: Action
    world: "Callable[[], Match] | None" = None


@dataclass(frozen=True)
class Decision:
    """A reviewed decision (win chances in points, 0–100)."""

    index: int
    step: int
    seat: int
    round: int
    played: str
    best: str
    label: str
    loss: float
    win_before: float
    win_after: float
    values: tuple[tuple[str, float], ...] = ()
    reason: str = ""
    #: UNO Duo: the seat's chance of winning the *match* after the move played (the
    #: curve's value; ``None`` in classic, whose curve is the round's)
    match_after: float | None = None

    @property
    def flagged(self) -> bool:
        return self.label in FLAGGED


def decision_count(log: Iterable[object]) -> int:
    """How many decisions (not chance outcomes) ``log`` holds."""
    return sum(1 for e in log if not parse_entry(e).is_chance)


def positions(rules: Rules, log: Sequence[object], seed: int = 0, seats: Iterable[int] | None = None,
              hindsight: bool = False) -> Iterator[Position]:
    """The decisions of the match ``log`` records, each with its seat's view (only
    those of ``seats``; default all).  ``hindsight`` adds each real position."""
    entries = [parse_entry(e) for e in log]
    where = [i for i, e in enumerate(entries) if not e.is_chance]
    wanted = None if seats is None else frozenset(seats)
    for step, m in enumerate(Match.replay_steps(rules, entries, seed)):
        if step >= len(where) or m.over:
            break
        seat = m.to_act
        if entries[where[step]].kind == "jump":
            continue  # H4: a jump-in is decided at once, out of turn: nothing to search
        if seat is None or (wanted is not None and seat not in wanted):
            continue
        world = None
        if hindsight:
            real = m.search_copy()
            world = real.search_copy
        played = entries[where[step]]
        assert isinstance(played, Action)  # where: the decisions' places
        yield Position(where[step], step, seat, m.view(seat), played, world)


class Reviewer:
    """Values decisions one at a time (a hard bot per seat keeps that seat's belief,
    read from its views in order).  ``calibrate=False``: the raw rollout frequencies
    (what :mod:`engine.review_calibration` is fitted from)."""

    def __init__(self, rules: Rules, seed: int = 0, budget: int | None = None,
                 hindsight: bool = False, calibrate: bool = True) -> None:
        self.rules, self.seed, self.hindsight = rules, seed, hindsight
        self.budget = BUDGET if budget is None else budget
        self.calibrate = calibrate
        self._bots: dict[int, HardBot] = {}

    def _bot(self, seat: int) -> HardBot:
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = HardBot(self.seed * 16 + seat + 1, simulations=1)
        return bot

    def _sampler(self, view: PlayerView) -> "Callable[[], Match | None]":
        """Worlds from what ``view``'s seat knew: the draft's (S3) from its events,
        else from the hard bot's belief."""
        seat = view.own_seat
        if view.phase == "draft":
            return draft_sampler(view, Rng(self.seed * 16 + seat + 1, 1 + view.event_count))
        return self._bot(seat).sampler(view)

    def win_chance(self, end: Match, view: PlayerView) -> float:
        """``view``'s seat's chance (0 or 1) of winning the round at a rolled-out
        round's end — with partners (H5), its team's — an even share when the rollout
        was cut short."""
        rules = self.rules
        if not end.over:  # a rollout cut short: nobody went out
            return (2.0 if rules.teams == "partners" else 1.0) / end.seats
        winner = end.rounds[-1][0]
        return 1.0 if winner is not None and rules.team(winner) == rules.team(view.own_seat) else 0.0

    def outcomes(self, view: PlayerView, options: Sequence[Action],
                 world: "Callable[[], Match] | None" = None
                 ) -> tuple[list[list[float]], list[list[float]]]:
        """Each option's (round win 0–1, match equity 0–1) in each sampled world (the
        same worlds for every option: world ``k`` is ``[o][k]`` for every option
        ``o``); the match equities are UNO Duo's (E2, E4; classic: empty lists)."""
        rollout = (play_round if self.rules.preset == "duo" else classic_round)
        duo = self.rules.preset == "duo"
        worlds = max(MIN_WORLDS, min(MAX_WORLDS, self.budget // len(options)))
        if world is not None:  # hindsight: every real hand, the draw pile reshuffled
            sample: "Callable[[], Match | None]" = _hindsight_sampler(
                world, Rng(self.seed * 16 + view.own_seat + 1, 1 + view.event_count))
        else:
            sample = self._sampler(view)
        per: list[list[float]] = [[] for _ in options]
        equity: list[list[float]] = [[] for _ in options]
        seat, scores, target = view.own_seat, view.scores, view.rules.target
        for _ in range(worlds):
            w = sample()
            if w is None:
                break
            for i, option in enumerate(options):
                end = rollout(w, option)
                per[i].append(self.win_chance(end, view))
                if duo:
                    equity[i].append(rollout_value(end, scores, seat, target))
        if not per[0]:
            raise ValueError(f"no world can be sampled for seat {view.seat} here")
        return per, equity

    def values(self, view: PlayerView, options: Sequence[Action],
               world: "Callable[[], Match] | None" = None) -> list[list[float]]:
        """Each option's round win (0 or 1) in each sampled world (see :meth:`outcomes`)."""
        return self.outcomes(view, options, world)[0]

    def _chance(self, raw: float) -> float:
        """A raw rollout frequency (0–1) as a win chance in points, calibrated (the
        maps are for worlds from a seat's view, not hindsight's: kept; a house rule
        changes the game the maps were fitted on: kept)."""
        if self.calibrate and not self.hindsight and fitted(self.rules):
            raw = calibrated(raw, self.rules.preset, self.rules.seats)
        return 100.0 * raw

    def decision(self, p: Position) -> Decision:
        view = p.view
        if self.hindsight and p.world is None:
            raise ValueError("a hindsight review needs the real positions")
        legal = list(view.legal_actions)
        if p.played not in legal:
            raise ValueError(f"decision {p.index}: {p.played!r} is not one of the seat's "
                             "legal actions")
        world = p.world if self.hindsight else None
        per, equity = self.outcomes(view, legal, world)
        raw = [sum(v) / len(v) for v in per]
        b, i = max(range(len(legal)), key=raw.__getitem__), legal.index(p.played)
        # the position's value: the best move's, less the noise (the tighter of its own
        # standard error and that of its difference to the move played)
        top = max(raw[i], raw[b] - min(_paired_se(per[b], per[i]), _se(per[b])))
        # the best move: the move played when none was measurably better
        best = legal[b] if top > raw[i] else p.played
        before = self._chance(top)
        after = self._chance(raw[i])
        label = label_of(before - after, forced=len(legal) == 1)
        match = (None if not equity[i] else
                 100.0 * _match_chance(after / 100.0, per[i], equity[i]))
        d = Decision(p.index, p.step, p.seat, view.round, str(p.played), str(best), label,
                     before - after, before, after,
                     tuple((str(a), self._chance(v)) for a, v in zip(legal, raw)),
                     match_after=match)
        if d.flagged:
            d = replace(d, reason=reason(d, view))
        return d


def _hindsight_sampler(real: "Callable[[], Match]", rng: Rng) -> "Callable[[], Match]":
    """Hindsight's worlds: the real position (every hand as it was), its draw pile in a
    new order each time — the order is the one thing still left to chance."""
    def sample() -> Match:
        m = real()
        m.shuffle_draw_pile(rng)
        return m
    return sample


def _match_chance(win: float, wins: Sequence[float], equity: Sequence[float]) -> float:
    """UNO Duo's match win chance (0–1): the calibrated round chance ``win`` times the
    mean match equity of the worlds the seat won the round in, plus the rest times
    that of the worlds it lost (either mean alone when every world went one way)."""
    won = [e for w, e in zip(wins, equity) if w >= 1.0]
    lost = [e for w, e in zip(wins, equity) if w < 1.0]
    if not won or not lost:
        return sum(equity) / len(equity)
    return win * sum(won) / len(won) + (1.0 - win) * sum(lost) / len(lost)


def _se(xs: Sequence[float]) -> float:
    """The standard error of the mean of ``xs``."""
    k = len(xs)
    if k < 2:
        return 0.0
    mean = sum(xs) / k
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (k - 1) / k)


def _paired_se(a: Sequence[float], b: Sequence[float]) -> float:
    """The standard error of the mean paired difference of ``a`` and ``b``."""
    return _se([x - y for x, y in zip(a, b)])


def review(items: Iterable[Position], rules: Rules, seed: int = 0, budget: int | None = None,
           hindsight: bool = False) -> Iterator[Decision]:
    """Each position's :class:`Decision`, as it is computed (stop iterating to cancel)."""
    reviewer = Reviewer(rules, seed, budget, hindsight)
    for p in items:
        yield reviewer.decision(p)


# -- the summary -----------------------------------------------------------------------

def move_accuracy(win_before: float, win_after: float) -> float:
    """lichess's accuracy of one move from win chances in points (0–100)."""
    if win_after >= win_before:
        return 100.0
    raw = (103.1668100711649 * math.exp(-0.04354415386753951 * (win_before - win_after))
           - 3.166924740191411 + 1.0)  # lila's "uncertainty bonus"
    return min(100.0, max(0.0, raw))


def _stdev(xs: Sequence[float]) -> float:
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))


def game_accuracy(decisions: Sequence[Decision]) -> float | None:
    """A seat's accuracy over its unforced ``decisions`` (lila's gameAccuracy: the mean
    of the volatility-weighted and the harmonic mean); ``None`` with none."""
    rated = [d for d in decisions if d.label != "forced"]
    if not rated:
        return None
    accs = [move_accuracy(d.win_before, d.win_after) for d in rated]
    # the seat's series: its win chance before each decision, then after its last
    series = [d.win_before for d in rated] + [rated[-1].win_after]
    size = min(8, max(2, len(rated) // 10))
    # lila: the first window repeated (size − 2) times, then every window of ``size``
    # in order — decision i's ends at the value just after it
    windows = ([series[:size]] * (size - 2)
               + [series[i:i + size] for i in range(len(series) - size + 1)])
    weights = [min(12.0, max(0.5, _stdev(w))) for w in windows]
    weighted = sum(a * w for a, w in zip(accs, weights)) / sum(weights)
    harmonic = len(accs) / sum(1.0 / max(1.0, a) for a in accs)
    return (weighted + harmonic) / 2.0


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    decisions: int
    accuracy: float | None
    counts: dict[str, int]
    worst: tuple[Decision, ...]  # the three biggest mistakes (by loss), flagged only


@dataclass(frozen=True)
class Review:
    """A match's review: its decisions in log order and one summary per seat."""

    decisions: tuple[Decision, ...]
    seats: tuple[SeatSummary, ...]
    seat_count: int
    hindsight: bool = False
    curves: tuple[tuple[float, ...], ...] = field(default=())

    def at_step(self, step: int) -> Decision | None:
        """The decision made at cursor position ``step`` (``None``: not reviewed)."""
        for d in self.decisions:
            if d.step == step:
                return d
        return None


def curves(decisions: Sequence[Decision], seat_count: int) -> tuple[tuple[float, ...], ...]:
    """Per seat, its win chance after each decision — of the match in UNO Duo
    (:attr:`Decision.match_after`: the curve spans the match's rounds), else of the
    round (the acting seat's estimate; with two seats the other's is its complement;
    else the seat's last estimate, 100/seats before its first)."""
    last = [100.0 / seat_count] * seat_count
    out: list[list[float]] = [[] for _ in range(seat_count)]
    for d in decisions:
        value = d.win_after if d.match_after is None else d.match_after
        last[d.seat] = value
        if seat_count == 2:
            last[1 - d.seat] = 100.0 - value
        for s in range(seat_count):
            out[s].append(last[s])
    return tuple(tuple(c) for c in out)


def summarise(decisions: Iterable[Decision], seat_count: int, hindsight: bool = False) -> Review:
    ds = tuple(decisions)
    seats = []
    for seat in range(seat_count):
        mine = [d for d in ds if d.seat == seat]
        counts = {k: sum(1 for d in mine if d.label == k) for k in LABELS}
        worst = tuple(sorted((d for d in mine if d.flagged), key=lambda d: -d.loss)[:3])
        seats.append(SeatSummary(seat, len(mine), game_accuracy(mine), counts, worst))
    return Review(ds, tuple(seats), seat_count, hindsight, curves(ds, seat_count))
