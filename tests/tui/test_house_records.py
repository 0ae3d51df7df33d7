"""The house rules (H1–H5) in what is made of a saved match: the replay from every
seat's eyes and from all hands, the transcript and export, the review and the stats —
on a 4-seat partners match with all five rules on, played by normal bots that jump in
(it holds jump-ins, 7 swaps, 0 passes and a stacked Wild Draw 4)."""

from __future__ import annotations

import json
import re

import pytest

from engine import Match, describe
from engine.replay import ReplayCursor
from engine.review import Reviewer, positions
from tests.tui.classic_saves import NAMES, house_match
from tests.tui.conftest import SIZE, clipped, make_app
from unoduo_tui.cli import main
from unoduo_tui.screens.replay import ReplayScreen
from unoduo_tui.store import Seat, Store
from unoduo_tui.widgets import Hand, Seats


@pytest.fixture(scope="module")
def match() -> Match:
    m = house_match(4, seed=5)
    kinds = {e.kind for e in m.events}
    assert {"jump", "swap", "rotate", "receive"} <= kinds and m.over
    assert any(e.kind == "play" and e.card.rank == "W+4" and e.total > 4 for e in m.events)
    return m


def save(store: Store, m: Match, humans: int = 1) -> str:
    seats = tuple(Seat(NAMES[s], "human" if s < humans else "bot:normal")
                  for s in range(m.seats))
    with store.new_match(m, seats) as handle:
        return handle.id


def test_h_the_replay_shows_each_seat_its_own_hand_only_at_every_position(match):
    cursor = ReplayCursor.of(match)
    for pos in range(cursor.count + 1):
        m = cursor.goto(pos)
        if pos:
            decision = cursor.decision(pos)
            before = cursor.goto_copy(pos - 1)
            assert cursor.actor(pos) == before.decider(decision)
        for seat in range(m.seats):
            v = cursor.view(seat)
            assert v.hand == tuple(m.hand(seat)) and v.hand_sizes == m.hand_sizes
            assert v.legal_actions == m.legal_actions(seat)
            for e in v.events:
                if e.private is not None and e.private != seat:
                    assert e.cards == ()


async def test_h_the_replay_screen_shows_every_seat_after_a_swap_and_all_hands(tmp_path, match):
    store = Store(tmp_path)
    ref = save(store, match)
    cursor = ReplayCursor.of(match)
    swap = next(p for p in range(1, cursor.count + 1)
                if any(e.kind == "swap" for e in cursor.events_of(p)))
    app = make_app(store, start="replay", replay=ref)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("home", *["right"] * swap)
        await pilot.pause()
        m = cursor.goto(swap)
        assert screen.cursor.position == swap
        for seat in range(4):
            await pilot.press("p")
            await pilot.pause()
            assert screen.perspective == seat
            assert screen.query_one(Hand).view.hand == tuple(m.hand(seat))
            assert not hasattr(screen.query_one(Seats).view, "hands")
            assert clipped(screen) == []
        await pilot.press("p")
        await pilot.pause()
        assert screen.perspective == "all" and clipped(screen) == []


def test_h_the_transcript_and_export_tell_every_house_rule(tmp_path, match, capsys):
    store = Store(tmp_path)
    ref = save(store, match)
    assert main(["transcript", ref, "--data-dir", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    for said in ("jumps in with", "swaps hands with", "every hand passes to the", "stacks W+4",
                 "now holds"):
        assert said in text, said
    team = " & ".join(NAMES[s] for s in (match.winner, match.rules.partner(match.winner)))
    assert f"Result: {team} won" in text and f"Match over: {team} win" in text
    assert main(["export", ref, "--data-dir", str(tmp_path)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    seats = [x["seat"] for x in lines if x["type"] == "decision"]
    cursor = ReplayCursor.of(match)
    assert seats == [cursor.actor(p) for p in range(1, cursor.count + 1)]
    assert lines[0]["rules"]["teams"] == "partners" and lines[-1]["type"] == "footer"


def test_h_the_list_says_which_team_won(tmp_path, match, capsys):
    store = Store(tmp_path)
    ref = save(store, match)
    assert main(["list", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    w, partner = match.winner, match.rules.partner(match.winner)
    assert f"team {w + 1} won" in out and f"team {w + 1}: {NAMES[w]} & {NAMES[partner]}" in out
    assert ref[-6:] in out


def test_h_an_unfinished_transcript_shows_no_other_hand_after_a_swap_or_a_pass(tmp_path,
                                                                              capsys):
    m = house_match(4, seed=5, limit=70)
    assert not m.over and any(e.kind in ("swap", "rotate") for e in m.events)
    store = Store(tmp_path)
    ref = save(store, m)
    assert main(["transcript", ref, "--data-dir", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    names = NAMES[:4]
    for e in m.events:
        if e.kind == "receive" and e.seat != 0:  # another seat's new hand: a count only
            line = describe(e.seen_by(0), names)
            assert line in text and re.search(r"\(\d+ cards?\)\.$", line), line
            assert " ".join(c.text for c in e.cards) not in line
    assert "Seed: hidden" in text


def test_h_the_review_skips_jump_ins_and_values_the_seats_own_decisions(match):
    mine = list(positions(match.rules, match.actions, match.seed, seats=[0]))
    cursor = ReplayCursor.of(match)
    expected = [p for p in range(1, cursor.count + 1)
                if cursor.actor(p) == 0 and cursor.decision(p).kind != "jump"]
    assert [p.step + 1 for p in mine] == expected
    reviewer = Reviewer(match.rules, match.seed, budget=8)
    searched = [p for p in mine if len(p.view.legal_actions) > 1][:3]
    for p in searched:
        d = reviewer.decision(p)
        assert d.seat == 0 and d.played == str(p.played) and 0.0 <= d.win_before <= 100.0


def test_h_stats_count_the_partners_win_for_both(tmp_path, match, capsys):
    store = Store(tmp_path)
    save(store, match, humans=4)
    assert main(["stats", "--json", "--data-dir", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    wins = {r["name"]: r["wins"] for r in out["players"]}
    team = {NAMES[match.winner], NAMES[match.rules.partner(match.winner)]}
    assert {n for n, w in wins.items() if w} == team, wins


def test_h5_the_review_says_a_partners_round_win_counts(tmp_path, match):
    from engine.review import summarise
    from unoduo_tui.commands.review import summary_lines

    store = Store(tmp_path)
    loaded = store.open(save(store, match), read_only=True)
    lines = summary_lines(loaded, summarise([], 4), NAMES[:4], range(4))
    assert " ".join(lines[1:4]).startswith("Win chance: of winning the round (the team's), ")
