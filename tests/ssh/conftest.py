"""An SSH server in the test's event loop (127.0.0.1, a free port, a temp serve dir)
and clients that keep what their terminal was sent."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from unoduo_tui.ssh.limits import Limits
from unoduo_tui.ssh.server import GameServer

from .term import Served


@pytest.fixture
def serve_dir():
    # under /tmp: the sockets of tables hosted from the lobby need a short path
    root = Path(tempfile.mkdtemp(prefix="uss", dir="/tmp"))
    yield root / "serve"
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
async def served(serve_dir):
    """Start servers (``await served()``, keyword arguments for :class:`GameServer`
    and ``limits``); every one is stopped, and its children reaped, at the end."""
    started: list[Served] = []

    async def start(limits: Limits = Limits(), **kw) -> Served:
        server = GameServer(serve_dir, limits, **kw)
        s = Served(server, *(await server.start("127.0.0.1", 0, serve_dir / "host_key")))
        started.append(s)
        return s

    yield start
    for s in started:
        await s.stop()
