"""#27: the saves in a real PostgreSQL — rows, one per record, the hash chain kept; the
lease; a database that goes away and comes back; ``unoduo store copy`` both ways."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from engine import Match, Rules
from unoduo_tui.cli import main
from unoduo_tui.storage.pg import PgStore, database
from unoduo_tui.store import LockedError, SaveFileError, SaveWriteError, Store
from unoduo_tui.table.local import LocalTable
from unoduo_tui.plan import HUMAN, MatchPlan

from ..store.test_store import SEATS, _play
from ..waiting import until
from .servers import Postgres, missing



def _rows(url: str, match_id: str) -> list[bytes]:
    with database(url).pool.connection() as conn:
        return [bytes(r[0]) for r in conn.execute(
            "SELECT data FROM save_records WHERE match_id=%s ORDER BY seq", (match_id,))]


def test_a_match_is_a_row_per_record_and_reopens_exactly(pg_url, tmp_path):
    store = PgStore(pg_url, tmp_path, key="SHA256:ann", owner="SHA256:ann")
    m = Match.new(Rules(preset="duo", seats=2, target=30), seed=5)
    handle = store.new_match(m, SEATS)
    _play(m, 60, handle)
    rows = _rows(pg_url, handle.id)
    assert len(rows) == 1 + m.log_length  # the header, then one row per log entry
    assert rows[0].startswith(b"UNODUO\x03\n")
    handle.close()
    loaded = store.open(handle.id)
    assert loaded.match.actions == m.actions and loaded.seats == SEATS
    _play(loaded.match, 10_000, loaded.handle, seed=3)  # on to the end: the footer row
    assert loaded.match.over
    loaded.handle.close()
    (row,) = store.summaries()
    assert (row.id, row.status, row.winner) == (handle.id, "finished", loaded.match.winner)
    assert row.actions == loaded.match.log_length and row.path is None
    # the rows end to end are a save file: the file store reads them as its own
    _, image = store.image(handle.id)
    (tmp_path / "matches").mkdir()
    (tmp_path / "matches" / "copy.unoduo").write_bytes(image)
    again = Store(tmp_path).open("copy", read_only=True)
    assert again.match.actions == loaded.match.actions and again.match.over
    # another player's store does not see it; the operator's (owner None) does
    assert PgStore(pg_url, tmp_path, owner="SHA256:bob").summaries() == []
    assert [s.id for s in PgStore(pg_url, tmp_path, owner=None).summaries()] == [handle.id]


def test_an_edited_row_is_refused_by_the_chain(pg_url, tmp_path):
    store = PgStore(pg_url, tmp_path)
    m = Match.new(seed=8)
    handle = store.new_match(m, SEATS)
    _play(m, 20, handle)
    handle.close()
    with database(pg_url).pool.connection() as conn:  # a card changed in record 5
        data = bytearray(_rows(pg_url, handle.id)[5])
        data[4] ^= 1
        conn.execute("UPDATE save_records SET data=%s WHERE match_id=%s AND seq=5",
                     (bytes(data), handle.id))
    with pytest.raises(SaveFileError, match="damaged or was edited"):
        store.open(handle.id, read_only=True)
    assert store.summaries()[0].status == "damaged"


_HOLDER = textwrap.dedent("""
    import signal, sys
    from pathlib import Path
    from unoduo_tui.storage.pg import PgStore
    loaded = PgStore(sys.argv[1], Path(sys.argv[3])).open(sys.argv[2])
    print("holding", flush=True)
    signal.pause()  # holding it until the test kills this process
""")


def test_one_writer_per_match_and_a_killed_holder_lets_go(pg_url, tmp_path):
    store = PgStore(pg_url, tmp_path)
    m = Match.new(seed=9)
    handle = store.new_match(m, SEATS)
    _play(m, 10, handle)
    handle.close()
    # another process (another node) opens it: its lease holds it
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, pg_url, handle.id, str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "holding"
        with pytest.raises(LockedError, match="open elsewhere"):
            store.open(handle.id)
        assert store.open(handle.id, read_only=True).match.actions == m.actions
    finally:
        os.kill(holder.pid, signal.SIGKILL)  # dies holding it: its connection goes
        holder.wait()
        holder.stdout.close()
    loaded = store.open(handle.id)  # at once: the lock went with the process's connection
    assert loaded.match.actions == m.actions
    loaded.handle.close()


def test_two_writers_can_never_both_append_the_same_record(pg_url, tmp_path):
    store = PgStore(pg_url, tmp_path)
    m = Match.new(seed=10)
    handle = store.new_match(m, SEATS)
    _play(m, 4, handle)
    # a second writer behind the lease's back (a node whose lease the database dropped)
    other = store._load(handle.id, read_only=False).handle
    _play(m, 1, handle)  # the first writer appends record N
    m2 = Match.replay(m.rules, m.actions[:-1], seed=m.seed)
    _play(m2, 1, seed=99)  # another decision at the same place
    if m2.actions[-1] == m.actions[-1]:
        _play(m2, 1, seed=99)
    with pytest.raises(SaveWriteError, match="played on elsewhere"):
        other.sync(m2)
    handle.close()
    assert store.open(handle.id, read_only=True).match.actions == m.actions


@pytest.mark.skipif(missing() is not None, reason=missing() or "")
def test_a_table_waits_while_the_database_is_down_and_goes_on_losing_nothing(tmp_path):
    server = Postgres().start()  # its own server: this test restarts it
    try:
        url = server.new_db()
        store = PgStore(url, tmp_path)
        plan = MatchPlan(("Ann", "Bob"), (HUMAN, HUMAN), Rules(preset="duo", seats=2), seed=4)
        table = LocalTable.start(store, plan)
        seen = []
        table.subscribe(seen.append)
        for _ in range(6):
            seat = table.match.to_act
            table.act(seat, str(table.match.legal_actions()[0]))
        saved = table.match.log_length
        server.halt()
        seat = table.match.to_act
        table.act(seat, str(table.match.legal_actions()[0]))  # taken, not saved: waits
        assert table.waiting and "database" in (table.save_error or "")
        assert seen[-1].cause == "save" and seen[-1].save_error
        with pytest.raises(Exception, match="database"):
            table.act(table.match.to_act, "draw")  # nothing more while it waits
        server.resume()
        # the save retried by itself, and the table went on
        until(lambda: not table.waiting, "the table to stop waiting for the database")
        assert seen[-1].cause == "move" and seen[-1].save_error is None
        ref, log = table.handle.id, table.match.actions
        assert len(log) == saved + 1
        table.close()
        assert store.open(ref, read_only=True).match.actions == log  # nothing lost
    finally:
        server.stop()


def test_store_copy_moves_a_serve_dir_into_the_database_and_back_verified(
        pg_url, tmp_path, capsys):
    from unoduo_tui.ssh.identity import identify

    serve = tmp_path / "serve"
    serve.mkdir()
    ann = identify(serve, "SHA256:ann/1", "ann")
    files = Store(ann.folder, ann.fingerprint)
    m = Match.new(Rules(preset="duo", seats=2, target=30), seed=12)
    handle = files.new_match(m, SEATS)
    _play(m, 10_000, handle)
    handle.close()
    assert main(["store", "copy", str(serve), pg_url]) == 0
    assert "1 matches in" in capsys.readouterr().out
    owned = PgStore(pg_url, tmp_path, owner=ann.fingerprint).summaries()
    assert [s.id for s in owned] == [handle.id] and owned[0].status == "finished"
    assert main(["store", "copy", str(serve), pg_url]) == 0  # again: the same bytes, skipped
    # the commands read the database
    assert main(["--store", pg_url, "verify", handle.id[-6:]]) == 0
    assert "ok:" in capsys.readouterr().out
    assert main(["export", "--store", pg_url, handle.id]) == 0
    assert capsys.readouterr().out.count("\n") == m.log_length + 2
    back = tmp_path / "back"
    assert main(["store", "copy", pg_url, str(back)]) == 0
    (path,) = (back / "players").glob("*/matches/*.unoduo")
    assert path.read_bytes() == handle.path.read_bytes()
    assert main(["store", "copy", str(back), str(back)]) == 2  # one end is a database


def test_matches_in_the_database_count_in_every_node_s_record(pg_url, tmp_path, monkeypatch):
    from unoduo_tui.record.index import DB_INDEX_NAME, Index
    from unoduo_tui.record.stats import boards
    from unoduo_tui.ssh.identity import identify
    from unoduo_tui.storage import STORE_ENV, saves_for

    monkeypatch.setenv(STORE_ENV, pg_url)  # as serve --store gives its games
    key = "SHA256:ann"
    for node in ("a", "b"):
        (tmp_path / node).mkdir()
    a, b = (identify(tmp_path / node, key, "ann").folder for node in ("a", "b"))
    store = saves_for(a, key)  # ann plays on node a
    assert isinstance(store, PgStore)
    m = Match.new(Rules(preset="duo", seats=2, target=100), seed=7)
    handle = store.new_match(m, SEATS)
    _play(m, 100_000, handle)
    assert m.over and store.summaries()[0].status == "finished"
    for folder in (a, b):  # either node's Stats and leaderboard count it
        index = Index.of(folder, key)
        assert index.path.name == DB_INDEX_NAME and index.shared
        (duo,) = [s for s in index.read(lambda conn: boards(conn, f"key:{key}"))
                  if s.preset == "duo"]
        assert duo.you is not None and duo.you.rated == 1
    assert not (tmp_path / "a" / "record.sqlite").exists()  # the files' index: untouched


def test_store_migrate_applies_each_migration_once_and_says_which(pg_url, capsys):
    from unoduo_tui.storage.pg import MIGRATIONS

    assert main(["store", "migrate", pg_url]) == 0
    applied = ", ".join(str(v) for v, _ in MIGRATIONS)
    assert capsys.readouterr().out.strip().endswith(f"schema up to date (applied {applied})")
    assert main(["store", "migrate", pg_url]) == 0  # again: nothing to do
    assert capsys.readouterr().out.strip().endswith("schema up to date")
    wrong = pg_url.replace("unoduo@", "nobody@")
    assert main(["store", "migrate", wrong]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot use the store" in err and "nobody" in err
