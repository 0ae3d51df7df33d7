"""unoduo simulate with the house rules (H1–H5): the flags come from the option table."""

import json

import pytest

from unoduo_tui.cli import main


def test_simulate_takes_every_house_rule_and_saves_verifiable_files(tmp_path, capsys):
    folder = tmp_path / "sims"
    assert main(["simulate", "--preset", "classic", "--bots", "normal,easy,normal,easy",
                 "--seven-zero", "--jump-in", "--stacking", "--stack-draw4", "any",
                 "--draw-until", "--teams", "partners", "--matches", "2", "--seed", "4",
                 "--target", "60", "--json", "--save", str(folder),
                 "--data-dir", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    rules = out["rules"]
    assert (rules["seven_zero"], rules["stack_draw4"], rules["draw_until"], rules["jump_in"],
            rules["teams"], rules["stacking"]) == (True, "any", True, True, "partners", True)
    # partners share each win: normal#1 and normal#3 sit opposite, so they win together
    assert out["bots"]["normal#1"]["wins"] == out["bots"]["normal#3"]["wins"]
    saved = [f for f in folder.iterdir() if f.suffix == ".unoduo"]
    assert len(saved) == 2
    for f in saved:
        assert main(["verify", str(f), "--data-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["transcript", str(saved[0]), "--data-dir", str(tmp_path)]) == 0


@pytest.mark.parametrize("argv,message", [
    (["--jump-in"], "--jump-in is not an option of the duo preset"),
    (["--preset", "classic", "--bots", "easy,easy,easy", "--teams", "partners"],
     "4, 6, 8 or 10 players"),
    (["--preset", "classic", "--seats", "4", "--stack-draw4", "any"], "needs stacking=on"),
    (["--preset", "classic", "--stack-draw4", "all"], "'all': one of off, same, any"),
    (["--preset", "classic", "--seven-zero", "maybe"], "'maybe': one of off, on"),
])
def test_simulate_refuses_a_bad_house_rule_in_one_line(argv, message, capsys):
    try:
        status = main(["simulate", *argv])
    except SystemExit as exc:  # argparse's own refusal of a value
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") <= 3 and "Traceback" not in err


def test_export_names_the_jumper_as_the_seat_of_a_jump_in(tmp_path, capsys):
    from engine.savefile import load

    folder = tmp_path / "sims"
    assert main(["simulate", "--preset", "classic", "--bots", "normal,easy,normal,easy",
                 "--jump-in", "--seven-zero", "--matches", "1", "--seed", "3", "--target", "100",
                 "--save", str(folder), "--data-dir", str(tmp_path)]) == 0
    path = next(f for f in folder.iterdir() if f.suffix == ".unoduo")
    capsys.readouterr()
    assert main(["export", str(path), "--data-dir", str(tmp_path)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    exported = [(x["seat"], x["action"]) for x in lines if x["type"] == "decision"
                and x["action"].startswith("jump")]
    _, m = load(path.read_bytes())
    jumps = [(e.seat, "jump " + e.cards[0].text) for e in m.events if e.kind == "jump"]
    assert exported and [(s, a.split(" swap")[0].replace(" uno", "")) for s, a in exported] == jumps


def test_a_remembered_house_rule_that_does_not_fit_what_was_asked_is_dropped():
    from unoduo_tui.plan import preset_rules

    remembered = {"stack_draw4": "any", "stacking": True, "teams": "partners"}
    assert preset_rules("classic", 4, remembered).teams == "partners"
    odd = preset_rules("classic", 3, remembered)  # partners need an even table
    assert (odd.teams, odd.stack_draw4) == ("off", "any")
    off = preset_rules("classic", 4, remembered, stacking=False)  # any needs stacking
    assert (off.stacking, off.stack_draw4, off.teams) == (False, "off", "partners")
    with pytest.raises(ValueError, match="4, 6, 8 or 10 players"):
        preset_rules("classic", 3, {}, teams="partners")  # asked for: refused, not dropped
