"""A full disk must not lose the match (issue #11 item 1): a failed write leaves the file
a valid prefix, the next sync writes everything not yet saved, and the file then loads
as the live match — for every kind of record, and on a real, small tmpfs."""

import errno
import os
import random

import pytest

from engine import Match, Rules, bots
from engine.savefile import decode, load
from unoduo_tui.store import SaveWriteError, Seat, Store
from tests.full_disk import Disk, fill as _fill, small_disk  # noqa: F401 - a fixture

SEATS = (Seat("Ann", "human"), Seat("Bot", "bot:random"))


def _undo_to(m: Match, bounds: list[int], rng: random.Random) -> Match:
    back = rng.choice([b for b in bounds[-4:] if b < m.log_length] or [bounds[0]])
    del bounds[bounds.index(back) + 1:]
    return Match.replay(m.rules, m.actions[:back], seed=m.seed)


def _session(store, monkeypatch, seed: int, code: int = errno.ENOSPC) -> set[str]:
    """Play a short match, failing the disk at random stretches (at decisions, at a
    round's shuffle, at undos, at the footer), then let it recover; the file must then
    load as the live match.  Returns the kinds of record that met a failed write."""
    rng = random.Random(seed)
    disk = Disk(monkeypatch, code)
    m = Match.new(Rules(target=40), seed=seed)
    handle = store.new_match(m, SEATS)
    players = [bots.make("random", seed=seed), bots.make("random", seed=seed + 1)]
    bounds = [m.log_length]
    hit: set[str] = set()
    failing = False
    undos = 0
    while True:
        if rng.random() < 0.15:  # the disk fills or frees up
            failing = not failing
        disk.mode = rng.choice(("fail", "half", "short")) if failing else None
        if not m.over and rng.random() < 0.1 and len(bounds) > 1 and undos < 8:
            m = _undo_to(m, bounds, rng)
            kinds = {"undo"}
            step = handle.undo
            undos += 1
        elif not m.over:
            before = m.log_length
            m.apply(players[m.to_act].choose(m.view(m.to_act)))
            bounds.append(m.log_length)
            kinds = {"decision"} | ({"chance"} if any(e.is_chance for e in m.actions_from(before))
                                    else set())
            kinds |= {"footer"} if m.over else set()
            step = handle.sync
        else:
            break
        try:
            step(m)
        except SaveWriteError as exc:
            assert failing and "disk is full" in str(exc) or code != errno.ENOSPC
            assert isinstance(exc, OSError) and exc.errno == code
            hit |= kinds
            # the file on disk is always a valid prefix: it loads, no torn tail
            data = handle.path.read_bytes()
            decoded = decode(data)
            assert decoded.torn_bytes == 0 and len(data) == handle.size
            assert handle.pending
        else:
            assert not failing
            assert not handle.pending
            decoded, saved = load(handle.path.read_bytes())
            assert decoded.entries == m.actions and decoded.torn_bytes == 0
    disk.mode = None
    handle.sync(m)  # the disk has room again: everything not yet written goes now
    handle.close()
    decoded, saved = load(handle.path.read_bytes())
    assert decoded.entries == m.actions and saved.scores == m.scores and saved.over
    assert decoded.footer is not None and decoded.footer.entries == m.log_length
    assert (decoded.undos > 0) == (undos > 0)
    loaded = store.open(handle.id, read_only=True)
    assert loaded.match.actions == m.actions and loaded.notes == []
    assert store.summary(handle.path).status == "finished"
    return hit


def test_a_failed_write_of_any_record_is_cut_back_and_retried(tmp_path, monkeypatch):
    hit: set[str] = set()
    for seed in range(12):
        with monkeypatch.context() as mp:
            hit |= _session(Store(tmp_path / f"d{seed}"), mp, seed)
    assert hit == {"decision", "chance", "undo", "footer"}


@pytest.mark.parametrize("code", [errno.EDQUOT, errno.EIO])
def test_quota_and_io_errors_are_handled_like_a_full_disk(tmp_path, monkeypatch, code):
    _session(Store(tmp_path), monkeypatch, 3, code)


def test_a_failed_fdatasync_is_retried_too(tmp_path, monkeypatch):
    store = Store(tmp_path)
    m = Match.new(seed=8)
    handle = store.new_match(m, SEATS)
    players = [bots.make("random", seed=1), bots.make("random", seed=2)]
    real = os.fdatasync

    def broken(fd):
        raise OSError(errno.EIO, "Input/output error")

    for i in range(30):
        m.apply(players[m.to_act].choose(m.view(m.to_act)))
        monkeypatch.setattr(os, "fdatasync", broken if i % 3 else real)
        try:
            handle.sync(m)
        except SaveWriteError:
            assert decode(handle.path.read_bytes()).torn_bytes == 0
    monkeypatch.setattr(os, "fdatasync", real)
    handle.sync(m)
    handle.close()
    assert load(handle.path.read_bytes())[0].entries == m.actions


def test_a_new_match_on_a_full_disk_is_a_clear_error_and_leaves_no_file(tmp_path, monkeypatch):
    store = Store(tmp_path)
    disk = Disk(monkeypatch)
    disk.mode = "half"
    with pytest.raises(SaveWriteError, match="cannot create the save file"):
        store.new_match(Match.new(seed=1), SEATS)
    disk.mode = None
    assert list(store.matches_dir.iterdir()) == []  # no save, no temp file, no lock


def test_a_real_full_tmpfs_loses_nothing(small_disk):
    store = Store(small_disk / "data")
    m = Match.new(Rules(target=1000), seed=12)
    handle = store.new_match(m, SEATS)
    players = [bots.make("random", seed=1), bots.make("random", seed=2)]

    def play(n: int, until_failure: bool = False) -> int:
        failed = 0
        for _ in range(n):
            if m.over or (until_failure and failed > 3):
                break
            m.apply(players[m.to_act].choose(m.view(m.to_act)))
            try:
                handle.sync(m)
            except SaveWriteError as exc:
                assert "disk is full" in str(exc)
                failed += 1
        return failed

    try:
        _fill_play_free(store, small_disk, handle, m, play)
    finally:
        handle.close()
    loaded = store.open(handle.id, read_only=True)
    assert loaded.match.actions == m.actions and loaded.notes == []
    assert loaded.match.scores == m.scores


def _fill_play_free(store, small_disk, handle, m, play) -> None:
    play(30)
    filler = _fill(small_disk)
    assert play(5000, until_failure=True) > 3  # the disk is full: saving fails, the match goes on
    assert decode(handle.path.read_bytes()).torn_bytes == 0
    with pytest.raises(SaveWriteError):  # still full: a new match leaves no file behind
        store.new_match(Match.new(seed=2), SEATS)
    assert sorted(p.name for p in store.matches_dir.iterdir()) == sorted(
        [handle.path.name, handle.path.with_suffix(".lock").name])
    filler.unlink()
    assert play(1500) == 0  # space again: the first sync writes all that was missed
    assert decode(handle.path.read_bytes()).entries == m.actions
