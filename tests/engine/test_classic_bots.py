"""Bots and the arena for classic UNO at any seat count (through views only)."""

from math import comb

import pytest

from engine import Match, Rules, bots
from engine.bots.arena import run_arena
from engine.bots.counting import classic_wd4_guilty_probability, unseen

from .test_classic import dealt, filler


@pytest.mark.parametrize("seats", [2, 3, 7, 10])
@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
def test_every_level_plays_classic_at_any_seat_count(level, seats):
    m = Match.new(Rules(preset="classic", seats=seats, target=60), seed=seats)
    players = [bots.make(level, seed=s, simulations=4) for s in range(seats)]
    searched = 0
    for _ in range(1500):
        if m.over:
            break
        seat = m.to_act
        view = m.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions
        searched += getattr(players[seat], "last_worlds", 0) > 0
        m.apply(action, seat=seat)
    assert searched > 0 if level == "hard" else searched == 0


def test_c8_counting_the_chance_a_wild_draw_4_was_guilty():
    m = dealt([["W+4"] + filler(0, "G")[:6], filler(1, "B"), filler(2, "Y")], "R5", dealer=2)
    m.apply("play W+4 B")
    view = m.view(1)
    pool = unseen(view)
    total = sum(pool.values())
    red = sum(n for c, n in pool.items() if c.colour == "R")
    assert total == 108 - 7 - 2 and red == 24  # the viewer's hand and the pile are seen
    expected = 1 - comb(total - red, 6) / comb(total, 6)  # its 6 cards held no red
    assert classic_wd4_guilty_probability(view) == pytest.approx(expected)
    assert classic_wd4_guilty_probability(m.view(2)) == 0.0  # not facing it


def test_arena_rotates_each_deal_over_every_seat():
    rules = Rules(preset="classic", seats=3, target=100)
    seen = []
    result = run_arena(("normal", "easy", "random"), matches=6, seed=4, rules=rules,
                       on_match=lambda m, by_seat: seen.append(by_seat))
    assert seen[:3] == [("normal", "easy", "random"), ("random", "normal", "easy"),
                        ("easy", "random", "normal")]
    d = result.to_dict()
    assert d["seats"] == 3 and d["matches"] == 6
    assert sum(b["wins"] for b in d["bots"].values()) + d["draws"] == 6
    assert "rotated over 3 seats" in result.format()


def test_arena_takes_one_level_for_all_and_refuses_a_wrong_count():
    rules = Rules(preset="classic", seats=4, target=50)
    result = run_arena(("easy",), matches=4, seed=1, rules=rules)
    assert result.names() == ("easy#1", "easy#2", "easy#3", "easy#4")
    with pytest.raises(ValueError, match="4 bot levels"):
        run_arena(("easy", "normal"), matches=4, seed=1, rules=rules)


def test_normal_beats_three_easy_bots_at_four_seats():
    """Chance alone is 25%; 120 matches in rotated duplicate deals."""
    result = run_arena(("normal", "easy", "easy", "easy"), matches=120, seed=7,
                       rules=Rules(preset="classic", seats=4))
    low, _ = result.to_dict()["bots"]["normal"]["win_rate_ci95"]
    assert low > 0.30


def test_c1_the_normal_bot_scores_cards_by_classic_points_in_classic():
    """A Skip is worth 10 in Duo (D2) and 20 in classic (C1): with 20 it outweighs
    an innocent Wild Draw 4 (score 20), which Duo's 10 does not."""
    from engine import Action, Card
    from engine.bots.normal import policy
    from engine.classic import CARD_POINTS
    hand = [Card.parse(t) for t in ("RS", "W+4", "B2")]
    legal = tuple(Action.parse(t) for t in ("play RS", "play W+4 B", "play W+4 G",
                                            "play W+4 R", "play W+4 Y", "draw"))
    top = Card.parse("GS")
    assert policy(hand, legal, "turn", top, "G", 5,
                  points=CARD_POINTS["classic"]) == "play RS"
    assert policy(hand, legal, "turn", top, "G", 5).card.rank == "W+4"  # Duo: unchanged


def test_c1_the_normal_bot_in_a_classic_view_uses_classic_points():
    m = dealt([["RS", "W+4"] + [f"B{i}" for i in range(1, 6)], filler(1, "Y"), filler(2, "Y")],
              "GS", dealer=1)  # C7: the start Skip skips seat 2; seat 0 plays
    assert m.to_act == 0
    assert bots.make("normal", seed=0).choose(m.view(0)) == "play RS"
