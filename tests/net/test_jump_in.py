"""H4 at a shared table: the authority takes the first decision that reaches it — a
jump-in or the move of the seat to act — and refuses the one that comes after it."""

from __future__ import annotations

from engine import Rules
from tests.engine.test_classic import classic_deck
from unoduo_tui.plan import HUMAN, MatchPlan

from .helpers import send_raw

#: seat 3 deals, so seat 0 plays first on the B5; seat 3 holds the other B9, seat 1 a B1
HANDS = [["B7", "B9", "G1", "G2", "G3", "G4", "G6"],
         ["B1", "Y2", "Y3", "Y4", "Y6", "Y8", "Y7"],
         ["G7", "G8", "G9", "Y9", "R5", "G5", "Y5"],
         ["B9", "R1", "R2", "R3", "R4", "R6", "R8"]]


def served_table(served_factory):
    rules = Rules(preset="classic", seats=4, jump_in=True)
    plan = MatchPlan(tuple(f"P{s}" for s in range(4)), (HUMAN,) * 4, rules, 1)
    served = served_factory(plan, deck=classic_deck(HANDS, "B5", 3, rules=rules), first=3)
    clients = [served.client(name=f"P{s}") for s in range(4)]
    assert [c.table.seat for c in clients] == [0, 1, 2, 3]
    clients[0].table.act(0, "play B9")
    for c in clients:  # every seat has seen the B9: seat 2 is offered its jump-in
        c.wait(lambda u: u.to_act == 1, "seat 0's play")
    assert [str(a) for a in clients[3].last.views[3].legal_actions] == ["jump B9"]
    return served, clients


def decisions(served) -> list[str]:
    with served.table.lock:
        return [str(a) for a in served.table.match.actions if not a.is_chance]


def test_h4_a_jump_in_that_reaches_the_table_after_the_next_move_is_refused_as_too_late(
        served_factory):
    served, clients = served_table(served_factory)
    clients[1].table.act(1, "play B1")  # the seat to act is first
    clients[3].wait(lambda u: u.to_act == 2, "seat 1's play")
    # seat 3's jump was on its way (sent before its screen heard of the play)
    send_raw(clients[3].table, {"t": "act", "text": "jump B9"})
    u = clients[3].wait(lambda u: u.cause == "refused", "a refusal")
    assert "too late" in u.refused and "B1 is on top now" in u.refused
    assert decisions(served) == ["play B9", "play B1"]


def test_h4_a_jump_in_that_reaches_the_table_first_is_taken_the_late_move_refused(
        served_factory):
    served, clients = served_table(served_factory)
    clients[3].table.act(3, "jump B9")  # the jump-in is first
    clients[1].wait(lambda u: u.to_act == 0, "seat 3's jump-in")
    assert decisions(served) == ["play B9", "jump B9"]  # play goes on from seat 3
    send_raw(clients[1].table, {"t": "act", "text": "play B1"})  # seat 1's move, too late
    u = clients[1].wait(lambda u: u.cause == "refused", "a refusal")
    assert u.refused == "too late — P3 jumped in with B9"
    assert decisions(served) == ["play B9", "jump B9"]
