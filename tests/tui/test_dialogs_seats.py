"""The table's dialogs for 2–10 seats (#14): the end of a round and of the match
(ranking, scores, the winner or a shared win, under the match's scoring), the
challenge prompt naming who played the Wild Draw 4, the hot-seat cover."""

from __future__ import annotations

import re

from engine import PlayerView, Rules
from unoduo_tui.dialogs import ChallengePrompt, MatchOver, RoundOver
from unoduo_tui.screens.handoff import HandOff

from .conftest import clipped, screen_text
from .harness import NAMES, TableApp, position


def _round_end(m):
    return next(e for e in reversed(m.events) if e.kind == "round_end")


async def test_a_ten_seat_round_over_fits_at_80x24_and_names_every_seat():
    m = position(10, lambda m: len(m.rounds) >= 1)
    end = _round_end(m)
    app = TableApp(m.view(0), NAMES)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(RoundOver(end, NAMES, 0, m.rules))
        await pilot.pause()
        assert clipped(app.screen) == []
        text = screen_text(app)
        for name in NAMES:
            assert name[:6] in text
        assert f"*{NAMES[end.seat][:6]}" in text  # who went out
        said = str(app.screen.query(".dialog-text").first().render())
        assert said.endswith("reaches 500; the first to reach it wins.")


async def test_a_classic_match_over_ranks_the_seats_and_names_the_winner():
    m = position(4, lambda m: m.over and m.winner is not None,
                 rules=Rules(preset="classic", seats=4, target=60))
    view = m.view(0)
    app = TableApp(view, NAMES[:4])
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(MatchOver(view, NAMES[:4]))
        await pilot.pause()
        assert clipped(app.screen) == []
        text = screen_text(app)
    winner = "You win" if m.winner == 0 else f"{NAMES[m.winner]} wins"
    assert f"{winner} the match with {view.scores[m.winner]}!" in text
    assert re.search(rf"█\s+1 {NAMES[m.winner][:6]}", text)  # first in the ranking
    places = [int(p) for p in re.findall(r"█\s+(\d+) [A-Z]", text)]
    assert places == sorted(places) and len(places) == 4
    assert "first to 60 wins" in text


async def test_a_shared_win_names_everyone_who_shares_it():
    m = position(3, lambda m: m.over,
                 rules=Rules(preset="classic", seats=3, target=30, scoring="own_hand"))
    data = m.view(0).to_dict()
    low = min(data["scores"])
    data["scores"] = [low, low, max(data["scores"])]  # seats 0 and 1 share the lowest
    data["winner"] = None
    view = PlayerView.from_dict(data)
    app = TableApp(view, NAMES[:3])
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(MatchOver(view, NAMES[:3]))
        await pilot.pause()
        text = screen_text(app)
    best = min(view.scores)
    sharing = [NAMES[s] for s in range(3) if view.scores[s] == best]
    assert f"Shared win: {', '.join(sharing)} at {best}." in text
    assert "at 30, lowest wins" in text


async def test_the_challenge_prompt_names_who_played_the_wild_draw_4():
    m = position(4, lambda m: m.phase == "wd4" and m.to_act == 0
                 and "challenge" in m.legal_actions())
    view = m.view(0)
    player = next(e.seat for e in reversed(view.events) if e.kind == "play")
    app = TableApp(view, NAMES[:4])
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(ChallengePrompt(view, NAMES[:4]))
        await pilot.pause()
        text = " ".join(screen_text(app).split())
    assert f"{NAMES[player]} played W+4 and named" in text
    assert "you draw 6 and you lose your turn" in text  # C8: three or more seats


async def test_the_hot_seat_cover_asks_everyone_else_to_look_away():
    m = position(3, lambda m: m.to_act == 0)
    app = TableApp(m.view(0), NAMES[:3])
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(HandOff(NAMES[2]))
        await pilot.pause()
        text = screen_text(app)
    assert f"Pass to {NAMES[2]}" in text and "no one else can see the screen" in text
    assert "Your hand" not in text  # the cover hides the table
