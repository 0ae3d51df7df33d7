"""The SSH server's transport, with a stand-in game (tests/ssh/child.py, ~50 ms to
start): the pty, the environment, resizes, the refusals and the limits."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from pathlib import Path

import asyncssh
import pytest

from unoduo_tui.net.vouch import Vouches
from unoduo_tui.ssh.limits import Limits, TokenBucket
from unoduo_tui.ssh.server import child_argv

from tests.waiting import until_async

from .term import WAIT, Screen, new_key

CHILD = [sys.executable, str(Path(__file__).with_name("child.py"))]


def child_info(text: str) -> dict:
    return json.loads(re.search(r"child (\{.*\}) end", text).group(1))


async def test_a_key_gets_a_terminal_of_its_size_with_only_the_allowed_environment(served):
    s = await served(child_command=CHILD)
    p = await s.play(new_key(), "alice", size=(100, 30), term="xterm-kitty",
                     env={"COLORTERM": "truecolor", "LANG": "xx_YY.junk", "EVIL": "1"})
    text = await p.screen.wait("child ", " end", "start size=100x30.")
    info = child_info(text)
    assert info["leader"] and info["ctty"]  # its own session; the pty is its terminal
    env = info["env"]
    assert env["TERM"] == "xterm-kitty" and env["COLORTERM"] == "truecolor"
    assert env["LANG"] == env["LC_ALL"] == "C.UTF-8"
    assert "EVIL" not in env
    assert env["USER"] == env["LOGNAME"] == "alice"  # not the server's Unix user
    fingerprint = env["UNODUO_KEY"]
    assert fingerprint.startswith("SHA256:")
    # the server's signature for that key, which the tables it hosts can check
    vouches = Vouches(env["UNODUO_VOUCHER"])
    assert env["UNODUO_VOUCHER"] == s.server.voucher.public
    assert vouches.check(fingerprint, env["UNODUO_KEY_PROOF"]) == fingerprint
    serve_dir = s.server.serve_dir
    assert env["UNODUO_SOCKET_DIR"] == str(serve_dir / "sockets")
    assert env["UNODUO_LOBBY_DIR"] == str(serve_dir / "lobby")
    for folder in (serve_dir, serve_dir / "sockets", serve_dir / "players"):
        assert folder.stat().st_mode & 0o777 == 0o700
    # resizes reach the child as SIGWINCH
    p.chan.change_terminal_size(120, 40)
    await p.screen.wait("resized size=120x40.")


async def test_a_strange_term_and_colorterm_are_not_passed_on(served):
    s = await served(child_command=CHILD)
    p = await s.play(new_key(), term="x;rm -rf /", env={"COLORTERM": "\x1b[31m"})
    env = child_info(await p.screen.wait("child ", " end"))["env"]
    assert env["TERM"] == "xterm-256color" and "COLORTERM" not in env


def test_the_game_process_is_the_lobby_in_the_players_folder(tmp_path):
    assert child_argv(tmp_path, "Ann") == [sys.executable, "-m", "unoduo_tui.cli", "lobby",
                                           "--data-dir", str(tmp_path), "--name=Ann"]


async def test_the_child_is_reaped_when_the_client_goes(served):
    s = await served(child_command=CHILD)
    p = await s.play(new_key())
    pid = child_info(await p.screen.wait("child ", " end"))["pid"]
    (session,) = s.server.running
    p.conn.abort()  # the link dropped, nothing said
    await asyncio.wait_for(session.exited.wait(), WAIT)
    with pytest.raises(ProcessLookupError):  # gone: not even a zombie
        os.kill(pid, 0)
    assert not s.server.running and not s.server.gate.players


async def test_the_childs_exit_status_closes_the_channel(served):
    s = await served(child_command=CHILD)
    p = await s.play(new_key())
    await p.screen.wait("start size=")
    await p.keys("hello\r")
    await p.screen.wait("echo:hello.")
    await p.keys("exit 3\r")
    await asyncio.wait_for(p.screen.closed.wait(), WAIT)
    assert p.screen.status == 3


async def test_a_client_with_no_key_is_told_how_to_make_one_and_refused(served):
    s = await served(child_command=CHILD)
    banners = []

    class NoKey(asyncssh.SSHClient):
        def auth_banner_received(self, msg: str, lang: str) -> None:
            banners.append(msg)

        def kbdint_auth_requested(self) -> str:
            return ""

        def kbdint_challenge_received(self, *args):
            return []

    with pytest.raises(asyncssh.PermissionDenied):
        await s.connect(None, client_factory=NoKey)
    assert banners and "ssh-keygen -t ed25519" in banners[0]
    assert f"ssh -p {s.port} 127.0.0.1" in banners[0]
    assert not s.server.running


@pytest.mark.parametrize("request_", [{"command": "ls"}, {"subsystem": "sftp"}],
                         ids=["exec", "sftp"])
async def test_commands_and_subsystems_are_refused_on_stderr(served, request_):
    s = await served(child_command=CHILD)
    conn = await s.connect(new_key())
    chan, screen = await conn.create_session(Screen, encoding=None, **request_)
    await asyncio.wait_for(screen.closed.wait(), WAIT)
    assert screen.status == 1 and "only the game" in screen.text(0) + bytes(
        screen.err).decode()
    assert not s.server.running  # nothing ran
    conn.close()


async def test_a_session_without_a_terminal_gets_one_line(served):
    s = await served(child_command=CHILD)
    conn = await s.connect(new_key())
    chan, screen = await conn.create_session(Screen, encoding=None)  # no pty: ssh -T
    await screen.wait("needs a terminal: ssh -t", err=True)
    await asyncio.wait_for(screen.closed.wait(), WAIT)
    assert screen.status == 1 and not s.server.running
    conn.close()


async def test_port_forwarding_both_ways_is_refused(served):
    s = await served(child_command=CHILD)
    conn = await s.connect(new_key())
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", s.port)
    with pytest.raises(asyncssh.ChannelListenError):
        await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
    conn.close()


async def test_one_megabyte_of_junk_closes_that_connection_and_no_other(served):
    s = await served(child_command=CHILD)
    other = await s.play(new_key(), "bob")
    await other.screen.wait("start size=")
    junk = await s.play(new_key(), "mallory")
    await junk.screen.wait("start size=")
    junk.chan.write(os.urandom(1 << 20))
    await asyncio.wait_for(junk.screen.closed.wait(), WAIT)
    assert "too much input" in junk.screen.text() and junk.screen.status == 1
    await other.keys("still here\r")
    await other.screen.wait("echo:still here.")


async def test_the_fourth_connection_of_one_key_is_refused(served):
    s = await served(child_command=CHILD)
    key = new_key()
    for _ in range(3):
        p = await s.play(key)
        await p.screen.wait("start size=")
    fourth = await s.play(key)
    await fourth.screen.wait("already 3 connections with this key", err=True)
    await asyncio.wait_for(fourth.screen.closed.wait(), WAIT)
    assert fourth.screen.status == 1
    other = await s.play(new_key())  # another key is welcome
    await other.screen.wait("start size=")


async def test_a_connection_idle_too_long_is_told_and_closed(served):
    s = await served(Limits(idle_seconds=0.5), child_command=CHILD)
    p = await s.play(new_key())
    await p.screen.wait("start size=")
    (session,) = s.server.running
    await asyncio.wait_for(p.screen.closed.wait(), WAIT)
    await asyncio.wait_for(session.exited.wait(), WAIT)
    text = p.screen.text()
    assert "without a key press; your match is saved" in text
    assert "\x1b[?1049l" in p.screen.out.decode("utf-8", "replace")  # screen put back
    assert not s.server.running


async def test_a_child_that_stops_reading_stops_the_channel_not_the_server(served):
    """Backpressure: input the child does not read waits, bounded, and the channel
    pauses; the server keeps serving others."""
    limits = Limits(input_burst=1 << 22, junk_limit=1 << 22, pty_buffer=8192)
    s = await served(limits, child_command=[sys.executable, "-c",
                                             "import signal; print('asleep', flush=True); "
                                             "signal.pause()"])  # never reads: until killed
    p = await s.play(new_key())
    await p.screen.wait("asleep")
    (session,) = s.server.running
    p.chan.write(b"x" * (1 << 20))
    await until_async(lambda: session.reading_paused, "the channel to pause")
    assert session.pending_input <= limits.pty_buffer + limits.max_packet
    other = await s.play(new_key(), "bob")
    await other.screen.wait("asleep")


def test_the_token_bucket_passes_a_burst_then_the_rate_whole_chunks_only():
    now = [0.0]
    bucket = TokenBucket(100, 1000, clock=lambda: now[0])
    assert bucket.take(600) and not bucket.take(600)  # never a part of a chunk
    assert bucket.dropped == 600 and bucket.take(400)
    now[0] += 1.0
    assert bucket.take(100) and not bucket.take(1)
    assert bucket.dropped == 601
    now[0] += 100.0  # quiet long enough: the bucket is full, the count starts afresh
    assert bucket.take(10) and bucket.dropped == 0


async def test_past_the_player_limit_a_client_is_told_the_server_is_full(served):
    s = await served(Limits(max_connections=1), child_command=CHILD)
    p = await s.play(new_key())
    await p.screen.wait("start size=")
    bob = await s.play(new_key(), "bob")
    await bob.screen.wait("the server is full (1 players): try again later", err=True)
    await asyncio.wait_for(bob.screen.closed.wait(), WAIT)
    assert bob.screen.status == 1
    await p.keys("ok\r")
    await p.screen.wait("echo:ok.")


async def test_a_connection_that_never_starts_a_session_is_closed(served):
    s = await served(Limits(login_seconds=0.3), child_command=CHILD)
    conn = await s.connect(new_key())
    await asyncio.wait_for(conn.wait_closed(), WAIT)
    assert not s.server.clients


async def test_a_client_that_stops_reading_stops_its_child_not_the_server(served):
    """Backpressure the other way: a child writing for ever to a client that reads
    nothing is no longer read (it blocks on its pty); reading again resumes it."""
    s = await served(child_command=[sys.executable, "-c",
                                    "import os\nwhile True: os.write(1, b'spam ' * 800)"])
    p = await s.play(new_key())
    await p.screen.wait("spam")
    (session,) = s.server.running
    p.chan.pause_reading()
    await until_async(lambda: session.output_paused, "the server to stop reading the child")
    other = await s.play(new_key(), "bob")  # the server is not busy with it
    await other.screen.wait("spam")
    p.chan.resume_reading()
    await p.screen.wait("spam")
    await until_async(lambda: not session.output_paused, "the server to read the child again")


async def test_a_flood_of_resizes_reaches_the_child_a_few_times_and_the_last_one_last(
        served, monkeypatch):
    from unoduo_tui.ssh import session as session_module

    sizes = []
    real = session_module.set_size

    def counted(fd, columns, rows):
        sizes.append((columns, rows))
        real(fd, columns, rows)
    monkeypatch.setattr(session_module, "set_size", counted)
    s = await served(child_command=CHILD)
    p = await s.play(new_key())
    await p.screen.wait("start size=80x24.")
    start = asyncio.get_running_loop().time()
    for i in range(2000):
        p.chan.change_terminal_size(60 + i % 50, 20)
    p.chan.change_terminal_size(77, 33)
    await p.screen.wait("resized size=77x33.")
    seconds = asyncio.get_running_loop().time() - start
    assert sizes[-1] == (77, 33)
    assert len(sizes) <= 3 + seconds / Limits().resize_every  # the first, then ≤ 10 a second
