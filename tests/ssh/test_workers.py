"""``unoduo serve --workers N`` (#22): the SSH front relays each session to one of N
worker processes running many apps; real clients with keys, real workers."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys

from engine import savefile
from unoduo_tui.net.lobby import pid_alive
from unoduo_tui.ssh import front
from unoduo_tui.ssh.hosted import WORKER_LOST
from unoduo_tui.ssh.limits import Limits

from tests.waiting import until_async as until

from .term import WAIT, Served, host_and_join, new_key
from tests.bench.ssh import _tree

from .test_game import _DRAFT, my_draft_turn, new_match_vs_a_bot


def link_of(s, player_name: str):
    """The worker whose sessions include ``player_name``'s."""
    for link in s.server.pool.links:
        if any(sess.client.identity.name == player_name for sess in link.sessions.values()):
            return link
    raise AssertionError(f"{player_name} is on no worker")


async def test_two_players_in_one_worker_each_have_their_own_name_and_folder(served):
    s = await served(workers=1)
    alice = await s.play(new_key(), "alice")
    bob = await s.play(new_key(), "bob")
    await alice.screen.wait("Signed in as alice")
    await bob.screen.wait("Signed in as bob")
    (link,) = s.server.pool.links
    assert len(link.sessions) == 2  # one process holds both
    for player, name in ((alice, "alice"), (bob, "bob")):
        start = len(player.screen.out)
        await new_match_vs_a_bot(player)
        assert name in player.screen.text(start)  # "you" at the table: their own name
    folders = sorted((s.server.serve_dir / "players").iterdir())
    names = {json.loads((f / "identity.json").read_text())["name"]: f for f in folders}
    assert set(names) == {"alice", "bob"}
    for name, folder in names.items():
        (save,) = (folder / "matches").glob("*.unoduo")  # each match in its own folder
        assert name.encode() in save.read_bytes()
        other = "bob" if name == "alice" else "alice"
        assert other.encode() not in save.read_bytes()


async def test_a_killed_worker_tells_its_players_and_no_other_and_they_resume(served):
    s = await served(workers=2)
    key = new_key()
    alice = await s.play(key, "alice")
    turn = await new_match_vs_a_bot(alice)
    await alice.keys("k")
    await alice.screen.wait("Your hand · 1 card")
    turn = await my_draft_turn(alice, turn)
    bob = await s.play(new_key(), "bob")
    await bob.screen.wait("Signed in as bob")
    doomed, spared = link_of(s, "alice"), link_of(s, "bob")
    assert doomed is not spared  # the fewest sessions: one each
    tree = _tree(doomed.pid)
    assert len(tree) > 1  # the bots' pool, where the bot's draft was thought
    os.kill(doomed.pid, signal.SIGKILL)
    await asyncio.wait_for(alice.screen.closed.wait(), WAIT)
    assert WORKER_LOST in alice.screen.text() and alice.screen.status == 1
    assert "\x1b[?1049l" in alice.screen.out.decode("utf-8", "replace")  # screen put back
    await bob.keys("n")  # bob's worker never noticed
    await bob.screen.wait("Start")
    assert not bob.screen.closed.is_set()
    again = await s.play(key, "alice")  # a new worker, or bob's: either resumes exactly
    await again.screen.wait("Signed in as alice", "Resume")
    await again.keys("r")
    await again.screen.wait("Your hand · 1 card", f"Draft {turn}/14: keep")
    await until(lambda: len(s.server.pool.links) == 2, "the dead worker replaced")
    await until(lambda: not any(pid_alive(pid) for pid in tree), "its bots' pool gone too")


def saved_match(serve_dir, name: str):
    """``name``'s one saved match in the serve dir: (draft decisions in its log, the
    cards in ``name``'s hand) as the file says, replayed."""
    for folder in (serve_dir / "players").iterdir():
        if json.loads((folder / "identity.json").read_text())["name"] == name:
            (path,) = (folder / "matches").glob("*.unoduo")
            decoded, match = savefile.load(path.read_bytes())
            drafted = [e for e in decoded.entries
                       if not e.is_chance and e.kind in ("keep", "reject")]
            return len(drafted), len(match.view(decoded.names().index(name)).hand)
    raise AssertionError(f"no folder for {name}")


async def kept(player, cards: int, turn: int) -> int:
    """Keep the card offered at draft ``turn``; wait until the screen says the hand
    holds ``cards`` and the draft has come back to this player: its turn."""
    await player.keys("k")
    text = await player.screen.wait(f"Your hand · {cards} card")
    later = [int(n) for n in _DRAFT.findall(text) if int(n) > turn]
    return later[-1] if later else await my_draft_turn(player, turn)  # one frame, or two


async def two_kept(player) -> int:
    """A new match vs a bot, two cards kept (each seen acknowledged on the screen):
    the draft turn now waiting for this player."""
    turn = await new_match_vs_a_bot(player)
    return await kept(player, 2, await kept(player, 1, turn))


async def test_kill_9_of_a_worker_holding_six_players_tells_all_and_all_resume_exactly(
        served, monkeypatch):
    """#22 Under faults: every player of a killed worker is told; every move their
    screen acknowledged is in their save; reconnecting at once (its replacement still
    starting: the front waits for it) resumes each match where it was."""
    monkeypatch.setattr(front, "RESPAWN_SECONDS", 3.0)  # no worker alive for a while
    s = await served(workers=1)
    keys = {f"p{i}": new_key() for i in range(6)}
    players = {name: await s.play(key, name) for name, key in keys.items()}
    turns = dict(zip(players, await asyncio.gather(*map(two_kept, players.values()))))
    (doomed,) = s.server.pool.links
    assert len(doomed.sessions) == 6
    os.kill(doomed.pid, signal.SIGKILL)
    for p in players.values():
        await asyncio.wait_for(p.screen.closed.wait(), WAIT)
        assert WORKER_LOST in p.screen.text() and p.screen.status == 1
    for name, turn in turns.items():
        # the draft turn on the screen follows turn - 1 decisions; in hand, the 2 kept
        # and the card offered now
        assert saved_match(s.server.serve_dir, name) == (turn - 1, 3)

    back = {name: await s.play(key, name) for name, key in keys.items()}

    async def resume(name: str) -> None:
        await back[name].screen.wait(f"Signed in as {name}", "Resume")
        await back[name].keys("r")
        await back[name].screen.wait("Your hand · 2 cards", f"Draft {turns[name]}/14: keep")
    await asyncio.gather(*map(resume, keys))
    (replacement,) = s.server.pool.links
    assert replacement is not doomed and len(replacement.sessions) == 6


async def test_a_stuck_worker_is_killed_and_its_players_told(served):
    s = await served(Limits(worker_stall=5.0), workers=1)
    alice = await s.play(new_key(), "alice")
    await alice.screen.wait("Signed in as alice")
    (link,) = s.server.pool.links
    await until(lambda: link.up, "the worker answering its pings")
    os.kill(link.pid, signal.SIGSTOP)  # as a session stuck in a loop would leave it
    await asyncio.wait_for(alice.screen.closed.wait(), WAIT)
    assert WORKER_LOST in alice.screen.text()
    await until(lambda: not pid_alive(link.pid), "the stuck worker gone")


async def test_junk_closes_that_connection_and_no_other_in_its_worker(served):
    s = await served(workers=1)
    bob = await s.play(new_key(), "bob")
    await bob.screen.wait("Signed in as bob")
    junk = await s.play(new_key(), "mallory")
    await junk.screen.wait("Signed in as mallory")
    junk.chan.write(os.urandom(1 << 20))
    await asyncio.wait_for(junk.screen.closed.wait(), WAIT)
    assert "too much input" in junk.screen.text() and junk.screen.status == 1
    await bob.keys("n")
    await bob.screen.wait("Start")


async def test_the_fourth_connection_of_one_key_is_refused_with_workers(served):
    s = await served(workers=1)
    key = new_key()
    for _ in range(3):
        p = await s.play(key)
        await p.screen.wait("Signed in as")
    fourth = await s.play(key)
    await fourth.screen.wait("already 3 connections with this key", err=True)
    await asyncio.wait_for(fourth.screen.closed.wait(), WAIT)


async def test_stopping_tells_every_player_and_leaves_no_worker_behind(served):
    s = await served(workers=2)
    players = [await s.play(new_key(), name) for name in ("alice", "bob")]
    for p in players:
        await p.screen.wait("Signed in as")
    pids = [pid for worker in s.server.pool.pids for pid in _tree(worker)]
    assert len(pids) >= 2
    await s.server.stop()
    for p in players:
        await asyncio.wait_for(p.screen.closed.wait(), WAIT)
        assert "the server is stopping; your match is saved" in p.screen.text()
    await until(lambda: not any(pid_alive(pid) for pid in pids),
                "the workers and their bots' processes gone")


async def _serve_with_workers(serve_dir, workers: int, stderr: int = asyncio.subprocess.DEVNULL):
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "unoduo_tui.cli", "serve", "--data-dir", str(serve_dir),
        "--port", "0", "--workers", str(workers),
        stdout=asyncio.subprocess.PIPE, stderr=stderr)
    line = (await asyncio.wait_for(proc.stdout.readline(), WAIT)).decode()
    found = re.search(r"port (\d+)", line)
    assert found, line
    return proc, Served(None, "127.0.0.1", int(found.group(1)))  # type: ignore[arg-type]


async def test_kill_9_of_the_server_leaves_no_process_behind(serve_dir):
    proc, client = await _serve_with_workers(serve_dir, 2)
    try:
        p = await client.play(new_key())
        await p.screen.wait("Signed in as")
        # the server, 2 workers, each with a bots' process and its resource tracker
        await until(lambda: len(_tree(proc.pid)) >= 7, "every process started")
        tree = _tree(proc.pid)
        proc.kill()
        await proc.wait()
        await until(lambda: not any(pid_alive(pid) for pid in tree), "all of them gone")
        await asyncio.wait_for(p.screen.closed.wait(), WAIT)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_kill_9_of_the_server_ends_the_tables_its_players_host(serve_dir):
    """#22 The server owns what it starts: a table hosted from the lobby outlives its
    host's connection and worker, but not the server — it is held in the server's
    own process (no process of its own), so a kill -9 leaves nothing behind; its match
    is saved, and the next server resumes it."""
    key = new_key()
    proc, client = await _serve_with_workers(serve_dir, 1)
    try:
        alice = await client.play(key, "alice")
        await alice.screen.wait("Signed in as alice")
        await alice.keys("o")
        await alice.screen.wait("Host a table")
        await alice.keys("\t", "\r")  # UNO Duo, two seats, the other one open
        await alice.screen.wait_any("keep (k) or reject (r)", "Player 2 is drafting")
        tree = _tree(proc.pid)
        commands = [_command(pid) for pid in tree]
        assert not any(b"unoduo_tui.net.serve" in c for c in commands), commands
        proc.kill()
        await proc.wait()
        await until(lambda: not any(pid_alive(pid) for pid in tree), "all of them gone")
        await asyncio.wait_for(alice.screen.closed.wait(), WAIT)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    proc, client = await _serve_with_workers(serve_dir, 1)
    try:
        again = await client.play(key, "alice")
        await again.screen.wait("Signed in as alice", "Resume ⇄")
        await again.keys("r")
        await again.screen.wait_any("keep (k) or reject (r)", "Player 2 is drafting")
    finally:
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), WAIT)


def _command(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


async def test_sigterm_drains_every_player_told_their_matches_saved_and_exits(serve_dir):
    """#22 Under faults: SIGTERM drains — players mid-match are told, every move
    they saw acknowledged is saved, and the whole process tree exits — each worker by
    itself, its bots' pool stopped (killed, it would leave multiprocessing's resource
    tracker to say "leaked semaphore objects" on the server's stderr)."""
    proc, client = await _serve_with_workers(serve_dir, 2, stderr=asyncio.subprocess.PIPE)
    try:
        players = {name: await client.play(new_key(), name) for name in ("alice", "bob")}
        turns = dict(zip(players, await asyncio.gather(*map(two_kept, players.values()))))
        tree = _tree(proc.pid)
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0
        for p in players.values():
            await asyncio.wait_for(p.screen.closed.wait(), WAIT)
            assert "the server is stopping; your match is saved" in p.screen.text()
        await until(lambda: not any(pid_alive(pid) for pid in tree), "its workers gone")
        for name, turn in turns.items():
            assert saved_match(serve_dir, name) == (turn - 1, 3)
        said = (await proc.stderr.read()).decode(errors="replace")
        assert "alice" in said and not any(w in said for w in ("leaked", "Warning",
                                                                "Traceback")), said
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


# -- the limits of serve hold under --workers (#22): the front keeps them all ----------

async def test_past_the_player_limit_a_client_is_told_the_server_is_full_with_workers(
        served):
    s = await served(Limits(max_connections=1), workers=1)
    alice = await s.play(new_key(), "alice")
    await alice.screen.wait("Signed in as alice")
    bob = await s.play(new_key(), "bob")
    await bob.screen.wait("the server is full (1 players): try again later", err=True)
    await asyncio.wait_for(bob.screen.closed.wait(), WAIT)
    assert bob.screen.status == 1
    (link,) = s.server.pool.links
    assert len(link.sessions) == 1  # bob never reached the worker
    await alice.keys("n")
    await alice.screen.wait("Start")


async def test_one_player_too_many_from_one_address_is_told_with_workers(served):
    s = await served(Limits(per_address=2), workers=1)
    for name in ("p0", "p1"):
        p = await s.play(new_key(), name)
        await p.screen.wait(f"Signed in as {name}")
    third = await s.play(new_key(), "p2")
    await third.screen.wait("already 2 players from your address (127.0.0.1)", err=True)
    await asyncio.wait_for(third.screen.closed.wait(), WAIT)
    other = await s.play(new_key(), "other", source="127.0.0.2")
    await other.screen.wait("Signed in as other")
    (link,) = s.server.pool.links
    assert len(link.sessions) == 3


async def test_an_idle_player_is_told_and_closed_and_their_app_ends_with_workers(served):
    s = await served(Limits(idle_seconds=1.0), workers=1)
    p = await s.play(new_key(), "alice")
    await asyncio.wait_for(p.screen.closed.wait(), WAIT)
    assert "without a key press; your match is saved" in p.screen.text()
    assert p.screen.status == 1
    (link,) = s.server.pool.links
    await until(lambda: not link.sessions and not s.server.running, "the app ended")
    assert s.server.gate.playing.get("127.0.0.1", 0) == 0  # the place given back


async def test_players_of_one_worker_are_known_to_the_tables_by_their_own_keys(served):
    """#22 The server's table service counts wrong codes per key: two players whose
    apps share one worker process (one Unix user, one environment) still come to a
    table as their own keys, each vouched for by the server — not as one guesser."""
    s = await served(workers=1)
    alice_key, bob_key = new_key(), new_key()
    await host_and_join(s, alice_key, bob_key)
    (link,) = s.server.pool.links
    assert len(link.sessions) == 2  # one worker holds both
    (entry,) = s.server.hall.entries()
    held = s.server.hall.tables[entry.code].authority
    assert {c.key.id for c in held.clients} == {f"key:{k.get_fingerprint()}"
                                                for k in (alice_key, bob_key)}
