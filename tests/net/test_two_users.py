"""#15: a second Unix user on the same host — the socket lets it in only with the
code, its wrong codes lock out only itself, and it can neither read the save file nor
remove the socket.  The second user is a throwaway uid taken by a forked child of
this test (``setresuid``: no account is created); that needs root, so elsewhere the
test is skipped with the reason."""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
from pathlib import Path

import pytest

from unoduo_tui.net.frames import FrameReader, encode
from unoduo_tui.net.client import plan_to_json

from .helpers import WAIT, plan
from .test_kill import _spawn, _stop

OTHER_UID = 54_321  # no account needed: the kernel checks numbers

pytestmark = pytest.mark.skipif(os.geteuid() != 0,
                                reason="acting as a second Unix user needs root")


def _ask(path: str, hello: dict) -> dict:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(WAIT)
    sock.connect(path)
    sock.sendall(encode(hello))
    reader = FrameReader()
    while True:
        data = sock.recv(1 << 16)
        if not data:
            return {"t": "closed"}
        got = reader.feed(data)
        if got:
            sock.close()
            return got[0]


def _as_other_user(job) -> dict:
    """``job()``'s result, run in a forked child that has become ``OTHER_UID``."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no exec (this uid could not read Python's files)
        try:
            os.close(read)
            os.setgroups([])
            os.setresgid(OTHER_UID, OTHER_UID, OTHER_UID)
            os.setresuid(OTHER_UID, OTHER_UID, OTHER_UID)
            out = json.dumps(job()).encode()
        except BaseException as exc:  # reported, never raised in a forked pytest
            out = json.dumps({"crash": repr(exc)}).encode()
        os.write(write, out)
        os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 1 << 16):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    return json.loads(b"".join(chunks))


def test_another_unix_user_gets_in_only_with_the_code_and_never_at_the_files():
    root = Path(tempfile.mkdtemp(prefix="udu", dir="/tmp"))
    sockets = root / "s"
    sockets.mkdir()
    os.chmod(root, 0o755)
    os.chmod(sockets, 0o1777)  # a shared, sticky folder as the default one is
    data = root / "d"
    proc, info = _spawn(data, sockets, "--plan", plan_to_json(plan(seed=51)))
    path = info["socket"]
    save = next((data / "matches").glob("*.unoduo"))
    wrong = "zinc-zinc-00" if info["code"] != "zinc-zinc-00" else "yak-yak-00"
    try:
        def job() -> dict:
            out = {"wrong": [_ask(path, {"t": "hello", "code": wrong, "want": "play"})
                             for _ in range(4)]}
            out["right"] = _ask(path, {"t": "hello", "code": info["code"], "want": "play"})
            out["uid"] = os.getuid()
            for name, act in (("read_save", lambda: open(save, "rb").read(1)),
                              ("list_data", lambda: os.listdir(data)),
                              ("remove_socket", lambda: os.unlink(path)),
                              ("replace_socket", lambda: os.rename(path, path + ".x"))):
                try:
                    act()
                    out[name] = "allowed"
                except PermissionError:
                    out[name] = "denied"
            return out

        got = _as_other_user(job)
        assert "crash" not in got, got
        assert got["uid"] == OTHER_UID
        assert [m["t"] for m in got["wrong"]] == ["refused"] * 4
        assert got["wrong"][0]["reason"] == "wrong code"
        assert "too many" in got["wrong"][3]["reason"]  # locked out: that user only
        assert got["right"]["t"] == "refused" and "too many" in got["right"]["reason"]
        for name in ("read_save", "list_data", "remove_socket", "replace_socket"):
            assert got[name] == "denied", name
        # the host's user is not locked out by the other's guesses
        mine = _ask(path, {"t": "hello", "code": info["code"], "want": "play",
                           "token": info["token"]})
        assert mine["t"] == "welcome" and mine["seat"] == 0
        st = save.stat()
        assert st.st_uid == os.getuid() and st.st_mode & 0o777 == 0o600
        assert os.stat(path).st_mode & 0o777 == 0o666
    finally:
        _stop(proc)
        shutil.rmtree(root, ignore_errors=True)


def test_another_unix_user_with_the_code_takes_a_seat():
    root = Path(tempfile.mkdtemp(prefix="udu", dir="/tmp"))
    sockets = root / "s"
    sockets.mkdir()
    os.chmod(root, 0o755)
    os.chmod(sockets, 0o1777)
    proc, info = _spawn(root / "d", sockets, "--plan", plan_to_json(plan(seed=52)))
    try:
        got = _as_other_user(lambda: _ask(info["socket"], {
            "t": "hello", "code": info["code"], "want": "play", "name": "Guest"}))
        assert got["t"] == "welcome" and got["seat"] == 1 and got["names"][1] == "Guest"
    finally:
        _stop(proc)
        shutil.rmtree(root, ignore_errors=True)
