"""``unoduo list``, the saved-matches screen and ``unoduo transcript`` of classic UNO
matches at 3 and 10 seats (issue #14): every seat named within 80 columns, the game,
the scores and the result; an unfinished match's transcript shows no card its human
did not see."""

from __future__ import annotations

import re

import pytest

from tests.tui.classic_saves import NAMES, classic_match, save_classic
from tests.tui.conftest import make_app, screen_text
from unoduo_tui.cli import main
from unoduo_tui.screens.saved import SavedScreen
from unoduo_tui.store import Store
from unoduo_tui.transcript import transcript_text
from unoduo_tui.text.words import and_list, distinct_names, standings


def listing(tmp_path, capsys, *extra: str) -> list[str]:
    assert main(["list", "--data-dir", str(tmp_path), *extra]) == 0
    return capsys.readouterr().out.splitlines()


def block(lines: list[str], short: str) -> list[str]:
    """The match's line of the listing and the indented lines under it."""
    start = next(i for i, line in enumerate(lines) if line.startswith(short))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith(" ")),
               len(lines))
    return lines[start:end]


@pytest.mark.parametrize("seats", [3, 10])
def test_list_names_every_seat_with_its_score_and_the_winner(tmp_path, capsys, seats):
    store = Store(tmp_path)
    ref = save_classic(store, seats)
    m = store.open(ref, read_only=True).match
    assert m.over and m.winner is not None
    lines = listing(tmp_path, capsys)
    assert all(len(line) <= 80 for line in lines)
    rows = block(lines, ref.rsplit("-", 1)[-1])
    assert f"Classic UNO, {seats} seats" in rows[0]
    assert rows[0].endswith(f"{NAMES[m.winner]} won")
    assert f"top {max(m.scores)}" in rows[0]
    said = " · ".join(row.strip() for row in rows[1:])
    for seat in range(seats):
        assert f"{NAMES[seat]} {m.scores[seat]}" in said


@pytest.mark.parametrize("seats", [3, 10])
def test_list_of_an_unfinished_match_and_spoiler_free(tmp_path, capsys, seats):
    store = Store(tmp_path)
    unfinished = save_classic(store, seats, limit=30)
    finished = save_classic(store, seats, seed=6)
    lines = listing(tmp_path, capsys, "--spoiler-free")
    assert all(len(line) <= 80 for line in lines)
    rows = block(lines, unfinished.rsplit("-", 1)[-1])
    assert rows[0].endswith("in progress")
    assert all(f"{name} 0" in " ".join(rows[1:]) for name in NAMES[:seats])
    rows = block(lines, finished.rsplit("-", 1)[-1])
    assert rows[0].endswith("finished") and " ? " in rows[0]
    names = " · ".join(row.strip() for row in rows[1:])
    assert names == " · ".join(NAMES[:seats])  # names only: no scores


def test_like_long_names_stay_apart_within_80_columns(tmp_path, capsys):
    store = Store(tmp_path)
    names = [f"Random bot number {i}" for i in range(10)]
    save_classic(store, 10, limit=20, names=names)
    lines = listing(tmp_path, capsys)
    assert all(len(line) <= 80 for line in lines)
    parts = [p.rsplit(" ", 1)[0] for row in lines[2:] for p in row.strip().split(" · ")]
    assert len(parts) == 10 and len(set(parts)) == 10
    assert distinct_names(names, 6) == [f"Rand…{i}" for i in range(10)]


def test_words_for_seats():
    assert and_list(["Ann"]) == "Ann"
    assert and_list(["Ann", "Bea"]) == "Ann and Bea"
    assert and_list(["Ann", "Bea", "Cal"]) == "Ann, Bea and Cal"
    rows = standings(list(NAMES), list(range(10)), 40)
    assert all(len(r) <= 40 for r in rows) and " · ".join(rows).count(" · ") == 9


async def test_the_saved_matches_screen_lists_every_seat(tmp_path):
    store = Store(tmp_path)
    ref = save_classic(store, 10)
    m = store.open(ref, read_only=True).match
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(SavedScreen())
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
    assert "Classic UNO · 10 seats · round" in text
    for seat in range(10):
        assert re.search(rf"\b{NAMES[seat]} {m.scores[seat]}\b", text), NAMES[seat]


def _token(card: str) -> re.Pattern:
    return re.compile(rf"(?<![\w+]){re.escape(card)}(?![\w+])")


@pytest.mark.parametrize("seats", [3, 10])
def test_transcript_of_an_unfinished_match_shows_only_what_its_human_saw(tmp_path, seats):
    store = Store(tmp_path)
    ref = save_classic(store, seats, limit=40)
    m = classic_match(seats, limit=40)
    assert not m.over
    text = transcript_text(store.open(ref, read_only=True))
    seen = {str(c) for e in m.events for c in e.cards if e.private in (None, 0)}
    secret = {str(c) for s in range(1, seats) for c in m.hand(s)} - seen
    secret |= {str(c) for c in m.draw_pile[:5]} - seen
    assert secret, "the test needs a card Ann never saw"
    for card in secret:
        assert not _token(card).search(text), card
    assert "Seed: hidden until the match is over" in text and "Seen by: Ann" in text
    for seat in range(1, seats):
        assert f"Dealt: {NAMES[seat]} holds 7 cards" in text
    assert "Result: not finished — round 1, " + "–".join(map(str, m.scores)) in text


@pytest.mark.parametrize("seats", [3, 10])
def test_transcript_of_a_finished_match_names_every_seat_and_the_winner(tmp_path, seats):
    store = Store(tmp_path)
    ref = save_classic(store, seats)
    m = store.open(ref, read_only=True).match
    text = transcript_text(store.open(ref, read_only=True))
    assert text.startswith("Classic UNO — match transcript")
    assert "Players: " + ", ".join(
        f"seat {i + 1} {NAMES[i]} ({'human' if i == 0 else 'random bot'})"
        for i in range(seats)) in text
    assert f"Seed: {m.seed}" in text
    totals = "–".join(map(str, m.scores))
    assert text.rstrip().endswith(f"Result: {NAMES[m.winner]} won, {totals}, after "
                                  f"{m.round} round{'s' * (m.round != 1)}.")


def test_the_shared_words_and_the_headless_commands_import_no_textual():
    import subprocess
    import sys

    code = ("import sys, unoduo_tui.text.words, unoduo_tui.transcript, unoduo_tui.text.columns; "
            "assert 'textual' not in sys.modules, sorted(m for m in sys.modules "
            "if m.startswith('textual'))")
    subprocess.run([sys.executable, "-c", code], check=True)
