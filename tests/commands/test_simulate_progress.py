"""unoduo simulate's progress bar: on stderr when it is a terminal, nothing when piped."""

import os
import pty
import subprocess
import sys

ARGS = ["-m", "unoduo_tui.cli", "simulate", "--preset", "classic", "--seats", "3",
        "--bots", "random", "--matches", "3", "--seed", "1", "--target", "30"]


def _env(tmp_path) -> dict:
    return {**os.environ, "UNODUO_DATA_DIR": str(tmp_path), "PYTHONPATH": os.getcwd()}


def test_simulate_shows_matches_done_of_total_and_elapsed_on_a_terminal(tmp_path):
    master, slave = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, *ARGS], stdout=subprocess.PIPE, stderr=slave,
                              env=_env(tmp_path), timeout=120)
        os.close(slave)
        slave = None
        err = b""
        while True:  # everything was written before the process ended
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the terminal's other end is closed and drained
                break
            if not chunk:
                break
            err += chunk
    finally:
        os.close(master)
        if slave is not None:
            os.close(slave)
    text = err.decode()
    assert proc.returncode == 0
    assert "0/3 matches" in text and "3/3 matches" in text and "s elapsed" in text
    assert "[" + "#" * 24 + "]" in text  # full at the end
    assert b"matches" in proc.stdout  # the result still goes to stdout


def test_simulate_piped_prints_no_progress(tmp_path):
    proc = subprocess.run([sys.executable, *ARGS], capture_output=True, env=_env(tmp_path),
                          timeout=120)
    assert proc.returncode == 0 and proc.stderr == b""
    assert b"matches" in proc.stdout
