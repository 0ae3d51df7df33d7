"""The ``unoduo`` command and the rule book shipped in the package."""

import re
import subprocess
import sys

from unoduo_tui.cli import main, rule_book


def test_rule_book_ships_every_clause_id():
    text = rule_book()
    ids = set(re.findall(r"\*\*([DSTAUEC]\d+)\b", text))
    expected = ({f"D{i}" for i in range(1, 4)} | {f"S{i}" for i in range(1, 12)}
                | {f"T{i}" for i in range(1, 6)} | {f"A{i}" for i in range(1, 7)}
                | {f"U{i}" for i in range(1, 4)} | {f"E{i}" for i in range(1, 5)}
                | {f"C{i}" for i in range(1, 6)})
    assert expected <= ids


def test_unoduo_rules_prints_the_rule_book(capsys):
    assert main(["rules"]) == 0
    assert "UNO Duo" in capsys.readouterr().out


def test_unoduo_runs_as_a_command():
    out = subprocess.run([sys.executable, "-m", "unoduo_tui.cli", "--version"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.startswith("unoduo ")
