"""``unoduo serve`` as a command: its first line, and a clean stop on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import signal
import sys

import pytest

from .term import WAIT, Served, new_key
from .test_transport import CHILD, child_info


async def test_serve_prints_where_and_its_key_then_stops_cleanly_on_sigterm(serve_dir):
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "unoduo_tui.cli", "serve", "--data-dir", str(serve_dir),
        "--port", "0", "--workers", "0", "--child-command", shlex.join(CHILD),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), WAIT)).decode()
        found = re.search(r"listening on 127\.0\.0\.1 port (\d+); host key (SHA256:\S+)",
                          line)
        assert found, line
        client = Served(None, "127.0.0.1", int(found.group(1)))  # type: ignore[arg-type]
        p = await client.play(new_key())
        pid = child_info(await p.screen.wait("child ", " end"))["pid"]
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0
        await asyncio.wait_for(p.screen.closed.wait(), WAIT)
        assert "the server is stopping; your match is saved" in p.screen.text()
        with pytest.raises(ProcessLookupError):  # hung up and reaped by the server
            os.kill(pid, 0)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


_CLUSTER = ["--store", "postgresql://unoduo@127.0.0.1:1/none"]


@pytest.mark.parametrize("case", ["data dir is a file", "address not ours", "bad port",
                                  "no peer on every address", "peer without store",
                                  "peer on every address", "proxy without from",
                                  "drain with no server"])
def test_serve_that_cannot_start_says_why_in_one_line(tmp_path, capsys, case):
    from unoduo_tui.cli import main

    argv = ["serve", "--data-dir", str(tmp_path / "serve"), "--port", "0"]
    if case == "data dir is a file":
        (tmp_path / "serve").write_text("not a folder")
    elif case == "address not ours":
        argv += ["--listen", "192.0.2.1"]  # TEST-NET-1: never this machine's
    elif case == "no peer on every address":  # the other nodes could not find it
        argv += [*_CLUSTER, "--listen", "0.0.0.0"]
    elif case == "peer without store":
        argv += ["--peer", "127.0.0.1:2223"]
    elif case == "peer on every address":
        argv += [*_CLUSTER, "--peer", "0.0.0.0:2223"]
    elif case == "proxy without from":
        argv += ["--proxy-protocol"]
    elif case == "drain with no server":
        argv += ["--drain"]
    else:
        argv[-1] = "70000"
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own check
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
