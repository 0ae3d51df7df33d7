"""The app under attack, part 1: names and paths from players and files are shown as
plain text.  Textual markup in them (``[/]``) once crashed the app or hung it at
100 % CPU; a terminal escape in them could retitle the player's terminal."""

from __future__ import annotations

import errno

import pytest
from textual.widgets._toast import Toast

from engine import Match, Rules
from engine.events import Event
from tests.engine.helpers import dealt, random_match, stacked_deck
from unoduo_tui.dialogs import ChallengePrompt, ConfirmLeave, MatchOver, RoundOver, ShownHand
from unoduo_tui.screens.game import GameScreen
from unoduo_tui.screens.handoff import HandOff
from unoduo_tui.screens.menu import MenuScreen
from unoduo_tui.screens.replay import ReplayScreen
from unoduo_tui.screens.replay_list import ReplayListScreen
from unoduo_tui.screens.saved import SavedScreen
from unoduo_tui.table.local import LocalTable
from unoduo_tui.store import Seat, Store

from .test_fast_keys import burst
from unoduo_tui.table import Refused
from tests.net.helpers import until
from tests.full_disk import quick_retry  # noqa: F401 - a fixture
from .conftest import SIZE, game, make_app, press, screen_text, seated, settle, table, notifications

ESCAPE = "\x1b]0;pwned\x07"
NAMES = ["[/]", "[b]", "[link=x]", ESCAPE]


def shown(name: str) -> str:
    """What a name should look like on screen: itself, minus any escape sequence."""
    return "" if name == ESCAPE else name


def clean(app) -> str:
    """The screen as text, checked free of escapes and bells."""
    text = screen_text(app)
    assert "\x1b" not in text and "\x07" not in text and "pwned" not in text
    return text


def toasts(app) -> list[str]:
    return [n.message for n in notifications(app)]


async def rendered_toasts(pilot) -> list[str]:
    """The toasts on screen, as rendered (where markup was parsed), once there are any."""
    for _ in range(50):
        await pilot.pause()
        shown_now = [str(t.render()) for t in pilot.app.screen.query(Toast)]
        if shown_now:
            return [" ".join(t.split()) for t in shown_now]
    raise AssertionError("no toast was shown")


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path)


@pytest.mark.parametrize("name", NAMES)
async def test_a_name_at_the_table_is_plain_text(name):
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", script=["draw"])
    s.names = ("Ann", name)
    async with seated(s) as (pilot, app):
        await press(pilot, "1", "enter")
        text = clean(app)
        assert f" {shown(name)} " in text  # the opponent strip and the log


@pytest.mark.parametrize("name", NAMES)
async def test_a_name_on_the_challenge_prompt_is_plain_text(name):
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"],
              ["W+4", "R9", "B8", "B7", "B6", "B5", "Y9"], "R1", script=["play W+4 G", "draw"])
    s.names = ("Ann", name)
    async with seated(s) as (pilot, app):
        await press(pilot, "1", "enter")
        assert isinstance(app.screen, ChallengePrompt)
        assert f"{shown(name)} played W+4" in clean(app)
        await press(pilot, "c")
        assert "challenge" in s.match.actions


@pytest.mark.parametrize("name", NAMES)
async def test_hot_seat_names_on_the_cover_and_the_score_sheet(name):
    deck = stacked_deck(["R1", "R2", "R3", "R4", "R5", "R6", "R7"],
                        ["B1", "B2", "B3", "B4", "B5", "B6", "B7"], "G9")
    m = Match.new(Rules(), seed=0, deck=deck, first=0)
    s = LocalTable(m, (name, "[i]Bob"), ("human", "human"))
    async with seated(s) as (pilot, app):
        assert isinstance(app.screen, HandOff)
        assert f"Pass to {shown(name)}" in clean(app)
        await press(pilot, "enter", "k")
        if isinstance(app.screen, HandOff):
            assert "Pass to [i]Bob" in clean(app)
            await press(pilot, "enter")
        assert f" {shown(name)} · 1 card" in clean(app)  # Bob sees the opponent strip


@pytest.mark.parametrize("name", NAMES)
async def test_round_and_match_over_name_the_winner_as_plain_text(name):
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", hands=[["R5"], ["B9", "B8"]], rules=Rules(target=10))
    s.names = (name, "Bot")
    async with seated(s) as (pilot, app):
        await press(pilot, "enter")
        assert isinstance(app.screen, RoundOver)
        clean(app)
        await press(pilot, "enter")
        assert isinstance(app.screen, MatchOver)
        clean(app)
        view = s.match.view(0)
        names = (name, "Bot")
        app.push_screen(RoundOver(Event.from_data(["round_end", 0, [], 1, None, False, None,
                                                   [[[], []], [0, 17], [0, 17], False]]),
                                   names, None, 10))
        await pilot.pause()
        assert f"{shown(name)} went out" in clean(app)
        app.pop_screen()
        app.push_screen(MatchOver(view, names, hot_seat=True))
        await pilot.pause()
        assert f"{shown(name)} wins the match" in clean(app)


@pytest.mark.parametrize("name", NAMES)
async def test_menu_and_lists_show_saved_names_as_plain_text(store, name):
    m = random_match(4, Rules(), 40)
    with store.new_match(m, (Seat(name, "human"), Seat("Rando", "bot:random"))):
        pass
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert f"{shown(name)} vs Rando" in clean(app)
        for screen in (SavedScreen(), ReplayListScreen()):
            app.push_screen(screen)
            await pilot.pause()
            await pilot.pause()
            assert f"{shown(name)} vs Rando" in clean(app)
            app.pop_screen()
            await pilot.pause()


@pytest.mark.parametrize("name", NAMES)
async def test_replay_of_an_unfinished_match_whose_human_has_markup_in_the_name(store, name):
    m = random_match(4, Rules(), 60)
    with store.new_match(m, (Seat("Rando", "bot:random"), Seat(name, "human"))) as handle:
        ref = handle.id
    app = make_app(store, start="replay", replay=ref)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        said = " ".join(f"as {shown(name)} saw it".split())
        assert any(said in t for t in await rendered_toasts(pilot))
        assert isinstance(app.screen, ReplayScreen)
        clean(app)


@pytest.mark.parametrize("options, said", [
    ({"start": "play", "vs": "[/]"}, "Unknown opponent '[/]'"),
    ({"start": "play", "vs": "[link=x]"}, "Unknown opponent '[link=x]'"),
    ({"start": "resume", "resume": "/x[/].unoduo"}, "/x[/].unoduo"),
    ({"start": "replay", "replay": "/x[b].unoduo"}, "/x[b].unoduo"),
])
async def test_a_start_with_markup_in_it_says_why_as_plain_text(store, options, said):
    app = make_app(store, **options)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert any(said in t for t in toasts(app))
        assert any(said in t for t in await rendered_toasts(pilot))
        clean(app)


async def test_a_toast_with_an_escape_in_it_is_printable(store):
    app = make_app(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.notify(f"hello {ESCAPE}[/]world\x1b[2J", title=f"t{ESCAPE}")
        assert any("hello [/]world" in t for t in await rendered_toasts(pilot))
        assert toasts(app)[-1] == "hello [/]world"
        clean(app)



# -- hot-seat: nothing of one turn on the next player's cover ------------------------------

def hot_seat(ann, bob, start="R1", draws=()):
    """Two humans past the draft: Ann (seat 0) holds ``ann`` and plays first."""
    m = dealt(bob, ann, start, draws, first=1)
    return LocalTable(m, ("Ann", "Bob"), ("human", "human"))


async def uncover(pilot) -> None:
    assert isinstance(pilot.app.screen, HandOff)
    await press(pilot, "enter")


async def test_a_toast_raised_just_before_the_cover_is_not_on_it():
    s = hot_seat(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"],
                 ["B9", "B8", "B7", "B6", "B5", "B4", "Y9"])
    app = make_app(table=s)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await uncover(pilot)
        # Y6 does not fit R1 (a toast), then R5 does: the turn passes, the cover goes up
        burst(app, ["3", "enter", "1", "enter"])
        for _ in range(20):
            await pilot.pause()
        assert "play R5" in s.match.actions
        assert isinstance(app.screen, HandOff)
        assert notifications(app) == []
        assert not app.screen.query(Toast)
        assert "fit" not in clean(app)


async def test_the_challenged_hand_is_shown_in_a_dialog_that_closes_before_the_cover():
    s = hot_seat(["W+4", "R9", "G8", "B2", "B3", "Y4", "Y6"],
                 ["B9", "B8", "B7", "B6", "B5", "B4", "Y9"])
    app = make_app(table=s)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await uncover(pilot)
        await press(pilot, "7", "enter", "g")  # W+4 (sorted last), naming green
        await uncover(pilot)  # Bob
        assert isinstance(app.screen, ChallengePrompt)
        await press(pilot, "c")
        assert isinstance(app.screen, ShownHand)
        assert "R9" in clean(app)  # Ann's hand, to Bob
        await press(pilot, "enter")
        assert isinstance(app.screen, GameScreen)  # guilty: Ann draws 4, Bob plays on
        for key in ("d", "p", "d", "p"):  # …until his turn ends
            if isinstance(app.screen, HandOff):
                break
            await press(pilot, key)
        assert isinstance(app.screen, HandOff)
        text = clean(app)
        assert "R9" not in text and not app.screen.query(Toast)


# -- a full disk: a banner while the last save failed ---------------------------------------

class FullDisk:
    """A save handle whose disk is full until ``full`` is set False (then it saves
    everything at the next write, as the store's handle does)."""

    can_undo = True
    path = None
    id = "full-disk"
    pending = False

    def __init__(self) -> None:
        self.full = True
        self.saved = 0

    def write(self, match) -> None:
        if self.full:
            raise OSError(errno.ENOSPC, "the disk is full")
        self.saved = match.log_length

    def flush(self) -> None:
        pass

    def sync(self, match) -> None:
        self.write(match)

    def undo(self, match) -> None:
        self.write(match)

    def close(self) -> None:
        pass


def banner(app) -> str | None:
    widget = app.screen.query_one("#save-banner")
    return str(widget.render()) if widget.display else None


WAITS = ("The disk is full — the game waits until it can save, and goes on by itself "
         "once it can.")


def _on_a_disk(full: bool) -> tuple[LocalTable, FullDisk]:
    s = table(["R5", "R6", "G7", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", draws=["G1", "G2", "G3"], script=["draw", "draw", "draw"])
    disk = FullDisk()
    disk.full = full
    s.handle = disk
    return s, disk


async def test_a_failed_save_stops_the_table_until_a_save_succeeds_by_itself(quick_retry):
    """#21 item 6: the move that could not be saved is not shown as taken, the table
    takes no other (nor do the bots move), the banner says why; once the disk takes
    it again the table goes on without a key pressed."""
    s, disk = _on_a_disk(full=True)
    async with seated(s) as (pilot, app):
        g = game(app)
        assert banner(app) is None
        await press(pilot, "1", "enter")  # R5: cannot be saved
        assert "play R5" in s.match.actions and disk.saved == 0  # in memory, not on screen
        assert banner(app) == WAITS and WAITS.split(" — ")[0] in clean(app)
        assert "R5" in [c.text for c in g.hand.cards] and str(g.my_view().top) == "R1"
        assert notifications(app) == []  # a banner, not a toast that goes away
        assert g.check_action("play", ()) is False  # no key takes a move now
        with pytest.raises(Refused, match="the game waits until it can save"):
            s.act(0, "draw")
        assert s.idle and s.match.to_act == 1  # the bot's turn, and it waits too
        disk.full = False  # room again: the table goes on by itself
        await until(pilot, lambda: banner(app) is None, "the save to go through")
        await settle(pilot)
        assert disk.saved == s.match.log_length and "R5" not in [c.text for c in g.hand.cards]
        assert WAITS.split(" — ")[0] not in clean(app)
        assert sum(1 for a in s.match.actions if str(a) == "draw") >= 1  # the bot moved on


async def test_a_practice_undo_that_cannot_be_saved_waits_as_a_move_does(quick_retry):
    s, disk = _on_a_disk(full=False)
    async with seated(s) as (pilot, app):
        g = game(app)
        await press(pilot, "1", "enter")  # R5, saved; the bot draws
        disk.full = True
        await press(pilot, "z")  # the undo's record cannot be written
        assert banner(app) == WAITS and "R5" not in [c.text for c in g.hand.cards]
        disk.full = False
        await until(pilot, lambda: banner(app) is None, "the undo to be saved")
        await settle(pilot)
        assert "R5" in [c.text for c in g.hand.cards]


# -- leaving: q, Ctrl+Q and Ctrl+C the same way ------------------------------------------

@pytest.mark.parametrize("key", ["q", "ctrl+q", "ctrl+c"])
async def test_every_way_out_of_the_table_asks_first(key):
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        await press(pilot, key)
        assert isinstance(app.screen, ConfirmLeave)
        assert app.is_running and notifications(app) == []  # no "Press ^q" toast
        await press(pilot, "n")
        assert isinstance(app.screen, GameScreen)
        await press(pilot, "1", "enter", key)  # from a dialog over the table, too
        await press(pilot, key)  # asked twice: the second is the answer (quit)
        assert app.return_code == 0 and not app.is_running


@pytest.mark.parametrize("key", ["ctrl+q", "ctrl+c"])
async def test_ctrl_q_and_ctrl_c_in_a_dialog_over_the_table_ask_first(key):
    s = table(["W", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        await press(pilot, "7", "enter")  # W: the colour picker
        await press(pilot, key)
        assert isinstance(app.screen, ConfirmLeave)
        await press(pilot, "m")
        assert isinstance(app.screen, MenuScreen)


@pytest.mark.parametrize("key", ["q", "ctrl+q", "ctrl+c"])
async def test_every_way_out_of_the_menu_quits(store, key):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, key)
        assert app.return_code == 0 and not app.is_running
