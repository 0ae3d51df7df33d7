"""Bots (engine/bots): legal, seeded, blind to hidden cards, and each level's character."""

import gc

import pytest

from engine import Action, Match, Rules
from engine.bots import LEVELS, make, suggest, wd4_guilty_probability
from engine.bots.arena import run_arena, wilson
from engine.bots.hard import match_equity
from engine.rng import Rng

from .helpers import dealt

FAST = {"simulations": 4, "think_ms": None}  # a tiny fixed budget: deterministic and quick


def bot(level: str, seed: int = 0):
    return make(level, seed=seed, **FAST) if level == "hard" else make(level, seed=seed)


def playout(levels, seed: int, limit: int = 100_000, rules: Rules | None = None,
            each=None) -> Match:
    m = Match.new(rules or Rules(), seed=seed)
    players = [bot(levels[0], seed), bot(levels[1], seed + 1)]
    n = 0
    while not m.over and n < limit:
        seat = m.to_act
        view = m.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions, (levels[seat], view.phase, action)
        if each is not None:
            each(m, seat, action)
        m.apply(action)
        n += 1
    return m


def test_make_knows_every_level_and_refuses_others():
    assert set(LEVELS) == {"random", "easy", "normal", "hard"}
    for level in LEVELS:
        assert make(level, seed=3).name == level
    with pytest.raises(ValueError, match="unknown bot level"):
        make("grandmaster")
    assert make("hard").think_ms == 500 and make("hard", simulations=9).think_ms is None


@pytest.mark.parametrize("levels,seed", [(("easy", "normal"), 1), (("normal", "random"), 2),
                                         (("easy", "random"), 3)])
def test_bots_only_return_legal_actions_over_whole_matches(levels, seed):
    m = playout(levels, seed)
    assert m.over


def test_hard_only_returns_legal_actions():
    m = playout(("hard", "easy"), 4, limit=400)
    assert m.over or len(m.actions) > 400


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_same_seed_same_decisions(level):
    logs = []
    for _ in range(2):
        logs.append(playout((level, "normal"), 11, limit=250).actions)
    assert logs[0] == logs[1]


def test_other_seeds_change_an_easy_bots_choices():
    logs = set()
    for seed in (100, 200):
        m = Match.new(Rules(), seed=5)
        players = [make("easy", seed=seed), make("easy", seed=seed + 1)]
        for _ in range(200):
            m.apply(players[m.to_act].choose(m.view(m.to_act)))
        logs.add(tuple(m.actions))
    assert len(logs) == 2


def _reachable(root, limit: int = 200_000) -> list:
    seen, todo, out = set(), [root], []
    while todo and len(seen) < limit:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        out.append(obj)
        todo.extend(gc.get_referents(obj))
    return out


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_bot_gets_a_view_and_no_match_is_reachable(level):
    m = playout(("normal", "normal"), 6, limit=120)
    player = bot(level, 6)
    view = m.view(m.to_act)
    player.choose(view)
    assert not any(isinstance(o, Match) for o in _reachable(view))
    assert not any(isinstance(o, Match) for o in _reachable(player))


def _rehide(m: Match, seat: int, rng: Rng) -> Match:
    """The same public history, other hidden cards: the opponent's hand and the
    unknown top of the draw pile are shuffled together (the test may touch state)."""
    other = m.clone()
    opp = 1 - seat
    hand = other._hands[opp]
    known_bottom = 14  # round 1, no refill yet: the draft discards lie at the bottom (S4)
    top = other._draw[known_bottom:]
    pool = hand + top
    rng.shuffle(pool)
    hand[:] = pool[:len(hand)]
    other._draw[known_bottom:] = pool[len(hand):]
    other._masks[opp] = other._hand_mask(opp)
    other._legal = None
    return other


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_decisions_do_not_depend_on_hidden_cards(level):
    """Change the opponent's hidden cards and the draw pile's hidden order in the
    real match: with the same seed, the bot decides the same."""
    rng = Rng(9)
    checked = 0
    m = Match.new(Rules(), seed=12)
    driver = [make("normal", 1), make("normal", 2)]
    while not m.over and checked < 25:
        seat = m.to_act
        if m.phase in ("turn", "drawn", "volley", "dump") and m.round == 1 and len(m.legal_actions()) > 1:
            other = _rehide(m, seat, rng)
            assert other.hand(1 - seat) != m.hand(1 - seat) or other.draw_pile != m.draw_pile
            assert other.legal_actions() == m.legal_actions()
            first = bot(level, 77).choose(m.view(seat))
            second = bot(level, 77).choose(other.view(seat))
            assert first == second
            checked += 1
        m.apply(driver[seat].choose(m.view(seat)))
    assert checked >= 10


def test_easy_forgets_uno_sometimes_and_never_challenges():
    calls = forgot = challenged = faced = 0
    for seed in range(12):
        def each(m, seat, action):
            nonlocal calls, forgot, challenged, faced
            if action.kind in ("play", "dump") and any(a.uno for a in m.legal_actions()):
                calls += 1
                forgot += not action.uno
            if m.phase == "wd4" and "challenge" in m.legal_actions():
                faced += 1
                challenged += action.kind == "challenge"
        playout(("easy", "easy"), seed, each=each)
    assert calls > 20 and 0.15 < forgot / calls < 0.55
    assert faced > 3 and challenged == 0


def test_normal_stacks_a_volley_when_it_holds_a_draw_2():
    m = dealt(["R+2", "R5", "G7", "Y3", "B4", "B8", "Y9"],
              ["G+2", "G1", "G2", "Y1", "B1", "B2", "R9"], start="G3", first=0)
    m.apply("play G+2")  # P2 (seat 1) opens with a Draw 2 (A1)
    assert m.phase == "volley" and m.to_act == 0
    assert make("normal").choose(m.view(0)) == Action.parse("play R+2")


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_always_say_uno_and_always_catch(level):
    calls = catches = 0

    def each(m, seat, action):
        nonlocal calls, catches
        if seat == 0 and action.kind in ("play", "dump") and any(a.uno for a in m.legal_actions()):
            calls += 1
            assert action.uno
        if seat == 0 and "catch" in m.legal_actions():
            catches += 1
            assert action.kind == "catch"
    for seed in range(3 if level == "normal" else 1):
        playout((level, "easy"), seed, each=each, limit=100_000 if level == "normal" else 600)
    assert calls > 0


def test_wd4_guilty_probability_is_one_when_a_shown_card_proves_it():
    m = dealt(["R1", "R2", "G3", "Y4", "Y5", "G6", "R7"],
              ["W+4", "B1", "G1", "Y1", "W+4", "G2", "Y2"], start="B5", first=0)
    m.apply("play W+4 R")  # seat 1, holding B1 over blue: guilty (A6)
    assert m.phase == "wd4" and m.to_act == 0
    assert 0.0 < wd4_guilty_probability(m.view(0)) < 1.0  # six unseen cards: not forced
    m.apply("challenge")  # seat 0 now saw the hand: B1 G1 Y1 W+4 G2 Y2
    assert m.to_act == 0 and m.phase == "turn"
    for action in ("play R2", "play G2", "play G3"):
        m.apply(action)
    m.apply("play W+4 Y")  # over green, still holding G1
    assert m.phase == "wd4" and m.to_act == 0
    assert wd4_guilty_probability(m.view(0)) == 1.0
    assert make("normal").choose(m.view(0)) == Action.parse("challenge")
    assert make("hard", simulations=3).choose(m.view(0)) == Action.parse("challenge")


def test_wd4_guilty_probability_is_zero_after_a_dump_of_that_colour():
    m = dealt(["R1", "R2", "G3", "Y4", "Y5", "G6", "B7"],
              ["BR", "B1", "B2", "W+4", "G1", "Y1", "Y2"], start="B5", first=0)
    m.apply("play BR")
    m.apply("dump B2")  # A4: seat 1 sheds every blue card it holds
    m.apply("play B7")
    m.apply("play W+4 G")  # over blue, with no blue left: innocent, and seat 0 can know it
    assert m.phase == "wd4" and m.to_act == 0
    assert wd4_guilty_probability(m.view(0)) == 0.0
    assert make("normal").choose(m.view(0)) == Action.parse("draw")
    assert wd4_guilty_probability(m.view(1)) == 0.0  # not seat 1's decision


def test_wd4_probability_is_in_range_and_zero_off_a_wild_draw_4():
    seen = 0

    def each(m, seat, action):
        nonlocal seen
        p = wd4_guilty_probability(m.view(seat))
        assert 0.0 <= p <= 1.0
        if m.phase != "wd4":
            assert p == 0.0
        else:
            seen += 1
    for seed in range(3):
        playout(("easy", "easy"), seed, each=each)
    assert seen > 0


def test_hard_respects_a_tiny_think_ms_by_returning():
    m = playout(("normal", "normal"), 8, limit=60)
    view = m.view(m.to_act)
    for think in (1, 20):
        assert make("hard", seed=1, think_ms=think).choose(view) in view.legal_actions


def test_suggest_returns_a_legal_action():
    m = playout(("normal", "normal"), 9, limit=40)
    view = m.view(m.to_act)
    assert suggest(view, think_ms=30) in view.legal_actions


def test_match_equity_is_a_probability_that_favours_the_lower_total():
    assert match_equity(0, 0, 200) == pytest.approx(0.5, abs=1e-9)
    assert match_equity(10, 150, 200) > 0.8 > 0.2 > match_equity(150, 10, 200)
    assert match_equity(200, 150, 200) == 0.0 and match_equity(120, 210, 200) == 1.0
    for a in range(0, 200, 25):
        assert match_equity(a, 100, 200) >= match_equity(a + 25, 100, 200)


def test_wilson_interval_brackets_the_rate():
    low, high = wilson(90, 100)
    assert low < 0.9 < high and low > 0.8
    assert wilson(0, 10)[0] == 0.0


def test_arena_plays_duplicate_pairs_and_normal_beats_random():
    seen = []
    result = run_arena(("normal", "random"), matches=40, seed=3,
                       on_match=lambda m, by_seat: seen.append((m.actions[:2], by_seat)))
    d = result.to_dict()
    assert len(seen) == 40 and seen[0][1] == ("normal", "random") and seen[1][1] == ("random", "normal")
    assert seen[0][0] == seen[1][0] != seen[2][0]  # the same cut and deck, seats swapped
    assert sum(d["duplicate_pairs"].values()) == 20
    assert d["bots"]["normal"]["wins"] + d["bots"]["random"]["wins"] + d["draws"] == 40
    assert d["bots"]["normal"]["win_rate_ci95"][0] > 0.6
    assert "normal" in result.format()


def test_normal_beats_easy_in_a_small_duplicate_arena():
    """A loose CI check of the arena's target (normal beats easy in >= 90%): over 20
    duplicate pairs the 95% interval's lower end is above 80%."""
    d = run_arena(("normal", "easy"), matches=40, seed=11).to_dict()["bots"]
    assert d["normal"]["win_rate_ci95"][0] > 0.8, d


def test_arena_with_two_jobs_gives_the_same_result_as_one():
    one = run_arena(("easy", "normal"), matches=4, seed=5).to_dict()
    two = run_arena(("easy", "normal"), matches=4, seed=5, jobs=2).to_dict()
    keys = ("duplicate_pairs", "draws", "rounds", "actions")
    assert [one[k] for k in keys] == [two[k] for k in keys]
    assert [b["wins"] for b in one["bots"].values()] == [b["wins"] for b in two["bots"].values()]


def test_hard_with_a_small_fixed_budget_beats_normal():
    """A loose CI check (the real measurement is the arena's): over two duplicate
    pairs, 40 worlds a decision already concede fewer points and win at least half."""
    result = run_arena(("hard", "normal"), matches=4, seed=2, simulations=40)
    d = result.to_dict()["bots"]
    assert d["hard"]["mean_points_per_round"] < d["normal"]["mean_points_per_round"], result.format()
    assert d["hard"]["wins"] >= 2, result.format()


def test_a_belief_moved_to_another_match_starts_again():
    """One bot instance may play match after match: its belief follows the match, even
    when the new match already has more events than the old one had when last read."""
    from engine.bots import Belief

    def advance(m, steps):
        for _ in range(steps):
            m.apply(m.legal_actions()[0])
        return m

    first, second = advance(Match.new(seed=1), 40), advance(Match.new(seed=2), 120)
    moved = Belief(0, Rules())
    moved.update(first.view(0))
    moved.update(second.view(0))
    fresh = Belief(0, Rules()).update(second.view(0))
    assert (moved.unseen, moved.discard, moved.mine) == (fresh.unseen, fresh.discard, fresh.mine)


def test_hard_search_drops_an_option_clearly_worse_in_the_same_worlds():
    from engine.bots.hard import _survivors
    rng = Rng(9, 1)
    base = [rng.below(1000) / 1000 for _ in range(64)]
    values = [base, [v - 0.05 for v in base],  # worse in every world: dropped
              [v + (0.01 if k % 2 else -0.01) for k, v in enumerate(base)]]  # a tie: kept
    assert _survivors(values, [0, 1, 2]) == [0, 2]
