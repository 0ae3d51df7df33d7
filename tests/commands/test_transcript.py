"""``unoduo transcript``: golden files for two fixed seeds (the id/date line ignored).

To accept an intended change:
``UNODUO_UPDATE_GOLDEN=1 python3 -m pytest tests/commands/test_transcript.py``.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Rules
from tests.engine.helpers import random_match
from unoduo_tui.cli import main
from unoduo_tui.transcript import transcript_text
from unoduo_tui.store import Seat, Store

DATA = Path(__file__).parent.parent / "data"


def saved_match(store: Store, seed: int, rules: Rules, limit: int | None = None) -> str:
    """A random-bots match saved through the store; returns its id."""
    m = random_match(seed, rules, limit)
    seats = (Seat("Ann", "human"), Seat("Rando", "bot:random"))
    with store.new_match(m, seats) as handle:
        return handle.id


def stable(text: str) -> str:
    """The transcript without its ``Match <id>, started <date>`` line."""
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.startswith("Match "))


@pytest.mark.parametrize("seed,rules", [(1, Rules()), (2, Rules(target=100))])
def test_transcript_golden(tmp_path, seed, rules):
    store = Store(tmp_path)
    match_id = saved_match(store, seed, rules)
    text = transcript_text(store.open(match_id, read_only=True))
    path = DATA / f"transcript_seed{seed}.txt"
    if os.environ.get("UNODUO_UPDATE_GOLDEN"):
        path.write_text(stable(text), encoding="utf-8")
    assert stable(text) == path.read_text(encoding="utf-8")
    assert f"Match {match_id}, started " in text


def test_transcript_has_a_header_rounds_and_a_line_per_decision(tmp_path):
    store = Store(tmp_path)
    match_id = saved_match(store, 2, Rules(target=100))
    loaded = store.open(match_id, read_only=True)
    text = transcript_text(loaded)
    decisions = sum(1 for e in loaded.match.actions if not e.is_chance)
    numbered = [line for line in text.splitlines() if line[:6].strip().rstrip(".").isdigit()]
    assert len(numbered) == decisions
    assert "Players: seat 1 Ann (human), seat 2 Rando (random bot)" in text
    assert "Rules: duo (target=100)" in text
    assert text.count("== Round ") == loaded.match.round
    assert text.count("Draft: Ann kept ") == loaded.match.round
    assert text.rstrip().splitlines()[-1].startswith("Result: ")


def test_an_unfinished_match_says_so(tmp_path):
    store = Store(tmp_path)
    match_id = saved_match(store, 5, Rules(), limit=30)
    text = transcript_text(store.open(match_id, read_only=True))
    assert "Result: not finished — round 1" in text


def test_unoduo_transcript_prints_it_without_textual(tmp_path):
    store = Store(tmp_path)
    match_id = saved_match(store, 2, Rules(target=100))
    code = ("import sys; from unoduo_tui.cli import main; rc = main(sys.argv[1:]); "
            "assert 'textual' not in sys.modules; raise SystemExit(rc)")
    out = subprocess.run([sys.executable, "-c", code, "transcript", match_id,
                          "--data-dir", str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("UNO Duo — match transcript")


def test_transcript_of_a_missing_match_fails(tmp_path, capsys):
    assert main(["transcript", "nope", "--data-dir", str(tmp_path)]) == 2
    assert "no saved match" in capsys.readouterr().err
