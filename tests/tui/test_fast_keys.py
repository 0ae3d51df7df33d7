"""The app under attack, part 2: keys faster than the screen — a paste, a key held
down, two keys in one read.  Every dialog answers once, every worker checks that the
decision it worked on is still the current one, and keys that arrive while a screen
is being replaced do nothing harmful.  The keys of a burst are posted in one tick,
none awaited, as a terminal delivers a paste."""

from __future__ import annotations

import random

from textual import events
from textual.widgets import Button

from engine import Match, Rules
from tests.engine.helpers import random_match, stacked_deck
from unoduo_tui.dialogs import ChallengePrompt, MatchOver
from unoduo_tui.screens.game import GameScreen
from unoduo_tui.screens.menu import MenuScreen
from unoduo_tui.screens.new_match import NewMatchScreen
from unoduo_tui.screens.replay import ReplayScreen
from unoduo_tui.table.local import LocalTable
from unoduo_tui.store import Seat

from .conftest import SIZE, Scripted, game, make_app, press, seated, settle, table, notifications

_CHARS = {"enter": "\r", "space": " ", "escape": "\x1b", "tab": "\t", "backspace": "\x7f",
          "question_mark": "?"}


def burst(app, keys) -> None:
    """Post ``keys`` to the app in one go, as the terminal delivers a paste."""
    for key in keys:
        app.post_message(events.Key(key, _CHARS.get(key, key if len(key) == 1 else None)))


async def drain(pilot, rounds: int = 60) -> None:
    """Let the app work through what it was sent (and the bot move)."""
    for _ in range(rounds):
        await pilot.pause()
    await settle(pilot)


async def test_two_answers_to_the_wild_draw_4_prompt_in_one_tick_answer_once():
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"],
              ["W+4", "R9", "B8", "B7", "B6", "B5", "Y9"], "R1", script=["play W+4 G", "draw"])
    async with seated(s) as (pilot, app):
        await press(pilot, "1", "enter")
        prompt = app.screen
        assert isinstance(prompt, ChallengePrompt)
        # two answers already in the prompt's queue (a click and Enter on a button in
        # one read), then keys: the second answer once popped the table
        prompt.post_message(Button.Pressed(prompt.query_one("#draw", Button)))
        prompt.post_message(Button.Pressed(prompt.query_one("#challenge", Button)))
        burst(app, ["c", "d", "enter"])
        await drain(pilot)
        after = s.match.actions[s.match.actions.index("play W+4 G") + 1:]
        assert after[0] in ("challenge", "draw")  # the first answer, and only that one
        assert after.count("challenge") + (after[0] == "draw") == 1
        assert isinstance(game(app), GameScreen) and game(app).is_attached
        assert app.screen_stack[0] is game(app)  # the table was not popped


async def test_t_and_k_in_one_read_during_the_draft_hint_for_a_moment_that_passed():
    deck = stacked_deck(["R1", "R2", "R3", "R4", "R5", "R6", "R7"],
                        ["B1", "B2", "B3", "B4", "B5", "B6", "B7"], "G9")
    m = Match.new(Rules(), seed=0, deck=deck, first=1)
    s = LocalTable(m, ("Ann", "Bot"), ("human", "bot:random"), bots={1: Scripted()})
    async with seated(s) as (pilot, app):
        assert s.match.phase == "draft" and s.match.to_act == 0
        for _ in range(3):
            burst(app, ["t", "k"])
            await drain(pilot)
        assert sum(1 for a in s.match.actions if a == "keep") >= 3
        assert isinstance(app.screen, GameScreen)


async def test_keys_while_the_table_gives_way_to_the_menu_do_nothing_harmful(store):
    app = make_app(store, start="play", vs="random", seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        burst(app, ["q", "m", "k", "down", "n", "escape", "k", "r", "down", "up"])
        await drain(pilot)
        assert app.is_running
        assert isinstance(app.screen, (MenuScreen, NewMatchScreen))


async def test_enter_twice_on_the_menu_opens_once(store):
    m = random_match(4, Rules(), 40)
    with store.new_match(m, (Seat("Ann", "human"), Seat("Rando", "bot:random"))):
        pass
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        burst(app, ["enter", "enter", "enter"])  # Resume, three times in one read
        await drain(pilot)
        assert [type(s) for s in app.screen_stack] == [MenuScreen, GameScreen]
        assert not any("open in another" in n.message for n in notifications(app))
        await press(pilot, "q", "m")
        burst(app, ["down", "enter", "enter"])  # New match, twice
        await drain(pilot)
        assert [type(s) for s in app.screen_stack] == [MenuScreen, NewMatchScreen]


async def test_enter_twice_in_the_new_match_form_starts_one_match(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "n", "tab", "tab")  # into the name field
        burst(app, ["enter", "enter"])
        await drain(pilot)
        assert [type(s) for s in app.screen_stack] == [MenuScreen, GameScreen]
        assert len(store.summaries()) == 1


async def test_w_twice_at_the_match_over_opens_one_replay(store):
    m = random_match(3, Rules(target=100))  # finished
    with store.new_match(m, (Seat("Ann", "human"), Seat("Bot", "bot:random"))) as handle:
        ref = handle.id
    app = make_app(store, start="resume", resume=ref)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        over = app.screen
        assert isinstance(over, MatchOver)
        for _ in range(2):  # a click and Enter on "Watch replay" in one read
            over.post_message(Button.Pressed(over.query_one("#watch", Button)))
        burst(app, ["w"])
        await drain(pilot)
        assert [n.message for n in notifications(app)] == []
        assert [type(s) for s in app.screen_stack] == [MenuScreen, ReplayScreen]


async def test_the_command_palette_then_page_keys():
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        burst(app, ["ctrl+p", "pageup", "pagedown", "pageup", "down", "up", "end", "home"])
        await drain(pilot)
        burst(app, ["escape"])
        await drain(pilot)
        assert app.is_running


# -- pastes of random keys ----------------------------------------------------------------

TABLE_KEYS = ["left", "right", "h", "l", *"123456789", "enter", "space", "k", "r", "d", "p",
              "u", "c", "x", "z", "y", "t", "question_mark", "escape", "tab", "n", "m", "g",
              "b", "w", "pageup", "pagedown", "ctrl+p", "up", "down"]
MENU_KEYS = ["up", "down", "n", "escape", "question_mark", "tab", "shift+tab", "left", "right",
             "home", "end", "pageup", "pagedown", "a", "s", "1", "backspace", "ctrl+s", "k",
             "space", "x"]


async def paste(pilot, keys: list[str], rng: random.Random, count: int = 5000) -> None:
    """``count`` random ``keys``, in bursts of up to 100 posted in one tick each."""
    app = pilot.app
    sent = 0
    while sent < count:
        n = min(count - sent, rng.randint(1, 100))
        burst(app, [rng.choice(keys) for _ in range(n)])
        sent += n
        await pilot.pause()
    await drain(pilot)


async def test_a_paste_of_5000_random_keys_at_the_table(store):
    rng = random.Random(11)
    app = make_app(store, start="play", vs="random", seed=7)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, TABLE_KEYS, rng)
        assert app.is_running


# The menu and the form open and close whole screens on many keys (a minute per 5,000
# keys on a loaded 2-core machine): 1,500 keys there, 5,000 at the table.

async def test_a_paste_of_1500_random_keys_at_the_menu(store):
    rng = random.Random(12)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, MENU_KEYS, rng, 1500)
        assert app.is_running


async def test_a_paste_of_1500_random_keys_at_the_new_match_form(store):
    rng = random.Random(13)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "n")
        assert isinstance(app.screen, NewMatchScreen)
        await paste(pilot, [k for k in MENU_KEYS if k != "escape"] + list("abcdef[]/"), rng,
                    1500)
        assert app.is_running


async def test_a_dialog_mounting_as_the_app_exits_does_not_fail_the_app():
    # under serve --workers, players hanging up while a dialog opened: the dialog's
    # on_mount mounted its footer as the app was exiting, and MountError turned the
    # hang-up into a crash (a traceback in the server's log, exit status 1)
    from unoduo_tui.dialogs import ColourPicker

    s = table(["W", "G7", "G8", "B2", "B3", "Y4", "Y6"],
              ["R9", "B8", "B7", "B6", "B5", "Y9", "Y2"], "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        app.push_screen(ColourPicker("Choose a colour"))
        app.exit(return_code=129)  # the client hung up, in the same tick
        await pilot.pause()
    assert app.return_code == 129
