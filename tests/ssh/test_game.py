"""The game over SSH, end to end: real clients with keys, the real lobby in a child
process per connection (each takes ~1 s to start)."""

from __future__ import annotations

import asyncio
import json
import re


from .term import WAIT, host_and_join, new_key

CTRL_S = "\x13"


_DRAFT = re.compile(r"Draft (\d+)/14: keep \(k\) or reject \(r\)")


async def my_draft_turn(player, after: int = 0) -> int:
    """Wait until the table asks this player to keep or reject a card later in the
    draft than ``after`` (the bot may draft first, or in between); its number."""
    while True:
        text = await player.screen.wait("keep (k) or reject (r)")
        turns = [int(n) for n in _DRAFT.findall(text)]
        if turns and turns[-1] > after:
            return turns[-1]


async def new_match_vs_a_bot(player) -> int:
    await player.screen.wait("Signed in as")
    await player.keys("n")
    await player.screen.wait("Start")
    await player.keys(CTRL_S)
    return await my_draft_turn(player)


async def test_a_key_gets_the_lobby_and_plays_a_bot(served):
    s = await served()
    p = await s.play(new_key(), "alice")
    text = await p.screen.wait("Signed in as alice", "key SHA256:")
    assert "New match vs bots" in text
    turn = await new_match_vs_a_bot(p)
    await p.keys("k")
    await p.screen.wait("Your hand · 1 card")
    turn = await my_draft_turn(p, turn)
    await p.keys("r")
    await my_draft_turn(p, turn)
    folder = next((s.server.serve_dir / "players").iterdir())
    assert json.loads((folder / "identity.json").read_text())["name"] == "alice"
    assert list((folder / "matches").iterdir())  # saved in the player's own folder


async def test_a_dropped_connection_resumes_with_the_same_key(served):
    s = await served()
    key = new_key()
    p = await s.play(key, "alice")
    turn = await new_match_vs_a_bot(p)
    await p.keys("k")
    await p.screen.wait("Your hand · 1 card")
    turn = await my_draft_turn(p, turn)
    (session,) = s.server.running
    p.conn.abort()  # killed mid-match
    await asyncio.wait_for(session.exited.wait(), WAIT)
    again = await s.play(key, "someone-else")  # the key, not the login, is who you are
    await again.screen.wait("Signed in as alice", "Resume")
    await again.keys("r")
    await again.screen.wait("Your hand · 1 card", f"Draft {turn}/14: keep")


async def test_a_second_key_joins_an_open_table_from_the_lobby(served):
    s = await served()
    alice_key, bob_key = new_key(), new_key()
    alice, alice_first, bob, bob_first = await host_and_join(s, alice_key, bob_key)
    assert alice_first.startswith("keep") != bob_first.startswith("keep")  # one drafts
    # whoever drafts first keeps a card; the other one sees the draft come to them
    mover, other = (bob, alice) if bob_first.startswith("keep") else (alice, bob)
    await mover.keys("k")
    await other.screen.wait("Draft 2/14: keep (k) or reject (r)")
    # the server holds the table (its table service), listed from what it holds, and
    # believes the keys it signed: both players are known by their keys
    (entry,) = s.server.hall.entries()
    assert entry.names == ("alice", "bob") and entry.open == 0
    held = s.server.hall.tables[entry.code].authority
    assert {c.key.id for c in held.clients} == {f"key:{k.get_fingerprint()}"
                                                for k in (alice_key, bob_key)}
    # the table outlives the connections, not the server: stopping it ends the table
    await s.stop()
    assert held.finished.is_set() and not s.server.hall.tables


async def test_a_login_that_looks_like_an_option_is_just_a_name(served):
    s = await served()
    p = await s.play(new_key(), "--help")
    await p.screen.wait("Signed in as --help")
