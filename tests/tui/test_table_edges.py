"""Rough edges a new player found at the table (issue #12): what the screen says, which
keys it offers, where toasts go, how seats are named, and the new-match defaults."""

from __future__ import annotations

import pytest

from engine import Match, Rules
from unoduo_tui.dialogs import DumpDialog, MatchOver, RoundOver
from unoduo_tui.widgets import GameLog, Hand, ScoreSheet, StatusLine

from .conftest import SIZE, game, make_app, press, screen_text, seated, settle, table, notifications

HAND7 = ["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"]
BOT7 = ["B9", "B8", "B7", "B6", "B5", "B4", "Y9"]


def footer_keys(screen) -> set[str]:
    """The keys the footer shows now (enabled and meant to be shown)."""
    return {b.binding.key for b in screen.active_bindings.values()
            if b.enabled and b.binding.show}


def dialog_text(screen) -> str:
    return " ".join(str(w.render()) for w in screen.query("Static"))


# -- the end of the match ------------------------------------------------------------------


async def test_e4_the_last_rounds_summary_says_the_match_is_over_and_who_won():
    s = table(HAND7, BOT7, "R1", hands=[["R5"], ["B9", "B8"]], rules=Rules(target=10))
    async with seated(s) as (pilot, app):
        await press(pilot, "enter")
        assert isinstance(app.screen, RoundOver) and s.match.over
        text = dialog_text(app.screen)
        assert "The match ends when" not in text
        assert "last round" in text and "You win the match" in text
        sheet = str(app.screen.query(".dialog-text").first().render())
        assert sheet.startswith("Ann ") and "\nBot " in sheet  # a sheet names every seat


async def test_e1_a_round_that_does_not_end_the_match_still_names_the_target():
    s = table(HAND7, BOT7, "R1", hands=[["R5"], ["B9", "B8"]])
    async with seated(s) as (pilot, app):
        await press(pilot, "enter")
        assert isinstance(app.screen, RoundOver) and not s.match.over
        assert "The match ends when someone reaches 200" in dialog_text(app.screen)


async def test_e1_the_round_over_dialog_covers_the_next_rounds_draft_until_dismissed():
    """The round's summary sat over the next round's draft (its card, its keys): the
    draft shows only once the summary is dismissed."""
    s = table(HAND7, BOT7, "R1", hands=[["R5"], ["B9", "B8"]])
    async with seated(s) as (pilot, app):
        await press(pilot, "enter")
        assert isinstance(app.screen, RoundOver) and s.match.phase == "draft"
        shown = screen_text(app)
        assert "went out" in shown
        assert "Draft" not in shown and "hand ·" not in shown and "keep (k)" not in shown
        await press(pilot, "enter")
        assert app.screen is game(app) and "Draft" in screen_text(app)


# -- UNO (U1, U3) --------------------------------------------------------------------------


async def test_u3_u_is_offered_only_when_a_move_leaves_one_card():
    # two cards, neither fits: no move leaves one card, so no UNO to say
    s = table(HAND7, BOT7, "R1", script=["draw"], hands=[["G5", "B6"], BOT7],
              draw=["G1", "G2", "G3", "G4"])
    async with seated(s) as (pilot, app):
        g = app.screen
        assert "u" not in footer_keys(g)
        await press(pilot, "u")
        assert g.uno_armed is False
        assert "UNO! armed" not in screen_text(app)


async def test_u1_u_is_offered_with_a_uno_move_and_disarmed_after_any_move():
    s = table(HAND7, BOT7, "R1", script=["draw", "draw"],
              hands=[["R5", "R6", "G7"], BOT7], draw=["B1", "B2", "B3", "B4", "B5"])
    async with seated(s) as (pilot, app):
        g = app.screen
        assert "u" not in footer_keys(g)  # three cards: nothing leaves one
        await press(pilot, "1", "enter")  # R5: two left; the bot draws
        assert "u" in footer_keys(g)
        await press(pilot, "u")
        assert g.uno_armed
        await press(pilot, "d")  # drew B1 instead of playing: the call is gone
        assert not g.uno_armed and len(s.match.hand(0)) == 3
        assert "UNO! armed" not in screen_text(app)
        assert "UNO armed" not in str(g.query_one(StatusLine).render())


# -- the hand: playable cards marked, the cursor on one -----------------------------------


async def test_t1_playable_cards_are_marked_without_colour():
    s = table(HAND7, BOT7, "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        hand = app.screen.query_one(Hand)
        rows = [line.plain for line in hand.render().renderables]
        # R5 is the only card that fits R1 (it is selected: the mark is in its frame)
        assert rows[1].count("▼") == 1 and "┏━▼━┓" in rows[1]
        await press(pilot, "right")
        rows = [line.plain for line in hand.render().renderables]
        assert rows[1].count("▼") == 1 and rows[1].index("▼") == 4  # above R5, at rest


async def test_a2_after_a_skip_the_cursor_starts_on_a_playable_card():
    s = table(HAND7, BOT7, "R1", script=["draw"], hands=[["R5", "RS", "G7", "B3"], BOT7],
              draw=["G1", "G2", "G3"])
    async with seated(s) as (pilot, app):
        hand = app.screen.query_one(Hand)
        await press(pilot, "2", "enter")  # RS: the seat plays again (A2)
        assert "play RS" in s.match.actions and s.match.to_act == 0
        assert hand.selected_card.text == "R5"


# -- the log after a resize ------------------------------------------------------------------


async def test_the_log_rewraps_and_shows_the_newest_line_after_a_resize():
    s = table(HAND7, BOT7, "R1", script=["draw"] * 20,
              draws=["G2", "G3", "G4", "G5", "G6", "G9", "Y2", "Y3", "Y5", "Y7", "Y8"])
    async with seated(s) as (pilot, app):
        for _ in range(5):
            await press(pilot, "d")
            if s.match.phase == "drawn":
                await press(pilot, "p")
        log = app.screen.query_one(GameLog)
        await pilot.resize_terminal(120, 30)
        await settle(pilot)
        await pilot.resize_terminal(*SIZE)
        await settle(pilot)
        await pilot.pause()
        width = log.scrollable_content_region.width
        assert all(line.cell_length <= width for line in log.lines)
        bottom = int(log.scroll_offset.y) + log.scrollable_content_region.height
        assert bottom >= len(log.lines)  # the newest line is in sight
        newest = log.lines[-1].text.strip()
        assert newest and newest in screen_text(app)


# -- the footer ------------------------------------------------------------------------------


async def test_t_hint_is_in_the_footer_of_a_practice_match():
    s = table(HAND7, BOT7, "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        assert "t" in footer_keys(app.screen)
        assert "t Hint" in screen_text(app).splitlines()[-1]


async def test_a_busy_turns_footer_fits_80_columns():
    # UNO to say, the bot to catch, undo and hint: every key and the palette in sight
    s = table(HAND7, BOT7, "R1", script=["play R6"], hands=[["R5", "G7", "R8"], ["R6", "B9"]],
              draw=["G1", "G2", "G3", "G4"])
    async with seated(s) as (pilot, app):
        await press(pilot, "1", "enter")  # R5; the bot plays R6 without UNO
        assert {"u", "x", "t"} <= footer_keys(app.screen)
        footer = screen_text(app).splitlines()[-1]
        for shown in ("u UNO", "x Catch", "t Hint", "? Help", "q Quit", "^p palette"):
            assert shown in footer, footer


async def test_a_dialog_shows_its_own_keys_in_the_footer():
    s = table(HAND7, BOT7, "R1", hands=[["R5"], ["B9", "B8"]])
    async with seated(s) as (pilot, app):
        await press(pilot, "enter")
        assert isinstance(app.screen, RoundOver)
        footer = screen_text(app).splitlines()[-1]
        assert "Continue" in footer and "Draw" not in footer and "Select" not in footer


async def test_help_shows_its_own_keys_not_the_tables():
    s = table(HAND7, BOT7, "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        await press(pilot, "question_mark")
        footer = screen_text(app).splitlines()[-1]
        assert "Back" in footer and "Draw" not in footer and "Select" not in footer


# -- toasts ----------------------------------------------------------------------------------


async def test_toasts_never_cover_the_status_line_or_the_hand():
    s = table(HAND7, BOT7, "R1", script=["draw"])
    app = make_app(table=s)
    async with app.run_test(size=SIZE, notifications=True) as pilot:  # toasts on
        await settle(pilot)
        g = app.screen
        g.notify("Your turn: play a card (Enter) or draw (d) — a long toast to be sure it "
                 "takes more than one line.", title="Test", timeout=30)
        for _ in range(50):
            await pilot.pause()
            toasts = list(app.screen.query("Toast"))
            if toasts and all(t.region.height for t in toasts):
                break
        assert toasts
        kept = [g.query_one(StatusLine).region, g.query_one(Hand).region]
        for toast in toasts:
            assert all(not toast.region.overlaps(r) for r in kept), (toast.region, kept)


# -- words -----------------------------------------------------------------------------------


def test_article_by_the_sound_of_the_number():
    from unoduo_tui.text.words import article

    an = [8, 11, 18, 80, 81, 89, 800, 8000, 11000, 18000, 18500]
    a = [0, 1, 7, 10, 12, 17, 19, 20, 50, 79, 90, 100, 110, 118, 180, 1100, 1800]
    assert [article(n) for n in an] == ["an"] * len(an)
    assert [article(n) for n in a] == ["a"] * len(a)


async def test_a6_the_challenge_hint_says_guilty_with_the_right_article(monkeypatch):
    from engine import bots
    from unoduo_tui.screens.game import GameScreen

    monkeypatch.setattr(bots, "wd4_guilty_probability", lambda view: 0.81, raising=False)
    s = table(HAND7, ["W+4", "B8", "B7", "B6", "B5", "B4", "Y9"], "R1", script=["play W+4 B"])
    async with seated(s) as (pilot, app):
        await press(pilot, "1", "enter")  # R5; the bot answers W+4
        g = game(app)
        hint = GameScreen._challenge_hint(g, g.my_view())
        assert hint == "Hint: an 81% chance that Bot is guilty."
        # only when asked, as in classic: t, the table's hint key
        assert "%" not in screen_text(app) and app.screen.hint == ""
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen.hint == hint and "81% chance" in screen_text(app)


async def test_the_hint_toast_is_one_sentence():
    s = table(HAND7, BOT7, "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        await pilot.press("t")
        await app.workers.wait_for_complete()  # the hint's worker has said it
        await pilot.pause()
        said = [n for n in notifications(app) if n.title == "Hint"]
        assert said, "no hint"
        assert said[0].message.startswith("The hard bot would ")
        assert said[0].message.endswith(".") and "Hint:" not in said[0].message


async def test_a4_the_dump_dialog_says_one_card_right():
    s = table(HAND7, BOT7, "R1", script=["draw"], hands=[["RR", "R5", "G7"], BOT7],
              draw=["G1", "G2", "G3"])
    async with seated(s) as (pilot, app):
        await press(pilot, "2", "enter")  # RR (after R5): one more red card to dump
        assert isinstance(app.screen, DumpDialog)
        text = dialog_text(app.screen)
        assert "Dump your last red card too?" in text and "all 1" not in text


def test_s3_the_draft_discard_is_turned_up_not_burned():
    from unoduo_tui.widgets.discard import Discard

    m = Match.new(Rules(), seed=1)
    while not (m.phase == "draft" and m.top is not None and m.to_act == 0):
        m.apply(m.legal_actions()[0])
    text = _render_plain(Discard, m.view(0))
    assert "turned up" in text and "burned" not in text


def _render_plain(widget_type, view) -> str:
    import asyncio

    from textual.app import App

    class One(App):
        def compose(self):
            yield widget_type(id="w")

    async def go() -> str:
        app = One()
        async with app.run_test(size=SIZE) as pilot:
            w = app.query_one("#w")
            w.view = view
            await pilot.pause()
            return screen_text(app)

    return asyncio.run(go())


# -- names -----------------------------------------------------------------------------------


async def test_the_score_sheet_names_the_seats_as_every_list_does():
    s = table(HAND7, BOT7, "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        text = screen_text(app)
        sheet = app.screen.query_one(ScoreSheet)
        head = str(sheet.lines()[0])
        assert "Ann" in head and "Bot" in head and "You" not in head
        assert "Your hand" in text  # the table marks your seat


def test_hot_seat_default_names_stay_whole_on_the_score_sheet():
    from unoduo_tui.screens.new_match import default_names

    names = default_names("human")
    assert names == ("Player 1", "Player 2")
    m = Match.new(Rules(), seed=3)
    sheet = ScoreSheet()
    sheet.name_seats(names)
    sheet.view = m.view(0)
    head = sheet.lines()[0].plain
    assert "Player 1" in head and "Player 2" in head


def test_a_long_login_name_is_cleaned_at_the_edge(monkeypatch):
    import getpass

    from engine.savefile import MAX_NAME
    from unoduo_tui.screens.new_match import default_names

    monkeypatch.setattr(getpass, "getuser", lambda: "x" * 70 + "\x1b[31m")
    me, bot = default_names("bot:normal")
    assert me == "X" + "x" * (MAX_NAME - 1) and bot == "Normal bot"
    assert default_names("bot:hard", "  Zoe\x07  Q ") == ("Zoe Q", "Hard bot")


async def test_e4_the_match_over_sheet_cuts_names_only_to_its_room():
    names = ("Alexandra Longname", "Maximilian the Tireless")
    m = Match.new(Rules(target=30), seed=8)
    while not m.over:
        m.apply(m.legal_actions()[0])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(MatchOver(m.view(0), names))
        await pilot.pause()
        text = dialog_text(app.screen)
        assert names[0] in text and names[1] in text


# -- defaults --------------------------------------------------------------------------------


async def test_unoduo_play_and_the_form_default_to_the_normal_bot(store):
    from unoduo_tui.settings import Settings

    assert Settings().kind(1) == "bot:normal"
    app = make_app(store, start="play", seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.table.kinds[1] == "bot:normal"
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "n")
        assert app.screen.query_one("#kind-1").value == "bot:normal"


@pytest.fixture
def store(tmp_path):
    from unoduo_tui.store import Store

    return Store(tmp_path)


@pytest.mark.parametrize("play, mark", [("play R9 uno", "UNO!"), ("play R9", "catch! (x)")])
async def test_a_long_opponent_name_leaves_the_strips_marks_in_sight(play, mark):
    from unoduo_tui.widgets import Seats

    long = "Maximilian " + "x" * 53  # MAX_NAME characters
    s = table(HAND7, BOT7, "R1", script=[play], hands=[HAND7, ["B9", "R9"]])
    async with seated(s) as (pilot, app):
        await press(pilot, "1", "enter")  # R5; the bot's R9 leaves it one card
        strip = app.screen.query_one(Seats)
        strip.name_seats(("Ann", long), labels=("", "Normal bot"))
        strip.view = s.match.view(0)
        strip.thinking = 1
        await pilot.pause()
        line = screen_text(app).splitlines()[0]
        assert "Maximilian" in line and mark in line and "thinking" in line


async def test_a_long_name_leaves_the_status_lines_keys_in_sight():
    from unoduo_tui.table.local import LocalTable

    from .conftest import Scripted, game

    s = table(HAND7, ["W+4", "B8", "B7", "B6", "B5", "B4", "Y9"], "R1")
    long = LocalTable(s.match, ("Ann", "Maximilian " + "x" * 53), s.kinds,
                       bots={1: Scripted(["play W+4 B"])})
    async with seated(long) as (pilot, app):
        await press(pilot, "1", "enter")  # R5; the bot plays W+4
        status = str(game(app).query_one(StatusLine).render()).strip()
        assert status == "Maximilian played W+4: challenge (c) or draw 4 (d)"
