"""Golden digests: a fixed set of seeded matches of both presets, played to the end by
seeded random bots, hashed — every decision's view and legal actions, every sentence
each seat, a spectator and the omniscient replay read, the log and its save file.

They prove a refactor of the engine changes nothing a player, a save file or a replay
can tell (#23).  A change here means matches play, read or save differently: if it is
intended, write the digests again with
``UNODUO_UPDATE_GOLDEN=1 python3 -m pytest tests/engine/test_golden_digests.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from engine import Match, Rules, bots, describe
from engine.savefile import Encoder, Header

DATA = Path(__file__).parent.parent / "data" / "golden_digests.json"

#: (name, rules, seed): both presets, every option's non-default choice somewhere
MATCHES = {
    "duo-1": (Rules(), 1),
    "duo-2-shuffle": (Rules(refill="shuffle", target=300), 2),
    "duo-3-classic-deck": (Rules(deck="classic108", wd4_guilty="any_playable"), 3),
    "classic-2": (Rules(preset="classic", seats=2), 4),
    "classic-3-stacking": (Rules(preset="classic", seats=3, stacking=True, target=300), 5),
    "classic-4-own-hand": (Rules(preset="classic", seats=4, scoring="own_hand", target=200), 6),
    "classic-7-turn-over": (Rules(preset="classic", seats=7, refill="turn_over", target=250), 7),
    "classic-10-duo-deck": (Rules(preset="classic", seats=10, deck="duo112", target=200), 8),
    "classic-8-tie": (Rules(preset="classic", seats=8, target=150), 31337094233),
}


def _card(c) -> str:
    return "-" if c is None else str(c)


def digest(rules: Rules, seed: int) -> str:
    h = hashlib.sha256()

    def put(*parts) -> None:
        h.update("|".join(map(str, parts)).encode("utf-8") + b"\n")

    m = Match.new(rules, seed=seed)
    players = [bots.make("random", seed=seed + s) for s in range(rules.seats)]
    while not m.over:
        seat = m.to_act
        v = m.view(seat)
        put(seat, v.phase, " ".join(map(str, v.hand)), v.hand_sizes, _card(v.top), v.color,
            v.draw_size, v.discard_size, v.pending_draw, v.scores, v.round, v.p1, v.dealer,
            v.direction, v.exposed, _card(v.drawn), v.dump_colour, v.event_count,
            " ".join(map(str, v.legal_actions)), " ".join(map(str, m.legal_actions())))
        m.apply(players[seat].choose(v))
    names = tuple(f"P{s}" for s in range(rules.seats))
    for seat in range(rules.seats):
        for e in m.view(seat).events:
            put("seat", seat, describe(e, names, seat))
    for e in m.public_view().events:
        put("public", describe(e, names, None))
    for e in m.events:
        put("all", describe(e, names, None))
    put("end", m.winner, m.scores, m.round, m.view(0).rounds)
    for a in m.actions:
        put("log", a)
    header = Header("golden", rules, seed, tuple((n, "bot:random") for n in names),
                    "2026-12-02T00:00:00+00:00", "0.1.0")
    enc = Encoder()
    h.update(enc.start(header) + enc.entries(m.actions))
    again = Match.replay(rules, m.actions, seed=seed)
    assert again.actions == m.actions and again.scores == m.scores
    return h.hexdigest()


def _stored() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else {}


@pytest.mark.parametrize("name", list(MATCHES))
def test_golden_digest(name):
    rules, seed = MATCHES[name]
    got = digest(rules, seed)
    if os.environ.get("UNODUO_UPDATE_GOLDEN"):
        stored = _stored()
        stored[name] = got
        DATA.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert _stored().get(name) == got, f"{name}: the match plays, reads or saves differently"
