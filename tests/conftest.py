"""Before any test: the engine under test is its source (setup.py compiles some of it).

An editable install compiles the engine's match classes in place (setup.py); a
compiled module shadows its ``.py``, so after an edit the tests would still run the
old build.  The suite refuses to start then, and says what to run.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def stale_modules(engine: Path = ENGINE) -> list[str]:
    """The engine's sources newer than the native module compiled from them."""
    stale = []
    for built in sorted(engine.iterdir()):
        suffix = next((s for s in EXTENSION_SUFFIXES if built.name.endswith(s)), None)
        if suffix is None:
            continue
        source = built.with_name(built.name[: -len(suffix)] + ".py")
        if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
            stale.append(f"engine/{source.name}")
    return stale


def pytest_sessionstart(session: pytest.Session) -> None:
    stale = stale_modules()
    if stale:
        pytest.exit(f"{', '.join(stale)} changed after it was compiled: run "
                    "`python3 -m pip install -e .` again to rebuild the engine (setup.py)",
                    returncode=2)
