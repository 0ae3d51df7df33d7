"""The record's index: derived from the saves by replaying them, mended by itself,
never poisoned by one bad file, and what is rated."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Match, Rules
from engine.savefile import Encoder, Footer, Header
from unoduo_tui.record import ratings as R
from unoduo_tui.record.derive import derive
from unoduo_tui.record.identity import Owner
from unoduo_tui.record.index import Index
from unoduo_tui.record.stats import changes, records
from unoduo_tui.store import Seat, Store

from .helpers import ANN_V_NORMAL, finished, play_and_save, save

HOSTILE = Path(__file__).parent.parent / "data" / "hostile"
RULES = Rules(target=40)


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "data")


def _records(store: Store, **kw):
    return {(r.who, r.preset): r for r in Index.of(store.data_dir).read(
        lambda conn: records(conn, **kw))}


def _ann(store: Store):
    return _records(store)[("name:ann", "duo")]


def _forged(m: Match, seats=ANN_V_NORMAL) -> bytes:
    """``m``'s save with a footer claiming the other seat won (scores swapped to fit):
    framed, chained and placed as a real one, so only the moves give it away."""
    header = Header("20261129-120000-f0f0f0", m.rules, m.seed,
                    tuple((s.name, s.kind) for s in seats), "2026-11-29T12:00:00+00:00",
                    "0.1.0")
    enc = Encoder()
    data = enc.start(header) + enc.entries(m.actions)
    claim = Footer(1 - m.winner, tuple(reversed(m.scores)), m.round, m.log_length, 0,
                   len(data))
    return data + enc.footer(claim)


# -- results come from the moves -------------------------------------------------------

def test_e4_a_save_edited_to_claim_a_win_is_refused_by_verify_and_by_the_index(store, tmp_path):
    m = finished(RULES, 1, winner=1)  # the bot won
    play_and_save(store, 100, winner=1)  # one honest loss for Ann
    path = store.matches_dir / "20261129-120000-f0f0f0.unoduo"
    path.write_bytes(_forged(m))
    listed = store.summary(path)
    assert listed.status == "finished" and listed.winner == 0  # its two ends do claim it
    verify = subprocess.run([sys.executable, "-m", "unoduo_tui.cli", "--data-dir",
                             str(store.data_dir), "verify", str(path)],
                            capture_output=True, text=True)
    assert verify.returncode == 1 and "does not agree with the log" in verify.stdout
    done = Index.of(store.data_dir).refresh()
    assert any(line.startswith("matches/20261129-120000-f0f0f0.unoduo:") and
               "does not agree" in line for line in done.damaged)
    ann = _ann(store)
    assert (ann.matches, ann.wins) == (1, 0)  # the claimed win counts for nothing


def test_the_hostile_corpus_is_skipped_file_by_file_with_a_line_each(store):
    play_and_save(store, 5, winner=0)
    for f in HOSTILE.glob("*.unoduo"):
        shutil.copy(f, store.matches_dir / f.name)
    done = Index.of(store.data_dir).refresh()
    damaged = {line.split(":", 1)[0].removeprefix("matches/") for line in done.damaged}
    bad = {f.name for f in HOSTILE.glob("*.unoduo") if f.name.startswith(("bad-", "lie-"))}
    assert bad <= damaged
    assert not any(n.startswith(("good-", "odd-")) for n in damaged)
    recs = _records(store)
    # good-finished and good-finished-old-footer (Ann v a random bot) count, and the
    # match before them still does
    assert recs[("name:ann", "duo")].matches == 3
    assert recs[("bot:random", "duo")].matches == 2
    again = Index.of(store.data_dir).refresh()
    assert again.derived == 0 and again.damaged == []  # remembered, not read again


# -- a missing, stale or damaged index mends itself -----------------------------------

def _snapshot(store):
    return {k: (r.matches, r.wins, r.rating, r.points) for k, r in _records(store).items()}


def test_a_deleted_index_is_rebuilt_from_the_saves_and_nothing_is_lost(store):
    for seed in range(4):
        play_and_save(store, seed * 7, winner=seed % 2)
    before = _snapshot(store)
    Index.of(store.data_dir).path.unlink()  # mid-use: this process holds it open
    play_and_save(store, 50, winner=0)  # a match ends while the index is gone
    fresh = sqlite3.connect(Index.of(store.data_dir).path)  # written to the new file,
    assert fresh.execute("SELECT count(*) FROM matches").fetchone()[0] == 1  # not the old
    fresh.close()
    after = _snapshot(store)
    assert after[("name:ann", "duo")][0] == before[("name:ann", "duo")][0] + 1
    Index.of(store.data_dir).refresh(rebuild=True)
    assert _snapshot(store) == after


@pytest.mark.parametrize("damage", ["garbage", "middle", "schema", "empty"])
def test_a_damaged_index_is_removed_and_rebuilt(store, damage):
    for seed in range(3):
        play_and_save(store, seed * 11, winner=seed % 2)
    before = _snapshot(store)
    Index.of(store.data_dir).close()  # the damage is done from outside this process
    path = Index.of(store.data_dir).path
    for tail in ("-wal", "-shm"):
        Path(str(path) + tail).unlink(missing_ok=True)
    if damage == "garbage":
        path.write_bytes(b"not a database at all " * 100)
    elif damage == "middle":
        data = bytearray(path.read_bytes())
        data[len(data) // 3: len(data) // 3 + 2000] = os.urandom(2000)
        data[:16] = b"SQLite format 3\x00"
        path.write_bytes(bytes(data))
    elif damage == "schema":
        conn = sqlite3.connect(path)
        conn.execute("DROP TABLE seats")
        conn.commit()
        conn.close()
    else:
        path.write_bytes(b"")
    play_and_save(store, 99, winner=1)  # the hook meets the damage first
    after = _snapshot(store)
    assert after[("name:ann", "duo")][0] == before[("name:ann", "duo")][0] + 1


@pytest.mark.parametrize("damage", ["garbage", "middle"])
def test_an_index_corrupted_in_place_while_held_open_loses_nothing(store, damage):
    """The damage done under a live connection (same inode, checkpointed: the pages
    are in the main file): this process goes on, another process meets the damage,
    makes the index again from the saves, and both count every match."""
    for seed in range(3):
        play_and_save(store, seed * 11, winner=seed % 2)
    index = Index.of(store.data_dir)
    index.read(lambda conn: conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall(),
               fresh=False)
    with open(index.path, "r+b") as f:
        if damage == "garbage":
            f.write(b"not a database at all " * 300)
        else:
            f.seek(4096)
            f.write(os.urandom(8192))
    play_and_save(store, 99, winner=1)  # a match ends in this process meanwhile
    other = subprocess.run([sys.executable, "-m", "unoduo_tui.cli", "--data-dir",
                            str(store.data_dir), "stats", "--json", "--player", "Ann"],
                           capture_output=True, text=True, timeout=120)
    assert other.returncode == 0, other.stderr
    import json

    assert [p["matches"] for p in json.loads(other.stdout)["players"]] == [4]
    conn = sqlite3.connect(index.path)  # whole again
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    play_and_save(store, 123, winner=0)  # and this process writes to the new file
    assert _ann(store).matches == 5
    Index.of(store.data_dir).close()
    assert sqlite3.connect(index.path).execute(
        "SELECT count(*) FROM matches").fetchone()[0] == 5


def test_saves_added_or_removed_behind_its_back_are_found(store, tmp_path):
    other = Store(tmp_path / "other")
    extra = play_and_save(other, 3, winner=0)
    play_and_save(store, 9, winner=1)
    assert _ann(store).matches == 1
    shutil.copy(extra, store.matches_dir / extra.name)  # no hook: a copy
    assert (_ann(store).matches, _ann(store).wins) == (2, 1)
    (store.matches_dir / extra.name).unlink()
    assert (_ann(store).matches, _ann(store).wins) == (1, 0)


def test_delete_forgets_the_match_and_folds_the_ratings_again(store):
    paths = [play_and_save(store, s * 5, winner=0) for s in range(3)]
    rating_after_two = None
    recs = Index.of(store.data_dir).read(lambda c: changes(c, f"matches/{paths[1].name}"))
    rating_after_two = recs[0].after
    store.delete(paths[2])
    ann = _ann(store)
    assert ann.matches == 2 and ann.rating.value == rating_after_two.value
    rebuilt = Index.of(store.data_dir)
    rebuilt.refresh(rebuild=True)
    assert _ann(store).rating == ann.rating


def test_an_unfinished_match_counts_once_it_ends(store):
    m = Match.new(RULES, seed=4)
    handle = store.new_match(m, ANN_V_NORMAL)
    import random
    rng = random.Random(4)
    for _ in range(20):
        m.apply(rng.choice(m.legal_actions()))
        handle.sync(m)
    assert ("name:ann", "duo") not in _records(store)
    while not m.over:
        m.apply(rng.choice(m.legal_actions()))
        handle.sync(m)  # the footer: the hook notes it
    handle.close()
    conn = sqlite3.connect(Index.of(store.data_dir).path)
    assert conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 1
    assert _ann(store).matches == 1


# -- ratings -------------------------------------------------------------------------

def test_bots_are_fixed_anchors_and_a_human_moves(store):
    for s in range(6):
        play_and_save(store, s * 13, winner=0)
    recs = _records(store)
    bot = recs[("bot:normal", "duo")].rating
    assert (bot.value, bot.anchor) == (R.shown(*R.anchor("duo", "normal"))[0], True)
    ann = recs[("name:ann", "duo")].rating
    assert ann.value > 1500 and ann.rated == 6 and ann.provisional
    assert len(recs[("name:ann", "duo")].history) == 6


def test_provisional_until_ten_rated_matches(store):
    for s in range(R.PROVISIONAL_UNDER):
        play_and_save(store, s * 3, winner=s % 2)
        assert _ann(store).rating.provisional == (s + 1 < R.PROVISIONAL_UNDER)


def test_practice_branches_and_bot_only_matches_are_not_rated(store):
    import random
    m = finished(RULES, 30)
    rng = random.Random(1)
    partial = Match.replay(RULES, m.actions[:40], seed=m.seed)
    handle = store.new_match(partial, ANN_V_NORMAL)
    back = Match.replay(RULES, partial.actions[:30], seed=partial.seed)
    handle.undo(back)
    while not back.over:
        back.apply(rng.choice(back.legal_actions()))
    handle.sync(back)
    handle.close()
    save(store, finished(RULES, 60), ANN_V_NORMAL, parent=["20261129-120000-abcdef", 12])
    save(store, finished(RULES, 70), (Seat("Easy bot", "bot:easy"), Seat("Normal bot",
                                                                            "bot:normal")))
    ann = _ann(store)
    assert ann.matches == 1 and ann.practice == 1  # the practice match; not the branch
    assert ann.rating.rated == 0 and ann.history == []
    assert ("bot:easy", "duo") not in _records(store)  # bot-only: nobody's record
    practice = store.matches_dir / handle.path.name
    why = Index.of(store.data_dir).read(lambda c: changes(c, f"matches/{practice.name}"))
    assert why[0].after is None and "practice" in why[0].why


def test_a_pair_of_humans_is_rated_at_most_pair_cap_times_a_day(store):
    seats = (Seat("Ann", "human"), Seat("Bob", "human"))
    for s in range(R.PAIR_CAP + 2):
        play_and_save(store, s * 17, winner=0, seats=seats)
    ann = _ann(store)
    assert ann.matches == R.PAIR_CAP + 2 and ann.rating.rated == R.PAIR_CAP
    for s in range(2):  # the same players against a bot are rated as ever
        play_and_save(store, 200 + s, winner=0)
    assert _ann(store).rating.rated == R.PAIR_CAP + 2


def test_a_player_at_two_seats_is_not_rated(store):
    play_and_save(store, 1, seats=(Seat("Ann", "human"), Seat("ann", "human")))
    assert _ann(store).rating.rated == 0


def test_free_for_all_places_rate_every_seat(store):
    rules = Rules(preset="classic", seats=4, target=60)
    seats = (Seat("Ann", "human"), Seat("Bea", "human"), Seat("Easy bot", "bot:easy"),
             Seat("Easy bot", "bot:easy"))
    path = save(store, finished(rules, 3), seats)
    got = Index.of(store.data_dir).read(lambda c: changes(c, f"matches/{path.name}"))
    assert [c.name for c in got] == ["Ann", "Bea"] and all(c.after for c in got)
    easy = _records(store)[("bot:easy", "classic")]
    assert easy.matches == 1 and "bot:easy" not in easy.opponents  # not its own opponent


def test_the_incremental_fold_is_the_rebuilds(store):
    """Matches noted one by one (out of order too) rate as a rebuild from nothing."""
    paths = [play_and_save(store, s * 19, winner=s % 3 == 0) for s in range(8)]
    os.utime(paths[2], ns=(paths[0].stat().st_mtime_ns - 10,) * 2)  # ended first
    Index.of(store.data_dir).note(paths[2])
    one_by_one = _snapshot(store)
    Index.of(store.data_dir).refresh(rebuild=True)
    assert _snapshot(store) == one_by_one


def test_the_anchors_are_ordered_random_easy_normal_hard_in_every_preset():
    from engine.rules import PRESETS

    for preset in PRESETS:
        shown = [R.shown(*R.anchor(preset, level))[0]
                 for level in ("random", "easy", "normal", "hard")]
        assert shown == sorted(shown) and len(set(shown)) == 4 and shown[2] == 1500


def test_calibration_puts_a_level_at_the_gap_its_win_share_makes():
    import math

    from tests.bench.ratings import gap

    assert gap(20, 40) == pytest.approx(0.0, abs=1e-9)
    # the model's own odds at that gap give back the measured share
    g = gap(30, 40)
    c = math.sqrt(2 * R.BETA ** 2 + 2 * 1.0 ** 2)
    assert 1 / (1 + math.exp(-g / c)) == pytest.approx(30.5 / 41)


# -- who the seats are ----------------------------------------------------------------

DATA = Path(__file__).parent.parent / "data"


def test_joiners_of_a_hosted_match_are_the_names_its_save_keeps(store):
    """A hosted match's save (format 3) keeps the joiner's name in its seat records
    ([-5, 1, "Jo", kind], and the footer's names): Jo, not the header's "Player 2" —
    also across a bot standing in for Jo while away."""
    store.ensure()
    shutil.copy(DATA / "format3_sample.unoduo", store.matches_dir / "20261130-hosted.unoduo")
    (store.data_dir / "tables").mkdir()  # an older name in the table file: the save wins
    (store.data_dir / "tables" / "20261130-hosted.json").write_text(
        '{"code": "tide-wolf-1742", "tokens": {}, "names": {"1": "Someone else"}}')
    found = _records(store)
    assert {who for who, _ in found} == {"name:hana", "name:jo"}
    jo = found[("name:jo", "duo")]
    assert (jo.name, jo.matches, jo.wins) == ("Jo", 1, 1)
    assert [o.name for o in found[("name:hana", "duo")].opponents.values()] == ["Jo"]


def test_a_hosted_match_saved_before_seat_records_takes_its_table_files_names(store):
    path = save(store, finished(RULES, 5), (Seat("Hana", "human"), Seat("Player 2", "human")))
    (store.data_dir / "tables").mkdir()
    (store.data_dir / "tables" / f"{path.stem}.json").write_text(
        '{"code": "tide-wolf-1742", "tokens": {}, "names": {"1": "Jo"}}')
    Index.of(store.data_dir).refresh(rebuild=True)
    assert {who for who, _ in _records(store)} == {"name:hana", "name:jo"}


def test_h5_both_partners_of_the_winning_team_are_winners_in_the_record(store):
    """H5: the team wins — the index counts a win for both partners, none for the others."""
    from unoduo_tui.record.derive import won

    rules = Rules(preset="classic", seats=4, target=60, teams="partners")
    m = finished(rules, 5)
    partner = rules.partner(m.winner)
    assert [won(m, s) for s in range(4)] == [s in (m.winner, partner) for s in range(4)]
    seats = (Seat("Ann", "human"), Seat("Easy bot", "bot:easy"), Seat("Bea", "human"),
             Seat("Easy bot", "bot:easy"))
    path = save(store, m, seats)
    d = derive(store.data_dir, f"matches/{path.name}", Owner(), store.data_dir)
    assert d.status == "finished"
    assert [row.won for row in d.seats] == [s in (m.winner, partner) for s in range(4)]


def test_the_indexes_of_many_data_dirs_keep_a_few_descriptors_open_and_each_still_answers(
        tmp_path):
    # a process that opens the index of many data dirs (a server's players, the test
    # suite) once kept every connection open, three descriptors each, until select()
    # and then open() failed past 1,024; now the least recently used idle ones close
    from unoduo_tui.record import index as index_module

    def descriptors() -> int:
        return len(os.listdir("/proc/self/fd"))

    stores = [Store(tmp_path / f"player{i}") for i in range(3 * index_module.MAX_CONNS)]
    for s in stores[:2]:
        play_and_save(s, 1)
    before = descriptors()
    for s in stores:
        Index.of(s.data_dir).refresh()
    assert descriptors() - before <= 3 * index_module.MAX_CONNS
    for s in stores:  # the closed ones open again
        expected = 1 if s in stores[:2] else 0
        assert Index.of(s.data_dir).read(lambda conn: conn.execute(
            "SELECT COUNT(*) FROM matches").fetchone()[0]) == expected
