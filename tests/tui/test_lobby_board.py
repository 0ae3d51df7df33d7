"""The lobby's leaderboard and its Stats under ``unoduo serve`` (#24 "Where a player
sees it": a leaderboard in the lobby — top 20 per preset among non-provisional
players, and your own rank — refreshed when a rated match ends; the Stats screen
from the lobby), at 80×24 and with ``NO_COLOR``."""

from __future__ import annotations

import asyncio
import os

import pytest

from engine import Rules
from tests.record.helpers import finished, save
from unoduo_tui.record.index import Index
from unoduo_tui.sessions import SessionConfig, session_app
from unoduo_tui.ssh.identity import identify
from unoduo_tui.store import Seat, Store

from .conftest import SIZE, clipped, screen_text

RULES = Rules(target=40)
#: the server's players: (key, name, wins of their matches vs the normal bot, matches)
PLAYERS = (("SHA256:alice/1", "alice", 9, 12), ("SHA256:bob/2", "bob", 4, 11),
           ("SHA256:cy/3", "Cy", 3, 4), ("SHA256:you/4", "You", 6, 10))
BASE = 1_800_000_000


def _play(store: Store, seed: int, won: bool, name: str, when: int) -> None:
    path = save(store, finished(RULES, seed, winner=0 if won else 1),
                (Seat(name, "human"), Seat("Normal bot", "bot:normal")))
    os.utime(path, (when, when))  # a fixed order of the matches: a stable snapshot


def _server(tmp_path):
    """A serve dir whose players have played the normal bot (Cy: provisional), and the
    lobby app of the last of them, "You", as a worker's session makes it."""
    serve = tmp_path / "serve"
    serve.mkdir(mode=0o700)
    (tmp_path / "lobby").mkdir(mode=0o700)
    folders = {}
    when = BASE
    for n, (key, name, wins, matches) in enumerate(PLAYERS):
        who = identify(serve, key, name)
        folders[name] = who
        store = Store(who.folder, key)
        for k in range(matches):
            when += 60
            _play(store, n * 1000 + k * 13, k < wins, name, when)
    Index(serve, shared=True).refresh()  # the fixed times: folded again in their order
    you = folders["You"]
    config = SessionConfig(you.folder, "You", tmp_path / "lobby", you.fingerprint)
    return session_app(config, bot_pause=0, theme="textual-dark"), folders


async def _loaded(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def _board(app) -> str:
    return "\n".join(app.screen.query_one("#lobby-board").lines)


async def test_the_lobby_shows_the_top_of_each_game_and_your_rank(tmp_path):
    app, _ = _server(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _loaded(pilot)
        board = app.screen.query_one("#lobby-board").lines
        assert board[0].startswith("Leaderboard · UNO Duo")
        assert board[0].endswith("you: #2 of 3 · " + board[0].split(" · ")[-1])
        ranked = [line.lstrip(" ▸").split()[1] for line in board[1:] if line.strip()]
        assert ranked == ["alice", "You", "bob"]  # Cy: 4 rated matches, provisional
        assert "▸  2. You" in "\n".join(board) and "(you)" in board[2]
        assert "Classic" not in "\n".join(board)  # nobody rated there: not shown
        assert clipped(app.screen) == []
        assert "Leaderboard · UNO Duo" in screen_text(app)


async def test_the_board_is_read_again_when_a_rated_match_ends(tmp_path):
    app, folders = _server(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _loaded(pilot)
        assert "bob" in _board(app) and "12 rated" not in _board(app).split("bob")[1]
        bob = folders["bob"]
        # another session (bob's) ends a rated match: the index changes under the lobby
        save(Store(bob.folder, bob.fingerprint), finished(RULES, 4242, winner=0),
             (Seat("bob", "human"), Seat("Normal bot", "bot:normal")))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60  # a safety net: we wait for what the board shows
        while "12 rated" not in _board(app).split("bob")[1].split("\n")[0]:
            assert loop.time() < deadline, _board(app)
            await pilot.pause(0.05)


async def test_stats_from_the_lobby_is_the_players_own_record(tmp_path):
    from unoduo_tui.screens.stats import StatsScreen

    app, _ = _server(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _loaded(pilot)
        menu = app.screen.query_one("#lobby")
        menu.highlighted = next(i for i, o in enumerate(menu.options) if o.id == "stats")
        await pilot.press("enter")
        assert isinstance(app.screen, StatsScreen)
        await _loaded(pilot)
        text = screen_text(app)
        assert "You · UNO Duo" in text and "10 matches, won 6" in text
        assert "p for the next" not in text  # the others' records are theirs
        assert [r.name for r in app.screen.records] == ["You"]
        await pilot.press("q")
        assert app.screen.query("#lobby-board")


def test_lobby_board_snapshot(tmp_path, snap_compare):
    app, _ = _server(tmp_path)
    assert snap_compare(app, terminal_size=SIZE, run_before=_loaded)


def test_lobby_board_snapshot_no_color(tmp_path, snap_compare, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app, _ = _server(tmp_path)
    assert snap_compare(app, terminal_size=SIZE, run_before=_loaded)


@pytest.mark.parametrize("rated", [0, 4])
def test_before_the_board_has_anyone_it_says_how_to_get_on_it(tmp_path, rated):
    from unoduo_tui.record.stats import boards
    from unoduo_tui.record.words import board_lines

    store = Store(tmp_path / "data")
    for k in range(rated):
        _play(store, k, k % 2 == 0, "Ann", BASE + k)
    lines = Index.of(store.data_dir).read(lambda conn: board_lines(boards(conn, "name:ann"),
                                                                   "name:ann"))
    if rated:
        assert lines[0].endswith("you: provisional (4 of 10 rated matches)")
        assert lines[1] == "  nobody yet: 10 rated matches put a player here"
    else:
        assert lines == ["Leaderboard: nobody on it yet — 10 rated matches put a player "
                         "there."]
    assert all(len(line) <= 72 for line in lines)  # the lobby's width
