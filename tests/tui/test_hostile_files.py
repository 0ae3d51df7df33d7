"""The save system under attack (issue #11): the hostile corpus, odd files in the
matches folder (FIFOs, symlinks, huge files), odd fields (naive or far-off times,
lying footers), symlinks met while writing, and mutated bytes.

Only :class:`SaveFileError` ever escapes; one bad file is listed as damaged and never
hides the others; nothing is written through a symlink or beside a file read-only.
"""

import os
import shutil
import threading
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Match, Rules, bots
from engine.savefile import Decoded, SaveFileError, decode, load
from unoduo_tui.cli import main as cli
from unoduo_tui.settings import Settings
from unoduo_tui.store import Seat, Store

HOSTILE = Path(__file__).parent.parent / "data" / "hostile"
CORPUS = sorted(HOSTILE.glob("*.unoduo"))
SEATS = (Seat("Ann", "human"), Seat("Bot", "bot:random"))


def _kind(path: Path) -> str:
    return path.name.split("-", 1)[0]


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "data")


def _filled(store: Store) -> Store:
    store.matches_dir.mkdir(parents=True)
    for path in CORPUS:
        shutil.copyfile(path, store.matches_dir / path.name)
    return store


def _played(store: Store, seed: int = 1, decisions: int = 30, rules: Rules | None = None):
    m = Match.new(rules or Rules(), seed=seed)
    handle = store.new_match(m, SEATS)
    players = [bots.make("random", seed=1), bots.make("random", seed=2)]
    for _ in range(decisions):
        if m.over:
            break
        m.apply(players[m.to_act].choose(m.view(m.to_act)))
        handle.sync(m)
    return m, handle


def test_the_corpus_is_what_make_hostile_writes():
    from tests.data.make_hostile import corpus

    files = corpus()
    assert sorted(f"{name}.unoduo" for name in files) == [p.name for p in CORPUS]
    assert all((HOSTILE / f"{name}.unoduo").read_bytes() == data for name, data in files.items())
    assert len(CORPUS) >= 40 and max(p.stat().st_size for p in CORPUS) < 8192
    assert {_kind(p) for p in CORPUS} == {"good", "odd", "torn", "bad", "lie"}


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_every_hostile_file_gives_a_save_file_error_or_a_match(path, tmp_path):
    data = path.read_bytes()
    kind = _kind(path)
    try:
        decoded = decode(data, path.name)
        decoded, match = load(data, path.name)
    except SaveFileError as exc:
        assert kind in ("bad", "lie"), f"{path.name} should load: {exc}"
        assert path.name in str(exc)
    else:
        assert kind not in ("bad", "lie"), f"{path.name} loaded"
        assert (decoded.torn_bytes > 0) == (kind == "torn")
    store = Store(tmp_path)
    store.matches_dir.mkdir(parents=True)
    copy = store.matches_dir / path.name
    copy.write_bytes(data)
    summary = store.summary(copy)
    assert (summary.status == "damaged") == (kind == "bad")  # "lie": listed from its ends
    assert summary.created is None or summary.created.tzinfo is not None
    assert summary.id == path.stem  # the file's name is its id
    try:
        loaded = store.open(path.stem, read_only=True)
    except SaveFileError:
        assert kind in ("bad", "lie")
    else:
        assert kind not in ("bad", "lie") and loaded.handle is None
    assert sorted(os.listdir(store.matches_dir)) == [path.name]  # read-only: nothing made
    assert copy.read_bytes() == data


def test_one_listing_shows_every_file_and_the_good_ones_still_open(store, capsys):
    _filled(store)
    m, handle = _played(store, decisions=20)
    handle.close()
    rows = store.summaries()
    assert sorted(r.path.name for r in rows) == sorted(
        [p.name for p in CORPUS] + [handle.path.name])
    for row in rows:
        assert (row.status == "damaged") == (_kind(row.path) == "bad"), row
        assert row.created is None or row.created.tzinfo is not None
    assert rows[0].id == handle.id  # the newest real match first, odd times never in front
    by_id = {r.id: r for r in rows}
    assert by_id["good-finished"].status == by_id["good-finished-old-footer"].status == "finished"
    assert by_id["bad-footer-lying-0-0"].status == "damaged"
    assert by_id["odd-renamed-header-id"].header_id == "20000101-000000-000000"
    for name in ("odd-naive-created", "odd-created-year-1", "odd-created-year-9999",
                 "odd-created-garbage"):
        assert by_id[name].created is None and by_id[name].status == "in progress"
    # the command lists them all too, with no traceback
    assert cli(["list", "--data-dir", str(store.data_dir)]) == 0
    out = capsys.readouterr().out
    # one line a match (a note — damage, practice, branch — goes on an indented line below)
    lines = out.splitlines()
    assert len([line for line in lines[1:] if not line.startswith(" ")]) == len(rows)
    damaged = sum(1 for r in rows if r.status == "damaged")
    assert len([line for line in lines if line.startswith(" ")]) >= damaged > 0
    # and every file that is not damaged resumes by the id shown
    for row in rows:
        if row.status == "damaged" or _kind(row.path) == "lie":
            with pytest.raises(SaveFileError):
                store.open(row.id)
            continue
        loaded = store.open(row.id)
        assert loaded.id == row.id
        loaded.handle.close()
    assert store.newest_unfinished().id == handle.id


def test_summary_reads_a_finished_file_from_its_two_ends(store, monkeypatch):
    m, handle = _played(store, decisions=100_000, rules=Rules(target=30))
    handle.close()
    assert m.over
    import unoduo_tui.store as store_module

    def no_decoding(*args, **kwargs):
        raise AssertionError("decoded the whole file")

    monkeypatch.setattr(store_module, "decode", no_decoding)
    monkeypatch.setattr(store_module, "load", no_decoding)
    row = store.summary(handle.path)
    assert (row.status, row.winner, row.scores, row.round) == (
        "finished", m.winner, m.scores, m.round)
    assert row.actions == m.log_length and row.undos == 0


def test_a_footer_that_disagrees_with_its_header_means_a_full_decode(store):
    _filled(store)
    for name in ("bad-footer-winner-7", "bad-footer-lying-0-0", "bad-footer-wrong-offset"):
        row = store.summary(store.matches_dir / f"{name}.unoduo")
        assert row.status == "damaged" and "final record" in row.problem


def test_decoding_copies_no_slice_of_the_rest_of_the_file():
    data = (HOSTILE / "good-in-progress.unoduo").read_bytes()
    copied = []

    class Counting(bytes):
        def __getitem__(self, key):
            if isinstance(key, slice):
                copied.append(len(range(*key.indices(len(self)))))
            return bytes.__getitem__(self, key)

    big = Counting(data + b"\x00" * 10)  # a zero tail is checked once, not per record
    decoded = decode(big)
    assert decoded.zero_tail and len(decoded.entries) > 30
    assert sum(copied) <= len(data) // 4


# -- odd things in the matches folder ------------------------------------------------

def test_a_fifo_named_like_a_save_does_not_hang_the_list(store):
    m, handle = _played(store)
    handle.close()
    os.mkfifo(store.matches_dir / "pipe.unoduo")
    rows: list = []
    worker = threading.Thread(target=lambda: rows.extend(store.summaries()), daemon=True)
    worker.start()
    worker.join(timeout=60)  # a safety net: a blocking open would hang here
    assert not worker.is_alive()
    by_id = {r.id: r for r in rows}
    assert by_id["pipe"].status == "damaged" and "named pipe" in by_id["pipe"].problem
    assert by_id[handle.id].status == "in progress"
    for read_only in (True, False):
        with pytest.raises(SaveFileError, match="named pipe|cannot open"):
            store.open("pipe", read_only=read_only)


def test_symlinks_devices_folders_and_huge_files_are_listed_as_damaged(store):
    m, handle = _played(store)
    handle.close()
    d = store.matches_dir
    (d / "zero.unoduo").symlink_to("/dev/zero")
    (d / "link.unoduo").symlink_to(handle.path)
    (d / "folder.unoduo").mkdir()
    with open(d / "huge.unoduo", "wb") as f:
        f.truncate(65 * 1024 * 1024)  # sparse: nothing is really written
    rows = {r.id: r for r in store.summaries()}
    assert "symbolic link" in rows["zero"].problem and "symbolic link" in rows["link"].problem
    assert "folder" in rows["folder"].problem and "MiB" in rows["huge"].problem
    assert all(rows[k].status == "damaged" for k in ("zero", "link", "folder", "huge"))
    assert rows[handle.id].status == "in progress"
    for ref in ("zero", "huge", "folder"):
        with pytest.raises(SaveFileError):
            store.open(ref, read_only=True)


# -- never writing through a symlink --------------------------------------------------

def _target(tmp_path: Path, text: bytes = b"precious\n") -> Path:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(text)
    victim.chmod(0o644)
    return victim


def _untouched(victim: Path, text: bytes = b"precious\n") -> None:
    assert victim.read_bytes() == text and victim.stat().st_mode & 0o777 == 0o644


def test_a_lock_symlink_is_refused_and_its_target_untouched(store, tmp_path):
    m, handle = _played(store)
    handle.close()
    victim = _target(tmp_path)
    handle.path.with_suffix(".lock").symlink_to(victim)
    with pytest.raises(SaveFileError, match="symbolic link"):
        store.open(handle.id)
    _untouched(victim)


def test_a_corrupt_copy_never_overwrites_what_is_there(store, tmp_path):
    m, handle = _played(store)
    handle.close()
    victim = _target(tmp_path)
    whole = handle.path.read_bytes()
    handle.path.write_bytes(whole[:-3])
    corrupt = handle.path.with_name(handle.path.name + ".corrupt")
    corrupt.symlink_to(victim)
    loaded = store.open(handle.id)
    loaded.handle.close()
    _untouched(victim)
    assert corrupt.is_symlink()
    kept = handle.path.with_name(handle.path.name + ".corrupt.1")
    assert kept.read_bytes() == whole[:-3] and kept.name in loaded.notes[0]
    assert kept.stat().st_mode & 0o777 == 0o600
    store.delete(handle.id)  # every copy goes with the match, the symlink's target stays
    assert not kept.exists() and not os.path.lexists(corrupt)
    _untouched(victim)


def test_a_save_that_is_a_symlink_is_never_written(store, tmp_path):
    m, handle = _played(store)
    handle.close()
    elsewhere = tmp_path / "elsewhere.unoduo"
    handle.path.rename(elsewhere)
    elsewhere.chmod(0o644)
    before = elsewhere.read_bytes()
    handle.path.symlink_to(elsewhere)
    with pytest.raises(SaveFileError, match="symbolic link"):
        store.open(handle.id)
    assert elsewhere.read_bytes() == before and elsewhere.stat().st_mode & 0o777 == 0o644


def test_resume_of_a_file_that_is_not_a_save_touches_nothing_beside_it(store, tmp_path):
    notes = _target(tmp_path)
    (tmp_path / "victim.lock").write_bytes(b"mine\n")
    with pytest.raises(SaveFileError, match="does not end in .unoduo"):
        store.open(str(notes))
    with pytest.raises(SaveFileError, match="not a unoduo save file"):
        store.open(str(notes), read_only=True)  # verify may read it, and says what it is
    _untouched(notes)
    assert (tmp_path / "victim.lock").read_bytes() == b"mine\n"
    assert sorted(os.listdir(tmp_path)) == ["victim.lock", "victim.txt"]


def test_an_existing_folder_keeps_its_mode_a_new_one_is_private(store, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    m = Match.new(seed=3)
    store.new_match(m, SEATS, directory=shared).close()
    assert shared.stat().st_mode & 0o777 == 0o755
    made = tmp_path / "made" / "here"
    store.new_match(m, SEATS, directory=made).close()
    assert made.stat().st_mode & 0o777 == 0o700


def test_settings_are_private_whatever_the_umask_and_never_follow_a_symlink(store, tmp_path):
    victim = _target(tmp_path)
    store.data_dir.mkdir(parents=True)
    (store.data_dir / "settings.json").symlink_to(victim)
    old = os.umask(0)
    try:
        Settings(names=["Ann"]).save(store)
    finally:
        os.umask(old)
    path = store.data_dir / "settings.json"
    assert not path.is_symlink() and path.stat().st_mode & 0o777 == 0o600
    assert Settings.load(store).name(0) == "Ann"
    _untouched(victim)
    assert [p.name for p in store.data_dir.iterdir() if p.name.endswith(".tmp")] == []


# -- names and limits: the writer never writes what the reader refuses -------------------

def test_the_writer_refuses_what_the_reader_would(store):
    m = Match.new(seed=5)
    for seats in ((Seat("N" * 65, "human"), SEATS[1]), SEATS + (Seat("C", "human"),),
                  (Seat("Ann", "k" * 65), SEATS[1])):
        with pytest.raises(ValueError, match="seats|seat"):
            store.new_match(m, seats)
    assert not store.matches_dir.exists() or list(store.matches_dir.iterdir()) == []
    longest = (Seat("N" * 64, "human"), SEATS[1])
    with store.new_match(m, longest) as handle:
        pass
    assert store.open(handle.id, read_only=True).seats == longest


# -- mutated bytes ------------------------------------------------------------------------

_REAL = (HOSTILE / "good-finished.unoduo").read_bytes()
_REAL_ENTRIES = decode(_REAL).entries


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(
    st.tuples(st.just("flip"), st.integers(0, len(_REAL) - 1), st.integers(0, 7)),
    st.tuples(st.just("cut"), st.integers(0, len(_REAL)), st.just(0)),
    st.tuples(st.just("splice"), st.integers(0, len(_REAL)), st.integers(0, len(_REAL))),
), min_size=1, max_size=3))
def test_mutated_saves_decode_to_a_valid_prefix_or_a_save_file_error(edits):
    data = bytearray(_REAL)
    for op, a, b in edits:
        if op == "flip" and a < len(data):
            data[a] ^= 1 << b
        elif op == "cut":
            del data[a:]
        elif op == "splice":  # a stretch of the file again, somewhere else
            lo, hi = sorted((a, b))
            data[lo:lo] = _REAL[lo:hi][:64]
    try:
        decoded = decode(bytes(data))
    except SaveFileError:
        return
    assert isinstance(decoded, Decoded)
    assert decoded.entries == _REAL_ENTRIES[:len(decoded.entries)]
    assert decoded.good_length + decoded.torn_bytes == len(data)
    assert bytes(data[:decoded.good_length]) == _REAL[:decoded.good_length]


def test_created_times_are_aware_and_sortable():
    from unoduo_tui.store import parse_time

    for text in ("2026-11-29T12:00:00", "0001-01-01T00:00:00+00:00",
                 "9999-12-31T23:59:59-23:59", "nonsense", ""):
        assert parse_time(text) is None
    when = parse_time("2026-11-29T12:00:00+00:00")
    assert isinstance(when, datetime) and when.tzinfo is not None
    when.astimezone()
