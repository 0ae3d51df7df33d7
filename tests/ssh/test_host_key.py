"""The host key: made on first start (0600) and kept; a bad one is one line, exit 2."""

from __future__ import annotations

import os

import pytest

from unoduo_tui.cli import main
from unoduo_tui.ssh.server import HostKeyError, load_host_key


def test_the_host_key_is_made_private_on_first_start_and_kept(tmp_path):
    path = tmp_path / "serve" / "host_key"
    first = load_host_key(path)
    assert path.stat().st_mode & 0o777 == 0o600
    assert first.algorithm == b"ssh-ed25519"
    assert load_host_key(path).get_fingerprint() == first.get_fingerprint()


async def test_a_restarted_server_shows_the_same_host_key(served):
    first = (await served()).server.fingerprint
    second = (await served()).server.fingerprint  # the same serve dir
    assert first == second


@pytest.mark.parametrize("problem", ["open to others", "not a key", "unreadable"])
def test_a_host_key_that_cannot_be_used_is_one_line_and_exit_2(tmp_path, capsys, problem):
    path = tmp_path / "key"
    load_host_key(path)
    if problem == "open to others":
        os.chmod(path, 0o644)
    elif problem == "not a key":
        path.write_bytes(b"hello")
        os.chmod(path, 0o600)
    else:
        os.chmod(path, 0o000)
        if os.access(path, os.R_OK):  # root reads anything: make it a folder instead
            os.chmod(path, 0o600)
            path.unlink()
            path.mkdir()
    with pytest.raises(HostKeyError):
        load_host_key(path)
    code = main(["serve", "--data-dir", str(tmp_path / "serve"), "--host-key", str(path),
                 "--port", "0"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and str(path) in err
    assert "Traceback" not in err
