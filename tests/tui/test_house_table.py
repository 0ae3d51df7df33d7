"""The house rules at the table (H1, H4, H5): a 7's swap picked in a keyboard dialog,
``j Jump in`` in the footer during another seat's turn, the bots' jump-ins, partners
on screen — at 80×24."""

from __future__ import annotations

import threading

from engine import Match, Rules
from tests.engine.test_classic import classic_deck
from tests.tui.conftest import Scripted, game, press, screen_text, seated
from unoduo_tui.dialogs import SwapPicker
from unoduo_tui.table.local import LocalTable

NAMES = ("Ann", "Bo", "Cy", "Di")
#: seat 3 deals, so Ann (seat 0) plays first on the B5
HANDS = [
    ["B7", "B9", "G1", "G2", "G3", "G4", "G6"],    # Ann
    ["B9", "Y1", "Y2", "Y3", "Y4", "Y6", "Y8"],    # Bo (holds the other B9)
    ["R1", "R2", "R3", "R4", "R6", "R8", "R9"],    # Cy
    ["G7", "G8", "G9", "Y9", "R5", "G5", "Y5"],    # Di
]


def table(rules: Rules, bots: dict, hands=HANDS) -> LocalTable:
    m = Match.new(rules, seed=0, deck=classic_deck(hands, "B5", 3, rules=rules), first=3)
    kinds = tuple("human" if s not in bots else "bot:easy" for s in range(4))
    return LocalTable(m, NAMES, kinds, bots=bots)


class Jumper(Scripted):
    """A scripted bot that jumps in whenever it can."""

    def jump(self, view):
        return view.legal_actions[0] if view.legal_actions else None


async def test_h1_a_7_asks_which_seat_to_swap_with_by_keys():
    rules = Rules(preset="classic", seats=4, seven_zero=True)
    t = table(rules, {1: Scripted(), 2: Scripted(), 3: Scripted()})
    async with seated(t) as (pilot, app):
        g = game(app)
        await pilot.press(str([c.text for c in g.hand.cards].index("B7") + 1))
        assert g.hand.selected_card.text == "B7"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SwapPicker)
        text = screen_text(app)
        assert "1  Bo — 7 cards" in text and "3  Di — 7 cards" in text
        assert "partner" not in text  # no teams
        before = t.match.hand(2)
        await press(pilot, "2")  # the second seat offered: Cy
        assert [str(a) for a in t.match.actions if not a.is_chance][0] == "play B7 swap 2"
        assert t.match.hand(0) == before


class Held(Scripted):
    """A scripted bot that thinks until the test lets it go."""

    def __init__(self, moves=()):
        super().__init__(moves)
        self.go = threading.Event()

    def choose(self, view):
        self.go.wait(30)
        return super().choose(view)


async def until(pilot, test, what: str) -> None:
    for _ in range(2000):
        if test():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"never: {what}")


async def test_h4_the_footer_offers_jump_in_during_another_seats_turn_and_j_jumps():
    rules = Rules(preset="classic", seats=4, jump_in=True)
    cy = Held()
    t = table(rules, {1: Scripted(["play B9"]), 2: cy, 3: Scripted()})
    try:
        async with seated(t) as (pilot, app):
            g = game(app)
            await pilot.press(str([c.text for c in g.hand.cards].index("B7") + 1), "enter")
            # Bo plays B9; Cy thinks: Ann holds the other B9 and may jump in
            await until(pilot, lambda: g.latest is not None and g.latest.to_act == 2
                        and g.check_action("jump_in", ()), "Ann may jump in")
            assert "Jump in" in screen_text(app) and g.latest.to_act == 2
            assert g.hand.selected_card.text == "B9"  # the twin is pointed at
            assert "jump in with your B9 (j)!" in screen_text(app)
            await pilot.press("j")
            await until(pilot, lambda: any(e.kind == "jump" for e in t.match.events), "a jump")
            jump = next(e for e in t.match.events if e.kind == "jump")
            assert jump.seat == 0 and jump.cards[0].text == "B9"
            assert t.match.to_act == 1  # play goes on from Ann: Cy lost its turn
            cy.go.set()
    finally:
        cy.go.set()


async def test_h4_a_bot_jumps_in_on_the_humans_card():
    rules = Rules(preset="classic", seats=4, jump_in=True)
    hands = [HANDS[0], ["Y7"] + HANDS[1][1:], HANDS[2], ["B9"] + HANDS[3][1:]]
    t = table(rules, {1: Scripted(), 2: Scripted(), 3: Jumper()}, hands)
    async with seated(t) as (pilot, app):
        g = game(app)
        await pilot.press(str([c.text for c in g.hand.cards].index("B9") + 1))
        await press(pilot, "enter")
        jumps = [e for e in t.match.events if e.kind == "jump"]
        assert jumps and jumps[0].seat == 3 and jumps[0].cards[0].text == "B9"
        log = [str(a) for a in t.match.actions if not a.is_chance]
        assert log[:2] == ["play B9", "jump B9"]  # Bo lost its turn to Di's jump


async def _partners_screen(seats: int, monkeypatch) -> str:
    monkeypatch.setenv("NO_COLOR", "1")
    rules = Rules(preset="classic", seats=seats, teams="partners")
    names = tuple(f"P{s}" for s in range(seats))
    m = Match.new(rules, seed=7)
    t = LocalTable(m, names, ("human",) + ("bot:easy",) * (seats - 1),
                   bots={s: Scripted() for s in range(1, seats)})
    async with seated(t) as (pilot, app):
        return screen_text(app)


async def test_h5_the_seat_strip_shows_the_teams_at_4_seats(monkeypatch):
    text = await _partners_screen(4, monkeypatch)
    lines = text.splitlines()
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    assert text.count(" T1") >= 2 and text.count(" T2") >= 2, text


async def test_h5_the_seat_strip_shows_the_teams_at_10_seats(monkeypatch):
    text = await _partners_screen(10, monkeypatch)
    lines = text.splitlines()
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    for team in range(1, 6):
        assert text.count(f" T{team}") >= 2, (team, text)


def test_h4_the_table_takes_the_first_move_and_refuses_a_late_jump_as_too_late():
    from unoduo_tui.table import Refused

    rules = Rules(preset="classic", seats=4, jump_in=True)
    hands = [HANDS[0], ["Y7"] + HANDS[1][1:], HANDS[2], ["B9"] + HANDS[3][1:]]
    m = Match.new(rules, seed=0, deck=classic_deck(hands, "B5", 3, rules=rules), first=3)
    t = LocalTable(m, NAMES, ("human",) * 4)
    t.act(0, "play B9")
    assert "jump B9" in t.view(3).legal_actions
    t.act(1, "draw")  # Bo's decision reaches the table first: the window closes
    try:
        t.act(3, "jump B9")
    except Refused as exc:
        assert "too late" in exc.reason
    else:
        raise AssertionError("a late jump-in was taken")
    assert [str(a) for a in t.match.actions if not a.is_chance] == ["play B9", "draw"]
    t.close()


async def test_h2_the_challenge_prompt_offers_to_stack_a_wild_draw_4_by_keys():
    from unoduo_tui.dialogs import ChallengePrompt, ColourPicker

    rules = Rules(preset="classic", seats=4, stack_draw4="same")
    # Ann plays B9, Bo and Cy draw (keeping what they drew), Di plays a W+4 on Ann, who
    # holds one too (a scripted move the table finds illegal becomes the first legal one)
    hands = [["W+4"] + HANDS[0][1:], HANDS[1], HANDS[2], ["W+4"] + HANDS[3][1:]]
    t = table(rules, {1: Scripted(["draw", "pass"]), 2: Scripted(["draw", "pass"]),
                      3: Scripted(["play W+4 R"])}, hands)
    async with seated(t) as (pilot, app):
        g = game(app)
        await pilot.press(str([c.text for c in g.hand.cards].index("B9") + 1))
        await press(pilot, "enter")  # Ann plays B9; Bo, Cy draw; Di plays W+4 on Ann
        assert isinstance(app.screen, ChallengePrompt), type(app.screen)
        assert "Stack your W+4 (s)" in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, ColourPicker)
        await press(pilot, "g")
        log = [str(a) for a in t.match.actions if not a.is_chance]
        assert "play W+4 G" in log and t.match.pending_draw in (0, 8)


def test_h5_the_match_over_dialog_and_the_score_sheet_name_the_winning_team():
    from engine import describe
    from unoduo_tui.dialogs import MatchOver
    from unoduo_tui.text.words import result_line
    from unoduo_tui.widgets.scoresheet import ranking, standing
    from unoduo_tui.widgets.status import status_text

    m = Match.from_position(Rules(preset="classic", seats=4, teams="partners", target=5),
                            hands=[["G1", "G2"], ["B9"], ["Y1", "Y2"], ["R9", "R8"]],
                            draw_pile=["R3"], discard_pile=["B5"], to_act=1, phase="turn",
                            colour="B", p1=1)
    m.apply("play B9")
    assert m.over and m.winner == 1
    head, _ = MatchOver(m.view(3), NAMES).result(m.view(3))
    assert head == "You and Bo win the match with 6!"
    head, _ = MatchOver(m.view(0), NAMES).result(m.view(0))
    assert head == "Bo & Di win the match with 6!"
    assert standing(m.view(0), NAMES) == "Bo & Di win"
    assert standing(m.view(0), ("Ann", "Normal bot 1", "Cy", "Normal bot 2"), 20) == \
        "team 2 wins"  # the names do not fit: the number the rows give the team
    assert ranking(m.rules, m.scores) == [[1, 3], [0, 2]]  # partners share their place
    _, sheet = MatchOver(m.view(0), NAMES).result(m.view(0))
    assert [line.split()[:2] for line in sheet.plain.splitlines()[1:5]] == [
        ["1", "Bo"], ["1", "Di"], ["2", "Ann"], ["2", "Cy"]]
    assert status_text(m.view(3), NAMES) == "Match over: you and Bo win!"
    assert status_text(m.view(0), NAMES) == "Match over: Bo & Di win."
    assert status_text(m.view(1), NAMES, say_you=False) == "Match over: Bo & Di win."
    assert describe(m.events[-1], NAMES, 3) == "Match over: You and Bo win (0–6–0–6)."
    assert describe(m.events[-1], NAMES) == "Match over: Bo & Di win (0–6–0–6)."
    assert result_line(m, NAMES) == "Result: Bo & Di won, 0–6–0–6, after 1 round."


def test_h4_practice_undo_and_redo_take_a_jump_in_as_the_jumpers_own_decision():
    rules = Rules(preset="classic", seats=4, jump_in=True)
    t = table(rules, {1: Scripted(), 2: Scripted(), 3: Scripted()})
    decisions = lambda: [str(a) for a in t.match.actions if not a.is_chance]  # noqa: E731
    t.act(0, "play B7")  # Ann
    t.apply("play B9")  # Bo, a bot
    t.act(0, "jump B9")  # Ann again, out of turn: Cy (a bot) was to act
    assert t.practice and t.undo()
    assert decisions() == ["play B7", "play B9"]  # only Ann's jump-in went back
    assert t.undo() and decisions() == []
    assert t.redo() and decisions() == ["play B7", "play B9"]  # Ann's move, Bo's reply
    assert t.redo() and decisions() == ["play B7", "play B9", "jump B9"]
    t.close()


async def test_h4_hot_seat_offers_a_jump_in_only_to_the_seat_on_screen():
    from unoduo_tui.screens.handoff import HandOff

    rules = Rules(preset="classic", seats=4, jump_in=True)
    # Ann and Di share the keyboard; Di holds the twin of the B9 Bo plays
    hands = [HANDS[0][:1] + ["G8"] + HANDS[0][2:], HANDS[1], HANDS[2], ["B9"] + HANDS[3][1:]]
    cy = Held()
    t = table(rules, {1: Scripted(["play B9"]), 2: cy}, hands)
    assert t.mine == (0, 3)
    try:
        async with seated(t) as (pilot, app):
            assert isinstance(app.screen, HandOff)
            await press(pilot, "enter")  # Ann at the keyboard
            g = game(app)
            await pilot.press(str([c.text for c in g.hand.cards].index("B7") + 1))
            await pilot.press("enter")  # Ann plays B7, Bo plays B9, Cy thinks
            await until(pilot, lambda: g.latest is not None and g.latest.to_act == 2,
                        "Bo's B9")
            assert [str(a) for a in t.view(3).legal_actions] == ["jump B9"]  # Di could
            assert g.viewer == 0 and not g.check_action("jump_in", ())  # Ann is on screen
            assert "Jump in" not in screen_text(app) and "B9" not in [c.text for c in g.hand.cards]
            await pilot.press("j")
            await pilot.pause()
            assert not any(e.kind == "jump" for e in t.match.events) and t.match.to_act == 2
            cy.go.set()
    finally:
        cy.go.set()


def test_h4_a_bot_waits_longer_while_a_human_may_jump_in_whoever_holds_the_twin(monkeypatch):
    """The bots' pacing leaves a human time to jump: while the window is open, the bot to
    act waits JUMP_WAIT pauses — also when nobody holds the twin, so the wait tells
    nothing.  (The pauses are recorded, not slept: no clock in the test.)"""
    import queue

    from unoduo_tui.table import local

    asked: queue.Queue = queue.Queue()
    monkeypatch.setattr(local.LocalTable, "_pause",
                        lambda self, token, seconds: asked.put((len(self.match.actions),
                                                                seconds)))
    rules = Rules(preset="classic", seats=4, jump_in=True)
    for twin, first in ((True, "play B9"), (False, "play B7")):
        hands = [HANDS[0], ["Y7"] + HANDS[1][1:], HANDS[2],
                 (["B9"] if twin else ["Y5"]) + HANDS[3][1:]]
        m = Match.new(rules, seed=0, deck=classic_deck(hands, "B5", 3, rules=rules), first=3)
        t = LocalTable(m, NAMES, ("human", "bot:easy", "bot:easy", "human"),
                       bots={1: Scripted(["draw", "pass"]), 2: Scripted(["draw", "pass"])},
                       bot_pause=1.0)
        t.act(0, first)  # the window opens; Bo is to act
        done = threading.Event()
        t.subscribe(lambda u: done.set() if u.to_act == 3 else None)
        assert done.wait(30)
        pauses = []
        while not asked.empty():
            pauses.append(asked.get()[1])
        t.close()
        # Bo's move after Ann's card: the long wait; Cy's after Bo's draw: the usual one
        assert pauses[0] == local.JUMP_WAIT and pauses[-1] == 1.0, (twin, pauses)
    m = Match.new(Rules(preset="classic", seats=4), seed=0,
                  deck=classic_deck(HANDS, "B5", 3, rules=Rules(preset="classic", seats=4)),
                  first=3)
    m.apply("play B9")
    assert not m.jump_open  # without jump-in, never


def test_h2_h4_the_status_line_says_what_the_house_rules_allow_now():
    from unoduo_tui.widgets.status import status_text

    rules = Rules(preset="classic", seats=4, stack_draw4="same", jump_in=True)
    hands = [["W+4"] + HANDS[0][1:], ["W+4"] + HANDS[1][1:], HANDS[2], ["B9"] + HANDS[3][1:]]
    m = Match.new(rules, seed=0, deck=classic_deck(hands, "B5", 3, rules=rules), first=3)
    m.apply("play B9")  # Ann; Di holds the twin while Bo is to act
    assert status_text(m.view(3), NAMES) == "Waiting for Bo… · jump in with your B9 (j)!"
    m = Match.new(rules, seed=0, deck=classic_deck(hands, "B5", 3, rules=rules), first=3)
    m.apply("play W+4 R")  # Ann's on Bo, who holds one too
    assert status_text(m.view(1), NAMES) == \
        "Ann played W+4: stack yours (s), challenge (c) or draw 4 (d)"
    m.apply("play W+4 G")  # Bo stacks it: Cy faces 8, with no challenge
    assert status_text(m.view(2), NAMES) == "Facing +8: draw 8 (d)"


async def test_h1_h5_the_swap_dialog_marks_the_partner():
    rules = Rules(preset="classic", seats=4, seven_zero=True, teams="partners")
    t = table(rules, {1: Scripted(), 2: Scripted(), 3: Scripted()})
    async with seated(t) as (pilot, app):
        g = game(app)
        await pilot.press(str([c.text for c in g.hand.cards].index("B7") + 1), "enter")
        await pilot.pause()
        assert isinstance(app.screen, SwapPicker)
        assert "2  Cy (your partner) — 7 cards" in screen_text(app)
