"""#21 item 4: host and join from one account — two terminals, one data dir.  The
joiner takes the next free seat and the host keeps its seat and its connection; a
screen whose connection is taken over or lost says so (a banner, not a toast), takes no
key on the frozen position, and ``j`` rejoins."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

from tests.tui.conftest import SIZE, game, screen_text, notifications  # noqa: E402
from tests.tui.test_signals import _spawn as _pty  # noqa: E402
from unoduo_tui.net.codes import TableFile  # noqa: E402
from unoduo_tui.apps import remote_app  # noqa: E402
from unoduo_tui.net.remote import RemoteTable  # noqa: E402
from unoduo_tui.store import Store  # noqa: E402

from .helpers import Client, Served, plan, until  # noqa: E402
from .test_cli import _end  # noqa: E402

_CODE = re.compile(rb"Join code: ([a-z]+-[a-z]+-[a-z]+-[0-9]{4})")


def test_4_host_then_join_in_the_same_data_dir_gives_the_joiner_the_next_seat(env, tmp_path):
    """The newcomer's first try, as reported: ``unoduo host --name Hana``, then in a
    second terminal of the same user and data dir ``unoduo join CODE --name Jo``."""
    host, host_proc = _pty([sys.executable, "-m", "unoduo_tui.cli", "host", "--name", "Hana"],
                           tmp_path)
    jo = jo_proc = None
    try:
        host.until(lambda: _CODE.search(host.out) and b"Join code" in host.out[-4000:],
                   "the host's screen")
        code = _CODE.search(host.out).group(1).decode()
        jo, jo_proc = _pty([sys.executable, "-m", "unoduo_tui.cli", "join", code,
                            "--name", "Jo"], tmp_path)
        watcher = Client(RemoteTable.connect(code, want="watch"), None)  # type: ignore[arg-type]
        watcher.wait(lambda u: watcher.table.presence is not None
                     and watcher.table.presence.connected == (0, 1), "both seats taken")
        assert watcher.table.presence.names == ("Hana", "Jo")
        [table] = (env / "d" / "tables").glob("*.json")
        assert sorted(TableFile(env / "d", table.stem).load()["tokens"]) == [0, 1]
        # the name is kept with the match, in its save file (a seat record)
        [row] = Store(env / "d").summaries()
        assert [s.name for s in row.seats] == ["Hana", "Jo"]
        jo.until(lambda: b"Hana" in jo.out, "Jo's screen")
        host.pump()
        assert b"Disconnected" not in host.out and host_proc.poll() is None
        watcher.table.close()
    finally:
        for term, proc in ((host, host_proc), (jo, jo_proc)):
            if proc is None:
                continue
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            try:
                term.drain()  # read what it writes as it goes, or it blocks on the pty
                proc.wait(30)
            except (AssertionError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()
            os.close(term.fd)
        _end(env / "d")


def _banner(app) -> str | None:
    widget = game(app).query_one("#lost-banner")
    return str(widget.render()) if widget.display else None


async def test_4_a_connection_taken_over_says_so_on_screen_and_j_rejoins():
    served = Served(plan(seed=61))
    try:
        ann = served.client(name="Ann")
        bob = served.client(name="Bob")
        app = remote_app(None, ann.table, theme="textual-dark")
        async with app.run_test(size=SIZE) as pilot:
            g = game(app)
            await until(pilot, lambda: g.latest is not None, "the first update")
            assert _banner(app) is None and g.check_action("rejoin", ()) is False
            # the authority ends Ann's connection, as when another takes her seat over
            served.call(lambda: [served.authority.bye(c, "your seat was taken over by "
                                                       "another connection")
                                 for c in list(served.authority.clients) if c.seat == 0])
            await until(pilot, lambda: _banner(app) is not None, "the banner")
            assert "taken over by another connection" in _banner(app) and "j rejoins" in \
                _banner(app)
            await pilot.pause()
            assert "Disconnected from the table" in screen_text(app)
            # the frozen position takes no key: only rejoin, help and leave
            for action in ("play", "draw", "keep", "reject", "move", "uno", "catch"):
                assert g.check_action(action, ()) is False
            assert g.check_action("rejoin", ()) is True
            bob.wait(lambda u: bob.table.presence.connected == (1,), "Ann gone")
            await pilot.press("j")
            await until(pilot, lambda: _banner(app) is None, "the rejoin")
            assert g.table.seat == 0 and g.check_action("rejoin", ()) is False
            bob.wait(lambda u: bob.table.presence.connected == (0, 1), "Ann back")
            # the table going away is said the same way; rejoining then says why not
            served.stop()
            await until(pilot, lambda: _banner(app) is not None, "the banner again")
            before = _banner(app)
            await pilot.press("j")
            await until(pilot, lambda: any("Could not rejoin" in n.message
                                           for n in notifications(app)), "why not")
            assert _banner(app) not in (None, before)  # it says why, and j again may try
            assert g.check_action("rejoin", ()) is True
    finally:
        served.stop()
