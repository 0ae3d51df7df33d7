"""The file store: appending, permissions, recovery, locking, crashes, listing."""

import os
import random
import signal
import subprocess
import sys
import textwrap
from datetime import datetime, timezone
from pathlib import Path

import pytest

from engine import Match, Rules, bots
from unoduo_tui.store import LockedError, SaveFileError, Seat, Store

SEATS = (Seat("Ann", "human"), Seat("Bot", "bot:random"))


def _play(m: Match, decisions: int, handle=None, seed: int = 0) -> Match:
    players = [bots.make("random", seed=seed), bots.make("random", seed=seed + 1)]
    for _ in range(decisions):
        if m.over:
            break
        m.apply(players[m.to_act].choose(m.view(m.to_act)))
        if handle is not None:
            handle.sync(m)
    return m


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "data")


def test_every_action_is_on_disk_at_once_and_reopens_identically(store):
    m = Match.new(seed=21)
    handle = store.new_match(m, SEATS)
    _play(m, 150, handle)
    size = handle.path.stat().st_size
    _play(m, 1, handle)
    assert handle.path.stat().st_size > size  # appended, no "save" step
    handle.close()
    loaded = store.open(handle.id)
    assert loaded.match.actions == m.actions and loaded.seats == SEATS and loaded.notes == []
    assert loaded.match.legal_actions() == m.legal_actions()
    loaded.handle.close()


def test_the_env_var_and_data_dir_choose_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("UNODUO_DATA_DIR", str(tmp_path / "env"))
    assert Store().data_dir == tmp_path / "env"
    assert Store(tmp_path / "arg").data_dir == tmp_path / "arg"


def test_files_are_private_whatever_the_umask(store):
    old = os.umask(0)
    try:
        handle = store.new_match(Match.new(seed=1), SEATS)
        lock = handle.path.with_suffix(".lock")
        assert lock.stat().st_mode & 0o777 == 0o600
        handle.close()
    finally:
        os.umask(old)
    assert store.matches_dir.stat().st_mode & 0o777 == 0o700
    assert handle.path.stat().st_mode & 0o777 == 0o600
    assert not lock.exists()  # removed on release


def test_a_torn_tail_is_cut_back_kept_aside_and_reported(store):
    m = Match.new(seed=22)
    with store.new_match(m, SEATS) as handle:
        _play(m, 40, handle)
    whole = handle.path.read_bytes()
    handle.path.write_bytes(whole[:-3])  # the last record was being written
    loaded = store.open(handle.path)
    assert loaded.notes and loaded.notes[0].startswith("recovered: the last action was "
                                                       "incomplete and dropped")
    corrupt = handle.path.with_name(handle.path.name + ".corrupt")
    assert corrupt.read_bytes() == whole[:-3]
    assert corrupt.stat().st_mode & 0o777 == 0o600
    assert loaded.match.actions == m.actions[:-1]
    # the file was cut back and goes on appending with a valid chain
    _play(loaded.match, 5, loaded.handle, seed=4)
    loaded.handle.close()
    again = store.open(handle.path, read_only=True)
    assert again.match.actions == loaded.match.actions and again.notes == []


def test_a_zero_filled_tail_is_recovered(store):
    m = Match.new(seed=23)
    with store.new_match(m, SEATS) as handle:
        _play(m, 10, handle)
    with open(handle.path, "ab") as f:
        f.write(b"\x00" * 512)
    loaded = store.open(handle.path)
    assert "zero-filled" in loaded.notes[0] and loaded.match.actions == m.actions
    loaded.handle.close()


def test_a_flipped_bit_names_file_and_record_and_overwrites_nothing(store):
    m = Match.new(seed=24)
    with store.new_match(m, SEATS) as handle:
        _play(m, 60, handle)
    data = bytearray(handle.path.read_bytes())
    data[len(data) // 2] ^= 4
    handle.path.write_bytes(bytes(data))
    with pytest.raises(SaveFileError, match=rf"{handle.path.name}: record \d+"):
        store.open(handle.id)
    assert handle.path.read_bytes() == bytes(data)
    assert not handle.path.with_name(handle.path.name + ".corrupt").exists()
    assert store.summary(handle.path).status == "damaged"


def test_empty_and_header_only_files(store):
    m = Match.new(seed=25)
    with store.new_match(m, SEATS) as handle:
        pass
    data = handle.path.read_bytes()
    from engine.savefile import Encoder, decode
    assert decode(data).entries == m.actions  # a new file holds the start's chance already
    # header only: what a crash right after creating the file leaves
    only = Encoder().start(decode(data).header)
    handle.path.write_bytes(only)
    loaded = store.open(handle.id)
    assert "had not started" in loaded.notes[0] and loaded.match.actions == m.actions
    loaded.handle.close()
    assert decode(handle.path.read_bytes()).entries == m.actions  # the start was written
    handle.path.write_bytes(b"")
    with pytest.raises(SaveFileError, match="empty"):
        store.open(handle.id)


def test_a_second_opener_is_told_who_holds_the_match(store):
    m = Match.new(seed=26)
    handle = store.new_match(m, SEATS)
    with pytest.raises(LockedError) as err:
        store.open(handle.id)
    assert err.value.pid == os.getpid() and str(os.getpid()) in str(err.value)
    read_only = store.open(handle.id, read_only=True)  # watching is fine
    assert read_only.handle is None and read_only.match.actions == m.actions
    handle.close()
    store.open(handle.id).handle.close()


HOLDER = textwrap.dedent("""
    import signal, sys
    from engine import Match
    from unoduo_tui.store import Seat, Store
    store = Store(sys.argv[1])
    loaded = store.open(sys.argv[2])
    print("locked", flush=True)
    signal.pause()  # holds the lock until killed
""")


def test_the_lock_is_free_at_once_when_its_holder_is_killed(store):
    handle = store.new_match(Match.new(seed=27), SEATS)
    handle.close()
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(store.data_dir), handle.id],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(LockedError) as err:
            store.open(handle.id)
        assert err.value.pid == proc.pid
    finally:
        proc.kill()
        proc.wait()
    store.open(handle.id).handle.close()


def _writer(store: Store, seed: int, out: int) -> None:
    """The child of a kill -9 run: a bulk-simulation save, one decision at a time,
    reporting the file and then each log length once it is written."""
    m = Match.new(seed=seed)
    handle = store.new_match(m, (Seat("A", "bot:random"), Seat("B", "bot:random")),
                             durable=False)
    os.write(out, f"{handle.path}\n".encode())
    players = [bots.make("random", seed=1), bots.make("random", seed=2)]
    while not m.over:
        m.apply(players[m.to_act].choose(m.view(m.to_act)))
        handle.sync(m)
        os.write(out, f"{m.log_length}\n".encode())


def _boundaries(seed: int) -> list[int]:
    """The log length after each decision of _writer's (deterministic) match."""
    m = Match.new(seed=seed)
    players = [bots.make("random", seed=1), bots.make("random", seed=2)]
    out = [m.log_length]
    while not m.over:
        m.apply(players[m.to_act].choose(m.view(m.to_act)))
        out.append(m.log_length)
    return out


def _fork(target, *args) -> tuple[int, int]:
    """(pid, read end of its pipe) of a child running ``target(*args, write_end)``."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 0
        try:
            os.close(r)
            target(*args, w)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(w)
    return pid, r


def _lines(fd: int, wanted: int | None = None) -> list[str]:
    """Lines from ``fd`` until ``wanted`` of them (None: until the writer is gone)."""
    buf = b""
    while wanted is None or buf.count(b"\n") < wanted:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        buf += chunk
    return buf.decode().splitlines(keepends=True)


def test_200_sigkills_at_random_moments_lose_at_most_the_action_in_flight(store):
    """kill -9 a writer after a random number of decisions (0: while it creates the
    file): the save always loads, ends exactly after a decision, holds everything
    reported as written, and the lock is free; never a 0-byte or header-only file."""
    rng = random.Random(5)
    bounds = {seed: _boundaries(seed) for seed in range(8)}
    store.matches_dir.mkdir(parents=True)
    early = 0
    for run in range(200):
        seed = run % 8
        pid, r = _fork(_writer, store, seed)
        if run % 5:
            lines = _lines(r, 1 + rng.randrange(0, 60))
        else:  # while it starts or creates the file: a moment counted out, not slept
            lines = []
            for _ in range(rng.randrange(400_000)):
                pass
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        lines += _lines(r)
        os.close(r)
        saves = list(store.matches_dir.glob("*.unoduo"))
        assert len(saves) <= 1
        if not saves:  # killed before the file was whole: no file at all
            assert not lines or not lines[0].endswith("\n")
            store.summaries()  # and listing sweeps away the dead writer's temp file
            assert [p for p in store.matches_dir.iterdir() if p.suffix == ".tmp"] == []
            early += 1
            continue
        (path,) = saves
        reported = [int(x) for x in lines[1:] if x.endswith("\n")]
        loaded = store.open(path)  # the dead writer's lock is free
        written = loaded.match.log_length
        synced = reported[-1] if reported else bounds[seed][0]
        assert written in bounds[seed] and loaded.notes == []
        assert bounds[seed].index(synced) <= bounds[seed].index(written) <= \
            bounds[seed].index(synced) + 1
        loaded.handle.close()
        store.delete(path)
    store.summaries()  # listing sweeps the locks of writers killed while creating
    assert list(store.matches_dir.iterdir()) == []
    assert early > 0  # some runs died before their file was whole


def _contender(store: Store, path: Path, rounds: int, out: int) -> None:
    """Take and release the lock ``rounds`` times; while holding it, a marker file
    that the other contender must never see."""
    from unoduo_tui.savehandle import SaveLock

    marker = path.with_suffix(".held")
    done = 0
    while done < rounds:
        lock = SaveLock(path)
        try:
            lock.acquire()
        except LockedError:
            continue
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)  # FileExistsError: both hold
        os.close(fd)
        os.unlink(marker)
        lock.release()
        done += 1
    os.write(out, b"ok\n")


def test_a_lock_removed_on_release_is_never_held_twice(store):
    store.matches_dir.mkdir(parents=True)
    path = store.matches_dir / "race.unoduo"
    kids = [_fork(_contender, store, path, 300) for _ in range(2)]
    for pid, r in kids:
        _, status = os.waitpid(pid, 0)
        assert _lines(r) == ["ok\n"] and os.waitstatus_to_exitcode(status) == 0
        os.close(r)
    assert not path.with_suffix(".lock").exists()


def test_listing_newest_first_with_status(store, monkeypatch):
    import unoduo_tui.store as store_module

    # ids and created times are per second: the store's clock gives the second match a
    # later one (a minute on), rather than the test waiting for the next second
    starts = iter([datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc),
                   datetime(2026, 1, 2, 3, 5, 5, tzinfo=timezone.utc)])

    class Clock(datetime):
        @classmethod
        def now(cls, tz=None):
            return next(starts)

    ids = []
    with monkeypatch.context() as clock:
        clock.setattr(store_module, "datetime", Clock)
        for seed, decisions in ((31, 10), (32, 100_000)):
            m = Match.new(Rules(target=60), seed=seed)
            with store.new_match(m, SEATS) as handle:
                _play(m, decisions, handle)
            ids.append(handle.id)
    bad = store.matches_dir / "broken.unoduo"
    bad.write_bytes(b"garbage")
    rows = store.summaries()
    by_id = {r.id: r for r in rows}
    assert by_id[ids[0]].status == "in progress" and by_id[ids[1]].status == "finished"
    assert by_id["broken"].status == "damaged"
    assert [r.id for r in rows if r.created][:2] == [ids[1], ids[0]]
    assert store.newest_unfinished().id == ids[0]
    assert store.resolve(ids[0][:18] + ids[0][18:]) == by_id[ids[0]].path


def test_a_short_id_resolves_and_an_ambiguous_one_is_refused(store):
    from unoduo_tui.store import short_id

    m = Match.new(Rules(target=60), seed=41)
    with store.new_match(m, SEATS) as handle:
        ref = handle.id
    short = short_id(ref)
    assert ref == f"{ref[:15]}-{short}" and len(short) == 6
    assert store.resolve(short) == handle.path
    twin = store.matches_dir / f"20000101-000000-{short}.unoduo"
    twin.write_bytes(handle.path.read_bytes())
    with pytest.raises(SaveFileError, match="matches 2 saved matches"):
        store.resolve(short)
    assert store.resolve(ref) == handle.path


def test_delete_removes_the_file_lock_and_corrupt_copy_but_not_an_open_match(store):
    handle = store.new_match(Match.new(seed=11), SEATS)
    with pytest.raises(LockedError):
        store.delete(handle.id)
    handle.close()
    corrupt = handle.path.with_name(handle.path.name + ".corrupt")
    corrupt.write_bytes(b"x")
    assert store.delete(handle.id) == handle.path
    assert not handle.path.exists() and not corrupt.exists()
    assert not handle.path.with_suffix(".lock").exists()
    with pytest.raises(SaveFileError):
        store.delete(handle.id)


def test_listing_sweeps_the_temp_file_of_a_writer_killed_while_creating(store):
    handle = store.new_match(Match.new(seed=12), SEATS)
    mine = handle.path.with_name(f".{handle.path.name}.0badf00d.tmp")
    mine.write_bytes(b"half a header")  # its writer (this handle) still holds the lock
    dead = store.matches_dir / ".20000101-000000-abcdef.unoduo.0badf00d.tmp"
    dead.write_bytes(b"half a header")
    stale = store.matches_dir / "20000101-000000-abcdef.lock"
    stale.write_bytes(b"999999 gone\n")  # its holder was killed: nobody holds it
    store.summaries()
    assert mine.exists() and not dead.exists() and not stale.exists()
    assert handle.path.with_suffix(".lock").exists()  # held: left alone
    handle.close()


def test_a_renamed_save_is_listed_resumed_verified_and_deleted_by_its_file_name(store):
    m = Match.new(Rules(target=60), seed=13)
    with store.new_match(m, SEATS) as handle:
        _play(m, 20, handle)
    renamed = handle.path.with_name("my-best-match.unoduo")
    handle.path.rename(renamed)
    (row,) = store.summaries()
    assert row.id == "my-best-match" and row.header_id == handle.header.match_id
    loaded = store.open(row.id)
    assert loaded.id == row.id and loaded.handle.id == row.id
    assert loaded.match.actions == m.actions
    loaded.handle.close()
    assert store.open(row.id, read_only=True).id == row.id
    with pytest.raises(SaveFileError, match="no saved match"):
        store.open(handle.header.match_id)  # the old name is gone with the file's name
    assert store.delete(row.id) == renamed and store.summaries() == []


def test_a_read_only_open_leaves_no_file_open(store):
    # the replay viewer, the review and the record open saves read-only, many times in
    # a long-lived process (an SSH worker): each open once kept its descriptor for ever
    m = Match.new(seed=31)
    with store.new_match(m, SEATS) as handle:
        _play(m, 10, handle)
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(50):
        assert store.open(handle.path, read_only=True).match.actions == m.actions
    assert len(os.listdir("/proc/self/fd")) == before
