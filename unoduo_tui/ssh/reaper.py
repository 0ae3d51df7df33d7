"""The tables a server's players host end with the server, even a killed one (#22).

A table hosted from the lobby (``python -m unoduo_tui.net.serve``, in a session of
its own) outlives its host's connection and worker — the other players are still at
it — but not the server: with the server gone nobody can reach it.  A server that
stops ends them itself (:func:`end_tables`).  One killed with SIGKILL cannot, so each
server starts ``python -m unoduo_tui.ssh.reaper --lobby DIR``, a small process (no
Textual) whose stdin is a pipe only the server holds open: at its end of file —
however the server ended — it ends the tables listed in ``DIR`` and exits.  A table is
saved move by move: SIGTERM closes its save, and ``resume`` brings it back; one still
there after the grace is killed.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path

__all__ = ["our_tables", "end_tables", "main"]

#: seconds between two looks at whether the tables have gone (not our children:
#: nothing to wait on but this)
POLL = 0.05


def our_tables(lobby_dir: Path) -> list[int]:
    """The pids of the table processes listed in ``lobby_dir`` that are still that
    (not a reused pid): ``unoduo_tui.net.serve`` with ``lobby_dir`` in its argv."""
    from ..net.lobby import read_listings

    pids = []
    for table in read_listings(lobby_dir):
        try:
            with open(f"/proc/{table.pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if b"unoduo_tui.net.serve" in argv and os.fsencode(lobby_dir) in argv:
            pids.append(table.pid)
    return pids


def _alive(pid: int) -> bool:
    from ..net.lobby import pid_alive

    return pid_alive(pid)


def end_tables(lobby_dir: Path, grace: float, sleep=time.sleep) -> list[int]:
    """SIGTERM every table of ``lobby_dir``; SIGKILL those left after ``grace``
    seconds; their pids.  (``sleep``: how to wait between two looks.)"""
    pids = our_tables(lobby_dir)
    _signal(pids, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        sleep(POLL)
    _signal([pid for pid in pids if _alive(pid)], signal.SIGKILL)
    return pids


def _signal(pids: list[int], sig: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except OSError:
            pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m unoduo_tui.ssh.reaper")
    parser.add_argument("--lobby", required=True)
    parser.add_argument("--grace", type=float, default=3.0)
    args = parser.parse_args(argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides
    while True:
        try:
            if not os.read(0, 4096):
                break
        except InterruptedError:  # pragma: no cover - PEP 475 retries
            continue
        except OSError:
            break
    end_tables(Path(args.lobby), args.grace)
    return 0


if __name__ == "__main__":
    sys.exit(main())
