"""What one address may cost the others (unoduo_tui/ssh/limits.py, identity.py):
connections still logging in have their own pool, players are capped per address,
new keys per address an hour, and a player's folder is never written through a
symlink."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from unoduo_tui.files import FileProblem
from unoduo_tui.ssh.identity import IDENTITY_FILE, NEW_KEYS_FILE, NewKeys, folder_name, identify
from unoduo_tui.ssh.limits import Gate, Limits, Refusal, address_of
from unoduo_tui.ssh.server import GameServer

from .term import WAIT, Served, new_key

CHILD = [sys.executable, str(Path(__file__).with_name("child.py"))]


def test_an_address_is_ipv4_or_an_ipv6_64_and_loopback_is_one_like_any_other():
    assert address_of("127.0.0.1") != address_of("127.0.0.2")
    assert address_of("::ffff:10.1.2.3") == "10.1.2.3"
    assert address_of("2001:db8:1:2:aaaa::1") == address_of("2001:db8:1:2:bbbb::9") \
        == "2001:db8:1:2::/64"
    assert address_of("2001:db8:1:3::1") != address_of("2001:db8:1:2::1")
    assert address_of("fe80::1%eth0") == "fe80::/64"


def test_the_default_login_deadline_is_short():
    assert Limits().login_seconds <= 10 and Limits().per_address == 8
    assert Limits().new_keys_per_hour == 10


def test_the_gate_counts_logging_in_and_playing_apart_per_address_and_key():
    gate = Gate(Limits(max_connections=3, per_address=2, per_key=1, max_waiting=3,
                       waiting_per_address=2))
    a1, a2 = gate.enter("a"), gate.enter("a")
    with pytest.raises(Refusal, match="2 connections from your address are logging in"):
        gate.enter("a")
    b1 = gate.enter("b")
    with pytest.raises(Refusal, match="busy"):
        gate.enter("c")  # three logging in, in all
    gate.admit(a1, "k1")  # playing now: its place in the waiting pool is free
    a3 = gate.enter("a")
    with pytest.raises(Refusal, match="already 1 connections with this key"):
        gate.admit(a2, "k1")
    gate.admit(a2, "k2")
    assert gate.refusal(a3, "k3") == ("already 2 players from your address (a): close "
                                      "one to open another")
    gate.admit(b1, "k3")
    assert gate.players == 3
    c = gate.enter("c")
    assert "the server is full (3 players)" in gate.refusal(c, "k4")
    for place in (a1, a2, a3, b1, c):
        gate.leave(place)
        gate.leave(place)  # twice is once
    assert not gate.waiting and not gate.playing and not gate.keys


async def _half_open(port: int, n: int) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """``n`` TCP connections from 127.0.0.1 that say ``SSH-2.0-x`` and nothing more,
    each once the server has answered with its own version line."""
    links = []
    for _ in range(n):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"SSH-2.0-x\r\n")
        line = await asyncio.wait_for(reader.readline(), WAIT)
        assert line.startswith(b"SSH-2.0-"), line
        links.append((reader, writer))
    return links


async def _closed(reader: asyncio.StreamReader) -> bool:
    """Read until the server closes the link (True) or sends more than junk allows."""
    try:
        while await asyncio.wait_for(reader.read(4096), WAIT):
            pass
    except ConnectionError:
        pass
    return True


async def test_25_half_open_connections_from_one_address_leave_the_server_to_the_others(
        served):
    # a long login deadline: whatever gets in, gets in past connections still held
    s = await served(Limits(max_connections=20, login_seconds=WAIT * 4))
    links = await _half_open(s.port, 25)
    held = Limits().waiting_per_address
    assert s.server.gate.waiting["127.0.0.1"] == held  # the rest were turned away
    assert all(await asyncio.gather(*(_closed(r) for r, _ in links[held:])))
    p = await s.play(new_key(), "bea", source="127.0.0.2")
    await p.screen.wait("Signed in as bea")  # the lobby, with the half-open ones held
    assert s.server.gate.waiting["127.0.0.1"] == held
    assert not any(r.at_eof() for r, _ in links[:held])
    for _, w in links:
        w.close()


async def test_a_half_open_connection_is_closed_after_the_login_deadline(served):
    s = await served(Limits(login_seconds=0.5), child_command=CHILD)
    (link,) = await _half_open(s.port, 1)
    assert await _closed(link[0])
    link[1].close()
    assert not s.server.gate.waiting and not s.server.clients


async def test_a_ninth_player_from_one_address_is_told_why_and_another_address_gets_in(
        served):
    s = await served(child_command=CHILD)
    players = []
    for n in range(8):
        p = await s.play(new_key(), f"p{n}")
        await p.screen.wait("start size=")
        players.append(p)
    ninth = await s.play(new_key(), "nine")
    await ninth.screen.wait("unoduo: already 8 players from your address (127.0.0.1): "
                            "close one to open another", err=True)
    await asyncio.wait_for(ninth.screen.closed.wait(), WAIT)
    assert ninth.screen.status == 1
    other = await s.play(new_key(), "other", source="127.0.0.2")
    await other.screen.wait("start size=")
    await players[0].keys("still here\r")
    await players[0].screen.wait("echo:still here.")


async def test_new_keys_per_address_an_hour_are_capped_and_a_restart_keeps_the_count(
        serve_dir):
    limits = Limits(new_keys_per_hour=2)
    known = [new_key(), new_key()]

    async def start() -> Served:
        server = GameServer(serve_dir, limits, child_command=CHILD)
        return Served(server, *(await server.start("127.0.0.1", 0, serve_dir / "host_key")))

    s = await start()
    try:
        for key in known:
            await (await s.play(key)).screen.wait("start size=")
        third = await s.play(new_key())
        await third.screen.wait("2 keys new to this server came from your address in the "
                                "last hour: connect with a key it knows", err=True)
        await asyncio.wait_for(third.screen.closed.wait(), WAIT)
        assert third.screen.status == 1
        again = await s.play(known[0])  # a key it knows is welcome
        await again.screen.wait("start size=")
        elsewhere = await s.play(new_key(), source="127.0.0.2")
        await elsewhere.screen.wait("start size=")
    finally:
        await s.stop()
    assert len(list((serve_dir / "players").iterdir())) == 3  # nothing made for the third
    s = await start()  # a restart does not give the address a fresh hour
    try:
        fourth = await s.play(new_key())
        await fourth.screen.wait("keys new to this server came from your address", err=True)
        await (await s.play(known[1])).screen.wait("start size=")
    finally:
        await s.stop()


def test_the_new_key_ledger_forgets_after_an_hour_and_survives_damage(tmp_path):
    now = [1_000_000.0]
    path = tmp_path / NEW_KEYS_FILE
    keys = NewKeys(path, per_hour=2, clock=lambda: now[0])
    keys.add("a")
    now[0] += 600
    keys.add("a")
    assert "try again in 50 min" in keys.refusal("a") and keys.refusal("b") is None
    with open(path, "ab") as f:
        f.write(b"garbage\n\xff\xfe 1 2 3\nnan\n")
    again = NewKeys(path, per_hour=2, clock=lambda: now[0])  # a restart: the same count
    assert again.count("a") == 2 and again.refusal("a") is not None
    assert path.read_bytes().count(b"\n") == 2  # rewritten with only the good lines
    now[0] += 3000
    assert again.count("a") == 1 and again.refusal("a") is None
    now[0] += 600
    assert again.count("a") == 0
    path.unlink()
    path.symlink_to(tmp_path / "elsewhere")
    NewKeys(path, per_hour=2, clock=lambda: now[0]).add("a")
    assert not (tmp_path / "elsewhere").exists()  # replaced, never followed


def test_the_new_key_ledger_stays_small_whatever_the_number_of_addresses(tmp_path,
                                                                          monkeypatch):
    monkeypatch.setattr(NewKeys, "MAX_KEPT", 100)
    path = tmp_path / NEW_KEYS_FILE
    keys = NewKeys(path, per_hour=1)
    for n in range(5000):
        keys.add(f"10.0.{n // 250}.{n % 250}")
    assert keys.count("10.0.0.0") == 0 and len(keys) == 100
    assert path.read_bytes().count(b"\n") <= 4 * 100 + 1000 + 1


def test_identity_json_is_never_written_through_a_symlinked_player_folder(tmp_path):
    fp = "SHA256:ab+cd/EF0123"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    serve = tmp_path / "serve"
    (serve / "players").mkdir(parents=True)
    link = serve / "players" / folder_name(fp)
    link.symlink_to(elsewhere)
    with pytest.raises(FileProblem, match="symbolic link"):
        identify(serve, fp, "ann")
    link.unlink()
    other = tmp_path / "other"
    other.mkdir()
    (other / "players").symlink_to(elsewhere)  # players itself a symlink: refused too
    with pytest.raises(FileProblem, match="symbolic link"):
        identify(other, fp, "ann")
    assert not list(elsewhere.iterdir())  # nothing written there, nothing made
    me = identify(serve, fp, "ann")  # a real folder: all is well
    assert me.new and json.loads((me.folder / IDENTITY_FILE).read_text())["name"] == "ann"
    assert not identify(serve, fp, "bob").new


async def test_a_player_whose_folder_is_a_symlink_is_told_and_nothing_is_written(served):
    s = await served(child_command=CHILD)
    key = new_key()
    elsewhere = s.server.serve_dir.parent / "elsewhere"
    elsewhere.mkdir()
    players = s.server.serve_dir / "players"
    players.mkdir(exist_ok=True)
    (players / folder_name(key.get_fingerprint())).symlink_to(elsewhere)
    p = await s.play(key)
    await p.screen.wait("the server cannot keep your data right now", err=True)
    await asyncio.wait_for(p.screen.closed.wait(), WAIT)
    assert p.screen.status == 1 and not list(elsewhere.iterdir())
    assert not s.server.running
