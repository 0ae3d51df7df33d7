"""Reviewing a loaded match: which seats may be reviewed, the run itself (progress,
cancellation, the cache) and the JSON shape of ``unoduo review --json``.  No Textual.

A match still being played is reviewed only for what its human players saw, as
``unoduo transcript`` shows it (:func:`~unoduo_tui.transcript.witnesses`): only their
decisions, each from their own view, and never in hindsight.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
from typing import Any, Callable, Final, Iterator, Sequence

import engine.review as engine_review
from engine.review import Decision, Position, Review, positions, review, summarise
from engine.review_calibration import VERSION as CALIBRATION
from engine.rules import Rules

from . import cache
from ..shutdown import die_with_parent
from ..transcript import witnesses

__all__ = ["reviewable_seats", "run_review", "review_log", "as_json", "Cancelled", "REVIEW_SEED"]


#: the review's own sampling seed: the same for every match (never the match's seed,
#: which a match in play keeps from its players: values drawn from it would tell of it)
REVIEW_SEED = 0
#: processes a review runs in (the machine's two cores)
JOBS = 2
#: how they start: forked (spawn fails in an app whose stdout is Textual's: "bad
#: value(s) in fds_to_keep"); a child runs only the engine and the queue
_START: Final = "fork"


class Cancelled(Exception):
    """The review was stopped before its end (nothing is cached)."""


def reviewable_seats(loaded, remote: Sequence[int] = (), seat: int | None = None,
                     hindsight: bool = False) -> tuple[int, ...]:
    """The seats whose decisions may be reviewed (``seat``: that one only).
    ``ValueError`` (a sentence) when none may."""
    seats = loaded.header.rules.seats
    seen = witnesses(loaded, remote)
    if seen is None:
        allowed = tuple(range(seats))
    else:
        if hindsight:
            raise ValueError("this match is still being played: --hindsight would show "
                             "the hidden hands and the draw pile")
        allowed = seen
    if seat is not None:
        if not 0 <= seat < seats:
            raise ValueError(f"no seat {seat + 1}: this match has seats 1–{seats}")
        if seat not in allowed:
            raise ValueError(f"seat {seat + 1}'s decisions are hidden while the match is "
                             "being played (only its human players' are shown)")
        allowed = (seat,)
    if not allowed:
        raise ValueError("this match is still being played and no human at this keyboard "
                         "plays in it: nothing of it can be shown")
    return allowed


def run_review(loaded, seats: Sequence[int], hindsight: bool = False,
               progress: Callable[[int, int, Decision | None], None] | None = None,
               cancelled: Callable[[], bool] = lambda: False,
               use_cache: bool = True, jobs: int | None = None) -> Review:
    """The review of ``loaded``'s decisions by ``seats``: from the cache beside its save
    when that was made from the same bytes for the same seats, else computed
    (``progress(done, total, decision)`` after each decision; :class:`Cancelled` once
    ``cancelled()``) and cached — unless the save changed meanwhile.  ``jobs`` > 1
    reviews the seats in that many processes (each seat's review depends on its own
    decisions only: the result is the same), the decisions then come in any order."""
    header, match = loaded.header, loaded.match
    rules = header.rules
    budget = engine_review.BUDGET
    jobs = JOBS if jobs is None else jobs
    try:
        if loaded.path is None:  # a save that is not a file (rows): no cache beside it
            raise FileNotFoundError(loaded.ref)
        key = cache.Key(cache.content_hash(loaded.path), tuple(seats), hindsight, budget,
                        CALIBRATION)
    except OSError:  # no file to key a cache by (a match shown, not saved)
        use_cache = False
    if use_cache:
        found = cache.load(loaded.path, key, rules.seats)
        if found is not None:
            if progress is not None:
                for i, d in enumerate(found.decisions):
                    progress(i + 1, len(found.decisions), d)
            return found
    total = sum(1 for _ in _reviewed(rules, match.actions, header.seed, seats, False))
    done: list[Decision] = []
    if progress is not None:
        progress(0, total, None)
    for d in _stream(rules, [str(e) for e in match.actions], header.seed, seats, hindsight,
                     budget, jobs, cancelled):
        done.append(d)
        if progress is not None:
            progress(len(done), total, d)
    done.sort(key=lambda d: d.index)
    result = summarise(done, rules.seats, hindsight)
    if use_cache:
        cache.save(loaded.path, key, result)  # refused (not written) if the save changed
    return result


def as_json(loaded, result: Review, names: Sequence[str], seats: Sequence[int]
            ) -> dict[str, Any]:
    """The object ``unoduo review --json`` prints (#25's shape; seats counted from 1, as
    ``--seat`` takes them; win chances and losses in points, 0–100)."""
    return {
        "match": loaded.id,
        "seats": [{"seat": s.seat + 1, "name": names[s.seat], "decisions": s.decisions,
                   "accuracy": None if s.accuracy is None else round(s.accuracy, 1),
                   "counts": dict(s.counts)}
                  for s in result.seats if s.seat in seats],
        "decisions": [{"index": d.index, "seat": d.seat + 1, "round": d.round,
                       "played": d.played, "best": d.best, "label": d.label,
                       "loss": round(d.loss, 1), "win_before": round(d.win_before, 1),
                       "win_after": round(d.win_after, 1)} for d in result.decisions],
    }


def _reviewed(rules: Rules, log, seed: int, seats: Sequence[int], hindsight: bool
              ) -> Iterator[Position]:
    return positions(rules, log, seed, seats=seats, hindsight=hindsight)


def review_log(rules: Rules, log, seed: int, seats: Sequence[int], hindsight: bool,
               budget: int) -> Iterator[Decision]:
    """The review of ``seats``' decisions in the match ``log`` records (``seed``: the
    match's, to replay it; the worlds are drawn from :data:`REVIEW_SEED`) — the same
    whichever process runs it."""
    return review(_reviewed(rules, log, seed, seats, hindsight), rules, seed=REVIEW_SEED,
                  budget=budget, hindsight=hindsight)


#: the signals a worker process must not handle as the app does (its handlers,
#: :class:`~unoduo_tui.shutdown.SignalExit`, would reset the app's terminal from the
#: worker 3 s after the worker was ended): blocked across the fork, then the defaults
_WORKER_SIGNALS = frozenset({signal.SIGTERM, signal.SIGHUP, signal.SIGINT})


def _job(out, rules: Rules, log, seed: int, seats: Sequence[int], hindsight: bool,
         budget: int) -> None:
    """A worker process: each decision of ``seats`` onto ``out``, then ``None`` (a
    failure is put as its message — the worker writes nothing on the app's screen).
    SIGTERM and SIGHUP end it at once, SIGINT is its parent's to handle, and it dies
    with its parent."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _WORKER_SIGNALS)
    die_with_parent()
    try:
        for d in review_log(rules, log, seed, seats, hindsight, budget):
            out.put(d)
    except Exception as exc:  # noqa: BLE001 - told to the parent, which raises it
        out.put(str(exc) or type(exc).__name__)
    finally:
        out.put(None)


def _stream(rules: Rules, log: list[str], seed: int, seats: Sequence[int], hindsight: bool,
            budget: int, jobs: int, cancelled: Callable[[], bool]) -> Iterator[Decision]:
    """The decisions as they are made, in ``jobs`` processes; :class:`Cancelled` once
    ``cancelled()`` (the processes are ended)."""
    groups = [list(seats[i::jobs]) for i in range(min(jobs, len(seats)))]
    if len(groups) <= 1:
        for d in review_log(rules, log, seed, seats, hindsight, budget):
            if cancelled():
                raise Cancelled()
            yield d
        return
    ctx = multiprocessing.get_context(_START)
    out = ctx.Queue()
    procs = [ctx.Process(target=_job, args=(out, rules, log, seed, g, hindsight, budget),
                         daemon=True)
             for g in groups]
    try:
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _WORKER_SIGNALS)
        try:
            for proc in procs:
                proc.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        running = len(procs)
        while running:
            if cancelled():
                raise Cancelled()
            try:
                d = out.get(timeout=0.2)
            except queue.Empty:
                if not any(proc.is_alive() for proc in procs) and out.empty():
                    raise RuntimeError("a review process stopped without finishing") from None
                continue
            if d is None:
                running -= 1
            elif isinstance(d, str):
                raise RuntimeError(d)
            else:
                yield d
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
        for proc in procs:
            if proc.pid is not None:
                proc.join()
