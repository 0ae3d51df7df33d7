"""The replay's moments for classic UNO (C6): every Reverse and every Skip played is a
moment the jump keys find; a Reverse dump (A4) is UNO Duo's only."""

from engine import Match, Rules, bots
from engine.replay import MOMENTS, ReplayCursor, moments_of


def _classic(seats: int, seed: int) -> Match:
    m = Match.new(rules=Rules(preset="classic", seats=seats), seed=seed)
    players = [bots.make("random", seed=seed + i) for i in range(seats)]
    while not m.over:
        m.apply(players[m.to_act].choose(m.view(m.to_act)))
    return m


def test_c6_every_reverse_and_skip_played_is_a_moment():
    cursor = ReplayCursor.of(_classic(4, 5))
    for kind, rank in (("reverse", "R"), ("skip", "S")):
        plays = [p for p in range(1, cursor.count + 1)
                 if (d := cursor.decision(p)).kind == "play" and d.card.rank == rank]
        assert plays and list(cursor.moments(kind)) == plays


def test_a4_the_reverse_dump_is_duo_only():
    assert moments_of(Rules()) == MOMENTS
    assert "dump" not in moments_of(Rules(preset="classic", seats=3))
    assert {"reverse", "skip"} <= set(moments_of(Rules(preset="classic", seats=3)))
