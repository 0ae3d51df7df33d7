"""Fixtures the remote-play tests share."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from .helpers import Served


@pytest.fixture
def env(monkeypatch):
    """A fresh socket dir (0700) and data dir under /tmp (socket paths must stay short),
    set for the code under test; removed afterwards."""
    root = Path(tempfile.mkdtemp(prefix="udn", dir="/tmp"))
    (root / "s").mkdir(mode=0o700)
    monkeypatch.setenv("UNODUO_SOCKET_DIR", str(root / "s"))
    monkeypatch.setenv("UNODUO_DATA_DIR", str(root / "d"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def served_factory():
    """Make :class:`~.helpers.Served` tables (its arguments); all stopped at the end."""
    made = []

    def make(*args, **kw):
        s = Served(*args, **kw)
        made.append(s)
        return s
    yield make
    for s in made:
        s.stop()
