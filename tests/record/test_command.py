"""``unoduo stats``: the text, the JSON, the rebuild's progress bar, bad arguments."""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

from engine import Rules
from unoduo_tui.store import Seat, Store

from .helpers import finished, play_and_save, save

HOSTILE = Path(__file__).parent.parent / "data" / "hostile"


def _stats(data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-m", "unoduo_tui.cli", "--data-dir", str(data),
                           "stats", *args], capture_output=True, text=True, env=env,
                          timeout=120)


def _some(tmp_path) -> Path:
    store = Store(tmp_path / "data")
    for s in range(3):
        play_and_save(store, s * 9, winner=s % 2)
    save(store, finished(Rules(preset="classic", seats=3, target=60), 4),
         (Seat("Ann", "human"), Seat("Bob", "human"), Seat("Easy bot", "bot:easy")))
    return store.data_dir


def test_json_is_one_object_with_the_players(tmp_path):
    out = _stats(_some(tmp_path), "--json")
    assert out.returncode == 0 and out.stderr == ""
    doc = json.loads(out.stdout)
    assert list(doc) == ["players"]
    by = {(p["name"], p["preset"]): p for p in doc["players"]}
    ann = by[("Ann", "duo")]
    for key in ("name", "kind", "preset", "matches", "wins", "rating", "opponents"):
        assert key in ann
    assert ann["kind"] == "human" and ann["matches"] == 3
    assert set(ann["rating"]) >= {"value", "uncertainty", "provisional"}
    assert ann["rating"]["provisional"] is True
    assert ann["opponents"] == [{"name": "Normal bot", "kind": "bot", "matches": 3,
                                 "wins": ann["wins"], "losses": 3 - ann["wins"]}]
    assert by[("Normal bot", "duo")]["kind"] == "bot"
    assert by[("Normal bot", "duo")]["rating"]["fixed"] is True
    classic = by[("Ann", "classic")]
    assert {o["name"] for o in classic["opponents"]} == {"Bob", "Easy bot"}


def test_text_fits_80_columns_and_filters_by_player_and_preset(tmp_path):
    data = _some(tmp_path)
    out = _stats(data, "--player", "ann", "--preset", "duo")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert lines[0] == "UNO Duo — Ann (human)" and all(len(line) <= 80 for line in lines)
    assert "Classic" not in out.stdout and "rating 1" in out.stdout
    assert "Normal bot" in out.stdout
    none = _stats(data, "--player", "nobody\x1b[2J")
    assert none.returncode == 0 and "\x1b" not in none.stdout
    assert none.stdout.startswith("No finished matches for")


def test_a_bad_argument_is_one_line_and_exit_2(tmp_path):
    out = _stats(tmp_path, "--preset", "poker")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1


def test_no_data_dir_yet_is_no_matches_and_creates_nothing(tmp_path):
    out = _stats(tmp_path / "none")
    assert out.returncode == 0 and out.stdout.startswith("No finished matches")
    assert not (tmp_path / "none").exists()


def test_rebuild_shows_a_progress_bar_on_a_terminal_and_a_line_per_damaged_save(tmp_path):
    data = _some(tmp_path)
    for f in HOSTILE.glob("bad-*.unoduo"):
        shutil.copy(f, data / "matches" / f.name)
    master, slave = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "unoduo_tui.cli", "--data-dir",
                               str(data), "stats", "--rebuild", "--json"],
                              stdout=subprocess.PIPE, stderr=slave, timeout=120)
        os.close(slave)
        slave = -1
        err = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    assert proc.returncode == 0
    text = err.decode()
    saves = len(list((data / "matches").glob("*.unoduo")))
    assert f"] {saves}/{saves} matches" in text  # the bar, drawn in place
    skipped = [line for line in text.splitlines() if "skipped matches/bad-" in line]
    assert len(skipped) == len(list(HOSTILE.glob("bad-*.unoduo")))
    assert len(json.loads(proc.stdout)["players"]) >= 4
