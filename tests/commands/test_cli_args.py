"""Issue #11: every bad argument is one line on stderr and exit status 2, before anything
full-screen, never a traceback.  Each case runs ``python -m unoduo_tui.cli`` with a temp
data dir and stdin not a terminal (the checks come before the terminal check)."""

import json
import os
import subprocess
import sys

import pytest

from engine import Rules
from engine.savefile import MAX_NAME
from unoduo_tui.commands.common import MAX_TARGET
from unoduo_tui.store import Store


def run(*args, data_dir=None, env=None, timeout=60):
    extra = ["--data-dir", str(data_dir)] if data_dir is not None else []
    full_env = {**os.environ, "TERM": "xterm-256color", **(env or {})}
    return subprocess.run([sys.executable, "-m", "unoduo_tui.cli", *args, *extra],
                          capture_output=True, text=True, env=full_env,
                          stdin=subprocess.DEVNULL, timeout=timeout)


def refused(out, *words: str) -> None:
    """Exit status 2, one line on stderr naming ``words``, no traceback."""
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr + out.stdout
    assert out.stderr.endswith("\n") and out.stderr.count("\n") == 1, out.stderr
    for word in words:
        assert word in out.stderr, out.stderr


@pytest.mark.parametrize("args,words", [
    (["play", "--vs", "godlike"], ["unknown opponent 'godlike'", "normal", "human"]),
    (["play", "--preset", "classic", "--seats", "4", "--vs", "easy,godlike,hard"],
     ["unknown opponent 'godlike'"]),
    (["play", "--preset", "classic", "--seats", "4", "--vs", "easy,hard"],
     ["--vs takes one or 3", "not 2"]),
    (["play", "--preset", "classic", "--seats", "11"], ["classic is for 2 to 10 players"]),
    (["play", "--preset", "classic", "--seats", "1"], ["classic is for 2 to 10 players"]),
    (["play", "--seats", "3"], ["duo is for 2 players"]),
    (["play", "--vs", "easy,hard"], ["--vs names 2 opponents", "duo has room for 1"]),
    (["play", "--preset", "classic", "--vs", ",".join(["easy"] * 10)], ["room for 9"]),
    (["play", "--stacking", "on"], ["--stacking is not an option of the duo preset",
                                    "only classic"]),
    (["play", "--preset", "duo", "--scoring", "own_hand"], ["--scoring", "duo preset"]),
    (["play", "--preset", "classic", "--stacking", "maybe"], ["'maybe': one of off, on"]),
    (["play", "--preset", "uno"], ["--preset", "duo", "classic"]),
    (["resume", "nosuch"], ["no saved match 'nosuch'"]),
    (["replay", "nosuch"], ["no saved match 'nosuch'"]),
    (["verify", "nosuch"], ["no saved match 'nosuch'"]),
    (["export", "nosuch"], ["no saved match"]),
    (["transcript", "nosuch"], ["no saved match"]),
    (["delete", "nosuch", "--yes"], ["no saved match"]),
    (["verify", "*"], ["no saved match '*'"]),
    (["verify", "a**"], ["no saved match 'a**'"]),
    (["verify", "~nosuchuser/x"], ["no saved match"]),
    (["verify", "a" * 5000], ["no saved match 'aaa"]),
    (["resume", "a" * 5000], ["no saved match"]),
    (["simulate", "--target", "99999999999999999999999"], [f"1 to {MAX_TARGET:,}"]),
    (["play", "--target", "99999999999999999999999"], [f"1 to {MAX_TARGET:,}"]),
    (["play", "--target", "0"], ["--target"]),
    (["play", "--seed", "-1"], ["2**64-1"]),
    (["play", "--seed", "9" * 5000], ["not a whole number"]),
    (["simulate", "--bots", "random,grandmaster"], ["two of"]),
])
def test_a_bad_argument_is_one_line_and_status_2(tmp_path, args, words):
    refused(run(*args, data_dir=tmp_path), *words)


def test_the_5000_character_id_is_quoted_short(tmp_path):
    out = run("verify", "a" * 5000, data_dir=tmp_path)
    refused(out)
    assert len(out.stderr) < 200


def test_a_wildcard_never_picks_a_match(tmp_path):
    from tests.tui.test_replay import save

    ref = save(Store(tmp_path))
    refused(run("delete", "*" + ref[-1], "--yes", data_dir=tmp_path), "no saved match")
    assert Store(tmp_path).resolve(ref).is_file()


@pytest.mark.parametrize("command", [["list"], ["play"], ["verify", "x"]])
def test_a_data_dir_of_an_unknown_user_is_refused(command):
    out = run(*command, env={"UNODUO_DATA_DIR": "~nosuchuser"})
    refused(out, "data dir")


def test_a_data_dir_under_a_file_is_refused_before_the_table(tmp_path):
    env = {"XDG_DATA_HOME": "/dev/null", "UNODUO_DATA_DIR": ""}
    refused(run("play", "--vs", "random", env=env), "/dev/null/unoduo", "the data dir")
    refused(run("resume", env=env), "the data dir")
    # reading an empty place is fine: nothing is saved there
    out = run("list", env=env)
    assert out.returncode == 0 and "No saved matches" in out.stdout


@pytest.mark.parametrize("where", ["a file", "an unwritable path", "under /dev/null"])
def test_simulate_save_into_a_bad_place_is_refused_before_it_plays(tmp_path, where):
    target = {"a file": tmp_path / "file", "an unwritable path": "/proc/unoduo/x",
              "under /dev/null": "/dev/null/x"}[where]
    (tmp_path / "file").write_text("not a folder")
    out = run("simulate", "--matches", "1", "--target", "30", "--save", str(target),
              data_dir=tmp_path / "data")
    refused(out, "cannot save to")
    assert out.stdout == ""


def test_simulate_save_with_a_data_dir_under_a_file(tmp_path):
    out = run("simulate", "--matches", "1", "--target", "30", "--save", str(tmp_path / "s"),
              env={"XDG_DATA_HOME": "/dev/null", "UNODUO_DATA_DIR": ""})
    refused(out, "/dev/null/unoduo")


def test_the_checks_come_before_the_terminal_check(tmp_path):
    # stdin is not a terminal: a good `play` is refused for that, a bad one for itself
    good = run("play", "--vs", "normal", data_dir=tmp_path)
    assert good.returncode == 2 and "interactive terminal" in good.stderr
    bad = run("play", "--vs", "godlike", data_dir=tmp_path)
    assert "interactive terminal" not in bad.stderr


def test_play_hands_the_app_checked_arguments(tmp_path, monkeypatch):
    import unoduo_tui.app
    import unoduo_tui.cli
    import unoduo_tui.commands.common
    from unoduo_tui.cli import main

    started = {}
    monkeypatch.setattr(unoduo_tui.commands.common, "terminal_problem", lambda: None)
    monkeypatch.setattr(unoduo_tui.app, "run_app",
                        lambda store, start, **kw: started.update(kw, start=start) or 0)
    long_name = "N" * 70 + "\x1b[2J"
    assert main(["play", "--vs", "human", "--name", long_name, "--target", "300",
                 "--data-dir", str(tmp_path)]) == 0
    plan = started["plan"]
    assert started["start"] == "play" and plan.kinds == ("human", "human")
    assert plan.names == ("N" * MAX_NAME, "Player 2") and plan.rules.target == 300
    assert plan.seed is None
    # the name the app is given saves and loads (a 70-character one did not)
    from engine import Match
    from unoduo_tui.store import Seat

    store = Store(tmp_path)
    seats = tuple(Seat(n, k) for n, k in zip(plan.names, plan.kinds))
    with store.new_match(Match.new(seed=1), seats) as handle:
        ref = handle.id
    assert store.open(ref, read_only=True).seats[0].name == "N" * MAX_NAME
    monkeypatch.setattr("unoduo_tui.plan.login_name", lambda: "Kim")
    assert main(["play", "--name", "  ", "--data-dir", str(tmp_path)]) == 0
    assert started["plan"].names[0] == "Kim"  # blank: the default name


def test_resume_hands_the_app_the_resolved_match(tmp_path, monkeypatch):
    import unoduo_tui.app
    import unoduo_tui.cli
    import unoduo_tui.commands.common
    from tests.tui.test_replay import save
    from unoduo_tui.cli import main
    from unoduo_tui.store import short_id

    ref = save(Store(tmp_path), limit=20)
    started = {}
    monkeypatch.setattr(unoduo_tui.commands.common, "terminal_problem", lambda: None)
    monkeypatch.setattr(unoduo_tui.app, "run_app",
                        lambda store, start, **kw: started.update(kw, start=start) or 0)
    assert main(["resume", short_id(ref), "--data-dir", str(tmp_path)]) == 0
    assert started["resume"] == str(Store(tmp_path).resolve(ref))


def test_export_is_json_lines_with_or_without_json(tmp_path):
    from tests.tui.test_replay import save

    ref = save(Store(tmp_path))
    plain, flagged = run("export", ref, data_dir=tmp_path), run("export", ref, "--json",
                                                                 data_dir=tmp_path)
    assert plain.returncode == 0 and plain.stdout == flagged.stdout
    assert [json.loads(x)["type"] for x in plain.stdout.splitlines()][0] == "header"


# -- unoduo play for 2–10 seats (#14): the plan it hands the app ----------------------------

def play_plan(tmp_path, monkeypatch, *args):
    """The :class:`MatchPlan` ``unoduo play *args`` would start (the app not run)."""
    import unoduo_tui.app
    import unoduo_tui.cli
    import unoduo_tui.commands.common

    started = {}

    def run_app(store_, start, **options):
        started.update(options, start=start)
        return 0

    monkeypatch.setattr(unoduo_tui.commands.common, "terminal_problem", lambda: None)
    monkeypatch.setattr(unoduo_tui.app, "run_app", run_app)
    assert unoduo_tui.cli.main(["play", *args, "--data-dir", str(tmp_path)]) == 0
    assert started["start"] == "play" and set(started) == {"start", "plan"}
    return started["plan"]


def test_play_classic_with_one_level_for_every_other_seat(tmp_path, monkeypatch):
    plan = play_plan(tmp_path, monkeypatch, "--preset", "classic", "--seats", "10", "--vs",
                     "easy", "--seed", "7", "--name", "Zoe")
    assert plan.kinds == ("human",) + ("bot:easy",) * 9
    assert plan.names == ("Zoe",) + tuple(f"Easy bot {n}" for n in range(1, 10))
    assert (plan.rules.preset, plan.rules.seats, plan.rules.target, plan.seed) == \
        ("classic", 10, 500, 7)


def test_play_classic_with_a_level_per_seat_and_hot_seat_humans(tmp_path, monkeypatch):
    plan = play_plan(tmp_path, monkeypatch, "--preset", "classic", "--seats", "4", "--vs",
                     "hard,human,random", "--stacking", "on", "--scoring", "own_hand",
                     "--target", "300")
    assert plan.kinds == ("human", "bot:hard", "human", "bot:random")
    assert plan.names == ("Player 1", "Hard bot", "Player 3", "Random bot")
    assert (plan.rules.stacking, plan.rules.scoring, plan.rules.target) == \
        (True, "own_hand", 300)


def test_play_classic_seats_follow_the_levels_when_not_given(tmp_path, monkeypatch):
    plan = play_plan(tmp_path, monkeypatch, "--preset", "classic", "--vs", "easy,normal")
    assert plan.rules.seats == 3 and plan.kinds == ("human", "bot:easy", "bot:normal")


def test_play_as_before_vs_target_seed_name(tmp_path, monkeypatch):
    plan = play_plan(tmp_path, monkeypatch, "--vs", "human", "--target", "150", "--seed", "3",
                     "--name", "  Ann\x1b[31m ")
    assert plan.kinds == ("human", "human") and plan.names == ("Ann", "Player 2")
    assert plan.rules == Rules(target=150) and plan.seed == 3
    plan = play_plan(tmp_path, monkeypatch)
    assert plan.kinds == ("human", "bot:normal") and plan.rules == Rules()


def test_play_takes_the_forms_last_options_for_its_preset_unless_given(tmp_path, monkeypatch):
    from unoduo_tui.settings import Settings

    store = Store(tmp_path)
    Settings(options={"classic": {"stacking": True, "target": 250},
                      "duo": {"refill": "shuffle"}}).save(store)
    plan = play_plan(tmp_path, monkeypatch, "--preset", "classic", "--seats", "5")
    assert (plan.rules.stacking, plan.rules.target) == (True, 250)
    plan = play_plan(tmp_path, monkeypatch, "--preset", "classic", "--stacking", "off")
    assert (plan.rules.stacking, plan.rules.target) == (False, 250)
    assert play_plan(tmp_path, monkeypatch).rules == Rules(refill="shuffle")


def test_play_has_a_flag_for_every_option_with_choices():
    """The flags are generated from OPTIONS: a new option with choices gets one."""
    from engine.rules import OPTIONS
    from unoduo_tui.commands import build_parser

    play = build_parser()._subparsers._group_actions[0].choices["play"]
    flags = {s for a in play._actions for s in a.option_strings}
    for opt in OPTIONS:
        assert f"--{opt.name.replace('_', '-')}" in flags


def test_each_command_s_module_is_named_as_the_command_is_typed():
    # `unoduo CMD …` imports and builds only the module named CMD: a module adding a
    # command of another name would not be found by it
    from unoduo_tui.commands import COMMANDS, build_parser

    def typed(parser) -> set[str]:
        return set(parser._subparsers._group_actions[0].choices)

    assert typed(build_parser()) == set(COMMANDS)
    for command in COMMANDS:
        assert typed(build_parser([command])) == {command}
