"""#16: the lobby (``unoduo lobby``) — resume, quick match, vs bots, open / join /
watch the tables others listed; the listing the authority writes, read as untrusted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

from textual.widgets import OptionList  # noqa: E402

from tests.tui.conftest import SIZE, game, screen_text, notifications  # noqa: E402
from unoduo_tui.net import client  # noqa: E402
from unoduo_tui.net.lobby import (LISTING_VERSION, Listing, cancel_quick,  # noqa: E402
                                  quick_match, read_listings)
from unoduo_tui.apps import lobby_app  # noqa: E402
from unoduo_tui.net.lobby import identity_name  # noqa: E402
from unoduo_tui.dialogs.table_forms import HostForm  # noqa: E402
from unoduo_tui.net.codes import public_part  # noqa: E402
from unoduo_tui.net.remote import RemoteTable  # noqa: E402
from unoduo_tui.net.client import plan_to_json  # noqa: E402
from unoduo_tui.screens.lobby import LobbyPlace, LobbyScreen  # noqa: E402
from unoduo_tui.screens.lobby_actions import QuickWait  # noqa: E402
from unoduo_tui.screens.new_match import NewMatchScreen  # noqa: E402
from unoduo_tui.store import Store  # noqa: E402
from unoduo_tui.table.local import LocalTable  # noqa: E402

from .helpers import plan, until, wait_exit  # noqa: E402
from .test_cli import _end  # noqa: E402


def _app(env: Path, who: str, name: str | None = None, key: str | None = None):
    place = LobbyPlace(env / "l", name or who.capitalize(), key)
    (env / "l").mkdir(mode=0o700, exist_ok=True)
    return lobby_app(Store(env / who), place, theme="textual-dark", bot_pause=0)


def _ids(app) -> list[str]:
    menu = app.screen.query_one(OptionList)
    return [menu.get_option_at_index(i).id for i in range(menu.option_count)]


def _highlighted(app) -> str:
    menu = app.screen.query_one(OptionList)
    return menu.get_option_at_index(menu.highlighted).id


#: listings this test process writes as a table would (holding their locks)
_HELD: list[Listing] = []


def _listing(env: Path, word: str, held: bool = True, **fields) -> Path:
    """A listing of ``word``, as a live table writes it (``held``: its lock held by this
    process, as the table's process holds it; else a file alone, as anyone could)."""
    raw = {"v": LISTING_VERSION, "code": f"{word}-wolf-17", "match": "m", "host": "Ann",
           "preset": "classic", "seats": 4, "names": ["Ann"], "open": 3, "quick": False,
           "over": False, "pid": os.getpid(), **fields}
    folder = env / "l" / "tables"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    if held and not any(h.path == folder / f"{word}.json" for h in _HELD):
        _HELD.append(Listing(env / "l", raw["code"], "m", "classic"))
    path = folder / f"{word}.json"
    path.write_text(json.dumps(raw))
    return path


@pytest.fixture(autouse=True)
def _let_go():
    yield
    while _HELD:
        _HELD.pop().remove()


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


async def _lobby(pilot, app) -> None:
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                and app.screen.query(OptionList), "the lobby")


# -- resume ---------------------------------------------------------------------------

async def test_an_unfinished_match_is_first_and_highlighted_and_r_resumes_it_where_it_was(env):
    store = Store(env / "ann")
    table = LocalTable.start(store, plan(seed=5), bot_pause=0)  # hot-seat: no bot moves
    for _ in range(3):  # a few decisions in, so "the same position" means something
        view = table.view(table.match.to_act)
        table.act(table.match.to_act, str(view.legal_actions[0]))
    events = table.match.event_count
    table.close()
    for key in ("r", "enter"):
        app = _app(env, "ann")
        async with app.run_test(size=SIZE) as pilot:
            await _lobby(pilot, app)
            assert _ids(app)[0] == "resume:0" and _highlighted(app) == "resume:0"
            assert "Resume" in screen_text(app) and "P0 vs P1" in screen_text(app)
            await pilot.press(key)
            await until(pilot, lambda: game(app) is not None, "the table")
            assert game(app).table.match.event_count == events
            app.leave_game()  # back to the lobby, not out of the program
            await _lobby(pilot, app)


async def test_n_and_the_form_start_a_local_match_in_the_player_s_folder(env):
    app = _app(env, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await _lobby(pilot, app)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewMatchScreen), "the form")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: game(app) is not None, "the table")
        assert isinstance(game(app).table, LocalTable)
        assert len(list((env / "ann" / "matches").glob("*.unoduo"))) == 1
        # leaving names where it goes: the lobby, not the menu an SSH player never saw
        await pilot.press("q")
        await until(pilot, lambda: "Lobby (m)" in screen_text(app), "the leave dialog")
        assert "m Lobby" in screen_text(app) and "Menu" not in screen_text(app)
        await pilot.press("m")
        await _lobby(pilot, app)


# -- open a table, join it from the list ---------------------------------------------

async def test_o_opens_a_listed_table_and_a_second_lobby_joins_it_from_its_list(env):
    ann, bob = _app(env, "ann"), _app(env, "bob")
    try:
        async with ann.run_test(size=SIZE) as pa:
            await _lobby(pa, ann)
            await pa.press("o")
            await until(pa, lambda: isinstance(ann.screen, HostForm), "the host form")
            ann.screen.query_one("#name").focus()  # blank: the lobby's name
            await pa.press("enter")  # the defaults: UNO Duo, seat 2 for a human
            await until(pa, lambda: game(ann) is not None, "Ann's table")
            code = game(ann).table.code
            [listed] = read_listings(env / "l")
            assert (listed.code, listed.host, listed.open) == (code, "Ann", 1)
            async with bob.run_test(size=SIZE) as pb:
                await _lobby(pb, bob)
                await until(pb, lambda: f"join:{code}" in _ids(bob), "Ann's table listed")
                assert "Join Ann's table — UNO Duo, 2 seats, 1 open" in screen_text(bob)
                await pb.press("j")
                await until(pb, lambda: game(bob) is not None, "Bob's seat")
                assert game(bob).table.code == code and game(bob).table.seat == 1
                await until(pa, lambda: game(ann).table.names[1] == "Bob", "Bob at Ann's")
                await until(pa, lambda: read_listings(env / "l")[0].open == 0,
                            "the listing says full")
                # both see the same table: the same cards on the discard pile
                a, b = game(ann).table, game(bob).table
                await until(pa, lambda: a.view(0).event_count == b.view(1).event_count,
                            "the same table")
    finally:
        _end(env / "ann")


async def test_a_table_that_vanished_since_it_was_listed_is_a_toast_and_leaves_the_list(env):
    for gone_first in (True, False):  # its listing removed as it ended, or left behind
        listed = _listing(env, "tide")  # by a live pid; nothing listens on its socket
        app = _app(env, "bob")
        async with app.run_test(size=SIZE) as pilot:
            await _lobby(pilot, app)
            await until(pilot, lambda: "join:tide-wolf-17" in _ids(app), "the listed table")
            if gone_first:
                listed.unlink()
            await pilot.press("j")
            await until(pilot, lambda: any("closed" in n.message
                                            for n in notifications(app)), "the toast")
            assert game(app) is None and "join:tide-wolf-17" not in _ids(app)
            assert not listed.exists()


# -- the listing is untrusted -----------------------------------------------------------

async def test_stale_and_junk_listings_are_ignored_and_removed_and_names_are_cleaned(env):
    dead = _listing(env, "bear", pid=_dead_pid())
    junk = _listing(env, "crow")
    junk.write_bytes(b"{not json\x1b[2J")
    huge = _listing(env, "dove", seats=10_000)
    evil = _listing(env, "fern", host="\x1b]0;pwned\x07\x1b[31mEve\u202e", names=["Eve"])
    assert [t.code for t in read_listings(env / "l")] == ["fern-wolf-17"]
    assert not dead.exists() and not junk.exists() and not huge.exists() and evil.exists()
    app = _app(env, "bob")
    async with app.run_test(size=SIZE) as pilot:
        await _lobby(pilot, app)
        text = screen_text(app)
        assert "Join Eve's table — classic, 4 seats, 3 open" in text
        assert "pwned" not in text and "\x1b" not in text


def test_a_listing_naming_a_live_pid_that_is_not_a_table_of_ours_is_not_shown(env):
    """Any live pid passed for a table (a table killed with -9 leaves its listing, and
    its pid is soon someone else's): a listing shows only while its table's process
    holds its lock."""
    other = subprocess.Popen([sys.executable, "-c", "import signal; signal.pause()"])
    try:
        foreign = _listing(env, "wasp", held=False, pid=other.pid)  # live, not a table
        unheld = _listing(env, "tide", held=False)  # this live process, no lock held
        held = _listing(env, "moss")  # as a table writes it
        assert [t.code for t in read_listings(env / "l")] == ["moss-wolf-17"]
        assert not foreign.exists() and not unheld.exists() and held.exists()
    finally:
        other.kill()
        other.wait()


# -- quick match ----------------------------------------------------------------------

def test_quick_match_pairs_two_players_who_press_it_at_the_same_moment(env):
    (env / "l").mkdir(mode=0o700)
    # a quick table whose player has gone (nobody connected): nobody is sent there
    _listing(env, "tide", preset="duo", seats=2, names=["Gone"], open=1, quick=True,
             connected=0)
    seats: dict[str, object] = {}
    go = threading.Barrier(2)

    def press(who: str) -> None:
        go.wait()
        seats[who] = quick_match(Store(env / who), env / "l", who)

    threads = [threading.Thread(target=press, args=(who,)) for who in ("ann", "bob")]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        ann, bob = seats["ann"], seats["bob"]
        assert ann.code == bob.code != "tide-wolf-17"
        assert {ann.hosting, bob.hosting} == {True, False}
        assert {ann.table.seat, bob.table.seat} == {0, 1}
        [listed] = [t for t in read_listings(env / "l") if t.code == ann.code]
        assert listed.quick and listed.open == 0 and listed.connected == 2
        # a third player finds no seat free and waits at a table of their own
        cy = quick_match(Store(env / "cy"), env / "l", "Cy")
        assert cy.hosting and cy.code != ann.code
        assert cancel_quick(Store(env / "cy"), env / "l", cy)
        assert [t.code for t in read_listings(env / "l")] == ["tide-wolf-17", ann.code]
        assert not list((env / "cy" / "matches").glob("*.unoduo"))  # nothing kept
        assert not list((env / "cy").glob("*/*.json"))  # no table file, no seat token
    finally:
        for seat in seats.values():
            seat.table.close()
        for who in ("ann", "bob", "cy"):
            _end(env / who)


async def test_m_waits_for_a_second_player_then_plays_and_esc_cancels_the_wait(env):
    app = _app(env, "ann")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await _lobby(pilot, app)
            await pilot.press("m")
            await until(pilot, lambda: isinstance(app.screen, QuickWait), "the wait")
            assert "Waiting for another player… (Esc to cancel)" in screen_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            assert read_listings(env / "l") == []
            await pilot.press("m")
            await until(pilot, lambda: isinstance(app.screen, QuickWait), "the wait")
            bob = quick_match(Store(env / "bob"), env / "l", "Bob")
            try:
                assert not bob.hosting
                await until(pilot, lambda: game(app) is not None, "the table")
                assert game(app).table.code == bob.code
            finally:
                bob.table.close()
    finally:
        _end(env / "ann")


# -- a dropped connection -------------------------------------------------------------

async def test_a_dropped_player_reconnects_and_rejoins_the_same_seat_first_thing(env):
    (env / "l").mkdir(mode=0o700)
    info = client.start_authority(env / "ann", "--plan", plan_to_json(plan(seed=9)),
                                    listing=str(env / "l"))
    host = RemoteTable.connect(info["code"], token=info["token"], name="Ann")
    try:
        for attempt in range(2):  # join, drop; then the reconnect
            app = _app(env, "bob")
            async with app.run_test(size=SIZE) as pilot:
                await _lobby(pilot, app)
                if attempt == 0:
                    await until(pilot, lambda: f"join:{info['code']}" in _ids(app), "the table")
                    await pilot.press("j")
                else:
                    assert _ids(app)[0] == "resume:0" and _highlighted(app) == "resume:0"
                    assert "Rejoin   Ann's table" in screen_text(app)
                    await pilot.press("enter")
                await until(pilot, lambda: game(app) is not None, "Bob's seat")
                assert game(app).table.seat == 1
            # the app ends without leaving the table: the link dropped
        assert read_listings(env / "l")[0].open == 0  # nobody else took the seat
    finally:
        host.close()
        _end(env / "ann")


# -- the command line and the authority's listing ---------------------------------------

def test_the_authority_lists_its_table_and_removes_the_listing_when_it_ends(env):
    (env / "l").mkdir(mode=0o700)
    info = client.start_authority(env / "ann", "--plan",
                                    plan_to_json(plan("classic", 3, {2: "random"})),
                                    listing=str(env / "l"))
    [listed] = read_listings(env / "l")  # written before the first line
    assert (listed.code, listed.preset, listed.seats, listed.open) == (info["code"],
                                                                        "classic", 3, 1)
    assert listed.names == ("P0",) and listed.pid == info["pid"]
    path = env / "l" / "tables" / f"{public_part(info['code'])}.json"
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    os.kill(info["pid"], 15)
    wait_exit(info["pid"])  # the file goes as the table ends
    assert not path.exists()


def test_lobby_help_names_the_lobby_dir_and_a_dumb_terminal_is_a_usage_error(env):
    run = [sys.executable, "-m", "unoduo_tui.cli", "lobby"]
    shown = subprocess.run([*run, "--help"], capture_output=True, text=True, timeout=60)
    assert "--lobby-dir" in shown.stdout and "UNODUO_LOBBY_DIR" in shown.stdout
    done = subprocess.run([*run, "--data-dir", str(env / "ann"), "--name", "Ann"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "TERM": "dumb", "UNODUO_LOBBY_DIR": str(env / "l")})
    assert done.returncode == 2 and "full-screen terminal" in done.stderr


async def test_a_new_name_with_escapes_is_cleaned_shown_and_kept_in_identity_json(env):
    (env / "ann").mkdir()
    (env / "ann" / "identity.json").write_text(json.dumps({"name": "Ann", "key": "k"}))
    app = _app(env, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await _lobby(pilot, app)
        menu = app.screen.query_one(OptionList)
        menu.highlighted = _ids(app).index("rename")
        await pilot.press("enter")
        await until(pilot, lambda: app.screen.query("#rename"), "the name")
        app.screen.query_one("#rename").value = "\x1b[31mAnnie\x07  B"
        await pilot.press("enter")
        await until(pilot, lambda: "Signed in as Annie B" in screen_text(app), "the new name")
    kept = json.loads((env / "ann" / "identity.json").read_text())
    assert kept == {"name": "Annie B", "key": "k"}
    assert identity_name(env / "ann") == "Annie B"
