"""Classic UNO at the table (#14): 4 seats played by keys, hot-seat for 3 humans and a
bot, resume, practice undo through the table's cursor, and the screen's boundary (it
talks to a table, never to the match, the store or the bots)."""

from __future__ import annotations

import ast
import queue
from pathlib import Path

import pytest

from engine import Match, Rules
from engine.chance import ChanceLog
from tests.engine.helpers import arrange, dealt
from tests.engine.test_classic import classic_deck
from tests.tui.conftest import (SIZE, Scripted, game, make_app, press, screen_text, seated,
                                settle)
from tests.tui.test_table_edges import BOT7, HAND7
from unoduo_tui.dialogs import ChallengePrompt, MatchOver, RoundOver, ShownHand
from unoduo_tui.plan import MatchPlan
from unoduo_tui.screens.game import GameScreen
from unoduo_tui.screens.handoff import HandOff
from unoduo_tui.table import Refused, TableUpdate
from unoduo_tui.table.local import UNDO_EVERY, LocalTable
from unoduo_tui.widgets import Seats, StatusLine

NAMES = ("Ann", "Bo", "Cy", "Di")

#: seat 3 deals (C3), so Ann (seat 0, its left) plays first on the R5
HANDS = [
    ["RR", "G+2", "G0", "G1", "G2", "G3", "G4"],           # Ann, by keys
    ["W+4", "R9", "G5", "G6", "G7", "G8", "G9"],           # Bo: a guilty W+4 (holds R9)
    ["G1", "G2", "G3", "G4", "G5", "Y1", "Y2"],            # Cy
    ["R+2", "G6", "G7", "G8", "G9", "Y3", "Y4"],           # Di
]
BOTS = {
    1: ["play W+4 G", "play G5", "play G6", "play G7", "play G8", "play G9"],
    2: ["draw", "play G1", "play G2", "play G3", "play G4", "play G5"],
    3: ["play R+2", "draw", "play G6", "play G7", "play G8", "play G9"],
}


def classic4(target: int = 30) -> Rules:
    return Rules(preset="classic", seats=4, target=target)


def dealt4(rules: Rules) -> Match:
    return Match.new(rules, seed=0, deck=classic_deck(HANDS, "R5", 3, rules=rules), first=3)


async def play(pilot, text: str, uno: bool = False) -> None:
    """Ann plays the card ``text`` by keys: its number in the hand, then Enter."""
    g = game(pilot.app)
    faces = [c.text for c in g.hand.cards]
    assert text in faces, (text, faces)
    index = faces.index(text)
    if uno:
        await pilot.press("u")
    await pilot.press(*(["right"] * index if index >= 9 else [str(index + 1)]))
    assert g.hand.selected_card.text == text
    await press(pilot, "enter")


def decisions_after(m: Match, text: str) -> list[str]:
    log = [str(a) for a in m.actions if not a.is_chance]
    return log[log.index(text) + 1:]


async def test_a_classic_match_at_four_seats_by_keys_to_the_winner():
    rules = classic4()
    t = LocalTable(dealt4(rules), NAMES, ("human", "bot:easy", "bot:easy", "bot:easy"),
                   bots={seat: Scripted(moves) for seat, moves in BOTS.items()})
    m = t.match
    async with seated(t) as (pilot, app):
        g = game(app)
        # the deal (C3): seven cards each, Ann sees hers and the others' counts only
        view = g.my_view()
        assert view.dealer == 3 and view.hand_sizes == (7, 7, 7, 7) and view.to_act == 0
        assert sorted(c.text for c in g.hand.cards) == sorted(HANDS[0])
        # a Reverse with four seats: play goes to Di, whose Draw 2 makes Cy draw 2 and
        # lose the turn, so Bo plays next — a W+4 that Ann, the seat after Bo, may challenge
        await play(pilot, "RR")
        assert m.direction == -1
        assert decisions_after(m, "play RR") == ["play R+2", "draw", "play W+4 G"]
        assert len(m.hand(2)) == 9
        assert isinstance(app.screen, ChallengePrompt) and app.screen.opponent == "Bo"
        # the challenge from the next seat: guilty (Bo held R9); Ann alone sees the hand
        await press(pilot, "c")
        assert isinstance(app.screen, ShownHand) and app.screen.player == "Bo"
        assert "R9" in [c.text for c in app.screen.cards]
        await press(pilot, "enter")
        assert len(m.hand(1)) == 10 and m.to_act == 0
        # Ann's Draw 2 skips the next seat (Di draws 2 and Cy plays)
        await play(pilot, "G+2")
        assert decisions_after(m, "play G+2")[:2] == ["draw", "play G1"]
        assert len(m.hand(3)) == 7 - 1 + 2  # played R+2, drew 2
        for card in ("G0", "G1", "G2"):
            await play(pilot, card)
        await play(pilot, "G3", uno=True)
        await play(pilot, "G4")  # out: the round is over, and with it the match
        assert isinstance(app.screen, RoundOver) and app.screen.winner == 0
        assert m.over and m.winner == 0 and m.scores[0] >= rules.target
        await press(pilot, "enter")
        assert isinstance(app.screen, MatchOver) and app.screen.view.winner == 0
        assert "You win the match" in str(app.screen.query_one(".dialog-title").render())


async def test_c8_the_challenge_prompt_hints_only_on_t_as_in_uno_duo():
    """UNO Duo's prompt showed the guilt odds unasked, classic's did not: one
    behaviour — nothing until ``t``, then the hint, in both games."""
    rules = classic4()
    t = LocalTable(dealt4(rules), NAMES, ("human", "bot:easy", "bot:easy", "bot:easy"),
                   bots={seat: Scripted(moves) for seat, moves in BOTS.items()})
    async with seated(t) as (pilot, app):
        await play(pilot, "RR")
        prompt = app.screen
        assert isinstance(prompt, ChallengePrompt) and "Hint:" not in screen_text(app)
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert prompt.hint.startswith("Hint: ") and prompt.hint[:20] in screen_text(app)
        assert app.screen is prompt  # still to answer


def _human_move(g: GameScreen) -> list[str]:
    """Keys for a plain move from the viewer's view: a fitting coloured card, else draw,
    else keep the drawn card."""
    view = g.my_view()
    legal = view.legal_actions
    faces = [c.text for c in g.hand.cards]
    plays = [a for a in legal if a.kind == "play" and not a.card.is_wild and not a.uno]
    if plays and faces.index(plays[0].card.text) < 9:
        return [str(faces.index(plays[0].card.text) + 1), "enter"]
    kinds = [a.kind for a in legal]
    return ["d"] if "draw" in kinds else ["p"]


async def test_hot_seat_three_humans_and_a_bot_cover_between_every_change_of_human():
    rules = classic4(target=500)
    t = LocalTable.start(None, MatchPlan(NAMES, ("human", "human", "human", "bot:easy"),
                                         rules, 0),
                         deck=classic_deck(HANDS, "R5", 3, rules=rules), first=3)
    m = t.match
    async with seated(t) as (pilot, app):
        g = game(app)
        last, changes, covers = None, 0, 0
        for _ in range(16):
            await settle(pilot)
            if isinstance(app.screen, ChallengePrompt):
                await press(pilot, "d")
                continue
            seat = m.to_act
            if seat != last:
                changes += 1
                # a new human at the keyboard: the cover first, naming them, no hand under it
                assert isinstance(app.screen, HandOff), (seat, last)
                assert app.screen.player == NAMES[seat] and g.viewer is None
                covers += 1
                await press(pilot, "enter")
            assert app.screen is g and g.viewer == seat == m.to_act
            # only this seat's own hand is on the screen
            assert sorted(c.text for c in g.hand.cards) == sorted(c.text for c in m.hand(seat))
            await press(pilot, *_human_move(g))
            last = seat
        assert covers == changes >= 8


async def test_hot_seat_says_whose_turn_it_is_by_name_not_you():
    """Several humans at one keyboard: "You" was everyone; the strip, the hand and the
    status line name the player whose turn it is."""
    rules = classic4(target=500)
    t = LocalTable.start(None, MatchPlan(NAMES, ("human", "human", "human", "bot:easy"),
                                         rules, 0),
                         deck=classic_deck(HANDS, "R5", 3, rules=rules), first=3)
    async with seated(t) as (pilot, app):
        assert isinstance(app.screen, HandOff)
        await press(pilot, "enter")
        g = game(app)
        name = NAMES[t.match.to_act]
        rows = screen_text(app).splitlines()
        strip = rows[g.query_one(Seats).region.y]
        assert strip.lstrip().startswith(f"▶ {name}") and "You" not in strip
        assert f"{name}'s hand" in screen_text(app) and "Your hand" not in screen_text(app)
        status = str(g.query_one(StatusLine).render())
        assert status.strip().startswith(f"{name}'s turn"), status


async def test_unoduo_resume_of_a_classic_match(store):
    rules = classic4(target=500)
    plan = MatchPlan(NAMES, ("human", "bot:easy", "bot:easy", "bot:easy"), rules, 0)
    t = LocalTable.start(store, plan, deck=classic_deck(HANDS, "R5", 3, rules=rules), first=3)
    t.apply("play RR")
    while t.match.to_act != 0:
        view = t.match.view(t.match.to_act)
        t.apply(t.bots[view.seat].choose(view))
    ref, log = t.handle.id, t.match.actions
    t.close()
    app = make_app(store, start="resume", resume=ref)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        g = game(app)
        if isinstance(app.screen, ChallengePrompt):
            await press(pilot, "d")
        assert g.table.match.actions[:len(log)] == log and g.table.kinds == plan.kinds
        assert g.my_view().seat == 0 and g.my_view().dealer == 3 and g.my_view().direction == -1
        assert sorted(c.text for c in g.hand.cards) == sorted(
            c.text for c in g.table.match.hand(0))
        before = g.table.match.log_length
        await press(pilot, *_human_move(g))
        saved = store.open(ref, read_only=True).match
        assert saved.log_length > before and saved.actions == g.table.match.actions


def test_practice_undo_walks_the_cursor_instead_of_replaying_the_whole_log(monkeypatch):
    t = LocalTable(Match.new(Rules(target=10_000), seed=4), ("Ann", "Rando"),
                   ("human", "bot:random"))
    m = t.match
    while m.log_length < 6 * UNDO_EVERY:
        seat = m.to_act
        t.apply(t.bots[seat].choose(m.view(seat)) if seat == 1 else m.legal_actions()[0])
    assert t.can_undo  # the cursor is built here, once
    replayed = []
    real = ChanceLog._replay_one

    def counting(self, entry):
        replayed.append(entry)
        return real(self, entry)

    monkeypatch.setattr(ChanceLog, "_replay_one", counting)
    for _ in range(5):  # move on, then take it back: the cursor follows, never rebuilt
        m = t.match
        while True:
            seat = m.to_act
            t.apply(t.bots[seat].choose(m.view(seat)) if seat == 1 else m.legal_actions()[0])
            if m.to_act == 0:
                break
        before = t.match.actions
        replayed.clear()
        assert t.undo()
        assert len(replayed) < UNDO_EVERY  # from the nearest snapshot, not the start
        m = t.match
        assert m.to_act == 0 and before[:m.log_length] == m.actions
        assert str(Match.replay(m.rules, m.actions, seed=m.seed).view(0).hand) == str(
            m.view(0).hand)


def test_the_table_refuses_with_a_reason_and_the_match_is_unchanged():
    t = LocalTable(dealt4(classic4()), NAMES, ("human", "bot:easy", "human", "bot:easy"),
                   bots={1: Scripted(), 3: Scripted()})
    before = t.match.actions
    for seat, text, why in ((2, "draw", "not Cy's turn"), (1, "draw", "is a bot"),
                            (0, "play G9", "G9"), (0, "fly away", ""), (9, "draw", "no seat"),
                            (True, "draw", "no seat"), (0, None, "text")):
        try:
            t.act(seat, text)
        except Refused as exc:
            assert why in exc.reason
        else:
            raise AssertionError(f"{seat} {text!r} was taken")
    assert t.match.actions == before
    try:  # a hint is for practice (one human against bots); this table has two humans
        t.hint(0)
    except Refused as exc:
        assert "practice" in exc.reason
    else:
        raise AssertionError("a hint outside practice")
    t.act(0, "play RR")
    assert t.match.to_act == 3


def test_an_update_is_plain_data_and_back():
    t = LocalTable(dealt4(classic4()), NAMES, ("human", "bot:easy", "human", "bot:easy"),
                   bots={1: Scripted(), 3: Scripted()})
    now = t.subscribe(lambda update: None)
    assert set(now.views) == {0, 2}  # the humans' seats at this keyboard, no other hand
    data = now.to_dict()
    assert TableUpdate.from_dict(data) == now
    for bad in ({**data, "cause": "nope"}, {**data, "seq": "1"}, [], {**data, "views": [[1, 2]]}):
        try:
            TableUpdate.from_dict(bad)
        except ValueError:
            pass
        else:
            raise AssertionError(f"{bad!r:.60} was read")
    t.close()


@pytest.mark.parametrize("module", ["game.py", "game_keys.py"])
def test_the_game_screen_talks_only_to_a_table(module):
    """Its imports: no Match, no store or save handle, no bots, no local table."""
    path = Path(__file__).parents[2] / "unoduo_tui" / "screens" / module
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            names |= {f"{module}:{a.name}" for a in node.names} | {module}
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
    forbidden = {"engine:Match", "engine:bots", "engine.bots", "..store", "..savehandle",
                 "..table.local", "..session", "engine.match"}
    assert not names & forbidden, names & forbidden
    assert "getattr(self.app" not in path.read_text(encoding="utf-8")


def _until(updates: "queue.Queue[TableUpdate]", test) -> TableUpdate:
    """The first update that passes ``test`` (30 s: a safety net, never a wait)."""
    while True:
        update = updates.get(timeout=30)
        if test(update):
            return update


def test_the_bots_wait_at_a_rounds_end_until_a_client_lets_go():
    m = dealt(HAND7, BOT7, "R1", first=0)  # the bot plays first, and drafts first in round 2
    arrange(m, hands=[HAND7, ["R9"]], spare="under")
    t = LocalTable(m, ("Ann", "Bot"), ("human", "bot:random"), bots={1: Scripted(["play R9"])})
    updates: "queue.Queue[TableUpdate]" = queue.Queue()
    t.subscribe(updates.put)
    try:
        _until(updates, lambda u: u.views[0].round == 2)  # the bot went out
        assert t.match.to_act == 1 and t.idle  # its turn, but the table holds
        held = t.match.log_length
        t.hold(False)  # the player has seen the round's end
        moved = _until(updates, lambda u: u.cause == "move")
        assert moved.views[0].round == 2 and t.match.log_length > held
    finally:
        t.close()


def test_a_bot_move_waits_the_tables_pause_and_says_who_is_thinking():
    t = LocalTable(dealt4(classic4()), NAMES, ("human", "bot:easy", "bot:easy", "bot:easy"),
                   bots={seat: Scripted(moves) for seat, moves in BOTS.items()},
                   bot_pause=0.05)
    updates: "queue.Queue[TableUpdate]" = queue.Queue()
    t.subscribe(updates.put)
    try:
        t.act(0, "play RR")
        played = _until(updates, lambda u: u.cause == "move")  # the move says it at once
        assert played.thinking == 3 and played.to_act == 3
        moved = _until(updates, lambda u: u.cause == "move")
        assert moved.to_act == 2 and moved.thinking == 2  # Di's Draw 2 hits Cy: his turn
    finally:
        t.close()


async def test_no_bot_is_shown_thinking_under_the_round_over_dialog():
    """The update that ends a round says nobody is thinking; the screen takes that in
    before it puts the round-over dialog up (it once kept the last bot's spinner)."""
    from tests.tui.conftest import table
    from unoduo_tui.widgets import Seats

    t = table(HAND7, BOT7, "G1", hands=[["B2", "B3", "B4"], ["G5", "G6"]],
              draw=["R7", "R8"], script=["play G5 uno", "play G6"])
    async with seated(t) as (pilot, app):
        for _ in range(2):
            await press(pilot, "d")
            await press(pilot, "p")
        assert isinstance(app.screen, RoundOver) and app.screen.winner == 1
        g = game(app)
        assert g.query_one(Seats).thinking is None and not g.thinking
