"""The game review's figures (#25): ``python -m tests.bench.review WHAT``.

- ``speed``: seconds to review every decision of one seeded match (hard vs normal, at
  least 300 decisions) as ``unoduo review`` does: UNO Duo, and classic at 4 seats.
- ``levels``: each bot level's mean accuracy over seeded arena matches (the matches
  ``unoduo simulate`` plays) against normal bots.
- ``positions``: the calibration's data — every decision of seeded normal-bot
  matches reviewed as ``unoduo review`` does but uncalibrated: the raw rollout
  frequency of the move played (what the map turns into its ``win_after``) and
  whether that seat won the round (tab-separated rows on stdout).
- ``calibrate``: reads those rows on stdin; per preset and seat count, the
  reliability tables (tenth, positions, mean predicted, realised, difference) of the
  raw frequencies, of the map shipped now (:data:`engine.review_calibration.KNOTS`:
  held out when the rows are not those it was fitted on) and of a Platt and an
  isotonic map fitted on the other folds, held out by match; then the isotonic map
  fitted on all (what ``KNOTS`` holds).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Iterable, Iterator, Sequence

from engine.bots import LEVELS, make
from engine.bots.arena import run_arena
from engine.match import Match
from engine.review import BUDGET, MAX_WORLDS, MIN_WORLDS, Reviewer, positions, review, summarise
from engine.review_calibration import calibrated, interpolate
from engine.rules import Rules

__all__ = ["arena_matches", "level_accuracy", "level_accuracies", "review_seconds",
           "speed_match", "normal_match", "position_rows", "read_rows", "fit_platt",
           "fit_isotonic", "reliability", "held_out", "calibrate", "ROW", "main"]


def arena_matches(levels: Sequence[str], matches: int, seed: int, rules: Rules,
                  simulations: int = 48) -> list[tuple[Match, tuple[str, ...]]]:
    """Seeded arena matches (duplicate deals, seats swapped), each with its seats' levels."""
    out: list[tuple[Match, tuple[str, ...]]] = []
    run_arena(tuple(levels), matches, seed, rules=rules, simulations=simulations,
              on_match=lambda m, by_seat: out.append((m, tuple(by_seat))))
    return out


def level_accuracy(level: str, matches: int, seed: int, rules: Rules,
                   budget: int) -> float:
    """``level``'s mean accuracy over ``matches`` arena matches against normal bots."""
    accs = level_accuracies(level, matches, seed, rules, budget)
    return sum(accs) / len(accs)


def level_accuracies(level: str, matches: int, seed: int, rules: Rules,
                     budget: int) -> list[float]:
    """``level``'s accuracy in each of ``matches`` arena matches against normal bots
    (a match where it made no unforced decision left out)."""
    others = ("normal",) * (rules.seats - 1)
    accs = []
    for k, (m, by_seat) in enumerate(arena_matches((level,) + others, matches, seed, rules)):
        seats = [s for s, lv in enumerate(by_seat) if lv == level][:1]
        ds = review(positions(rules, m.actions, m.seed, seats=seats), rules, seed=k,
                    budget=budget)
        acc = summarise(ds, rules.seats).seats[seats[0]].accuracy
        if acc is not None:
            accs.append(acc)
    return accs


def speed_match(rules: Rules, seed: int, min_decisions: int = 300) -> Match:
    """The first seeded hard-vs-normal arena match from ``seed`` with ``min_decisions``
    decisions or up to a third more (else the first with at least as many)."""
    levels = ("hard",) + ("normal",) * (rules.seats - 1)
    first = None
    for k in range(50):
        (m, _), = arena_matches(levels, 1, seed + k, rules)
        count = sum(1 for e in m.actions if not e.is_chance)
        if min_decisions <= count <= min_decisions * 4 // 3:
            return m
        if first is None and count >= min_decisions:
            first = m
    return first if first is not None else m


def review_seconds(rules: Rules, seed: int, min_decisions: int = 300,
                   jobs: int | None = None) -> tuple[int, int, float, float]:
    """(decisions in the match, decisions reviewed, CPU seconds, wall seconds) to
    review every decision of :func:`speed_match` as ``unoduo review`` does — saved in
    a scratch folder, the seats in ``jobs`` processes (default: the command's), no
    cache; the CPU seconds are this process's and its workers'."""
    import resource
    import tempfile

    from unoduo_tui.review.run import run_review
    from unoduo_tui.store import Seat, Store

    m = speed_match(rules, seed, min_decisions)
    count = sum(1 for e in m.actions if not e.is_chance)
    seats = tuple(Seat(f"Bot {s + 1}", "bot:normal") for s in range(rules.seats))

    def cpu() -> float:
        return sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
                   for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))

    with tempfile.TemporaryDirectory() as folder:
        store = Store(folder)
        with store.new_match(m, seats) as handle:
            ref = handle.id
        loaded = store.open(ref, read_only=True)
        cpu0, wall0 = cpu(), time.perf_counter()
        result = run_review(loaded, tuple(range(rules.seats)), use_cache=False, jobs=jobs)
        return count, len(result.decisions), cpu() - cpu0, time.perf_counter() - wall0


# -- calibration (engine/review_calibration.py is fitted from these) ------------------

#: a positions row (``positions`` prints them, ``calibrate`` reads them; tab-separated)
ROW = ("preset", "seats", "seed", "round", "step", "seat", "phase", "hand", "fewest",
       "draw", "worlds", "raw", "won")


def normal_match(rules: Rules, seed: int) -> Match:
    """A seeded match between normal bots (the positions calibration is fitted on)."""
    m = Match.new(rules, seed=seed)
    players = [make("normal", seed=seed * 8 + s) for s in range(rules.seats)]
    while not m.over:
        seat = m.to_act
        m.apply(players[seat].choose(m.view(seat)))
    return m


def position_rows(rules: Rules, matches: int, seed: int, budget: int | None = None
                  ) -> Iterator[tuple]:
    """For every decision of ``matches`` seeded normal-bot matches (seeds ``seed``,
    ``seed + 1``, …), reviewed as ``unoduo review`` reviews a match (one
    :class:`Reviewer` for the match, ``budget`` rollouts a decision) but uncalibrated:
    the raw rollout frequency of the move played — what the calibration maps to its
    ``win_after`` — and whether that seat won that round (E1/C9): one :data:`ROW` each."""
    budget = BUDGET if budget is None else budget
    for k in range(matches):
        m = normal_match(rules, seed + k)
        reviewer = Reviewer(rules, seed=seed + k, budget=budget, calibrate=False)
        for p in positions(rules, m.actions, m.seed):
            v = p.view
            d = reviewer.decision(p)
            won = int(m.rounds[v.round - 1][0] == p.seat)
            fewest = min(n for s, n in enumerate(v.hand_sizes) if s != p.seat)
            worlds = max(MIN_WORLDS, min(MAX_WORLDS, budget // len(d.values)))
            yield (rules.preset, rules.seats, seed + k, v.round, p.step, p.seat, v.phase,
                   len(v.hand), fewest, v.draw_size, worlds, round(d.win_after / 100, 4),
                   won)


def read_rows(lines: Iterable[str], names: Sequence[str] = ROW) -> list[dict]:
    """:data:`ROW`\\ s back from their text (a header line or blank lines are skipped;
    an empty field is ``None``)."""
    out = []
    for line in lines:
        words = line.rstrip("\n").split("\t")
        if len(words) != len(names) or words[0] == "preset":
            continue
        row: dict = dict(zip(names, words))
        for name in names[1:]:
            text = row[name]
            row[name] = (None if text == "" else float(text) if name in _FLOATS
                         else text if name == "phase" else int(text))
        out.append(row)
    return out


#: the rows' fields that are numbers with a fraction
_FLOATS = frozenset({"raw"})


def _logit(raw: float, worlds: int) -> float:
    """The logit of a frequency of ``worlds`` draws, kept off 0 and 1 (add one half)."""
    p = (raw * worlds + 0.5) / (worlds + 1)
    return math.log(p / (1.0 - p))


def fit_platt(xs: Sequence[float], ys: Sequence[int], steps: int = 50) -> tuple[float, float]:
    """(a, b) of the logistic ``1 / (1 + exp(-(a·x + b)))`` that fits ``ys`` (0/1) best
    (maximum likelihood, Newton's method)."""
    a, b = 1.0, 0.0
    for _ in range(steps):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys):
            p = 1.0 / (1.0 + math.exp(-(a * x + b)))
            r = y - p
            w = p * (1.0 - p)
            ga += r * x
            gb += r
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


def reliability(pairs: Sequence[tuple[float, int, object]]) -> list[tuple[int, int, float, float, float]]:
    """Per tenth of predicted chance: (tenth, n, mean predicted, realised, the 95%
    half-width of realised − predicted), in points — ``pairs`` are (predicted 0–1,
    won, cluster): the positions of one round share its outcome, so the interval is
    the cluster-robust one (residuals summed per round)."""
    bins: list[list[tuple[float, int, object]]] = [[] for _ in range(10)]
    for p, won, cluster in pairs:
        bins[min(9, int(p * 10))].append((p, won, cluster))
    out = []
    for i, b in enumerate(bins):
        if not b:
            continue
        n = len(b)
        sums: dict[object, float] = {}
        for p, won, cluster in b:
            sums[cluster] = sums.get(cluster, 0.0) + (won - p)
        half = 196.0 * math.sqrt(sum(v * v for v in sums.values())) / n
        out.append((i, n, 100.0 * sum(p for p, _, _ in b) / n,
                    100.0 * sum(w for _, w, _ in b) / n, half))
    return out


def fit_isotonic(xs: Sequence[float], ys: Sequence[int], min_block: int = 1
                 ) -> tuple[tuple[float, float], ...]:
    """The isotonic (non-decreasing) fit of ``ys`` (0/1) on ``xs`` by
    pool-adjacent-violators, each block then pooled with its neighbours until it holds
    ``min_block`` points, as knots (a block's mean x, its mean y), both strictly
    increasing and inside (0, 1) — :func:`engine.review_calibration.interpolate`'s."""
    by_x: dict[float, list[float]] = {}
    for x, y in zip(xs, ys):
        cell = by_x.setdefault(x, [0.0, 0.0, 0.0])
        cell[0] += y
        cell[1] += 1
        cell[2] += x
    blocks: list[list[float]] = []  # [sum y, count, sum x]
    for x in sorted(by_x):
        blocks.append(list(by_x[x]))
        while len(blocks) > 1 and blocks[-2][0] * blocks[-1][1] >= blocks[-1][0] * blocks[-2][1]:
            last = blocks.pop()
            for k in range(3):
                blocks[-1][k] += last[k]
    merged: list[list[float]] = []  # neighbours pooled until each holds min_block
    for block in blocks:
        if merged and merged[-1][1] < min_block:
            for k in range(3):
                merged[-1][k] += block[k]
        else:
            merged.append(block)
    if len(merged) > 1 and merged[-1][1] < min_block:
        last = merged.pop()
        for k in range(3):
            merged[-1][k] += last[k]
    blocks = merged
    # a block of all losses or all wins is left to the map's ends, (0, 0) and (1, 1):
    # a frequency of neither is never mapped to a certainty
    return tuple((round(sx / n, 4), round(sy / n, 4)) for sy, n, sx in blocks
                 if 0 < sy < n)


def _platt_fit(rows: Sequence[dict]):
    return fit_platt([_logit(r["raw"], r["worlds"]) for r in rows], [r["won"] for r in rows])


def _platt_map(fit, raw: float) -> float:
    a, b = fit
    return 1.0 / (1.0 + math.exp(-(a * _logit(raw, 100) + b)))


#: the isotonic map's smallest block, in positions (PAV's blocks at the sparse ends hold
#: a handful each and jump; held out, 50 / 200 / 500 / 1000 left UNO Duo's worst tenth
#: at 4.4 / 4.2 / 5.3 / 7.0 points and classic 4 seats' at 2.7 / 2.3 / 2.9 / 2.5)
MIN_BLOCK = 200


def _isotonic_fit(rows: Sequence[dict]):
    return fit_isotonic([r["raw"] for r in rows], [r["won"] for r in rows], MIN_BLOCK)


def _isotonic_map(knots, raw: float) -> float:
    return interpolate(raw, knots)


#: the maps ``calibrate`` compares: name -> (fit rows -> map, (map, raw) -> chance)
METHODS = {"Platt": (_platt_fit, _platt_map), "isotonic": (_isotonic_fit, _isotonic_map)}
#: the one engine/review_calibration.py holds
CHOSEN = "isotonic"


def _inner(rows: Sequence[dict]) -> list[dict]:
    """The rows whose worlds did not all agree (a unanimous 0 or 1 is kept as it is,
    :mod:`engine.review_calibration`)."""
    return [r for r in rows if 0.0 < r["raw"] < 1.0]


def held_out(rows: Sequence[dict], method: str | None, folds: int = 5) -> list:
    """``rows``' predictions as (predicted, won, round): raw (``method`` ``None``) or
    mapped by ``method``'s map fitted on the other folds (folds by match)."""
    out = []
    for f in range(folds):
        test = [r for r in rows if r["seed"] % folds == f]
        if method is not None:
            fit, apply = METHODS[method]
            fitted = fit(_inner([r for r in rows if r["seed"] % folds != f]))
        for r in test:
            p = r["raw"]
            if method is not None and 0.0 < p < 1.0:
                p = apply(fitted, p)
            out.append((p, r["won"], (r["seed"], r["round"])))
    return out


def _table(title: str, table: list, by: str = "round") -> list[str]:
    out = [title, f"tenth    positions  predicted  realised  difference (95%, by {by})"]
    for i, n, pred, real, half in table:
        out.append(f"{i * 10:3}-{i * 10 + 10:<4} {n:9} {pred:10.1f} {real:9.1f} "
                   f"{real - pred:+7.1f} ±{half:.1f}")
    worst = max(abs(real - pred) for _, _, pred, real, _ in table)
    out.append(f"worst |difference| {worst:.1f} points")
    return out


def calibrate(rows: Sequence[dict], folds: int = 5) -> list[str]:
    """The report of ``python -m tests.bench.review calibrate``: per preset and seat
    count, the held-out reliability tables (raw, then each map of :data:`METHODS`)
    and the chosen map fitted on all (:data:`engine.review_calibration.KNOTS`)."""
    out = []
    groups: dict[tuple[str, int], list[dict]] = {}
    for r in rows:
        groups.setdefault((r["preset"], r["seats"]), []).append(r)
    knots = {}
    for (preset, seats), group in sorted(groups.items()):
        rounds = len({(r["seed"], r["round"]) for r in group})
        out.append(f"== {preset}, {seats} seats: {len(group)} positions of {rounds} rounds "
                   f"({folds} folds by match) ==")
        out += _table("raw rollout frequency", reliability(held_out(group, None, folds)))
        shipped = [(calibrated(r["raw"], preset, seats), r["won"], (r["seed"], r["round"]))
                   for r in group]
        out += _table("the map shipped now", reliability(shipped))
        for method in METHODS:
            out += _table(f"{method}, held out",
                          reliability(held_out(group, method, folds)))
        knots[(preset, seats)] = METHODS[CHOSEN][0](_inner(group))
        out.append("")
    out.append("KNOTS = {" + ", ".join(f"({p!r}, {s}): {k!r}" for (p, s), k in knots.items())
               + "}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.review",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("speed", "levels", "positions", "calibrate"))
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="duo")
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--target", type=int, default=None,
                        help="points that end a match (1: one round each; positions: 1)")
    parser.add_argument("--folds", type=int, default=5, help="calibrate: held-out folds")
    parser.add_argument("--jobs", type=int, default=None,
                        help="speed: processes (default: as unoduo review)")
    args = parser.parse_args(argv)
    rules = Rules(preset=args.preset, seats=args.seats, target=args.target)
    if args.what == "speed":
        for r in (Rules(), Rules(preset="classic", seats=4)):
            count, done, cpu, wall = review_seconds(r, args.seed, jobs=args.jobs)
            print(f"{r.preset} {r.seats} seats: {count} decisions ({done} reviewed) in "
                  f"{wall:.1f} s wall, {cpu:.1f} s CPU ({args.jobs or 'default'} jobs; "
                  f"{300 * wall / max(1, done):.1f} s wall per 300 decisions)", flush=True)
    elif args.what == "levels":
        for level in LEVELS:
            accs = level_accuracies(level, args.matches, args.seed, rules, args.budget or 240)
            mean = sum(accs) / len(accs)
            se = math.sqrt(sum((a - mean) ** 2 for a in accs) / max(1, len(accs) - 1)
                           / len(accs))
            print(f"{level:7} accuracy {mean:5.1f} ± {1.96 * se:.1f} (95%) over {len(accs)} "
                  "matches", flush=True)
    elif args.what == "positions":
        rules = Rules(preset=args.preset, seats=args.seats, target=args.target or 1)
        print("\t".join(ROW))
        for row in position_rows(rules, args.matches, args.seed, args.budget):
            print("\t".join(map(str, row)), flush=True)
    else:
        print("\n".join(calibrate(read_rows(sys.stdin), args.folds)))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
