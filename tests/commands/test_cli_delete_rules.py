"""Issue #12: ``unoduo delete`` and ``unoduo rules`` rendered for the terminal."""

import os
import subprocess
import sys

import pytest

from tests.tui.test_replay import save
from unoduo_tui.cli import main
from unoduo_tui.store import Store, short_id


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "unoduo_tui.cli", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60,
                          env={**os.environ, **(env or {})})


def test_delete_yes_removes_the_match(tmp_path, capsys):
    store = Store(tmp_path)
    ref = save(store)
    path = store.resolve(ref)
    assert main(["delete", short_id(ref), "--yes", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"Deleted {path}\n"
    assert not path.exists() and store.summaries() == []


def test_delete_without_a_terminal_or_yes_refuses_and_keeps_the_match(tmp_path):
    store = Store(tmp_path)
    ref = save(store)
    out = run("delete", ref, "--data-dir", str(tmp_path))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "--yes" in out.stderr
    assert store.resolve(ref).is_file()


@pytest.mark.parametrize("answer,gone", [("y", True), ("yes", True), ("", False), ("n", False),
                                         (EOFError, False)])
def test_delete_asks_at_a_terminal(tmp_path, monkeypatch, capsys, answer, gone):
    store = Store(tmp_path)
    ref = save(store)
    path = store.resolve(ref)
    asked = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if answer is EOFError:
            raise EOFError
        return answer

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", ask)
    assert main(["delete", ref, "--data-dir", str(tmp_path)]) == 0
    assert asked == [f"Delete {short_id(ref)} (Ann v Rando, finished) for good? [y/N] "]
    assert path.exists() is not gone
    assert ("Deleted" if gone else "Nothing deleted.") in capsys.readouterr().out


def test_delete_refuses_a_match_open_elsewhere(tmp_path, capsys):
    store = Store(tmp_path)
    ref = save(store, limit=20)
    loaded = store.open(ref)  # holds the lock, as a game being played does
    try:
        assert main(["delete", ref, "--yes", "--data-dir", str(tmp_path)]) == 1
        assert "open in" in capsys.readouterr().err
        assert loaded.path.exists()
    finally:
        loaded.handle.close()


@pytest.mark.parametrize("columns,width", [(None, 80), ("60", 60), ("100", 100)])
def test_rules_piped_are_rendered_within_the_width(columns, width):
    env = {"COLUMNS": columns} if columns else {}
    if not columns:
        env["COLUMNS"] = ""
    out = run("rules", env=env)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) > 100 and max(map(len, lines)) <= width
    assert "\x1b" not in out.stdout and "**" not in out.stdout  # rendered, not raw Markdown
    assert "UNO Duo: how to play" in lines[0] and "D1" in out.stdout


def test_rules_at_a_terminal_go_through_the_pager_at_its_width():
    import fcntl
    import pty
    import re
    import select
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 70, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "MANPAGER", "LINES")}
    # the pager marks what went through it
    env.update(PAGER="sed 's/^/|/'", TERM="xterm-256color")
    proc = subprocess.Popen([sys.executable, "-m", "unoduo_tui.cli", "rules"], stdin=slave,
                            stdout=slave, stderr=slave, env=env)
    os.close(slave)
    data = b""
    try:
        while select.select([master], [], [], 60)[0]:  # until the pty closes (a safety net)
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the other end is closed
                break
            if not chunk:
                break
            data += chunk
    finally:
        os.close(master)
        assert proc.wait(timeout=60) == 0
    text = re.sub(r"\x1b\[[0-?]*[ -/]*[@-~]", "", data.decode()).replace("\r", "")
    lines = [line for line in text.split("\n") if line]
    assert len(lines) > 100 and all(line.startswith("|") for line in lines)
    assert max(len(line) for line in lines) <= 71  # the terminal's 70, and the pager's "|"
