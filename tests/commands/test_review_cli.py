"""``unoduo review`` (#25): the JSON's shape, bad arguments, the cache beside the save,
and a match still being played shows only what its human players saw."""

from __future__ import annotations

import json

import pytest

from engine import Rules
from engine.actions import parse_entry
from tests.engine.helpers import random_match
from unoduo_tui.cli import main
from unoduo_tui.review import cache
from unoduo_tui.review.run import run_review
from unoduo_tui.store import Seat, Store

VS_BOT = (Seat("Ann", "human"), Seat("Rando", "bot:random"))


@pytest.fixture(autouse=True)
def _small_budget(monkeypatch):
    """Fewer rollouts per decision: these tests check the plumbing, not the values."""
    import engine.review

    monkeypatch.setattr(engine.review, "BUDGET", 48)


def _saved(tmp_path, limit=None, seed=3, seats=VS_BOT):
    store = Store(tmp_path)
    m = random_match(seed, Rules(target=30), limit)
    with store.new_match(m, seats) as handle:
        ref = handle.id
    return store, ref, m


def _json(tmp_path, capsys, *args) -> dict:
    assert main(["--data-dir", str(tmp_path), "review", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_json_is_the_issues_shape(tmp_path, capsys):
    store, ref, m = _saved(tmp_path)
    out = _json(tmp_path, capsys, ref)
    assert list(out) == ["match", "seats", "decisions"] and out["match"] == ref
    assert [list(s) for s in out["seats"]] == [["seat", "name", "decisions", "accuracy",
                                               "counts"]] * 2
    assert [s["name"] for s in out["seats"]] == ["Ann", "Rando"]
    for s in out["seats"]:
        assert list(s["counts"]) == ["best", "good", "inaccuracy", "mistake", "blunder",
                                     "forced"]
        assert sum(s["counts"].values()) == s["decisions"]
    log = m.actions
    assert out["decisions"]
    for d in out["decisions"]:
        assert list(d) == ["index", "seat", "round", "played", "best", "label", "loss",
                           "win_before", "win_after"]
        entry = parse_entry(log[d["index"]])
        assert not entry.is_chance and str(entry) == d["played"]  # its place in the log
        assert 0 <= d["win_after"] <= d["win_before"] <= 100
        assert d["loss"] == pytest.approx(d["win_before"] - d["win_after"], abs=0.11)
    assert [d["index"] for d in out["decisions"]] == sorted(d["index"] for d in out["decisions"])


def test_the_text_summary_names_each_seat_and_the_thresholds(tmp_path, capsys):
    store, ref, _ = _saved(tmp_path)
    assert main(["--data-dir", str(tmp_path), "review", ref, "--seat", "2"]) == 0
    text = capsys.readouterr().out
    assert "Seat 2 Rando: accuracy " in text and "Seat 1 Ann" not in text
    assert "best < 1, good < 3, inaccuracy < 6, mistake < 12, blunder beyond" in text
    assert "win chance: " in text


@pytest.mark.parametrize("args,said", [
    (["--seat", "3"], "no seat 3"), (["--seat", "0"], "no seat 0"),
    (["--seat", "two"], "invalid int value"), ([], "no saved match")])
def test_a_bad_argument_is_one_line_and_exit_2(tmp_path, capsys, args, said):
    store, ref, _ = _saved(tmp_path, limit=20)
    target = "nosuchmatch" if not args else ref
    with pytest.raises(SystemExit) if args == ["--seat", "two"] else _nothing():
        code = main(["--data-dir", str(tmp_path), "review", target, *args])
        assert code == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_the_cache_is_used_and_refused_once_the_save_changed(tmp_path, monkeypatch):
    store, ref, m = _saved(tmp_path, limit=50)
    loaded = store.open(ref, read_only=True)
    first = run_review(loaded, (0,), jobs=1)
    assert cache.cache_path(loaded.path, False).is_file()
    calls = []
    import engine.review as review_mod
    real = review_mod.Reviewer.decision
    monkeypatch.setattr(review_mod.Reviewer, "decision",
                        lambda self, p: calls.append(p) or real(self, p))
    assert run_review(store.open(ref, read_only=True), (0,), jobs=1) == first
    assert calls == []  # from the cache
    # the match is played on: its save's bytes change, the cache is refused
    live = store.open(ref)
    from engine import bots
    bot = bots.make("random", seed=9)
    live.match.apply(bot.choose(live.match.view(live.match.to_act)))
    live.handle.sync(live.match)
    live.handle.close()
    again = run_review(store.open(ref, read_only=True), (0,), jobs=1)
    assert calls  # computed again
    assert len(again.decisions) >= len(first.decisions)


def test_a_review_is_not_cached_when_its_save_changed_meanwhile(tmp_path):
    store, ref, _ = _saved(tmp_path, limit=30)
    loaded = store.open(ref, read_only=True)
    result = run_review(loaded, (0,), jobs=1, use_cache=False)
    stale = cache.Key("0" * 64, (0,), False, 48)
    assert cache.save(loaded.path, stale, result) is False
    assert not cache.cache_path(loaded.path, False).exists()


def test_an_unfinished_match_shows_only_its_human_seats_decisions(tmp_path, capsys):
    store, ref, m = _saved(tmp_path, limit=60)
    assert not m.over
    out = _json(tmp_path, capsys, ref)
    assert [s["seat"] for s in out["seats"]] == [1]
    assert out["decisions"] and {d["seat"] for d in out["decisions"]} == {1}
    for args, said in ((["--hindsight"], "--hindsight would show"),
                       (["--seat", "2"], "seat 2's decisions are hidden")):
        assert main(["--data-dir", str(tmp_path), "review", ref, *args]) == 2
        assert said in capsys.readouterr().err


def test_two_processes_review_as_one_does(tmp_path):
    store, ref, _ = _saved(tmp_path, limit=70)
    loaded = store.open(ref, read_only=True)
    one = run_review(loaded, (0, 1), jobs=1, use_cache=False)
    two = run_review(loaded, (0, 1), jobs=2, use_cache=False)
    assert one == two


def test_a_cache_of_another_format_or_calibration_is_refused(tmp_path):
    """The values changed (calibrated, the draft reviewed): an older cache is not used."""
    store, ref, _ = _saved(tmp_path, limit=30)
    loaded = store.open(ref, read_only=True)
    result = run_review(loaded, (0,), jobs=1)
    path = cache.cache_path(loaded.path, False)
    data = json.loads(path.read_text(encoding="utf-8"))
    key = cache.Key(data["save_sha256"], (0,), False, data["budget"], data["calibration"])
    assert cache.load(loaded.path, key, 2) == result
    for field, old in (("format", 1), ("calibration", "an older fit")):
        stale = dict(data, **{field: old})
        path.write_text(json.dumps(stale), encoding="utf-8")
        assert cache.load(loaded.path, key, 2) is None, field


def test_a_cache_of_more_seats_serves_one_seat_and_is_kept(tmp_path, monkeypatch):
    """The viewer reviews every seat, ``--seat N`` one: the one is read from the all's
    cache, and reviewing one seat does not replace a cache of all of them."""
    store, ref, _ = _saved(tmp_path, limit=40)
    both = run_review(store.open(ref, read_only=True), (0, 1), jobs=1)
    save = store.open(ref, read_only=True).path
    path = cache.cache_path(save, False)
    written = path.read_bytes()
    import engine.review as review_mod
    calls = []
    real = review_mod.Reviewer.decision
    monkeypatch.setattr(review_mod.Reviewer, "decision",
                        lambda self, p: calls.append(p) or real(self, p))
    one = run_review(store.open(ref, read_only=True), (1,), jobs=1)
    assert calls == []  # from the cache of both seats
    assert one.decisions == tuple(d for d in both.decisions if d.seat == 1)
    assert one.seats[1] == both.seats[1] and one.seats[0].decisions == 0
    assert path.read_bytes() == written  # read, not rewritten
    key = cache.Key(cache.content_hash(save), (1,), False, 48, json.loads(written)["calibration"])
    assert cache.save(save, key, one) is True
    assert path.read_bytes() == written  # the cache of both seats stays


def test_the_text_curve_ends_at_the_last_decision():
    from unoduo_tui.commands.review import _curve

    assert _curve([0.0, 50.0, 100.0], 60) == "▁▄█"  # fewer values than cells: each
    values = [0.0] * 99 + [100.0]
    assert len(_curve(values, 60)) == 60 and _curve(values, 60).endswith("█")


def test_review_processes_ended_early_do_not_run_the_apps_signal_handlers(tmp_path):
    """The app's SIGTERM handler (unoduo_tui.shutdown) resets the terminal: a review's
    worker processes, forked from the app and ended when the review is stopped, must
    not run it (they did: 3 s after `a` stopped a review, the replay's screen was gone)."""
    import os
    import signal

    from unoduo_tui.review.run import Cancelled

    marker = tmp_path / "handled"

    def apps_handler(sig, frame):  # what a worker would do with the app's handler
        if os.getpid() != parent:
            marker.write_text(str(os.getpid()))
            os._exit(0)

    parent = os.getpid()
    store, ref, _ = _saved(tmp_path, limit=70)
    previous = signal.signal(signal.SIGTERM, apps_handler)
    seen: list = []
    try:
        with pytest.raises(Cancelled):
            run_review(store.open(ref, read_only=True), (0, 1), jobs=2, use_cache=False,
                       progress=lambda done, total, d: seen.append(d),
                       cancelled=lambda: len(seen) > 2)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert not marker.exists()


def test_a_failure_in_a_review_process_is_told_not_printed(tmp_path, monkeypatch, capfd):
    """A worker's exception comes back as the parent's error (the viewer says it), and
    the worker writes nothing on the screen (a traceback would land on the app's)."""
    import engine.review as review_mod

    def broken(self, p):
        raise ValueError("no world can be sampled here")

    monkeypatch.setattr(review_mod.Reviewer, "decision", broken)  # forked: the workers' too
    store, ref, _ = _saved(tmp_path, limit=40)
    with pytest.raises(RuntimeError, match="^no world can be sampled here$"):
        run_review(store.open(ref, read_only=True), (0, 1), jobs=2, use_cache=False)
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err


def test_a_review_that_cannot_go_on_is_one_line_and_exit_1(tmp_path, monkeypatch, capsys):
    import engine.review as review_mod

    def broken(self, p):
        raise ValueError("no world can be sampled for seat 1 here")

    monkeypatch.setattr(review_mod.Reviewer, "decision", broken)
    store, ref, _ = _saved(tmp_path, limit=40)
    assert main(["--data-dir", str(tmp_path), "review", ref]) == 1
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        "unoduo: the review stopped: no world can be sampled for seat 1 here"]
