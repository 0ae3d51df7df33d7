"""Bots that think in a pool of processes (#22: off the loop's GIL in a worker): the
same decisions as in the table's thread (the time-bounded hard bot aside), what they learnt kept, a dead pool process
replaced."""

from __future__ import annotations

import os
import signal
import threading

from engine import Rules
from unoduo_tui.plan import MatchPlan
from unoduo_tui.table.local import LocalTable
from unoduo_tui.table.thinking import BotPool, Hint, think_here

WAIT = 60.0


def play_bots(thinker, decisions: int, seed: int = 5) -> LocalTable:
    """A bots-only match, ``decisions`` long, with bots thinking through ``thinker``."""
    plan = MatchPlan(("A", "B"), ("bot:normal", "bot:easy"), Rules(), seed=seed)
    table = LocalTable.start(None, plan, thinker=thinker)
    done = threading.Event()

    def told(update) -> None:
        if table.match.log_length >= decisions or update.over:
            done.set()
        table.hold(False)  # nobody to show a round's end to: go on

    table.subscribe(told)
    assert done.wait(WAIT), "the bots stopped"
    table.close()
    return table


def test_bots_in_a_pool_make_the_decisions_they_make_in_the_tables_thread():
    pool = BotPool(1)
    try:
        here = play_bots(think_here, 40)
        there = play_bots(pool.think, 40)
    finally:
        pool.close()
    n = min(here.match.log_length, there.match.log_length)
    assert n >= 40
    assert here.match.actions[:n] == there.match.actions[:n]


def test_a_pool_process_killed_is_replaced_and_the_bots_play_on():
    pool = BotPool(1)
    try:
        match = play_bots(think_here, 10).match  # the bots may have gone a move or two on
        view = match.view(match.to_act)
        pool.think(Hint(50), view)  # the pool is up
        (pid,) = [p.pid for p in pool._pool()._processes.values()]
        os.kill(pid, signal.SIGKILL)
        action, _ = pool.think(Hint(50), view)
        assert action in view.legal_actions
        assert pid not in [p.pid for p in pool._pool()._processes.values()]
    finally:
        pool.close()
