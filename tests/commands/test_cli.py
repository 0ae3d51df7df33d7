"""The ``unoduo`` command and the rule book shipped in the package."""

import re
import subprocess
import sys

from unoduo_tui.cli import main
from unoduo_tui.text import rule_book


def test_rule_book_ships_every_clause_id():
    text = rule_book()
    ids = set(re.findall(r"\*\*([DSTAUEC]\d+)\b", text))
    expected = ({f"D{i}" for i in range(1, 4)} | {f"S{i}" for i in range(1, 12)}
                | {f"T{i}" for i in range(1, 6)} | {f"A{i}" for i in range(1, 7)}
                | {f"U{i}" for i in range(1, 4)} | {f"E{i}" for i in range(1, 5)}
                | {f"C{i}" for i in range(1, 6)})
    assert expected <= ids


def test_unoduo_rules_prints_the_rule_book(capsys):
    assert main(["rules"]) == 0
    assert "UNO Duo" in capsys.readouterr().out


def test_unoduo_runs_as_a_command():
    out = subprocess.run([sys.executable, "-m", "unoduo_tui.cli", "--version"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.startswith("unoduo ")


def test_data_dir_works_before_the_command_as_after_it(tmp_path, capsys):
    from tests.tui.test_replay import save
    from unoduo_tui.store import Store, short_id

    ref = save(Store(tmp_path))
    for argv in (["--data-dir", str(tmp_path), "list"], ["list", "--data-dir", str(tmp_path)]):
        assert main(argv) == 0
        assert short_id(ref) in capsys.readouterr().out


def test_unoduo_list_spoiler_free_hides_finished_results(tmp_path, capsys):
    from tests.tui.test_replay import save
    from unoduo_tui.store import Store, short_id

    store = Store(tmp_path)
    ref = save(store)
    final = store.open(ref, read_only=True).match
    assert main(["list", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    winner = next(line for line in out.splitlines() if line.startswith(short_id(ref)))
    assert winner.rstrip().endswith(" won") and len(winner) <= 80
    assert "–".join(map(str, final.scores)) in out
    assert main(["list", "--spoiler-free", "--data-dir", str(tmp_path)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith(short_id(ref)))
    assert "won" not in line and "–".join(map(str, final.scores)) not in line
    assert line.rstrip().endswith("finished")


async def test_unoduo_replay_spoiler_free_opens_the_viewer_at_the_start(tmp_path, monkeypatch):
    import unoduo_tui.app
    import unoduo_tui.cli
    import unoduo_tui.commands.common
    from tests.tui.conftest import SIZE, make_app
    from tests.tui.test_replay import save, spoiler_free_text_is_clean
    from unoduo_tui.screens.replay import ReplayScreen
    from unoduo_tui.store import Store

    store = Store(tmp_path)
    ref = save(store)
    final = store.open(ref, read_only=True).match
    started = {}

    def run_app(store_, start, **options):
        started.update(options, start=start, data_dir=store_.data_dir)
        return 0

    monkeypatch.setattr(unoduo_tui.commands.common, "terminal_problem", lambda: None)
    monkeypatch.setattr(unoduo_tui.app, "run_app", run_app)
    assert main(["replay", "--spoiler-free", ref, "--data-dir", str(tmp_path)]) == 0
    assert started["start"] == "replay" and started["data_dir"] == tmp_path
    app = make_app(store, start="replay", replay=started["replay"],
                   spoiler_free=started["spoiler_free"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.spoiler_free and screen.cursor.position == 0
        spoiler_free_text_is_clean(app, final, screen.cursor.count)
    assert main(["replay", ref, "--data-dir", str(tmp_path)]) == 0  # without: at the end
    app = make_app(store, start="replay", replay=started["replay"],
                   spoiler_free=started["spoiler_free"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.screen.spoiler_free and app.screen.cursor.match.over
