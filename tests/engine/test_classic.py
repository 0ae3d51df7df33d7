"""C — classic UNO for 2–10 seats, one test per clause on stacked decks."""

from collections import Counter
from typing import Sequence

import pytest

from engine import Card, IllegalAction, Match, Rules
from engine.cards import deck_cards
from engine.classic import ClassicMatch, classic_points

from .helpers import check_conservation, texts


def classic(seats: int = 3, **options) -> Rules:
    return Rules(preset="classic", seats=seats, **options)


def classic_deck(hands: Sequence[Sequence[str]], start: str, dealer: int,
                 draws: Sequence[str] = (), rules: Rules | None = None) -> list[Card]:
    """Round 1's deck, top first, so that seat s is dealt ``hands[s]`` (C3: card k goes
    to seat (dealer + 1 + k) mod n), then ``start``, then ``draws``, then the rest."""
    n = len(hands)
    rules = rules or classic(n)
    pool = Counter(c.code for c in deck_cards(rules.deck))

    def take(text: str) -> Card:
        card = Card.parse(text)
        assert pool[card.code] > 0, f"the deck has no more {card}"
        pool[card.code] -= 1
        return card

    parsed = [[take(c) for c in h] for h in hands]
    assert all(len(h) == 7 for h in parsed)
    deck = [parsed[(dealer + 1 + k) % n][k // n] for k in range(7 * n)]
    deck += [take(start)] + [take(c) for c in draws]
    # the rest: plain numbers first (so early draws are harmless), action cards last
    rest = [c for c in Card.by_code for _ in range(pool[c.code])]
    rest.sort(key=lambda c: (not c.is_number, c.code))
    return deck + rest


def dealt(hands, start: str, dealer: int = 0, draws=(), **options) -> Match:
    rules = classic(len(hands), **options)
    return Match.new(rules, seed=0, deck=classic_deck(hands, start, dealer, draws, rules),
                     first=dealer)


def filler(seat: int, colour: str = "Y") -> list[str]:
    """Seven distinct harmless cards for ``seat`` (numbers of one colour)."""
    return [f"{colour}{(seat + i) % 9 + 1}" for i in range(7)]


H3 = [filler(0, "R"), filler(1, "G"), filler(2, "B")]


# -- C1 -----------------------------------------------------------------------------

def test_c1_classic_deck_seats_and_points():
    m = Match.new(classic(10), seed=1)
    assert isinstance(m, ClassicMatch) and m.seats == 10 and m.rules.deck == "classic108"
    assert sum(m.hand_sizes) + m.draw_size + m.discard_size == 108
    assert classic_points([Card.parse(c) for c in ["R7", "GS", "BR", "Y+2", "W", "W+4"]]) == 167
    with pytest.raises(ValueError, match="seats"):
        classic(11)


# -- C2, C3, C4 ---------------------------------------------------------------------

def test_c2_dealer_draw_highest_deals_tied_seats_draw_again_among_themselves():
    rules = classic(3)
    order = " ".join(c.text for c in deck_cards("classic108"))
    m = Match.replay(rules, ["cut R5 G7 B7", "cut Y2 R9", f"shuffle {order}"])
    assert m.dealer == 2 and m.p1 == 0 and m.to_act is not None
    draws = [e for e in m.events if e.kind == "dealer_draw"]
    assert [(e.seats, e.winner) for e in draws] == [((0, 1, 2), None), ((1, 2), 2)]
    with pytest.raises(IllegalAction):
        Match.replay(rules, ["cut R5 G7 B7", "cut Y2 R9 B1", f"shuffle {order}"])


def test_c2_a_random_dealer_draw_is_recorded_and_replays():
    m = Match.new(classic(5), seed=42)
    assert [str(e).split()[0] for e in m.actions[:1]] == ["cut"]
    again = Match.replay(m.rules, m.actions)
    assert (again.dealer, again.hand(3), again.top) == (m.dealer, m.hand(3), m.top)


def _dealer_draws(m: Match) -> list:
    return [e for e in m.actions if e.is_chance and e.kind == "cut"]


def test_c2_tied_seats_draw_again_from_the_cards_left_in_that_same_deck():
    # #21 item 8: this seed ties seats 0 and 1 on R9; the redraw drew R9 a third time
    m = Match.new(classic(8), seed=31337094233)
    first, again = _dealer_draws(m)[:2]
    assert texts(first.cards[:2]) == ["R9", "R9"] and len(again.cards) == 2
    assert "R9" not in texts(again.cards)
    deck = Counter(c.code for c in deck_cards("classic108"))
    for seed in range(400):  # no draw shows a card more often than the deck holds it
        m = Match.new(classic(10), seed=seed)
        drawn = Counter(c.code for e in _dealer_draws(m) for c in e.cards)
        assert not drawn - deck, seed


def test_c2_a_save_from_before_the_ruling_loads_and_verifies_its_recorded_draws():
    from pathlib import Path

    from engine.savefile import load

    data = (Path(__file__).parent.parent / "data" / "c2_old_dealer_draw.unoduo").read_bytes()
    decoded, m = load(data, "c2_old_dealer_draw.unoduo")  # written before the fix
    cuts = _dealer_draws(m)
    assert [texts(e.cards) for e in cuts][1] == ["R9", "W+4"]  # the third R9, as recorded
    assert m.actions == decoded.entries and m.log_length == 63 and m.dealer == 0
    assert Match.replay(m.rules, m.actions, seed=m.seed).actions == m.actions


def test_c3_deal_one_card_at_a_time_from_the_dealers_left():
    m = dealt(H3, "Y5", dealer=1)
    for s in range(3):
        assert texts(m.hand(s)) == H3[s]
    assert m.dealer == 1 and m.top == Card.parse("Y5")
    deck = classic_deck(H3, "Y5", 1)  # card k went to seat (1 + 1 + k) mod 3
    assert texts(deck[:4]) == [H3[2][0], H3[0][0], H3[1][0], H3[2][1]]


def test_c3_each_seat_sees_only_its_own_cards():
    m = dealt(H3, "Y5", dealer=0)
    for seat in range(3):
        v = m.view(seat)
        assert v.hand_sizes == (7, 7, 7) and v.dealer == 0 and v.direction == 1
        for e in v.events:
            if e.kind == "dealt" and e.seat != seat:
                assert e.cards == () and e.ncards == 7


def test_c4_play_starts_left_of_the_dealer_and_goes_clockwise():
    m = dealt(H3, "R5", dealer=2)
    assert m.to_act == 0
    m.apply("play R1")
    assert m.to_act == 1
    m.apply("draw")
    assert m.to_act == 2 or m.phase == "drawn"


def test_c2_the_deal_passes_left_each_round():
    m = Match.from_position(classic(3, target=10_000), hands=[["R1"], ["B1"], ["Y1"]],
                            draw_pile=[], discard_pile=["R5"], to_act=0, phase="turn",
                            colour="R", p1=1, dealer=0)
    m.apply("play R1")
    assert m.round == 2 and m.dealer == 1 and m.p1 == 2


# -- C7: the start card ---------------------------------------------------------------

def test_c7_start_draw2_the_left_seat_draws_2_and_loses_its_turn():
    m = dealt(H3, "R+2", dealer=0)
    assert m.to_act == 1 and m.phase == "volley" and texts(m.legal_actions()) == ["draw"]
    m.apply("draw")
    assert len(m.hand(1)) == 9 and m.to_act == 2


def test_c7_start_skip_the_left_seat_loses_its_turn():
    m = dealt(H3, "RS", dealer=0)
    assert m.to_act == 2 and m.phase == "turn"


def test_c7_start_reverse_the_dealer_plays_first_counter_clockwise():
    m = dealt(H3, "RR", dealer=0)
    assert m.to_act == 0 and m.direction == -1
    m.apply("play R1")
    assert m.to_act == 2


def test_c7_start_wild_the_left_seat_names_the_colour_then_plays():
    m = dealt(H3, "W", dealer=0)
    assert m.to_act == 1 and m.phase == "colour"
    m.apply("colour G")
    assert m.to_act == 1 and m.phase == "turn" and m.color == "G"
    assert "play G2" in m.legal_actions()


def test_c7_start_wild_draw_4_is_shuffled_back_until_another_card_turns_up():
    m = dealt(H3, "W+4", dealer=0)
    assert m.top.rank != "W+4" and m.discard_size == 1
    shuffles = [e for e in m.actions if str(e).startswith("shuffle")]
    assert len(shuffles) >= 2  # the deal's and the start card's (a chance outcome)
    assert len(shuffles[1].cards) == 108 - 21
    assert any(e.kind == "reshuffle" for e in m.events)
    again = Match.replay(m.rules, m.actions)
    assert again.top == m.top and again.draw_pile == m.draw_pile
    check_conservation(m)


# -- C6: action cards ------------------------------------------------------------------

def test_c6_draw2_the_next_seat_draws_2_and_loses_its_turn():
    m = dealt([["R+2"] + filler(0, "G")[:6], filler(1, "B"), filler(2, "Y")], "R5", dealer=2)
    m.apply("play R+2")
    assert m.to_act == 1 and m.phase == "volley" and m.pending_draw == 2
    assert texts(m.legal_actions()) == ["draw"]  # stacking off
    m.apply("draw")
    assert len(m.hand(1)) == 9 and m.to_act == 2


def test_c6_a_drawn_draw2_reads_draws_2_not_a_volley():
    from engine.events import describe
    m = dealt([["R+2"] + filler(0, "G")[:6], filler(1, "B"), filler(2, "Y")], "R5", dealer=2)
    m.apply("play R+2")
    text = describe(m.apply("draw")[-1], ("A", "B", "C"))
    assert text.startswith("B draws 2 for the Draw 2") and "volley" not in text


def test_c6_with_stacking_a_drawn_draw2_is_still_a_volley():
    from engine.events import describe
    m = dealt([filler(0, "G"), ["R+2"] + filler(1, "B")[:6], filler(2, "Y")], "R5",
              stacking=True)
    m.apply("play R+2")
    assert "takes the volley" in describe(m.apply("draw")[-1], ("A", "B", "C"))


def test_c6_stacking_on_a_draw2_passes_the_total_to_the_next_seat():
    m = dealt([filler(0, "G"), ["R+2"] + filler(1, "B")[:6], ["B+2"] + filler(2, "Y")[:6]],
              "R5", stacking=True)
    m.apply("play R+2")
    assert "play B+2" in m.legal_actions() and "draw" in m.legal_actions()
    m.apply("play B+2")
    assert m.to_act == 0 and m.pending_draw == 4
    m.apply("draw")
    assert len(m.hand(0)) == 11 and m.to_act == 1


def test_c6_skip_the_next_seat_loses_its_turn():
    m = dealt([filler(0, "G"), ["RS"] + filler(1, "B")[:6], filler(2, "Y")], "R5")
    m.apply("play RS")
    assert m.to_act == 0


def test_c6_reverse_with_four_seats_turns_play_around():
    hands = [filler(0, "G"), ["RR"] + filler(1, "B")[:6], filler(2, "Y"), filler(3, "G")]
    m = dealt(hands, "R5", dealer=0)
    assert m.to_act == 1
    m.apply("play RR")
    assert m.direction == -1 and m.to_act == 0
    m.apply("draw")
    assert m.to_act == 3 or m.phase == "drawn"


def test_c6_reverse_with_two_seats_acts_as_a_skip():
    m = dealt([filler(0, "G"), ["RR"] + filler(1, "B")[:6]], "R5", dealer=0)
    assert m.to_act == 1
    m.apply("play RR")
    assert m.to_act == 1 and m.direction == -1


def test_c6_wild_draw_4_the_next_seat_draws_4_and_loses_its_turn():
    m = dealt([["W+4"] + filler(0, "G")[:6], filler(1, "B"), filler(2, "Y")], "Y5", dealer=2)
    m.apply("play W+4 B")
    assert m.to_act == 1 and texts(m.legal_actions()) == ["draw", "challenge"]
    m.apply("draw")
    assert len(m.hand(1)) == 11 and m.to_act == 2 and m.color == "B"


# -- C8: the challenge ------------------------------------------------------------------

def test_c8_a_guilty_wild_draw_4_its_player_draws_4_the_challenger_plays():
    m = dealt([["W+4", "R7"] + filler(0, "G")[:5], filler(1, "B"), filler(2, "Y")], "R5",
              dealer=2)
    m.apply("play W+4 B")  # seat 0 held R7 of the active colour: guilty
    events = m.apply("challenge")
    assert next(e for e in events if e.kind == "challenge").guilty is True
    assert len(m.hand(0)) == 10 and len(m.hand(1)) == 7 and m.to_act == 1
    reveal = next(e for e in m.events if e.kind == "reveal")
    assert reveal.private == 1
    assert m.view(2).events[m.events.index(reveal)].cards == ()  # only the challenger sees
    assert m.view(1).events[m.events.index(reveal)].cards == reveal.cards


def test_c8_an_innocent_wild_draw_4_the_challenger_draws_6_and_loses_its_turn():
    m = dealt([["W+4"] + filler(0, "G")[:6], filler(1, "B"), filler(2, "Y")], "R5", dealer=2)
    m.apply("play W+4 B")
    m.apply("challenge")
    assert len(m.hand(1)) == 13 and m.to_act == 2 and m.color == "B"


# -- C9: UNO ----------------------------------------------------------------------------

def _three(hands, to_act=0, top="R5", **kw) -> Match:
    return Match.from_position(classic(3, target=10_000), hands=hands,
                               draw_pile=[f"Y{i}" for i in range(1, 10)], discard_pile=[top],
                               to_act=to_act, phase="turn", colour=top[0], p1=0, dealer=2, **kw)


def test_c9_the_next_seat_may_catch_a_forgotten_uno_before_its_move():
    m = _three([["R1", "G2"], ["B1", "B2"], ["G1", "G3"]])
    m.apply("play R1")  # no "uno"
    assert m.to_act == 1 and "catch" in m.legal_actions()
    m.apply("catch")
    assert len(m.hand(0)) == 3 and m.to_act == 1 and "catch" not in m.legal_actions()


def test_c9_the_catch_window_closes_with_the_next_seats_other_move():
    m = _three([["R1", "G2"], ["B1", "B2"], ["G1", "G3"]])
    m.apply("play R1")
    m.apply("draw")
    if m.phase == "drawn":
        m.apply("pass")
    assert m.to_act == 2 and "catch" not in m.legal_actions()


def test_c9_after_a_skip_the_seat_after_the_skipped_one_may_catch():
    m = _three([["RS", "G2"], ["B1", "B2"], ["G1", "G3"]])
    m.apply("play RS")
    assert m.to_act == 2 and "catch" in m.legal_actions()


def test_c9_a_seat_facing_a_draw2_may_catch_first():
    m = _three([["R+2", "G2"], ["B1", "B2"], ["G1", "G3"]])
    m.apply("play R+2")
    assert m.to_act == 1 and texts(m.legal_actions()) == ["draw", "catch"]


# -- C10: scoring and the end --------------------------------------------------------------

def test_c10_winner_takes_the_points_of_every_other_hand():
    m = Match.from_position(classic(3), hands=[["R1"], ["B1", "W"], ["GS", "Y9"]],
                            draw_pile=[f"Y{i}" for i in range(1, 8)], discard_pile=["R5"],
                            to_act=0, phase="turn", colour="R", p1=0, dealer=2)
    m.apply("play R1")
    assert m.rounds[0] == (0, (80, 0, 0)) and m.scores == (80, 0, 0) and not m.over


def test_c10_a_last_draw2_is_drawn_first_and_counts():
    m = Match.from_position(classic(3), hands=[["R+2"], ["B1"], ["G1"]],
                            draw_pile=["Y9", "Y8", "Y1"], discard_pile=["R5"],
                            to_act=0, phase="turn", colour="R", p1=0, dealer=2)
    m.apply("play R+2")
    assert m.rounds[0] == (0, (1 + 9 + 8 + 1, 0, 0))


def test_c10_reaching_the_target_wins_the_match():
    m = Match.from_position(classic(3, target=50), hands=[["R1"], ["W"], ["G1"]],
                            draw_pile=["Y9"], discard_pile=["R5"], to_act=0, phase="turn",
                            colour="R", p1=0, dealer=2)
    m.apply("play R1")
    assert m.over and m.winner == 0 and m.scores == (51, 0, 0)


def test_c10_own_hand_every_seat_scores_its_hand_lowest_total_wins():
    m = Match.from_position(classic(3, scoring="own_hand", target=50),
                            hands=[["R1"], ["W"], ["G1", "G2"]], draw_pile=["Y9"],
                            discard_pile=["R5"], to_act=0, phase="turn", colour="R", p1=0,
                            dealer=2, scores=(10, 0, 5))
    m.apply("play R1")
    assert m.rounds[0][1] == (0, 50, 3) and m.scores == (10, 50, 8)
    assert m.over and m.winner == 2


def test_c10_own_hand_equal_lowest_totals_share_the_win():
    m = Match.from_position(classic(3, scoring="own_hand", target=50),
                            hands=[["R1"], ["W"], ["G1", "G2"]], draw_pile=["Y9"],
                            discard_pile=["R5"], to_act=0, phase="turn", colour="R", p1=0,
                            dealer=2, scores=(8, 0, 5))
    m.apply("play R1")
    assert m.scores == (8, 50, 8) and m.over and m.winner is None


# -- C5: refill and the blocked round ------------------------------------------------------

def test_c5_an_empty_draw_pile_is_refilled_by_a_recorded_shuffle():
    m = dealt(H3, "R5", dealer=2)
    rules = m.rules
    # play until a refill happens (random but seeded), then check it was recorded
    import random
    rng = random.Random(3)
    while not any(e.kind == "refill" for e in m.events):
        assert not m.over
        m.apply(rng.choice(m.legal_actions()))
    refill = next(e for e in m.events if e.kind == "refill")
    assert refill.how == "shuffle"
    assert sum(1 for e in m.actions if str(e).startswith("shuffle")) >= 2
    again = Match.replay(rules, m.actions)
    assert again.draw_pile == m.draw_pile and again.hand_sizes == m.hand_sizes


def test_c5_when_every_seat_passes_with_nothing_to_draw_the_round_is_blocked():
    m = Match.from_position(classic(3), hands=[["G1", "G2"], ["B1", "B2"], ["Y1", "Y2"]],
                            draw_pile=[], discard_pile=["R5"], to_act=0, phase="turn",
                            colour="R", p1=0, dealer=2)
    for _ in (0, 1):  # each seat in turn
        assert texts(m.legal_actions()) == ["pass"]
        m.apply("pass")
    assert m.round == 1
    m.apply("pass")
    assert m.round == 2 and m.rounds[0] == (None, (0, 0, 0))  # winner_takes: nothing


# -- C11 ---------------------------------------------------------------------------------

def test_c11_a_view_shows_counts_dealer_direction_and_no_other_hand():
    m = dealt([filler(0, "G"), ["RR"] + filler(1, "B")[:6], filler(2, "Y"), filler(3, "G")],
              "R5", dealer=0)
    m.apply("play RR")
    v = m.view(2)
    assert (v.hand_sizes, v.dealer, v.direction) == ((7, 6, 7, 7), 0, -1)
    assert v.hand == tuple(m.hand(2)) and v.legal_actions == ()
    for e in v.events:
        if e.private is not None and e.private != 2:
            assert e.cards == ()


def test_c6_c7_illegal_moves_name_the_classic_rule():
    m = dealt(H3, "R+2", dealer=0)
    with pytest.raises(IllegalAction, match="C7: the start Draw 2 is simply drawn"):
        m.apply("play G2")
    with pytest.raises(IllegalAction, match="C3"):
        m.apply("keep")
    m = dealt([filler(0, "G"), ["R+2"] + filler(1, "B")[:6], ["B+2"] + filler(2, "Y")[:6]], "R5")
    m.apply("play R+2")
    with pytest.raises(IllegalAction, match="C6: a Draw 2 is drawn"):
        m.apply("play B+2")
    with pytest.raises(IllegalAction, match="C6: .*no dump"):
        m.apply("nodump")


@pytest.mark.parametrize("seats", [3, 10])
def test_a_classic_match_saves_loads_and_replays_through_the_cursor(seats):
    import random

    from engine.replay import ALL, ReplayCursor
    from engine.savefile import Encoder, Footer, Header, load

    m = Match.new(classic(seats, target=60), seed=seats)
    rng = random.Random(seats)
    while not m.over:
        m.apply(rng.choice(m.legal_actions()))
    header = Header("t-c", m.rules, m.seed, tuple((f"P{s}", "bot:random") for s in range(seats)),
                    "2026-11-30T00:00:00+00:00", "test")
    enc = Encoder()
    data = enc.start(header) + enc.entries(m.actions) + enc.footer(
        Footer(m.winner, m.scores, m.round))
    decoded, again = load(data)
    assert decoded.entries == m.actions and isinstance(again, ClassicMatch)
    assert (again.scores, again.winner, again.rounds) == (m.scores, m.winner, m.rounds)
    cursor = ReplayCursor(m.rules, m.actions, m.seed, every=50)
    for pos in (0, cursor.count // 2, cursor.count, 7):
        here = cursor.goto(pos)
        assert isinstance(here, ClassicMatch) and len(cursor.view(ALL).hands) == seats
        assert cursor.view(seats - 1).hand_sizes == here.hand_sizes
