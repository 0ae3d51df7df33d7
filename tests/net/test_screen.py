"""#15: the game screen at a remote table — it does not know which table it has; who
comes and goes is told; a watcher sees no hand and cannot play."""

from __future__ import annotations

import asyncio
import os

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

from engine.rng import Rng  # noqa: E402
from tests.tui.conftest import SIZE, game  # noqa: E402
from unoduo_tui.apps import remote_app  # noqa: E402
from unoduo_tui.widgets import Seats  # noqa: E402

from tests.tui.conftest import screen_text, notifications  # noqa: E402
from unoduo_tui.widgets import Hand, StatusLine  # noqa: E402

from .helpers import Served, card_strings, hidden_faces, play_out, plan, until, send_raw  # noqa: E402


def _toasts(app) -> str:
    """Every toast the app has shown (still up or not)."""
    return "\n".join(n.message for n in notifications(app))


async def test_the_game_screen_plays_over_the_socket_and_shows_only_its_seat():
    served = Served(plan(seed=41))
    try:
        ann = served.client(name="Ann")
        bob = served.client(name="Bob")
        ann.table.close()  # the screen takes seat 0 with Ann's token
        me = served.client(token=ann.table.token)
        app = remote_app(None, me.table, theme="textual-dark")
        rng = Rng(5, 1)
        async with app.run_test(size=SIZE) as pilot:
            g = game(app)
            await until(pilot, lambda: g.latest is not None, "the first update")
            assert g.mine == (0,) and not g.table.practice
            made = 0
            while made < 40 and not served.state()[2]:
                to_act, count, _ = served.state()
                if to_act == 1:
                    u = bob.wait(lambda u: u.views[1].event_count == count)
                    legal = u.views[1].legal_actions
                    bob.table.act(1, str(legal[rng.below(len(legal))]))
                    await until(pilot, lambda: served.state()[1] > count, "Bob's move")
                else:
                    await until(pilot, lambda: g.latest.views[0].event_count == count
                                 and g.my_view().legal_actions, "Ann's turn on screen")
                    if app.screen is not g:  # a round's end: its dialog first
                        await pilot.press("enter")
                        continue
                    legal = g.my_view().legal_actions
                    g.do(legal[rng.below(len(legal))])
                    await until(pilot, lambda: served.state()[1] > count, "Ann's move")
                made += 1
            await until(pilot, lambda: g.latest.views[0].event_count == served.state()[1],
                         "the last update")
            # the screen shows seat 0's hand as the authority has it, and no other
            assert sorted(c.text for c in g.hand.cards) == sorted(
                c.text for c in served.table.match.hand(0))
            assert set(g.latest.views) == {0}
            # Bob drops: Ann is told he is gone and his seat waits
            bob.table.close()
            seats = g.query_one(Seats)
            assert seats.away == frozenset()
            await until(pilot, lambda: "Bob disconnected — waiting" in _toasts(app),
                         "the drop's toast")
            await until(pilot, lambda: seats.away == {1}, "Bob's seat marked away")
    finally:
        served.stop()


async def test_a_seat_nobody_has_taken_yet_shows_away_on_the_host_s_screen():
    served = Served(plan(seed=43))
    try:
        host = served.client(name="Ann")
        app = remote_app(None, host.table, theme="textual-dark")
        async with app.run_test(size=SIZE) as pilot:
            g = game(app)
            await until(pilot, lambda: g.latest is not None, "the first update")
            seats = g.query_one(Seats)
            await until(pilot, lambda: seats.away == {1}, "the empty seat marked away")
            served.client(name="Bob")
            await until(pilot, lambda: seats.away == frozenset(), "Bob's arrival")
            await until(pilot, lambda: "Bob is at the table" in _toasts(app), "the toast")
    finally:
        served.stop()


async def test_a_watcher_s_screen_has_no_hand_and_cannot_play():
    served = Served(plan(seed=42))
    try:
        served.client(), served.client()
        w = served.client(want="watch")
        app = remote_app(None, w.table, theme="textual-dark")
        async with app.run_test(size=SIZE) as pilot:
            g = game(app)
            await until(pilot, lambda: g.latest is not None, "the first update")
            assert g.my_view().hand == () and g.my_view().legal_actions == ()
            assert len(g.hand.cards) == 0
            before = served.table.match.log_length
            g.do("draw")
            await until(pilot, lambda: "watcher cannot play" in _toasts(app),
                         "the refusal")
            assert served.table.match.log_length == before
            # the authority's own refusals reach the screen too (past the table's checks)
            send_raw(w.table, {"t": "act", "text": "draw"})
            await until(pilot, lambda: _toasts(app).count("watcher cannot play") == 2,
                         "the authority's refusal")
            # and the end of the connection: a banner on the screen
            served.stop()
            await until(pilot, lambda: g.query_one("#lost-banner").display,
                         "the connection's end")
            assert "Disconnected from the table" in str(g.query_one("#lost-banner").render())
    finally:
        served.stop()


async def test_slash_opens_a_chat_line_that_the_others_receive():
    served = Served(plan(seed=44))
    try:
        ann, bob = served.client(name="Ann"), served.client(name="Bob")
        app = remote_app(None, ann.table, theme="textual-dark")
        async with app.run_test(size=SIZE) as pilot:
            g = game(app)
            await until(pilot, lambda: g.latest is not None, "the first update")
            await pilot.press("slash")
            await until(pilot, lambda: app.screen is not g, "the chat line")
            await pilot.press("g", "g", "enter")
            await until(pilot, lambda: app.screen is g, "the line closed")
            bob.wait(lambda u: bob.chats, "Ann's line")
            assert bob.chats[0] == (0, "Ann", "gg")
            bob.table.chat("nice one")
            await until(pilot, lambda: "Bob: nice one" in _toasts(app), "Bob's line")
            await pilot.press("slash", "x", "escape")  # closed without sending
            await until(pilot, lambda: app.screen is g, "the line closed")
            ann.table.chat("last")  # a line after it: the escaped one would be before
            bob.wait(lambda u: bob.chats[-1] == (0, "Ann", "last"), "the last line")
            assert [c for c in bob.chats if c[0] == 0] == [(0, "Ann", "gg"), (0, "Ann", "last")]
    finally:
        served.stop()


async def test_a_watcher_sees_the_table_as_a_spectator_never_as_a_seat():
    """Classic, three seats (two players and a bot) played while a watcher's screen
    looks on: it never says "You"/"your", names every seat, shows no card of a hand
    that was never public, and no key but leave, help and chat acts."""
    served = Served(plan("classic", 3, bots={2: "random"}, seed=45))
    try:
        clients = {0: served.client(name="Ann"), 1: served.client(name="Bob")}
        w = served.client(want="watch")
        app = remote_app(None, w.table, theme="textual-dark")
        async with app.run_test(size=SIZE) as pilot:
            g = game(app)
            await until(pilot, lambda: g.latest is not None, "the first update")
            assert g.spectator and g.viewer is None and g.mine == ()
            assert g.my_view().seat is None
            players = asyncio.get_running_loop().run_in_executor(
                None, play_out, served, clients, 46, 60)
            looks = 0

            async def look() -> str:
                text = screen_text(app)
                hidden = hidden_faces(served.table.match, None)  # after the look: fewer
                assert card_strings(text) & hidden == set(), text
                words = text.replace("\u2502", " ").split()
                for word in ("You", "you", "your", "Your"):
                    assert word not in words, text
                if app.screen is g:
                    assert g.hand.cards == [] and "Watching" in text
                    for action in ("play", "draw", "keep", "pass", "uno", "catch",
                                   "challenge", "move", "undo", "hint"):
                        assert g.check_action(action, ()) is False
                else:  # a round's end: the dialog names the winner, never "You"
                    await pilot.press("enter")
                return text

            while not players.done():
                text = await look()
                looks += 1
                await pilot.pause(0.05)
            assert await players > 0 and looks > 0
            await until(pilot, lambda: g.my_view().event_count == served.state()[1],
                         "the watcher's last update")
            text = await look()
            assert g.check_action("leave", ()) and g.check_action("help", ())
            assert "P0" in text or "Ann" in text
            assert str(g.query_one(StatusLine).render()).startswith(" Watching")
            assert not isinstance(g.query_one(Hand).view, type(None)) and \
                g.query_one(Hand).view.hand == ()
    finally:
        served.stop()


async def test_the_host_s_screen_names_a_joiner_as_they_named_themselves():
    """Bob joins as "Bob": the host's seats line and score sheet say Bob, not the
    plan's "Player 2" (seen by hand in tmux)."""
    from unoduo_tui.widgets import ScoreSheet

    served = Served(plan(seed=43))
    try:
        host = served.client(name="Ann")
        app = remote_app(None, host.table, theme="textual-dark")
        async with app.run_test(size=SIZE) as pilot:
            g = game(app)
            await until(pilot, lambda: g.latest is not None, "the first update")
            served.client(name="Bob")
            await until(pilot, lambda: g.names[1] == "Bob", "Bob's name at the host's table")
            await pilot.pause()
            assert "Bob" in str(g.query_one(Seats).render())
            assert any("Bob" in line.plain for line in g.query_one(ScoreSheet).lines())
    finally:
        served.stop()
