"""The compiled engine (setup.py, #23) plays exactly as its pure-Python source.

setup.py compiles the match classes with mypyc; the same ``.py`` files are the
pure-Python engine where nothing is compiled.  The golden files and the
conformance suite already pin the engine that runs; this holds the other one to the
same moves: random matches of every preset and of house rules, played here and by a
copy of the engine's sources with no compiled module beside them, give the same
logs, events and scores.
"""

from __future__ import annotations

import hashlib
import inspect
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine

ENGINE = Path(engine.__file__).resolve().parent

#: (rules keywords, matches): what both engines play
PLAYED = [({}, 6), ({"refill": "shuffle"}, 4), ({"preset": "classic", "seats": 2}, 6),
          ({"preset": "classic", "seats": 4, "stacking": True}, 4),
          ({"preset": "classic", "seats": 4, "seven_zero": True, "jump_in": True,
            "draw_until": True}, 4),
          ({"preset": "classic", "seats": 6, "stack_draw4": "any", "stacking": True,
            "teams": "partners"}, 3)]


def digest(played: list) -> str:
    """A hash of every log, event and score of random matches (the engine imported
    wherever ``engine`` is found)."""
    import hashlib as _hashlib
    import random as _random

    from engine import Match, Rules

    h = _hashlib.sha256()
    for kwargs, count in played:
        for game in range(count):
            m = Match.new(Rules(**kwargs, target=200), seed=1000 + game)
            choice = _random.Random(game).choice
            while not m.over:
                m.apply(choice(m.legal_actions()))
            h.update(repr((m.actions, m.events, m.scores, m.rounds)).encode())
    return h.hexdigest()


@pytest.mark.skipif(not engine.compiled(), reason="the engine is not compiled here "
                    "(setup.py: no C compiler, or UNODUO_PURE); .ci/run requires it to be")
def test_the_compiled_engine_plays_as_its_source(tmp_path: Path) -> None:
    pure = tmp_path / "engine"
    shutil.copytree(ENGINE, pure, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    script = (f"{inspect.getsource(digest)}\nimport engine\n"
              f"print(engine.compiled(), digest({PLAYED!r}))\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                         text=True, timeout=600, env={"PYTHONPATH": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    compiled, child = out.stdout.split()
    assert compiled == "False"  # the copy runs as Python
    assert len(child) == len(hashlib.sha256().hexdigest())
    assert child == digest(PLAYED)
