"""Seat records through the store (format 3): a joiner's name and a bot standing in
for an away player are kept with the match — written where they lie in the log, kept
across a full disk, listed (in progress and finished), and old files go on without."""

import errno
import os
import random

import pytest

from engine import Match, Rules
from engine.savefile import Encoder, Header, SeatRecord, decode
from unoduo_tui.store import SaveFileError, SaveWriteError, Seat, Store

SEATS = (Seat("Hana", "human"), Seat("Player 2", "human"))


def _play(m: Match, n: int, rng: random.Random) -> None:
    for _ in range(n):
        if m.over:
            return
        m.apply(rng.choice(m.legal_actions()))


def test_a_joiner_s_name_is_kept_and_listed_in_progress_and_finished(tmp_path):
    store = Store(tmp_path)
    rng = random.Random(1)
    m = Match.new(Rules(target=25), seed=5)
    handle = store.new_match(m, SEATS)
    handle.seat(m, 1, "Jo", "human")
    _play(m, 10, rng)
    handle.sync(m)
    [row] = store.summaries()
    assert [s.name for s in row.seats] == ["Hana", "Jo"] and row.status == "in progress"
    handle.seat(m, 1, "Jo", "bot:normal")
    _play(m, 10, rng)
    handle.seat(m, 1, "Jo", "human")
    while not m.over:
        _play(m, 1, rng)
    handle.sync(m)
    handle.close()
    [row] = store.summaries()
    assert row.status == "finished" and [s.name for s in row.seats] == ["Hana", "Jo"]
    loaded = store.open(handle.id, read_only=True)
    assert [s.name for s in loaded.seats] == ["Hana", "Jo"]
    assert [s.kind for s in loaded.seats] == ["human", "human"]  # who owns the seat
    bot_from, back_at = loaded.seat_records[1].at, loaded.seat_records[2].at
    assert bot_from < back_at
    assert loaded.stand_in(1, bot_from) == "bot:normal" == loaded.stand_in(1, back_at - 1)
    assert loaded.stand_in(1, bot_from - 1) is None and loaded.stand_in(1, back_at) is None
    assert loaded.stand_in(0, bot_from) is None


def test_a_seat_record_that_met_a_full_disk_is_written_where_it_belongs(tmp_path, monkeypatch):
    store = Store(tmp_path)
    rng = random.Random(2)
    m = Match.new(Rules(), seed=6)
    handle = store.new_match(m, SEATS)
    _play(m, 5, rng)
    handle.sync(m)
    at = m.log_length
    real = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: (_ for _ in ()).throw(
        OSError(errno.ENOSPC, "full")) if fd > 2 else real(fd, data))
    with pytest.raises(SaveWriteError, match="the disk is full"):
        handle.seat(m, 1, "Jo", "bot:easy")
    _play(m, 5, rng)
    with pytest.raises(SaveWriteError):
        handle.sync(m)
    monkeypatch.setattr(os, "write", real)
    handle.sync(m)
    handle.close()
    decoded = decode(handle.path.read_bytes())
    assert decoded.seats == [SeatRecord(at, 1, "Jo", "bot:easy")]
    assert decoded.entries == m.actions


def test_an_old_file_cannot_take_a_seat_record_and_still_loads(tmp_path):
    store = Store(tmp_path)
    m = Match.new(Rules(), seed=7)
    header = Header("20261129-000000-old222", m.rules, m.seed, (("Ann", "human"),
                    ("Bob", "human")), "2026-11-29T00:00:00+00:00", "0.1.0", 2)
    enc = Encoder()
    (store.matches_dir).mkdir(parents=True)
    path = store.matches_dir / "20261129-000000-old222.unoduo"
    path.write_bytes(enc.start(header) + enc.entries(m.actions))
    loaded = store.open(path)
    try:
        assert not loaded.handle.can_name
        with pytest.raises(SaveFileError, match="cannot record"):
            loaded.handle.seat(loaded.match, 1, "Jo", "human")
        assert [s.name for s in loaded.seats] == ["Ann", "Bob"]
    finally:
        loaded.handle.close()
    assert store.open(path, read_only=True).match.actions == m.actions
