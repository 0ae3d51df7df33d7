"""Issue #11: ``unoduo transcript`` and ``unoduo export`` of a match still being played
show what its human seats saw — never a bot's hand, the draw pile's order or the seed.
The full record is for finished matches (their goldens: ``test_transcript.py``)."""

import json
import re

import pytest

from engine import Rules
from tests.engine.helpers import random_match
from unoduo_tui.cli import main
from unoduo_tui.store import Seat, Store
from unoduo_tui.transcript import transcript_text

VS_BOT = (Seat("Ann", "human"), Seat("Rando", "bot:random"))
HOT_SEAT = (Seat("Ann", "human"), Seat("Bea", "human"))


def _unfinished(tmp_path, seats, seed=5, limit=60):
    store = Store(tmp_path)
    m = random_match(seed, Rules(), limit)
    assert not m.over
    with store.new_match(m, seats) as handle:
        ref = handle.id
    return store, ref, m


def _token(card: str) -> re.Pattern:
    """``card`` as a word of its own ("R5", not the "R5" of "YR5" or "R+2")."""
    return re.compile(rf"(?<![\w+]){re.escape(card)}(?![\w+])")


def _export(tmp_path, ref, capsys) -> list[dict]:
    assert main(["export", ref, "--data-dir", str(tmp_path)]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def _never_public(m, seat: int, witnesses: set[int]) -> set[str]:
    """The cards of ``seat``'s hand no witness ever saw: never in an event the
    witnesses see (the omniscient stream, filtered by each event's ``private``)."""
    seen = {str(c) for e in m.events for c in e.cards
            if e.private is None or e.private in witnesses}
    return {str(c) for c in m.hand(seat)} - seen


def test_transcript_of_an_unfinished_bot_match_hides_the_bots_cards(tmp_path):
    store, ref, m = _unfinished(tmp_path, VS_BOT)
    text = transcript_text(store.open(ref, read_only=True))
    secret = _never_public(m, 1, {0})
    assert secret, "the test needs a bot card that was never shown"
    for card in secret:
        assert not _token(card).search(text), card
    # the bot's private events appear as the human saw them: that, not what
    bot_private = [e for e in m.events if e.private == 1 and e.cards]
    assert bot_private
    assert "Rando drafts a card." in text and "Draft: Rando kept 7 cards;" in text
    assert re.search(r"Draft: Ann kept (\S+ ){7}", text)  # the human's own cards stay
    assert f"Seed: {m.seed}" not in text and "Seed: hidden until the match is over" in text
    assert "Seen by: Ann" in text


def test_export_of_an_unfinished_bot_match_hides_the_shuffles_and_the_seed(tmp_path, capsys):
    _, ref, m = _unfinished(tmp_path, VS_BOT)
    lines = _export(tmp_path, ref, capsys)
    assert "seed" not in lines[0]
    shuffles = [x for x in lines if x["type"] == "chance" and x["entry"].startswith("shuffle")]
    assert shuffles and all(x == {"type": "chance", "i": x["i"], "entry": "shuffle",
                                  "hidden": True} for x in shuffles)
    out = json.dumps(lines)
    for card in _never_public(m, 1, {0}):
        assert not _token(card).search(out), card


def test_hot_seat_transcript_shows_each_humans_own_cards_not_the_draw_pile(tmp_path, capsys):
    store, ref, m = _unfinished(tmp_path, HOT_SEAT)
    text = transcript_text(store.open(ref, read_only=True))
    assert re.search(r"Draft: Ann kept (\S+ ){7}", text)
    assert re.search(r"Draft: Bea kept (\S+ ){7}", text)
    assert "Seen by: Ann and Bea" in text and f"Seed: {m.seed}" not in text
    # the draw pile's order (a round's shuffle tells every draw to come) is not shown
    lines = _export(tmp_path, ref, capsys)
    assert "seed" not in lines[0]
    shuffles = [x for x in lines if x.get("entry", "").startswith("shuffle")]
    assert shuffles and all(x["entry"] == "shuffle" and x["hidden"] for x in shuffles)


@pytest.mark.parametrize("seats", [VS_BOT, HOT_SEAT])
def test_a_finished_match_keeps_its_full_record(tmp_path, capsys, seats):
    store = Store(tmp_path)
    m = random_match(2, Rules(target=100))
    with store.new_match(m, seats) as handle:
        ref = handle.id
    text = transcript_text(store.open(ref, read_only=True))
    assert f"Seed: {m.seed}" in text and "Seen by" not in text
    lines = _export(tmp_path, ref, capsys)
    assert lines[0]["seed"] == m.seed
    assert not any(x.get("hidden") for x in lines)
    assert lines[-1]["type"] == "footer"
