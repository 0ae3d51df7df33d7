"""An app that shares its event loop with many others (a worker of ``unoduo serve``)
makes its decisions on a thread: a local table's ``act`` returns only once the decision
is durable (``fdatasync``), and the other players' screens must not wait for that
(#22).  The screen waits for the decision's update as it waits for a remote table's."""

from __future__ import annotations

import threading

from unoduo_tui.screens.game import GameScreen
from unoduo_tui.table import Refused

from .conftest import SIZE, game, make_app, press, screen_text, settle, table


def _table():
    return table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"],
                 ["R9", "B8", "B7", "B6", "B5", "Y9", "Y2"], "R1", script=["draw", "pass"])


async def test_a_shared_loop_apps_decision_is_made_off_the_loop_and_shown(monkeypatch):
    t = _table()
    threads: list[int] = []
    act = t.act

    def recorded(seat, text):
        threads.append(threading.get_ident())
        return act(seat, text)

    monkeypatch.setattr(t, "act", recorded)
    app = make_app(None, table=t, shared_loop=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        loop_thread = threading.get_ident()
        await press(pilot, "1", "enter")  # R5 on R1
        assert "play R5" in t.match.actions
        assert threads and loop_thread not in threads
        screen = game(app)
        assert isinstance(screen, GameScreen) and not screen.acting
        assert screen.latest is not None and screen.latest.seq == t.seq  # the move shown
        assert "R5" not in [str(c) for c in screen.hand.cards]


async def test_a_decision_refused_on_its_thread_is_told_and_the_keys_work_again(monkeypatch):
    t = _table()
    refusals = iter(["the table is closing"])

    def refusing(seat, text):
        reason = next(refusals, None)
        if reason is not None:
            raise Refused(reason)
        return type(t).act(t, seat, text)

    monkeypatch.setattr(t, "act", refusing)
    app = make_app(None, table=t, shared_loop=True)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await press(pilot, "1", "enter")
        screen = game(app)
        assert not screen.acting  # not left waiting for an update that never comes
        assert "play R5" not in t.match.actions
        assert "the table is closing" in screen_text(app)  # the toast
        await press(pilot, "1", "enter")  # the same decision again, accepted now
        assert "play R5" in t.match.actions
