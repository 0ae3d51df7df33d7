"""Saved classic UNO matches for the replay, list and transcript tests: ``Store.new_match``
of a ``Match.new(Rules(preset="classic", seats=N))`` played by random bots."""

from __future__ import annotations

from engine import Match, Rules, bots
from unoduo_tui.store import Seat, Store

NAMES = ("Ann", "Bea", "Cal", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")


def classic_match(seats: int, seed: int = 5, limit: int | None = None) -> Match:
    """Classic UNO for ``seats`` played by random bots to its end (or ``limit``
    decisions)."""
    m = Match.new(rules=Rules(preset="classic", seats=seats), seed=seed)
    players = [bots.make("random", seed=seed + i) for i in range(seats)]
    n = 0
    while not m.over and (limit is None or n < limit):
        m.apply(players[m.to_act].choose(m.view(m.to_act)))
        n += 1
    return m


def save_classic(store: Store, seats: int, seed: int = 5, limit: int | None = None,
                 humans: int = 1, names=NAMES) -> str:
    """The match saved with seats 0 … ``humans``-1 human, the rest random bots: its id."""
    m = classic_match(seats, seed, limit)
    kinds = tuple(Seat(names[i], "human" if i < humans else "bot:random")
                  for i in range(seats))
    with store.new_match(m, kinds) as handle:
        return handle.id


#: every house rule (H1–H5) on
HOUSE = dict(seven_zero=True, stacking=True, stack_draw4="any", draw_until=True, jump_in=True,
             teams="partners")


def house_match(seats: int, seed: int = 5, limit: int | None = None) -> Match:
    """Classic UNO for ``seats`` with every house rule on (partners), played by normal
    bots that jump in when they choose to (H4), to its end (or ``limit`` decisions)."""
    m = Match.new(rules=Rules(preset="classic", seats=seats, target=200, **HOUSE), seed=seed)
    players = [bots.make("normal", seed=seed + i) for i in range(seats)]
    n = 0
    while not m.over and (limit is None or n < limit):
        jump = next(((s, a) for s in range(seats) if s != m.to_act and m.legal_actions(s)
                     for a in [players[s].jump(m.view(s))] if a is not None), None)
        if jump is not None:
            m.apply(jump[1], seat=jump[0])
        else:
            m.apply(players[m.to_act].choose(m.view(m.to_act)))
        n += 1
    return m
