"""#15: ``unoduo host`` / ``join`` / ``watch`` at the command line."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from unoduo_tui.cli import main
from unoduo_tui.net.codes import TableFile, parse_code
from unoduo_tui.net.client import host_plan
from unoduo_tui.net.remote import RemoteTable

from .helpers import WAIT, Client



def _host(*args: str) -> tuple[subprocess.CompletedProcess, str | None]:
    done = subprocess.run([sys.executable, "-m", "unoduo_tui.cli", "host", "--detach", *args],
                          capture_output=True, text=True, timeout=WAIT, stdin=subprocess.DEVNULL)
    code = None
    for line in done.stdout.splitlines():
        if line.startswith("Table open. Join code: "):
            code = line.rsplit(" ", 1)[1]
    return done, code


def _end(data: Path) -> None:
    """Stop the detached table serving ``data`` (its process, found by its command line)."""
    for pid in _serving(data):
        os.kill(pid, signal.SIGTERM)


def test_host_detached_prints_a_code_others_join_and_the_table_outlives_the_command(env):
    done, code = _host("--name", "Ann", "--preset", "classic", "--seats", "3",
                       "--vs", "human,random")
    assert done.returncode == 0, done.stderr
    assert code and parse_code(code) == code
    assert f"unoduo join {code}" in done.stdout
    host_token = None
    tables = list((env / "d" / "tables").glob("*.json"))
    assert len(tables) == 1 and oct(tables[0].stat().st_mode & 0o777) == "0o600"
    saved = TableFile(env / "d", tables[0].stem).load()
    assert saved["code"] == code
    host_token = saved["tokens"][0]
    ann = RemoteTable.connect(code, token=host_token)
    bob = RemoteTable.connect(code, name="Bob")
    try:
        assert ann.seat == 0 and bob.seat == 1
        Client(ann, None).wait(lambda u: ann.names[:2] == ("Ann", "Bob"), "Bob's name")
        assert ann.kinds == ("human", "human", "bot:random")
        saves = list((env / "d" / "matches").glob("*.unoduo"))
        assert len(saves) == 1 and oct(saves[0].stat().st_mode & 0o777) == "0o600"
    finally:
        ann.close()
        bob.close()
        _end(env / "d")


@pytest.mark.parametrize("argv,message", [
    (["host", "--vs", "genius"], "not a bot level"),
    (["host", "--preset", "duo", "--seats", "3"], "seats"),
    (["host", "--vs", "human,human"], "seats"),
    (["host", "--listen", "0.0.0.0:9999"], "loopback"),
    (["host", "--away", "-1"], "--away is a number of minutes"),
    (["join", "not a code"], "not a join code"),
    (["join", "tide-wolf-1x"], "not a join code"),
    (["watch", "tide-wolf-17", "--delay", "99"], "delay"),
])
def test_bad_arguments_are_one_line_and_status_2(env, capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_join_without_a_terminal_says_so_before_connecting(env, capsys):
    assert main(["join", "tide-wolf-17"]) == 2
    assert "terminal" in capsys.readouterr().err


def test_host_plan_puts_the_host_first_then_the_others_in_order():
    plan = host_plan("classic", 4, "easy", "Zed")
    assert plan.names[0] == "Zed" and plan.kinds == ("human", "bot:easy", "bot:easy", "bot:easy")
    plan = host_plan("duo", None, None, None)
    assert plan.kinds == ("human", "human") and plan.names == ("Host", "Player 2")
    with pytest.raises(ValueError):
        host_plan("classic", 11, None, None)


def test_a_hosted_match_whose_table_died_opens_again_with_its_code(env):
    from unoduo_tui.commands.common import resume_hosted
    from unoduo_tui.store import Store

    done, code = _host("--name", "Ann")
    assert code, done.stderr
    match_id = next((env / "d" / "tables").glob("*.json")).stem
    for proc in Path("/proc").iterdir():  # the table dies: SIGKILL, no clean-up
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"unoduo_tui.net.serve" in argv and str(env / "d").encode() in argv:
            pidfd = os.pidfd_open(int(proc.name))
            os.kill(int(proc.name), signal.SIGKILL)
            select.select([pidfd], [], [], WAIT)  # readable once it has died
            os.close(pidfd)
    again, code2 = _host("--resume", match_id)
    try:
        assert again.returncode == 0, again.stderr
        assert code2 == code
        t = RemoteTable.connect(code, token=TableFile(env / "d", match_id).load()["tokens"][0])
        assert t.seat == 0 and t.names[0] == "Ann"
        t.close()
        # a match that was never hosted is resumed as before (no table file)
        store = Store(env / "d")
        from engine import Match
        from unoduo_tui.store import Seat
        handle = store.new_match(Match.new(seed=3), (Seat("A", "human"), Seat("B", "bot:easy")))
        handle.close()
        assert resume_hosted(store, str(handle.path)) is None
    finally:
        _end(env / "d")


def _serving(data: Path) -> list[int]:
    """The table processes serving ``data`` (found by their command lines)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"unoduo_tui.net.serve" in argv and str(data).encode() in argv:
            found.append(int(proc.name))
    return found


def test_a_table_nobody_joins_ends_after_its_idle_minutes_and_resumes_with_its_code(env):
    done, code = _host("--name", "Ann", "--idle", "0.005")  # 0.3 s with nobody there
    assert code, done.stderr
    match_id = next((env / "d" / "tables").glob("*.json")).stem
    pids = _serving(env / "d")
    assert len(pids) == 1
    pidfd = os.pidfd_open(pids[0])
    try:
        assert select.select([pidfd], [], [], WAIT)[0], "the idle table is still running"
    finally:
        os.close(pidfd)
    assert not (Path(os.environ["UNODUO_SOCKET_DIR"]) / f"{code.split('-')[0]}.sock").exists()
    assert TableFile(env / "d", match_id).load()["code"] == code  # kept for a resume
    again, code2 = _host("--resume", match_id)
    try:
        assert again.returncode == 0 and code2 == code, again.stderr
    finally:
        _end(env / "d")


@pytest.mark.parametrize("minutes", ["-1", "nan", "99999"])
def test_host_refuses_an_idle_time_that_is_not_a_sensible_number_of_minutes(env, minutes,
                                                                            capsys):
    assert main(["host", "--detach", "--idle", minutes]) == 2
    assert "--idle" in capsys.readouterr().err
