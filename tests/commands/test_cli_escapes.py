"""Issue #11: every field read from a save file is untrusted text.  A forged — but
valid, chained — save whose names, id and parent id hold terminal escapes must not
retitle the terminal, clear the screen or forge a line through any command."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Rules, __version__
from engine.savefile import Encoder, Footer, Header
from tests.engine.helpers import random_match

TITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
NAMES = (f"Ann{TITLE}", f"Evil{CLEAR}\r\nFORGED 1 v 2")
BAD = ("\x1b", "\x07", "\r", "\x9b")


def forge(path: Path, *, finished: bool, match_id: str = f"20260101-000000-abc{CLEAR}123",
          extra: dict | None = None) -> Path:
    """A save file with hostile strings that passes every check: the header is written
    through :class:`Header` directly, then the log and the chain as the store would."""
    m = random_match(3, Rules(target=100), None if finished else 40)
    seats = ((NAMES[0], "human"), (NAMES[1], "bot:random"))
    header = Header(match_id, m.rules, m.seed, seats, "2026-01-01T00:00:00+00:00", __version__,
                    extra={"parent": [f"20251231-000000-{TITLE}\nFORGED", 7], **(extra or {})})
    enc = Encoder()
    data = enc.start(header) + enc.entries(m.actions)
    if m.over:
        data += enc.footer(Footer(m.winner, m.scores, m.round))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def run(*args, data_dir):
    return subprocess.run([sys.executable, "-m", "unoduo_tui.cli", *args, "--data-dir",
                           str(data_dir)], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)


def clean(text: str) -> None:
    for ch in BAD:
        assert ch not in text, (ch, text)
    for line in text.splitlines():
        assert not line.startswith("FORGED"), line  # a newline in a name forged this line


@pytest.fixture
def forged(tmp_path):
    matches = tmp_path / "matches"
    done = forge(matches / "20260101-000000-aaaaaa.unoduo", finished=True)
    going = forge(matches / "20260101-000000-bbbbbb.unoduo", finished=False,
                  match_id="20260101-000001-bbb\x1b]0;x\x07")
    return tmp_path, done, going


def test_list_prints_forged_fields_harmlessly(forged):
    data_dir, _, _ = forged
    for flag in ((), ("--spoiler-free",)):
        out = run("list", *flag, data_dir=data_dir)
        assert out.returncode == 0, out.stderr
        clean(out.stdout)
        lines = out.stdout.splitlines()
        # a header, and per match its line and its notes line (the branch)
        assert len(lines) == 5 and all(len(line) <= 80 for line in lines)


@pytest.mark.parametrize("which", ["done", "going"])
def test_verify_transcript_and_export_print_forged_fields_harmlessly(forged, which):
    data_dir, done, going = forged
    path = str(done if which == "done" else going)
    for command in ("verify", "transcript", "export"):
        out = run(command, path, data_dir=data_dir)
        assert out.returncode == 0, (command, out.stderr)
        clean(out.stdout + out.stderr)
    verify = run("verify", path, data_dir=data_dir).stdout
    assert verify.count("\n") == 1
    if which == "done":
        assert " won;" in verify or "a draw" in verify


def test_a_path_with_escapes_is_printed_harmlessly(tmp_path):
    path = forge(tmp_path / f"odd{CLEAR}\x07name.unoduo", finished=True)
    out = run("verify", str(path), data_dir=tmp_path)
    assert out.returncode == 0 and "oddname.unoduo" in out.stdout
    clean(out.stdout)
    data = bytearray(path.read_bytes())
    data[-6] ^= 1
    path.write_bytes(bytes(data))
    for command in ("verify", "transcript", "export"):
        out = run(command, str(path), data_dir=tmp_path)
        assert out.returncode == 1
        clean(out.stdout + out.stderr)


def test_a_bad_reference_with_escapes_is_quoted_harmlessly(tmp_path):
    for command in ("resume", "replay", "verify", "transcript", "export", "delete"):
        out = run(command, f"x{TITLE}{CLEAR}\r\nFORGED", data_dir=tmp_path)
        assert out.returncode == 2 and out.stderr.count("\n") == 1
        clean(out.stdout + out.stderr)


def test_export_keeps_its_type_and_stays_json(tmp_path):
    path = forge(tmp_path / "m.unoduo", finished=True,
                 extra={"type": "footer", "odd": float("nan"), "big": [float("inf")]})
    out = run("export", str(path), data_dir=tmp_path)
    assert out.returncode == 0, out.stderr

    def refuse(constant: str):
        raise AssertionError(f"{constant} is not JSON")

    lines = [json.loads(line, parse_constant=refuse) for line in out.stdout.splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["odd"] == "nan"
    assert [x["type"] for x in lines].count("header") == 1
    clean(out.stdout)
