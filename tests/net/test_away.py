"""#21 item 7: a dropped opponent is not a wait for ever.  Once a seat's player has been
away for the table's ``away`` time, the seated players may hand the seat to a bot (the
level they pick); the player gets it back by rejoining; the save file records who
played each decision, and the transcript, the export and the replay say so."""

from __future__ import annotations

import json
import os

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

import pytest  # noqa: E402

from tests.tui.conftest import SIZE, game, screen_text  # noqa: E402
from unoduo_tui.dialogs.stand_in import StandIn  # noqa: E402
from unoduo_tui.apps import remote_app  # noqa: E402
from unoduo_tui.screens.replay import ReplayScreen  # noqa: E402
from unoduo_tui.store import Store  # noqa: E402
from unoduo_tui.table import Refused  # noqa: E402
from unoduo_tui.transcript import export_lines, transcript_text  # noqa: E402

from .helpers import Served, play_out, plan, until, send_raw  # noqa: E402


def _bob_s_seat_moves_without_bob(served: Served, ann, decisions: int) -> None:
    """Ann plays (a bot moves for Bob) until seat 1 has made ``decisions`` decisions."""
    made = 0
    while made < decisions:
        to_act, count, over = served.state()
        assert not over
        if to_act == 1:  # the bot's: wait for it
            ann.wait(lambda u: served.state()[:2] != (to_act, count), "the bot's move")
            made += 1
            ann.table.hold(False)  # a round's end waits for a client
        else:
            play_out(served, {0: ann}, made, limit=1)


def _ann_and_bob(tmp_path, seed: int) -> tuple[Store, Served]:
    """A table whose away time is nil, saved in ``tmp_path``."""
    store = Store(tmp_path)
    return store, Served(plan(seed=seed, target=1000), store=store, away=0.0)


def test_7_an_away_seat_is_handed_to_a_bot_and_back_and_the_file_says_who_played(tmp_path):
    store, served = _ann_and_bob(tmp_path, 71)
    try:
        ann, bob = served.client(name="Ann"), served.client(name="Bob")
        play_out(served, {0: ann, 1: bob}, 3, limit=6)
        token = bob.table.token
        bob.table.close()
        u = ann.wait(lambda u: u.may_stand_in == (1,), "Bob offered to a bot")
        assert u.stand_ins == {}
        with pytest.raises(Refused, match="not away long enough"):
            ann.table.hand_to_bot(0, "normal")  # her own seat is not away
        ann.table.hand_to_bot(1, "random")
        u = ann.wait(lambda u: u.stand_ins == {1: "bot:random"}, "the bot at Bob's seat")
        assert u.may_stand_in == ()
        _bob_s_seat_moves_without_bob(served, ann, 4)
        with served.table.lock:
            bot_from = served.table.match.log_length
        # Bob is back: his seat is his again, the bot stops
        bob = served.client(token=token)
        assert bob.table.seat == 1
        ann.wait(lambda u: u.stand_ins == {}, "the bot gone")
        play_out(served, {0: ann, 1: bob}, 5, limit=6)
    finally:
        served.stop()
    loaded = store.open(store.summaries()[0].id, read_only=True)
    kinds = [(r.seat, r.kind) for r in loaded.seat_records]
    assert (1, "bot:random") in kinds and kinds[-1] == (1, "human")
    assert loaded.seats[1].name == "Bob" and loaded.seats[1].kind == "human"
    text = transcript_text(loaded)
    assert "(random bot for Bob)" in text
    assert text.count("(random bot for Bob)") >= 4
    lines = [json.loads(line) for line in export_lines(loaded)]
    by_bot = [x for x in lines if x.get("by") == "bot:random"]
    assert len(by_bot) >= 4 and all(x["seat"] == 1 and x["i"] < bot_from + 50 for x in by_bot)
    assert not any(x.get("by") for x in lines if x["type"] == "decision" and x["seat"] == 0)
    seats = [(x["seat"], x["name"], x["kind"]) for x in lines if x["type"] == "seat"]
    assert seats[:2] == [(0, "Ann", "human"), (1, "Bob", "human")]  # they sat down
    assert (1, "Bob", "bot:random") in seats


def test_7_before_the_away_time_nobody_may_hand_a_seat_to_a_bot():
    now = [100.0]
    served = Served(plan(seed=72), clock=lambda: now[0], away=180.0)
    try:
        ann, bob = served.client(name="Ann"), served.client(name="Bob")
        bob.table.close()
        ann.wait(lambda u: ann.table.presence.connected == (0,), "Bob gone")
        assert ann.last.may_stand_in == ()
        send_raw(ann.table, {"t": "stand_in", "seat": 1, "level": "easy"})  # past the client
        assert "not away long enough" in ann.wait(lambda u: u.cause == "refused").refused
        assert served.table.stand_ins == {}
        now[0] += 181  # three minutes on: the next update offers it
        served.call(served.authority.resend)
        ann.wait(lambda u: u.may_stand_in == (1,), "the offer")
        send_raw(ann.table, {"t": "stand_in", "seat": 1, "level": "genius"})
        assert "a bot level is one of" in ann.wait(
            lambda u: u.cause == "refused" and "level" in u.refused).refused
        w = served.client(want="watch")
        send_raw(w.table, {"t": "stand_in", "seat": 1, "level": "easy"})
        assert "watcher" in w.wait(lambda u: u.cause == "refused").refused
    finally:
        served.stop()


async def test_7_b_on_the_screen_hands_an_away_seat_to_the_level_chosen(tmp_path):
    store, served = _ann_and_bob(tmp_path, 73)
    try:
        ann, bob = served.client(name="Ann"), served.client(name="Bob")
        ann.table.banner = "Join code: tide-wolf-17"  # the host's screen: banners stack
        app = remote_app(None, ann.table, theme="textual-dark")
        async with app.run_test(size=SIZE) as pilot:
            g = game(app)
            await until(pilot, lambda: g.latest is not None, "the first update")
            assert g.check_action("stand_in", ()) is False
            bob.table.close()
            await until(pilot, lambda: g.check_action("stand_in", ()), "the offer")
            await pilot.pause()
            assert "Bob is away: b lets a bot play" in screen_text(app)
            await pilot.press("b")
            await until(pilot, lambda: isinstance(app.screen, StandIn), "the levels")
            await pilot.press("n")
            await until(pilot, lambda: g.latest.stand_ins == {1: "bot:normal"}, "the bot")
            await pilot.pause()
            assert "Normal bot plays for Bob until they are back" in screen_text(app)
            assert "Join code: tide-wolf-17" in screen_text(app)
            assert g.check_action("stand_in", ()) is False
    finally:
        served.stop()


async def test_7_the_replay_says_which_bot_played_for_whom(tmp_path):
    store, served = _ann_and_bob(tmp_path, 74)
    try:
        ann, bob = served.client(name="Ann"), served.client(name="Bob")
        play_out(served, {0: ann, 1: bob}, 3, limit=4)
        bob.table.close()
        ann.wait(lambda u: u.may_stand_in == (1,), "the offer")
        ann.table.hand_to_bot(1, "easy")
        ann.wait(lambda u: u.stand_ins == {1: "bot:easy"}, "the bot")
        _bob_s_seat_moves_without_bob(served, ann, 2)
    finally:
        served.stop()
    loaded = store.open(store.summaries()[0].id, read_only=True)
    cursor = ReplayScreen(loaded).cursor
    from unoduo_tui.app import UnoDuoApp

    app = UnoDuoApp(store, "replay", replay=loaded, theme="textual-dark")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay = app.screen
        last = next(p for p in range(cursor.count, 0, -1) if cursor.actor(p) == 1)
        replay.cursor.goto(last)
        replay.show()
        await pilot.pause()
        assert "(bot for Bob)" in screen_text(app)
