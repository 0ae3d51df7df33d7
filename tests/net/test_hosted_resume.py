"""#21 item 5: a hosted match stays hosted however it is opened.  Hana hosts, Jo joins
from a second data dir, they play into round 2, everything stops; then from Hana's
data dir: the menu's Resume, ``unoduo resume ID`` and ``unoduo resume``, the lobby's
resume, ``replay``, ``transcript`` and ``export`` — none shows a card of Jo's hand, and
each names Jo as Jo joined (kept in the save file)."""

from __future__ import annotations

import os
import select
import signal
from dataclasses import replace

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

from textual.widgets import OptionList  # noqa: E402

from engine.rng import Rng  # noqa: E402
from tests.tui.conftest import SIZE, game, screen_text  # noqa: E402
from unoduo_tui import cli  # noqa: E402
from unoduo_tui.commands import common  # noqa: E402
from unoduo_tui.app import UnoDuoApp  # noqa: E402
from unoduo_tui.net import client  # noqa: E402
from unoduo_tui.apps import lobby_app, remote_app  # noqa: E402
from unoduo_tui.net.remote import RemoteTable  # noqa: E402
from unoduo_tui.net.client import plan_to_json  # noqa: E402
from unoduo_tui.screens.lobby import LobbyPlace, LobbyScreen  # noqa: E402
from unoduo_tui.screens.replay import ReplayScreen  # noqa: E402
from unoduo_tui.store import Store  # noqa: E402

from .helpers import WAIT, Client, card_strings, until  # noqa: E402
from .test_cli import _end, _serving  # noqa: E402


def _play_into_round(clients: dict[int, Client], rnd: int, more: int) -> None:
    """Random legal moves by whoever is to act until ``more`` decisions into round
    ``rnd``; every client has seen each move before the next."""
    rng = Rng(21, 5)
    after = 0
    while after < more:
        seat = next(s for s, c in clients.items() if c.last.views[s].legal_actions)
        c = clients[seat]
        view = c.last.views[seat]
        if view.round >= rnd:
            after += 1
        c.table.act(seat, str(view.legal_actions[rng.below(len(view.legal_actions))]))
        c.wait(lambda u: u.views[seat].event_count > view.event_count, "the move")
        now = c.last.views[seat].event_count
        for s, other in clients.items():
            other.wait(lambda u: u.views[s].event_count >= now, "everyone told")
            other.table.hold(False)


def _stop_tables(data) -> None:
    for pid in _serving(data):
        pidfd = os.pidfd_open(pid)
        os.kill(pid, signal.SIGTERM)
        select.select([pidfd], [], [], WAIT)  # readable once it has ended
        os.close(pidfd)


async def _at_the_table(pilot, app, hand: list[str]):
    await until(pilot, lambda: game(app) is not None and game(app).latest is not None,
                "the table")
    g = game(app)
    assert isinstance(g.table, RemoteTable), "a hosted match opened hot-seat"
    assert g.mine == (0,) and not g.hot_seat and g.table.seat == 0
    await until(pilot, lambda: g.my_view() is not None and g.hand.cards, "the hand shown")
    assert g.my_view().seat == 0 and sorted(str(c) for c in g.my_view().hand) == hand
    shown = sorted(c.text for c in g.hand.cards)
    assert set(shown) <= set(hand) and len(shown) >= len(hand) - 1  # the draft's card apart
    return g


async def test_5_every_way_of_opening_a_hosted_match_keeps_the_remote_seat_remote(
        env, monkeypatch, capsys):
    data = env / "d"
    hana_store, jo_store = Store(data), Store(env / "jo")
    # seed 32: Jo ends up holding an R+2 Hana never saw (as in the report)
    host_plan = replace(client.host_plan("duo", None, None, "Hana"), seed=32)
    info = client.start_authority(data, "--plan", plan_to_json(host_plan), bot_pause=0)
    try:
        hana = Client(client.sit_host(hana_store, info, "Hana"), None)  # type: ignore[arg-type]
        jo = Client(client.connect(jo_store, info["code"], want="play", name="Jo"),
                    None)  # type: ignore[arg-type]
        _play_into_round({0: hana, 1: jo}, 2, 12)
        hana.table.close()
        jo.table.close()
        _stop_tables(data)
        match_id = info["match"]
        loaded = hana_store.open(match_id, read_only=True)
        assert not loaded.match.over and loaded.match.round >= 2
        assert [s.name for s in loaded.seats] == ["Hana", "Jo"]
        # every card Hana may know of: her view's (her hands, what was shown to all,
        # the hands shown at round 1's end); anything else is Jo's or the pile's
        view = loaded.match.view(0)
        known = {view.top, *view.hand, *(c for e in view.events for c in e.cards)}
        assert set(loaded.match.hand(1)) - known, "Jo holds a card Hana never saw"
        hana_hand = sorted(str(c) for c in loaded.match.hand(0))

        def clean(text: str, where: str) -> None:
            assert card_strings(text) <= known, f"{where} shows Jo's hand: {text}"

        # `unoduo list` names Jo as Jo joined
        assert cli.main(["list"]) == 0
        listed = capsys.readouterr().out
        assert "Jo" in listed and "Player 2" not in listed

        # 1. the menu's Resume: the table again (started anew), Hana's seat only
        app = UnoDuoApp(hana_store, "menu", theme="textual-dark")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.screen.query(OptionList), "the menu")
            await pilot.pause()
            assert "Jo" in screen_text(app)
            await pilot.press("enter")  # Resume is the first entry
            await _at_the_table(pilot, app, hana_hand)
            clean(screen_text(app), "the menu's Resume")
        assert _serving(data), "the menu's Resume started the table again"

        # 2. `unoduo resume ID` and `unoduo resume` (the newest): at the running table
        opened: list = []
        monkeypatch.setattr(common, "terminal_problem", lambda: None)
        monkeypatch.setattr(common, "run_remote", lambda store, table: opened.append(table) or 0)
        for argv in (["resume", match_id], ["resume"]):
            assert cli.main(argv) == 0, capsys.readouterr().err
            app = remote_app(hana_store, opened.pop(), theme="textual-dark")
            async with app.run_test(size=SIZE) as pilot:
                await _at_the_table(pilot, app, hana_hand)
                clean(screen_text(app), "unoduo resume")

        # 3. the lobby's resume (r)
        (env / "l").mkdir(mode=0o700)
        app = lobby_app(hana_store, LobbyPlace(env / "l", "Hana"), theme="textual-dark",
                        bot_pause=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                        and app.screen.query(OptionList), "the lobby")
            await pilot.press("r")
            await _at_the_table(pilot, app, hana_hand)
            clean(screen_text(app), "the lobby's resume")
        _stop_tables(data)

        # 4. replay: seen from Hana's seat only, whatever `p` asks
        app = UnoDuoApp(hana_store, "replay", replay=str(loaded.path), theme="textual-dark")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
            replay = app.screen
            assert replay.locked == 0
            for _ in range(4):
                await pilot.pause()
                clean(screen_text(app), "the replay")
                assert replay.perspective == 0
                assert set(c.text for c in replay.query_one("#hand").cards) <= set(hana_hand)
                await pilot.press("p")
            for key in ("left", "pageup", "left"):  # earlier positions too
                await pilot.press(key)
                await pilot.pause()
                clean(screen_text(app), "the replay, further back")

        # 5. transcript and export of the unfinished match
        assert cli.main(["transcript", match_id]) == 0
        text = capsys.readouterr().out
        clean(text, "the transcript")
        assert "Seen by: Hana (" in text and "Jo" in text
        assert all(line.endswith(" cards") or "cards;" in line for line in text.splitlines()
                   if "Draft: Jo kept" in line), "the transcript shows Jo's draft"
        assert cli.main(["export", match_id]) == 0
        clean(capsys.readouterr().out, "the export")
    finally:
        _end(data)
