"""Pilot tests at 80×24 that drive real flows by keys and assert on engine state."""

from __future__ import annotations

from engine import Rules

from unoduo_tui.dialogs import (ChallengePrompt, ColourPicker, DumpDialog, MatchOver, RoundOver,
                                 ShownHand)

from .conftest import clipped, game, press, seated, table


async def test_t1_play_a_matching_card_with_enter():
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", draws=["G1"], script=["draw"])
    async with seated(s) as (pilot, app):
        assert s.match.to_act == 0
        await press(pilot, "1", "enter")  # R5, first in the sorted hand
        assert "play R5" in s.match.actions
        assert "R5" not in map(str, s.match.hand(0))
        assert s.match.to_act == 0  # the bot drew G1 (no fit) and the turn came back


async def test_t2_draw_then_keep_the_drawn_card_with_p():
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", draws=["R7", "G1", "B1"], script=["draw"])
    async with seated(s) as (pilot, app):
        await press(pilot, "d")
        m = s.match
        assert m.phase == "drawn" and m.to_act == 0
        assert app.screen.query_one("Hand").selected_card.text == "R7"
        await press(pilot, "p")
        assert "R7" in map(str, m.hand(0))
        assert m.to_act == 0 and m.phase == "turn"  # the bot drew G1 and could not play
        await press(pilot, "d")  # B1 does not fit R1: the turn ends by itself
        assert "B1" in map(str, m.hand(0))


async def test_t5_wild_asks_for_the_colour_with_r_y_g_b():
    s = table(["W", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        await press(pilot, "7", "enter")  # W sorts last
        assert isinstance(app.screen, ColourPicker) and clipped(app.screen) == []
        await press(pilot, "g")
        assert "play W G" in s.match.actions
        assert s.match.color == "G" or s.match.to_act == 0


async def test_a1_volley_stacked_both_ways_then_drawn():
    s = table(["R+2", "Y+2", "G8", "B2", "B3", "Y4", "Y6"], ["G+2", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", script=["play G+2", "draw"])
    async with seated(s) as (pilot, app):
        await press(pilot, "1", "enter")  # R+2; the bot stacks G+2
        m = s.match
        assert m.phase == "volley" and m.pending_draw == 4 and m.to_act == 0
        assert "Facing +4" in str(app.screen.query_one("StatusLine").render())
        await press(pilot, "enter")  # Y+2 is selected: the only playable card
        assert len(m.hand(1)) == 6 + 6  # the bot took the volley of 6
        assert m.to_act == 0 and m.phase == "turn"  # A1: the last +2's player goes on


async def test_a1_draw_the_volley_with_d():
    s = table(["R+2", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["G+2", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", script=["play G+2"])
    async with seated(s) as (pilot, app):
        await press(pilot, "1", "enter", "d")
        assert len(s.match.hand(0)) == 6 + 4
        assert "draw" in s.match.actions[-2:] or s.match.to_act == 0


async def test_a4_dump_choosing_the_last_card():
    s = table(["RR", "R3", "R+2", "G7", "B2", "B3", "Y4"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        hand = app.screen.query_one("Hand")
        hand.select_card(next(c for c in hand.cards if c.text == "RR"))
        await press(pilot, "enter")
        assert isinstance(app.screen, DumpDialog) and clipped(app.screen) == []
        await press(pilot, "right")  # the last card: R3 → R+2
        await press(pilot, "enter")
        m = s.match
        assert [c.text for c in m.discard_pile[-3:]] == ["RR", "R3", "R+2"]
        assert m.hand(0) and all(c.colour != "R" for c in m.hand(0))
        assert len(m.hand(1)) == 7 + 2  # the last card, R+2, made the bot draw 2


async def test_a4_decline_the_dump_with_n():
    s = table(["RR", "R3", "G7", "G8", "B2", "B3", "Y4"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        hand = app.screen.query_one("Hand")
        hand.select_card(next(c for c in hand.cards if c.text == "RR"))
        await press(pilot, "enter", "n")
        assert "nodump" in s.match.actions
        assert "R3" in map(str, s.match.hand(0))


async def _wd4(guilty: bool, key: str):
    bot = ["W+4", "R9" if guilty else "B9", "B8", "B7", "B6", "B5", "Y9"]
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], bot, "R1",
              script=["play W+4 G", "draw"])
    async with seated(s) as (pilot, app):
        await press(pilot, "1", "enter")  # R5; the bot answers W+4 naming green
        assert isinstance(app.screen, ChallengePrompt) and clipped(app.screen) == []
        await press(pilot, key)
        if key == "c":  # A6: the hand shown to the challenger, in a dialog
            assert isinstance(app.screen, ShownHand) and clipped(app.screen) == []
            await press(pilot, "enter")
        return s.match


async def test_a6_challenge_a_guilty_wild_draw_4():
    m = await _wd4(True, "c")
    assert len(m.hand(1)) == 6 + 4 and len(m.hand(0)) == 6
    assert m.color == "G"


async def test_a6_challenge_an_honest_wild_draw_4():
    m = await _wd4(False, "c")
    assert len(m.hand(0)) == 6 + 6
    assert len(m.hand(1)) == 6 + 1  # A5: the W+4's player took another turn (and drew)


async def test_a5_draw_4_instead_of_challenging():
    m = await _wd4(True, "d")
    assert len(m.hand(0)) == 6 + 4 and "challenge" not in m.actions


def _two_cards(script):
    return table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
                 "Y9"], "R1", script=script, hands=[["R5", "R6"], ["B9", "B8", "B7"]],
                 draw=["G1", "G2", "G3", "G4"])


async def test_u1_say_uno_with_u_before_playing():
    s = _two_cards(["draw"])
    async with seated(s) as (pilot, app):
        await press(pilot, "u")
        assert "UNO" in str(app.screen.query_one("StatusLine").render())
        await press(pilot, "enter")
        assert any(a.startswith("play R") and a.endswith("uno") for a in s.match.actions)
        assert s.match.exposed is None and len(s.match.hand(0)) == 1


async def test_u2_forgotten_uno_is_caught_by_the_bot():
    s = _two_cards(["catch", "draw"])
    async with seated(s) as (pilot, app):
        await press(pilot, "enter")
        assert "catch" in s.match.actions
        assert len(s.match.hand(0)) == 3


async def test_u2_catch_the_bot_with_x():
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", script=["play R6"], hands=[["R5", "G7", "G8"], ["R6", "B9"]],
              draw=["G1", "G2", "G3", "G4"])
    async with seated(s) as (pilot, app):
        await press(pilot, "1", "enter")  # R5; the bot plays R6 without UNO
        assert s.match.exposed == 1
        await press(pilot, "x")
        assert len(s.match.hand(1)) == 3 and s.match.to_act == 0


async def test_e1_round_over_summary_then_the_next_round():
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", hands=[["R5"], ["B9", "B8"]])
    async with seated(s) as (pilot, app):
        await press(pilot, "enter")
        assert isinstance(app.screen, RoundOver) and clipped(app.screen) == []
        assert s.match.scores == (0, 17) and s.match.round == 2
        await press(pilot, "enter")
        assert game(app) is app.screen and s.match.phase == "draft"


async def test_e4_match_over_with_a_small_target():
    s = table(["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"], ["B9", "B8", "B7", "B6", "B5", "B4",
              "Y9"], "R1", hands=[["R5"], ["B9", "B8"]], rules=Rules(target=10))
    async with seated(s) as (pilot, app):
        await press(pilot, "enter", "enter")
        assert s.match.over and s.match.winner == 0
        assert isinstance(app.screen, MatchOver) and clipped(app.screen) == []
        await press(pilot, "m")
        assert type(app.screen).__name__ == "MenuScreen"


async def test_start_wild_asks_p1_for_the_colour(store):
    from engine import Match
    from tests.engine.helpers import stacked_deck
    from unoduo_tui.table.local import LocalTable
    from .conftest import Scripted
    deck = stacked_deck(["R1", "R2", "R3", "R4", "R5", "R6", "R7"],
                        ["B1", "B2", "B3", "B4", "B5", "B6", "B7"], "W")
    m = Match.new(Rules(), seed=0, deck=deck, first=0)
    s = LocalTable(m, ("Ann", "Bot"), ("human", "bot:random"), bots={1: Scripted()})
    async with seated(s) as (pilot, app):
        for _ in range(7):
            await press(pilot, "k")
        assert isinstance(app.screen, ColourPicker)
        await press(pilot, "escape")  # cannot be cancelled: still asked
        assert isinstance(app.screen, ColourPicker)
        await press(pilot, "b")
        assert m.color == "B"
