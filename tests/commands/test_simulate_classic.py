"""unoduo simulate for classic UNO: --preset classic --seats N, a level per seat."""

import json

from unoduo_tui.cli import main


def test_simulate_plays_classic_at_three_seats_and_saves_verifiable_files(tmp_path, capsys):
    folder = tmp_path / "sims"
    assert main(["simulate", "--preset", "classic", "--seats", "3", "--bots",
                 "normal,easy,random", "--matches", "3", "--seed", "2", "--target", "60",
                 "--json", "--save", str(folder), "--data-dir", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seats"] == 3 and out["matches"] == 3 and out["rules"]["preset"] == "classic"
    assert set(out["bots"]) == {"normal", "easy", "random"}
    files = sorted(folder.iterdir())
    assert len([f for f in files if f.suffix == ".unoduo"]) == 3
    for f in files:
        if f.suffix == ".unoduo":
            assert main(["verify", str(f), "--data-dir", str(tmp_path)]) == 0


def test_simulate_takes_one_level_for_every_seat(capsys):
    assert main(["simulate", "--preset", "classic", "--seats", "4", "--bots", "easy",
                 "--matches", "2", "--target", "40"]) == 0
    assert "easy#4" in capsys.readouterr().out


def test_simulate_refuses_seats_the_preset_does_not_have(capsys):
    assert main(["simulate", "--seats", "3"]) == 2
    assert "duo is for 2 players" in capsys.readouterr().err
    assert main(["simulate", "--preset", "classic", "--seats", "3", "--bots", "easy,normal"]) == 2
    assert "3 of" in capsys.readouterr().err


def test_a_classic_match_reads_as_a_transcript(tmp_path, capsys):
    folder = tmp_path / "sims"
    assert main(["simulate", "--preset", "classic", "--seats", "4", "--bots", "normal",
                 "--matches", "1", "--seed", "3", "--target", "40", "--save", str(folder),
                 "--data-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    path = next(f for f in folder.iterdir() if f.suffix == ".unoduo")
    assert main(["transcript", str(path), "--data-dir", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Classic UNO — match transcript")
    assert "deals." in text and text.count("       Dealt: ") >= 4 and "Draft:" not in text
