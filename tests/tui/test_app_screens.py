"""Pilot tests at 80×24: the menu, a full draft, quit and resume, hot-seat privacy,
the layout at 80×24, the too-small screen, the palette, remembered choices, signals."""

from __future__ import annotations

import json
import os
import re
import signal

from engine import Match, Rules
from tests.engine.helpers import observable, stacked_deck
from unoduo_tui.dialogs import ConfirmLeave, DumpDialog
from unoduo_tui.screens.game import GameScreen
from unoduo_tui.screens.handoff import HandOff
from unoduo_tui.screens.menu import MenuScreen
from unoduo_tui.screens.new_match import NewMatchScreen
from unoduo_tui.screens.too_small import TooSmall
from unoduo_tui.table.local import LocalTable
from unoduo_tui.shutdown import SignalExit

from .conftest import SIZE, clipped, game, make_app, press, screen_text, seated, settle, table, notifications


async def test_s3_a_full_draft_by_keys(store):
    app = make_app(store, start="play", vs="random", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = game(app).table.match
        key = "k"
        for _ in range(20):
            if m.phase != "draft":
                break
            assert m.to_act == 0
            await press(pilot, key)
            key = "r" if key == "k" else "k"
        assert m.phase != "draft" and m.round == 1
        assert sum(a in ("keep", "reject") for a in m.actions) == 14
        assert len(m.hand(0)) + len(m.hand(1)) >= 13


async def test_quit_and_resume_lands_on_the_same_state(store):
    app = make_app(store, start="play", vs="random", seed=11)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = game(app).table.match
        while m.phase == "draft":
            await press(pilot, "k")
        await press(pilot, "d" if "draw" in m.legal_actions() else "enter")
        before = observable(m)
        await press(pilot, "q")
        assert isinstance(app.screen, ConfirmLeave)
        await press(pilot, "q")
    assert app.return_code == 0
    again = make_app(store, start="resume")
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        g = game(again)
        assert g is not None
        assert observable(g.table.match) == before


async def test_menu_offers_resume_first_when_a_match_is_unfinished(store):
    app = make_app(store, start="play", vs="random", seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "k", "q", "m")
        assert isinstance(app.screen, MenuScreen)
        first = app.screen.query_one("OptionList").get_option_at_index(0)
        assert first.id == "resume"
        await press(pilot, "enter")
        assert isinstance(app.screen, GameScreen)


_FACE = r"[│┃]{colour}(?:\d|S|R|\+2)\b"


async def test_hot_seat_hand_off_never_renders_the_other_hand():
    reds = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
    blues = ["B1", "B2", "B3", "B4", "B5", "B6", "B7"]
    under = ["G1", "G2", "G3", "G4", "G5", "G6", "G7", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"]
    deck = stacked_deck(reds, blues, "G9", under=under)
    m = Match.new(Rules(), seed=0, deck=deck, first=0)
    s = LocalTable(m, ("Ann", "Bob"), ("human", "human"))
    async with seated(s) as (pilot, app):
        seen = {0: 0, 1: 0}
        for _ in range(40):
            text = screen_text(app)
            if isinstance(app.screen, HandOff):
                assert not re.search(r"[│┃][RYGBW]", text)
                await press(pilot, "enter")
                continue
            viewer = game(app).viewer
            other = "B" if viewer == 0 else "R"
            assert not re.search(_FACE.format(colour=other), text), text
            assert re.search(_FACE.format(colour="R" if viewer == 0 else "B"), text)
            seen[viewer] += 1
            if m.phase != "draft":
                break
            await press(pilot, "k")
        assert seen[0] >= 7 and seen[1] >= 7
        assert not game(app).query_one("StatusLine").say_you  # the winner told by name


async def test_nothing_is_clipped_at_80x24(store):
    s = table(["RR", "R3", "R+2", "G7", "B2", "B3", "Y4"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1")
    async with seated(s, store) as (pilot, app):
        assert clipped(app.screen) == []
        hand = app.screen.query_one("Hand")
        hand.select_card(next(c for c in hand.cards if c.text == "RR"))
        await press(pilot, "enter")
        assert isinstance(app.screen, DumpDialog) and clipped(app.screen) == []
        await press(pilot, "n", "question_mark")
        assert clipped(app.screen) == []
        await press(pilot, "escape", "q")
        assert clipped(app.screen) == []
        await press(pilot, "m")
        assert isinstance(app.screen, MenuScreen) and clipped(app.screen) == []
        await press(pilot, "n")
        assert isinstance(app.screen, NewMatchScreen) and clipped(app.screen) == []
        assert app.screen.query_one("#start").region.bottom <= SIZE[1]


async def test_a_long_hand_scrolls_to_the_selected_card():
    many = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "Y1", "Y2", "Y3", "Y4", "Y5",
            "G1", "G2", "G3", "G4", "G5", "B1", "B2", "B3", "B4", "B5", "W", "W+4"]
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", hands=[many, ["B9", "B8"]])
    async with seated(s) as (pilot, app):
        await press(pilot, *["right"] * 25)
        assert "│W+4│" in screen_text(app) or "┃W+4┃" in screen_text(app)
        assert "▶" not in screen_text(app).splitlines()[19]


async def test_below_80x24_a_make_it_larger_screen_then_back():
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        await pilot.resize_terminal(70, 20)
        await settle(pilot)
        assert isinstance(app.screen, TooSmall)
        assert "at least 80×24" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        await press(pilot, "1", "enter")
        assert "play R5" in s.match.actions


async def test_palette_offers_the_moves_valid_now():
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Game: Play", "Game: Draw", "Game: Help", "Rules"} <= titles
        assert "Game: Challenge" not in titles and "Game: Keep" not in titles
        footer_keys = {b.binding.key for b in app.screen.active_bindings.values()
                       if b.enabled and b.binding.show}
        assert "d" in footer_keys and "c" not in footer_keys


async def test_new_match_remembers_the_last_choices(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "n")
        assert isinstance(app.screen, NewMatchScreen)
        app.screen.query_one("#name-0").value = "Zoe"
        app.screen.query_one("#target").value = "150"
        await press(pilot, "ctrl+s")
        g = game(app)
        assert g is not None and g.table.names[0] == "Zoe"
        assert g.table.match.rules.target == 150
    saved = json.loads((store.data_dir / "settings.json").read_text())
    assert saved["names"][0] == "Zoe" and saved["options"]["duo"]["target"] == 150
    again = make_app(store)
    async with again.run_test(size=SIZE) as pilot:
        await press(pilot, "n")
        assert again.screen.query_one("#name-0").value == "Zoe"
        assert again.screen.query_one("#target").value == "150"


async def test_sigterm_exits_cleanly_with_the_match_saved(store):
    app = make_app(store, start="play", vs="random", seed=4)
    leave = SignalExit(app.exit_on_signal, grace=600)  # no last resort in-process
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "k")
        leave.install()
        try:
            os.kill(os.getpid(), signal.SIGTERM)  # handled at once, on this thread
            await pilot.pause()
        finally:
            leave.stopped()
    assert app.return_code == 128 + signal.SIGTERM
    assert store.newest_unfinished().actions >= 3


def test_score_sheet_names_fit_their_column_readably():
    from unoduo_tui.text.columns import short_name

    assert [short_name(n, 6) for n in ("Hard bot", "Normal bot", "Alexandra", "You",
                                       "Jo Ann")] == ["Hard", "Normal", "Alexa…", "You", "Jo Ann"]


def test_score_sheet_columns_tell_two_like_names_apart():
    # hot-seat's default names: both would be "Player" (the replay names every seat)
    from unoduo_tui.text.columns import short_names

    assert short_names("Player 1", "Player 2", 6) == ("Play…1", "Play…2")
    assert short_names("You", "Hard bot", 6) == ("You", "Hard")
    assert short_names("Ann", "Ann", 6) == ("Ann", "Ann")
    assert short_names("Random bot 1", "Random bot 2", 10) == ("Random b…1", "Random b…2")


def test_hot_seat_names_the_winner_where_a_bot_match_says_you():
    from unoduo_tui.widgets.status import status_text

    m = Match.new(Rules(target=30), seed=8)
    while not m.over:
        m.apply(m.legal_actions()[0])
    names = ("Player 1", "Player 2")
    winner = m.winner
    view = m.view(winner)
    assert status_text(view, names) == "Match over: you win!"
    assert status_text(view, names, say_you=False) == f"Match over: {names[winner]} wins."
    assert status_text(m.view(1 - winner), names) == f"Match over: {names[winner]} wins."


async def test_a_start_that_cannot_open_lands_in_the_menu_and_says_why(store):
    """`unoduo resume` with nothing to resume, `play --vs` an unknown level, `replay` of
    no such match: the menu, with the reason, never a blank screen."""
    cases = [({"start": "resume"}, "No unfinished match to resume."),
             ({"start": "play", "vs": "grandmaster"}, "Unknown opponent 'grandmaster'"),
             ({"start": "replay", "replay": "no-such-match"}, "Could not open the replay")]
    for options, said in cases:
        app = make_app(store, **options)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, MenuScreen) and len(app.screen_stack) == 1
            assert any(said in n.message for n in notifications(app)), options


async def test_leaving_the_table_play_started_on_gives_the_menu_then_a_new_table(store):
    """`unoduo play` starts with the table as the only screen: leaving swaps the menu in
    (the match's save file closed), and a new match from there stacks on the menu."""
    app = make_app(store, start="play", vs="random", seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = game(app)
        assert app.screen_stack == [first]
        match_id = first.table.handle.id
        await press(pilot, "q", "m")
        assert isinstance(app.screen, MenuScreen) and len(app.screen_stack) == 1
        assert first.table.handle is None  # closed, its lock released
        await press(pilot, "enter")  # Resume: the match just left
        again = game(app)
        assert again is not first and again.table.handle.id == match_id
        assert [type(s) for s in app.screen_stack] == [MenuScreen, GameScreen]
        await press(pilot, "q", "m")
        assert isinstance(app.screen, MenuScreen) and len(app.screen_stack) == 1
