"""The headless commands: list, verify, export, simulate; and the TERM=dumb refusal."""

import json
import os
import subprocess
import sys

import pytest

from engine import Match
from unoduo_tui.cli import main
from unoduo_tui.store import Seat, Store, short_id


def _run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "unoduo_tui.cli", *args], capture_output=True,
                          text=True, env={**os.environ, **(env or {})})


@pytest.fixture
def saved(tmp_path):
    """A data dir holding one unfinished and two finished bot matches."""
    store = Store(tmp_path)
    assert main(["simulate", "--matches", "2", "--seed", "4", "--target", "80",
                 "--save", str(store.matches_dir), "--data-dir", str(tmp_path)]) == 0
    m = Match.new(seed=5)
    with store.new_match(m, (Seat("Ann", "human"), Seat("Bot", "bot:random"))) as handle:
        m.apply("keep")
        handle.sync(m)
    return store, handle


def test_simulate_plays_duplicate_pairs_and_writes_real_save_files(saved, capsys):
    store, _ = saved
    rows = store.summaries()
    assert sorted(r.status for r in rows) == ["finished", "finished", "in progress"]
    assert main(["simulate", "--bots", "random,random", "--matches", "4", "--seed", "2",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    wins = sum(side["wins"] for side in out["bots"].values())  # "random#1", "random#2"
    assert out["matches"] == 4 and wins + out["draws"] == 4
    assert out["saved_to"] is None and out["actions_per_second"] > 0


def test_simulate_refuses_unknown_bots(capsys):
    assert main(["simulate", "--bots", "random,grandmaster"]) == 2
    assert "two of" in capsys.readouterr().err


def test_list_shows_every_match_with_status(saved, capsys):
    store, handle = saved
    assert main(["list", "--data-dir", str(store.data_dir)]) == 0
    out = capsys.readouterr().out
    assert short_id(handle.id) in out and "in progress" in out
    assert "Ann v Bot" in out
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines)
    finished = [line for line in lines if line.endswith(" won")]
    # the simulated seats are "Random bot 1" and "Random bot 2": the winner stays told
    assert len(finished) == 2 and all(line.split()[-2][-1] in "12" for line in finished)


def test_verify_ok_and_damaged(saved, capsys):
    store, handle = saved
    assert main(["verify", handle.id, "--data-dir", str(store.data_dir)]) == 0
    assert capsys.readouterr().out.startswith("ok: ")
    data = bytearray(handle.path.read_bytes())
    data[-6] ^= 1
    handle.path.write_bytes(bytes(data))
    assert main(["verify", str(handle.path)]) == 1
    assert capsys.readouterr().out.startswith("damaged: ")


def test_export_json_lines(saved, capsys):
    store, handle = saved
    assert main(["export", handle.id, "--json", "--data-dir", str(store.data_dir)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["seats"][0] == ["Ann", "human"]
    decisions = [x for x in lines if x["type"] == "decision"]
    assert decisions == [{"type": "decision", "i": len(lines) - 2, "seat": decisions[0]["seat"],
                          "action": "keep"}]
    assert any(x["type"] == "chance" and x["entry"].startswith("shuffle") for x in lines)


def test_missing_match_is_a_usage_error_not_damage(tmp_path, capsys):
    assert main(["verify", "nope", "--data-dir", str(tmp_path)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err == "unoduo: no saved match 'nope' (see 'unoduo list')\n"


def test_dumb_terminal_is_refused_in_plain_text_before_textual():
    out = _run("play", env={"TERM": "dumb"})
    assert out.returncode == 2 and "full-screen terminal" in out.stderr
    assert "\x1b" not in out.stdout + out.stderr


def test_headless_commands_never_import_textual(tmp_path):
    code = ("import sys; from unoduo_tui.cli import main; "
            f"main(['list', '--data-dir', {str(tmp_path)!r}]); "
            f"main(['simulate', '--matches', '1', '--target', '30']); "
            "print('textual' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_list_marks_a_practice_match(tmp_path, capsys):
    store = Store(tmp_path)
    m = Match.new(seed=6)
    with store.new_match(m, (Seat("Ann", "human"), Seat("Bot", "bot:random"))) as handle:
        before = m.log_length
        m.apply("keep")
        handle.sync(m)
        handle.undo(Match.replay(m.rules, m.actions[:before], seed=m.seed))
    assert main(["list", "--data-dir", str(tmp_path)]) == 0
    assert "practice (1 undo)" in capsys.readouterr().out


def _long_practice_branch(store: Store) -> tuple[str, str]:
    """A finished parent and, branched from it, a practice match with long names and
    many undos: the widest lines ``unoduo list`` prints."""
    from tests.tui.test_replay import save

    parent = save(store)
    m = Match.new(seed=8)
    seats = (Seat("Alexandra Konstantinopoulou", "human"),
             Seat("Maximilian Featherstonehaugh", "bot:normal"))
    with store.new_match(m, seats, extra={"parent": [parent, 12345]}) as handle:
        for _ in range(12):
            before = m.log_length
            m.apply("keep")
            handle.sync(m)
            handle.undo(Match.replay(m.rules, m.actions[:before], seed=m.seed))
        m.apply("reject")
        handle.sync(m)
        return parent, handle.id


def test_list_lines_fit_80_columns_with_long_names_practice_and_a_branch(tmp_path, capsys):
    store = Store(tmp_path)
    parent, branch = _long_practice_branch(store)
    assert main(["list", "--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 80, "\n".join(lines)
    row = lines.index(next(x for x in lines if x.startswith(short_id(branch))))
    assert "Alexandra v Maximilian" in lines[row] and "in progress" in lines[row]
    assert lines[row + 1].split() == ["practice", "(12", "undos),", "branch", "of",
                                      short_id(parent), "@", "12345"]


def test_list_spoiler_free_hides_a_branchs_scores(tmp_path, capsys):
    store = Store(tmp_path)
    _, branch = _long_practice_branch(store)
    summary = next(s for s in store.summaries() if s.id == branch)
    assert main(["list", "--data-dir", str(tmp_path)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith(short_id(branch)))
    assert "–".join(map(str, summary.scores)) in line
    assert main(["list", "--spoiler-free", "--data-dir", str(tmp_path)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith(short_id(branch)))
    assert "–".join(map(str, summary.scores)) not in line
    assert line.split()[-4:] == ["?", "?", "in", "progress"]


def test_list_notes_a_damaged_file_within_80_columns(saved, capsys):
    store, handle = saved
    data = bytearray(handle.path.read_bytes())
    data[-6] ^= 1
    handle.path.write_bytes(bytes(data))
    assert main(["list", "--data-dir", str(store.data_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    row = next(i for i, x in enumerate(lines) if x.startswith(short_id(handle.id)))
    assert lines[row].endswith("damaged") and "damaged or was edited" in lines[row + 1]
    assert max(map(len, lines)) <= 80


def test_an_option_is_taken_only_as_written(tmp_path, capsys):
    """argparse's prefix matching read `serve --host 127.0.0.1` as `--host-key 127.0.0.1`
    (and wrote a host key of that name): a shortened option is now an unknown one — one
    line, exit 2 (here `stats --pre duo`, which ran as `--preset duo`)."""
    from unoduo_tui.cli import main

    try:
        code = main(["--data-dir", str(tmp_path), "stats", "--pre", "duo"])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--pre duo" in err
