"""Golden transcripts: fixed seeds, fixed bots, the exact sentences each seat reads.

A change here means saved matches would replay differently, or the log reads
differently: look at the diff.  To accept an intended change:
``UNODUO_UPDATE_GOLDEN=1 python3 -m pytest tests/engine/test_golden.py``.
"""

import os
from pathlib import Path

import pytest

from engine import Match, Rules, bots, describe

DATA = Path(__file__).parent.parent / "data"
NAMES = ("Ann", "Bot")


def transcript(seed: int, viewer: int, limit: int = 400) -> str:
    m = Match.new(Rules(), seed=seed)
    players = [bots.make("random", seed=seed), bots.make("random", seed=seed + 1)]
    while not m.over and len(m.events) < limit:
        seat = m.to_act
        m.apply(players[seat].choose(m.view(seat)))
    lines = [f"# seed {seed}, as seen by {NAMES[viewer]}"]
    lines += [describe(e, NAMES, viewer) for e in m.view(viewer).events[:limit]]
    lines += ["# log", *(str(a) for a in m.actions[:120])]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed,viewer", [(1, 0), (2, 1)])
def test_golden_transcript(seed, viewer):
    path = DATA / f"golden_seed{seed}_seat{viewer}.txt"
    text = transcript(seed, viewer)
    if os.environ.get("UNODUO_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text
