"""The build: pyproject.toml holds the project; this adds the compiled engine (#23).

The engine's match classes — its hot path: every legal-action list, every move, every
rollout of the hard bot — are compiled with mypyc (mypy's compiler: the engine is
typed strictly, so its own annotations make it C) into native extension modules. The
same source runs as plain Python where it is not compiled; the rules are one copy
either way, and the tests hold both to the same golden files.

- ``UNODUO_PURE=1 pip install …``: build without compiling (the pure-Python engine).
- No C compiler or no Python headers: each module's build is optional, so the
  install still succeeds, with the pure-Python engine (``engine.compiled()`` says
  which one runs).
- An editable install (``pip install -e .``, the README's) compiles in place, next to
  the sources: after editing one of ``COMPILED`` run the install again — the tests
  refuse to run on a compiled module older than its source (tests/conftest.py).
"""

import os

from setuptools import setup

#: the modules compiled: MatchState and its layers, up to the three match classes
COMPILED = ["engine/state.py", "engine/chance.py", "engine/scoring.py",
            "engine/action_cards.py", "engine/turn.py", "engine/draft.py",
            "engine/match.py", "engine/classic.py", "engine/house.py"]


def extensions() -> list:
    if os.environ.get("UNODUO_PURE"):
        return []
    from mypyc.build import mypycify

    modules = mypycify(COMPILED, opt_level="3", group_name="engine_native")
    for module in modules:
        module.optional = True  # no compiler: the pure-Python engine, not a failed install
    return modules


setup(ext_modules=extensions())
