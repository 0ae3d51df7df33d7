"""The game review (#25, engine/review.py): labels, accuracy, and what it may read."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from engine import Card, Match, Rules, bots
from engine.actions import Action, parse_entry
from engine.review import (FLAGGED, THRESHOLDS, Decision, Position, Reviewer, game_accuracy,
                           label_of,
                           move_accuracy, positions, review, summarise)
from tests.bench.review import level_accuracy
from engine.rng import Rng
from engine.view import PlayerView


def _played(seed: int, rules: Rules | None = None, levels=("normal", "normal")) -> Match:
    rules = rules or Rules()
    m = Match.new(rules, seed=seed)
    players = [bots.make(level, seed=seed + s) for s, level in enumerate(levels)]
    while not m.over:
        seat = m.to_act
        m.apply(players[seat].choose(m.view(seat)))
    return m


def test_thresholds_are_stated_and_label_every_loss():
    assert [name for name, _ in THRESHOLDS] == ["best", "good", "inaccuracy", "mistake",
                                               "blunder"]
    assert label_of(0.0) == "best" and label_of(2.0) == "good"
    assert label_of(5.0) == "inaccuracy" and label_of(11.0) == "mistake"
    assert label_of(12.0) == "blunder" and label_of(80.0) == "blunder"


def test_a_forced_decision_is_never_flagged():
    assert label_of(80.0, forced=True) == "forced"
    rules = Rules(target=1)
    m = _played(3, rules)
    ds = list(review(positions(rules, m.actions, m.seed), rules, budget=64))
    forced = [d for d in ds if len(d.values) == 1]
    assert forced and all(d.label == "forced" and not d.flagged and not d.reason
                          for d in forced)
    assert all(d.label != "forced" for d in ds if len(d.values) > 1)
    assert {d.label for d in ds if d.flagged} <= set(FLAGGED)


def _last_card_position(rules: Rules) -> Position:
    """A real position in which the seat to act holds one card, it is playable, and
    the opponent holds three cards or fewer."""
    for seed in range(1, 200):
        m = Match.new(rules, seed=seed)
        players = [bots.make("normal", seed=seed + s) for s in range(rules.seats)]
        step = 0
        while not m.over:
            seat = m.to_act
            view = m.view(seat)
            if (view.phase == "turn" and len(view.hand) == 1
                    and min(n for s, n in enumerate(view.hand_sizes) if s != seat) <= 3
                    and any(a.kind == "play" for a in view.legal_actions)):
                return Position(len(m.actions), step, seat, view, Action.parse("draw"))
            m.apply(players[seat].choose(view))
            step += 1
    raise AssertionError("no such position in 200 seeds")


@pytest.mark.parametrize("rules", [Rules(), Rules(preset="classic", seats=4)],
                         ids=["duo", "classic4"])
def test_passing_up_going_out_with_a_playable_last_card_is_a_blunder(rules):
    """E1/C9: playing the last card ends the round; drawing instead is a blunder."""
    p = _last_card_position(rules)
    (d,) = review([p], rules)
    assert d.best.startswith("play") and d.played == "draw"
    assert d.win_before == 100.0
    assert d.label == "blunder", d
    assert "drew with" in d.reason and "your last card" in d.reason


def _lila_move(loss: float) -> float:
    """lila's AccuracyPercent.fromWinPercents, its constants as lila writes them."""
    if loss <= 0:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * loss) + -3.166924740191411
    return min(100.0, max(0.0, raw + 1))  # + 1: "uncertainty bonus"


def test_lichess_accuracy_from_win_chances():
    assert move_accuracy(50, 50) == 100.0 and move_accuracy(40, 45) == 100.0
    assert move_accuracy(60, 40) == pytest.approx(_lila_move(20))
    assert move_accuracy(60, 40) == pytest.approx(41.0168, abs=1e-4)
    assert move_accuracy(100, 0) == 0.0
    assert game_accuracy([]) is None


def _decided(before: float, after: float, label: str = "best") -> Decision:
    return Decision(0, 0, 0, 1, "draw", "draw", label, before - after, before, after)


def test_a_seats_accuracy_is_lilas_game_accuracy():
    """lila's gameAccuracy: the mean of the volatility-weighted mean (windows of n / 10
    values, 2 to 8, the first repeated, each ending just after its decision; standard
    deviations clamped to 0.5–12) and the harmonic mean (each accuracy at least 1)."""
    ds = [_decided(50, 50), _decided(60, 40), _decided(30, 0), _decided(99, 99, "forced")]
    a1, a2, a3 = 100.0, _lila_move(20), _lila_move(30)
    # the series 50, 60, 30, then 0 after the last: windows [50 60] [60 30] [30 0]
    weights = (5.0, 12.0, 12.0)  # standard deviations 5, 15, 15 (clamped to 12)
    weighted = (a1 * weights[0] + a2 * weights[1] + a3 * weights[2]) / sum(weights)
    harmonic = 3 / (1 / a1 + 1 / a2 + 1 / a3)
    assert game_accuracy(ds) == pytest.approx((weighted + harmonic) / 2)
    # a move of accuracy 0 counts as 1 in the harmonic mean, as lila's: not as nothing
    flat = [_decided(50, 50)] * 9 + [_decided(100, 0)]
    assert move_accuracy(100, 0) == 0.0
    harmonic = 10 / (9 / 100 + 1 / 1)
    series = [50.0] * 9 + [100.0, 0.0]  # before each, then after the last
    windows = [series[i:i + 2] for i in range(10)]  # n = 10: windows of 2
    weights = [min(12.0, max(0.5, abs(a - b) / 2)) for a, b in windows]
    weighted = sum(w * (100.0 if i < 9 else 0.0) for i, w in enumerate(weights)) / sum(weights)
    assert game_accuracy(flat) == pytest.approx((weighted + harmonic) / 2)
    assert game_accuracy([_decided(80, 80, "forced")]) is None  # forced: not counted


class _Sealed(PlayerView):
    """A seat's view that raises on any field a view keeps hidden (every other hand,
    the pile's order, the seed) — the names :class:`~engine.replay.OmniscientView`
    shows."""

    __slots__ = ()
    HIDDEN = frozenset({"hands", "draw_pile", "discard_pile", "seed", "match"})

    def __getattribute__(self, name: str):
        if name in _Sealed.HIDDEN:
            raise AssertionError(f"the review read the hidden field {name!r}")
        return super().__getattribute__(name)


def _sealed(view: PlayerView) -> _Sealed:
    """``view`` through plain data (what a remote seat receives) and sealed."""
    plain = PlayerView.from_dict(view.to_dict())
    out = object.__new__(_Sealed)
    for name in PlayerView.__slots__:
        object.__setattr__(out, name, object.__getattribute__(plain, name))
    return out


def _no_world():
    raise AssertionError("the review asked for the real position without --hindsight")


@pytest.mark.parametrize("rules", [Rules(target=1), Rules(preset="classic", seats=3,
                                                          target=1)],
                         ids=["duo", "classic3"])
def test_the_review_reads_no_hidden_card_unless_hindsight(rules):
    m = _played(11, rules, ("normal",) * rules.seats)
    real = list(positions(rules, m.actions, m.seed, hindsight=True))
    sealed = [Position(p.index, p.step, p.seat, _sealed(p.view), p.played, _no_world)
              for p in real]
    plain = list(review(sealed, rules, budget=48))
    assert plain == list(review(real, rules, budget=48))  # the hidden cards changed nothing
    with pytest.raises(AssertionError, match="without --hindsight"):
        list(review(sealed, rules, budget=48, hindsight=True))
    hindsight = list(review(real, rules, budget=48, hindsight=True))
    assert [d.index for d in hindsight] == [d.index for d in plain]


def test_positions_of_some_seats_only_show_those_seats():
    rules = Rules(target=1)
    m = _played(5, rules)
    ps = list(positions(rules, m.actions, m.seed, seats=[1]))
    assert ps and {p.seat for p in ps} == {1} and {p.view.seat for p in ps} == {1}
    assert all(p.world is None for p in ps)
    logged = m.actions
    assert all(logged[p.index] == p.played for p in ps)


def test_summary_counts_worst_three_and_curves():
    rules = Rules(target=1)
    m = _played(7, rules, ("random", "normal"))
    r = summarise(review(positions(rules, m.actions, m.seed), rules, budget=64), 2)
    for s in r.seats:
        assert sum(s.counts.values()) == s.decisions
        assert all(d.flagged and d.seat == s.seat for d in s.worst)
        assert [d.loss for d in s.worst] == sorted((d.loss for d in s.worst), reverse=True)
        assert len(r.curves[s.seat]) == len(r.decisions)
    assert all(abs(a + b - 100.0) < 1e-9 for a, b in zip(*r.curves))  # two seats
    assert all(d.loss == pytest.approx(d.win_before - d.win_after) for d in r.decisions)


def test_random_plays_far_less_accurately_than_hard_and_easy_normal_hard_in_order():
    """Over seeded arena matches (what ``unoduo simulate`` plays) against normal bots —
    12 of them, as ``python -m tests.bench.review levels --matches 12 --target 1
    --seed 2`` measures (6 at a budget of 160 put easy 1 point above normal: the two
    are 1–2 points apart, within the noise of so few decisions)."""
    rules = Rules(target=1)
    acc = {level: level_accuracy(level, 12, 2, rules, budget=240)
           for level in ("random", "easy", "normal", "hard")}
    assert acc["random"] < acc["hard"] - 5, acc
    assert acc["easy"] < acc["normal"] < acc["hard"], acc


def test_s3_draft_slots_are_what_the_drafting_seat_saw_of_the_real_deck():
    """S3: a seat sees its own draws and every card turned up, never the other's keeps."""
    from engine.review_draft import draft_slots

    rules = Rules(target=1)
    m = _played(13, rules)
    shuffle = next(e for e in map(parse_entry, m.actions) if e.is_chance
                   and e.kind == "shuffle")  # round 1's, after the cuts
    deck = list(shuffle.cards)
    drafts = [p for p in positions(rules, m.actions, m.seed) if p.view.phase == "draft"]
    assert len(drafts) == 14
    for p in drafts:
        slots, made = draft_slots(p.view)
        assert len(made) == p.step and slots[-1] == p.view.hand[-1]
        assert all(c is None or c == deck[i] for i, c in enumerate(slots))
        mine = [c for c in slots if c is not None]
        assert len(mine) >= len(p.view.hand)
        other = sum(1 for c in slots if c is None)
        assert other == p.view.hand_sizes[1 - p.seat]  # the other seat's cards: unseen


def test_s3_draft_worlds_agree_with_the_view_and_keep_or_reject_is_reviewed():
    from engine.review_draft import draft_sampler
    from engine.rng import Rng

    rules = Rules(target=1)
    m = _played(13, rules)
    drafts = [p for p in positions(rules, m.actions, m.seed) if p.view.phase == "draft"]
    for p in drafts[::3]:
        sample = draft_sampler(_sealed(p.view), Rng(1))
        for _ in range(4):
            w = sample()
            wv = w.view(p.seat)
            assert (wv.hand, wv.hand_sizes, wv.discard_size, wv.p1, wv.phase) == (
                p.view.hand, p.view.hand_sizes, p.view.discard_size, p.view.p1, "draft")
    ds = list(review(drafts, rules, budget=64))
    assert [d.index for d in ds] == [p.index for p in drafts]
    assert all(sorted(a for a, _ in d.values) == ["keep", "reject"] for d in ds)
    for d in ds:
        if d.flagged:
            assert "in the draft" in d.reason


def test_the_uno_duo_curve_is_the_match_win_chance_classic_the_rounds():
    rules = Rules(target=60)
    m = _played(17, rules)
    assert len(m.rounds) > 1  # the curve spans rounds
    ds = list(review(positions(rules, m.actions, m.seed, seats=[0]), rules, budget=32))
    assert all(d.match_after is not None and 0 <= d.match_after <= 100 for d in ds)
    r = summarise(ds, 2)
    assert list(r.curves[0]) == [d.match_after for d in ds]
    assert [round(a + b, 9) for a, b in zip(*r.curves)] == [100.0] * len(ds)
    classic = Rules(preset="classic", seats=3, target=1)
    m = _played(17, classic, ("normal",) * 3)
    cs = list(review(list(positions(classic, m.actions, m.seed, seats=[1]))[:6], classic,
                     budget=32))
    assert all(d.match_after is None for d in cs)
    assert list(summarise(cs, 3).curves[1]) == [d.win_after for d in cs]


def test_partners_win_a_round_as_a_team():
    """H5: when a seat's partner goes out, the seat won the round too."""
    from engine.review import Reviewer

    rules = Rules(preset="classic", seats=4, teams="partners", target=1)
    m = _played(23, rules, ("normal",) * 4)
    winner = m.rounds[-1][0]
    assert winner is not None
    reviewer = Reviewer(rules)
    won = {s: reviewer.win_chance(m, m.view(s)) for s in range(4)}
    assert won == {s: 1.0 if rules.team(s) == rules.team(winner) else 0.0 for s in range(4)}
    assert sum(won.values()) == 2.0


def test_the_review_does_not_depend_on_the_matchs_seed():
    """A match in play keeps its seed from its players: the review draws its worlds
    from its own seed, so the same log gives the same review whatever the seed."""
    from unoduo_tui.review.run import review_log

    rules = Rules(target=1)
    m = _played(19, rules)
    log = [str(e) for e in m.actions]
    first = list(review_log(rules, log, m.seed, (0,), False, 48))[:10]
    other = list(review_log(rules, log, m.seed ^ 0x5EED, (0,), False, 48))[:10]
    assert first and first == other


def test_a_decision_within_the_noise_of_the_best_was_the_best():
    """``best`` is the move valued highest, or the move played when its loss is 0."""
    rules = Rules(target=1)
    m = _played(29, rules)
    ds = [d for d in review(positions(rules, m.actions, m.seed), rules, budget=48)
          if len(d.values) > 1]
    assert any(d.loss > 0 for d in ds) and any(d.loss == 0 for d in ds)
    for d in ds:
        values = dict(d.values)
        if d.loss == 0:
            assert d.best == d.played and d.win_before == d.win_after
        else:
            assert d.best != d.played and values[d.best] == max(values.values())


def test_action_words_for_the_status_line():
    from engine.review_words import action_words

    assert [action_words(a) for a in ("play R5", "play W B", "play G7 uno", "draw", "pass",
                                      "dump G2", "nodump", "colour Y", "keep", "challenge")
            ] == ["R5", "W naming blue", "G7 with UNO", "draw", "keep the drawn card",
                  "dump, G2 last", "no dump", "name yellow", "keep", "challenge"]


def test_reasons_say_what_the_log_says():
    from types import SimpleNamespace

    from engine.review_words import reason

    view = SimpleNamespace(phase="turn", hand=tuple(map(Card.parse, ("R5", "W", "G2", "B7"))))

    def said(played: str, best: str) -> str:
        d = Decision(9, 7, 0, 1, played, best, "mistake", 10.0, 50.0, 40.0)
        text = reason(d, view)  # type: ignore[arg-type]
        assert text.endswith(" (win chance 40% instead of 50%)")
        return text[:-len(" (win chance 40% instead of 50%)")]

    assert said("play W G", "play R5") == "You played W naming green; R5 was better"
    assert said("draw", "play R5") == "You drew with R5 playable; playing it left you 3 cards"
    assert said("pass", "play R5") == "You kept the drawn R5; playing it left you 3 cards"
    assert said("play W Y", "play W G") == ("You named yellow with W; green was better: "
                                            "you held 1 green card")
    assert said("colour B", "colour R") == "You named blue; red was better: you held 1 red card"
    assert said("play R5", "play R5 uno") == "You did not say UNO playing R5, down to one card"


def test_hindsight_knows_every_hand_and_leaves_the_piles_order_to_chance():
    """Hindsight's worlds hold every real hand and the real draw pile's cards in a new
    order each: its values are frequencies, not one playout's 0 or 100."""
    rules = Rules(target=1)
    m = _played(31, rules)
    ps = [p for p in positions(rules, m.actions, m.seed, hindsight=True)
          if p.view.phase == "turn" and len(p.view.legal_actions) > 1][:6]
    assert ps
    reviewer = Reviewer(rules, budget=64, hindsight=True)
    for p in ps:
        real = p.world()
        per = reviewer.values(p.view, list(p.view.legal_actions), p.world)
        assert len(per[0]) > 1
        w = p.world()
        w.shuffle_draw_pile(Rng(1))
        assert [w.hand(s) for s in range(2)] == [real.hand(s) for s in range(2)]
        assert Counter(w.draw_pile) == Counter(real.draw_pile)
        assert w.draw_pile != real.draw_pile or len(real.draw_pile) < 2
    ds = list(review(ps, rules, budget=64, hindsight=True))
    assert any(0.0 < v < 100.0 for d in ds for _, v in d.values)
    with pytest.raises(ValueError, match="only a search copy"):
        m.shuffle_draw_pile(Rng(1))  # the match itself: never
