"""#21 item 6: acknowledged is saved.  With the host's disk full the table stops
taking moves and every screen (each player's, a watcher's) is told it waits; the move
that could not be saved is shown to nobody; the table goes on by itself once a save
succeeds; and an authority killed (SIGKILL) while the disk is full loses nothing a
client was shown."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from unoduo_tui.net.remote import RemoteTable
from unoduo_tui.net.client import plan_to_json
from unoduo_tui.store import Store
from unoduo_tui.table import Refused

from tests.full_disk import Disk, fill, quick_retry, small_disk  # noqa: F401 - fixtures
from .helpers import WAIT, Client, Served, play_out, plan

WAITS = "the game waits until it can save"


def _on_file(store: Store) -> int:
    """The events the save file's match holds (read-only, as a restart would find it)."""
    [summary] = store.summaries()
    return store.open(summary.id, read_only=True).match.event_count


def test_a_full_disk_holds_every_screen_and_the_table_goes_on_by_itself(tmp_path, monkeypatch,
                                                                      quick_retry):
    store = Store(tmp_path)
    served = Served(plan(seed=51), store=store)
    try:
        clients = {0: served.client(name="Ann"), 1: served.client(name="Bob")}
        watcher = served.client(want="watch")
        play_out(served, clients, 3, limit=12)
        seat, count, _ = served.state()
        c = clients[seat]
        c.wait(lambda u: u.views[seat].event_count == count, "the seat's turn")
        before = _on_file(store)
        disk = Disk(monkeypatch)
        disk.mode = "fail"
        c.table.act(seat, str(c.last.views[seat].legal_actions[0]))
        for who in (*clients.values(), watcher):
            u = who.wait(lambda u: u.save_error is not None, "the table waiting")
            assert "the disk is full" in u.save_error
        # the move is nobody's to see: every view is as it was, the file too
        for s, other in clients.items():
            assert other.last.views[s].event_count == count
        assert watcher.last.views[None].event_count <= count
        with pytest.raises(Refused, match=WAITS):
            c.table.act(seat, str(c.last.views[seat].legal_actions[0]))
        assert disk.failures >= 1 and _on_file(store) == before
        disk.mode = None  # room again: nobody presses a key
        for s, other in clients.items():
            other.wait(lambda u: u.save_error is None and u.views[s].event_count > count,
                       "the table going on")
        watcher.wait(lambda u: u.save_error is None, "the watcher told")
        assert _on_file(store) > before
        play_out(served, clients, 4, limit=6)  # and play goes on
    finally:
        served.stop()


def _spawn(data, sockets, *what: str) -> tuple[subprocess.Popen, dict]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "unoduo_tui.net.serve", "--data-dir", str(data),
         "--socket-dir", str(sockets), "--bot-pause", "0", *what],
        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    info = json.loads(proc.stdout.readline())
    assert "error" not in info, info
    return proc, info


def test_a_kill_while_the_disk_is_full_loses_nothing_a_client_was_shown(small_disk, tmp_path):
    data, sockets = small_disk / "data", tmp_path / "s"
    sockets.mkdir(mode=0o700)
    proc, info = _spawn(data, sockets, "--plan", plan_to_json(plan(seed=52, target=2000)))
    try:
        clients = {}
        for seat, token in ((0, info["token"]), (1, None)):
            t = RemoteTable.connect(info["code"], token=token, socket_dir=sockets)
            clients[seat] = Client(t, None)  # type: ignore[arg-type]
        shown = 0

        def play(n: int, enough: int | None = None) -> int:
            """Up to ``n`` moves by whoever is to act (or until ``enough`` were refused);
            how many were refused."""
            nonlocal shown
            refused = 0
            for _ in range(n):
                if enough is not None and refused >= enough:
                    break
                seat = next((s for s, c in clients.items()
                             if c.last.views[s].legal_actions), None)
                assert seat is not None, "two human seats: one of them is to act"
                c = clients[seat]
                count = c.last.views[seat].event_count
                try:
                    c.table.act(seat, str(c.last.views[seat].legal_actions[0]))
                except Refused as exc:
                    assert WAITS in exc.reason
                    refused += 1
                    continue
                u = c.wait(lambda u: u.views[seat].event_count > count or u.save_error,
                           "the move or the wait")
                refused += u.save_error is not None
                now = u.views[seat].event_count
                for s, other in clients.items():  # everyone told the same, or the wait
                    other.wait(lambda u: u.views[s].event_count >= now or u.save_error,
                               "the others' update")
                    other.table.hold(False)  # a round's end waits for a client to let go
                shown = max(shown, *(c.last.views[s].event_count for s, c in clients.items()))
            return refused

        assert play(20) == 0
        fill(small_disk)
        # the disk is full (once the file's last block is): the table waits, refusing
        assert play(5000, enough=5) >= 5
        for c in clients.values():
            assert "the disk is full" in c.wait(lambda u: u.save_error, "the wait").save_error
        proc.send_signal(signal.SIGKILL)
        proc.wait(WAIT)
        saved = Store(data).open(info["match"], read_only=True).match
        assert saved.event_count >= shown, (saved.event_count, shown)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(WAIT)
