"""Issue #14: the new-match form for UNO Duo and classic UNO (2–10 seats) at 80×24 —
preset, seat count, a kind and a name per seat, the options of engine.rules.OPTIONS —
builds the MatchPlan it hands ``App.new_match`` and is remembered next time."""

from __future__ import annotations

import json

from textual.widgets import Input, OptionList, Select

from engine.rules import OPTIONS, PRESETS
from tests.tui.conftest import SIZE, clipped, make_app, press, screen_text, settle, notifications
from unoduo_tui.plan import HUMAN, MatchPlan, bot_levels, default_names, opponent_label
from unoduo_tui.screens.new_match import NewMatchScreen
from unoduo_tui.settings import Settings


def form_app(store):
    """The app, its ``new_match`` intercepted: the plans it is handed."""
    app = make_app(store)
    plans: list[MatchPlan] = []
    app.new_match = plans.append
    return app, plans


async def open_form(pilot) -> NewMatchScreen:
    await settle(pilot)
    await press(pilot, "n")
    assert isinstance(pilot.app.screen, NewMatchScreen)
    return pilot.app.screen


def prompts(select: Select) -> list[str]:
    """The choices a Select offers, as shown."""
    options = select.query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def choose(pilot, wid: str, prompt: str) -> None:
    """Pick ``prompt`` in the Select ``wid`` by keys: focus, open, move to it, Enter."""
    select = pilot.app.screen.query_one(f"#{wid}", Select)
    select.focus()
    await press(pilot, "enter")
    overlay = select.query_one(OptionList)
    here, there = overlay.highlighted or 0, prompts(select).index(prompt)
    await press(pilot, *["down" if there > here else "up"] * abs(there - here), "enter")
    overlay_now = select.query_one(OptionList)
    assert not select.expanded and overlay_now.highlighted == there, (wid, prompt)


def shown_rows(screen, cls: str) -> list[str]:
    return [w.id for w in screen.query(f".{cls}") if w.display]


async def test_classic_at_4_seats_by_keys_starts_the_plan_as_chosen(store):
    app, plans = form_app(store)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(pilot)
        await choose(pilot, "preset", "Classic UNO (2–10)")
        await choose(pilot, "seats", "4 players")
        assert shown_rows(form, "seat") == ["seat-0", "seat-1", "seat-2", "seat-3"]
        await choose(pilot, "kind-1", opponent_label("bot:hard"))
        await choose(pilot, "kind-2", opponent_label(HUMAN))
        form.query_one("#name-0", Input).value = "Zoe"
        form.query_one("#name-2", Input).value = "  Max\x1b[31m "
        await choose(pilot, "stacking", "on — stack a Draw 2 on a Draw 2")
        form.query_one("#target", Input).value = "300"
        form.query_one("#seed", Input).value = "42"
        assert clipped(form) == []
        await press(pilot, "ctrl+s")
    assert plans == [MatchPlan(("Zoe", "Hard bot", "Max", "Normal bot"),
                               (HUMAN, "bot:hard", HUMAN, "bot:normal"),
                               plans[0].rules, 42)]
    rules = plans[0].rules
    assert (rules.preset, rules.seats, rules.stacking, rules.target) == ("classic", 4, True, 300)
    assert rules.scoring == "winner_takes" and rules.deck == "classic108"  # classic defaults


async def test_classic_at_10_seats_fits_at_80x24_and_every_row_scrolls_into_sight(store):
    app, plans = form_app(store)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(pilot)
        await choose(pilot, "preset", "Classic UNO (2–10)")
        await choose(pilot, "seats", "10 players")
        assert len(shown_rows(form, "seat")) == 10
        assert clipped(form) == []
        for wid in ("#name-9", "#kind-9", "#scoring", "#seed"):
            widget = form.query_one(wid)
            widget.focus()
            await pilot.pause()
            await pilot.pause()
            assert 0 <= widget.region.y and widget.region.bottom <= SIZE[1] - 2, wid
        assert form.query_one("#start").region.bottom <= SIZE[1] - 1  # never scrolled away
        await choose(pilot, "kind-9", opponent_label("bot:easy"))
        text = screen_text(app)
        assert "Easy bot" in text
        await press(pilot, "ctrl+s")
    (plan,) = plans
    assert plan.rules.seats == 10 and len(plan.names) == 10
    assert plan.kinds == (HUMAN,) + ("bot:normal",) * 8 + ("bot:easy",)
    assert plan.names[1:] == tuple(f"Normal bot {n}" for n in range(1, 9)) + ("Easy bot",)


async def test_the_option_fields_are_those_of_OPTIONS_for_each_preset(store):
    """Labels, choices with their labels, defaults per preset; an option the preset lacks
    disappears; a whole-number option is a number field.  A choice added to OPTIONS
    shows up here."""
    app, _ = form_app(store)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(pilot)
        for preset, label in (("classic", "Classic UNO (2–10)"), ("duo", "UNO Duo (2 players)")):
            await choose(pilot, "preset", label)
            mine = [o for o in OPTIONS if preset in o.default and o.name != "seats"]
            assert shown_rows(form, "option") == [f"row-{o.name}" for o in mine]
            for opt in mine:
                row = form.query_one(f"#row-{opt.name}")
                assert str(row.query_one("Label").render()) == opt.label
                field = form.query_one(f"#{opt.name}")
                choices = opt.choices[preset]
                if choices is None:
                    assert isinstance(field, Input) and field.type == "integer"
                    assert field.value == str(opt.default[preset])
                else:
                    assert prompts(field) == [c.label for c in choices]
                    assert field.value == opt.default[preset]
            seats = form.query_one("#seats", Select)
            assert prompts(seats) == [f"{n} players" for n in PRESETS[preset]]
        kinds = form.query_one("#kind-1", Select)
        assert prompts(kinds) == [opponent_label(f"bot:{lv}") for lv in bot_levels()] + [
            opponent_label(HUMAN)]


async def test_switching_presets_keeps_what_was_chosen_for_each(store):
    app, plans = form_app(store)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(pilot)
        form.query_one("#target", Input).value = "150"
        await choose(pilot, "preset", "Classic UNO (2–10)")
        assert form.query_one("#target", Input).value == "500"
        await choose(pilot, "seats", "6 players")
        form.query_one("#name-4", Input).value = "Eve"
        await choose(pilot, "preset", "UNO Duo (2 players)")
        assert form.query_one("#target", Input).value == "150"
        assert shown_rows(form, "seat") == ["seat-0", "seat-1"]
        await press(pilot, "ctrl+s")
        await choose(pilot, "preset", "Classic UNO (2–10)")
        assert form.query_one("#target", Input).value == "500"
        assert len(shown_rows(form, "seat")) == 2  # the count left as it was shown
    assert plans[0].rules.preset == "duo" and plans[0].rules.target == 150


async def test_the_choices_are_remembered_next_time(store):
    app, plans = form_app(store)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(pilot)
        await choose(pilot, "preset", "Classic UNO (2–10)")
        await choose(pilot, "seats", "5 players")
        await choose(pilot, "kind-3", opponent_label("bot:random"))
        await choose(pilot, "scoring", "own_hand — each seat scores its hand, lowest wins")
        form.query_one("#name-1", Input).value = "Rex"
        form.query_one("#seed", Input).value = "9"
        await press(pilot, "ctrl+s")
    assert len(plans) == 1
    again, more = form_app(store)
    async with again.run_test(size=SIZE) as pilot:
        form = await open_form(pilot)
        assert form.query_one("#preset", Select).value == "classic"
        assert form.query_one("#seats", Select).value == 5
        assert form.query_one("#kind-3", Select).value == "bot:random"
        assert form.query_one("#name-1", Input).value == "Rex"
        assert form.query_one("#scoring", Select).value == "own_hand"
        assert form.query_one("#seed", Input).value == ""  # a seed is per match
        await press(pilot, "ctrl+s")
    assert more[0].kinds == plans[0].kinds and more[0].names == plans[0].names
    assert more[0].rules == plans[0].rules and more[0].seed is None


async def test_an_old_two_seat_settings_file_is_read(store):
    store.data_dir.mkdir(parents=True, exist_ok=True)
    (store.data_dir / "settings.json").write_text(json.dumps(
        {"opponent": "bot:hard", "name": "Ann", "opponent_name": "Rival",
         "rules": {"target": 120, "refill": "shuffle", "nonsense": 3}, "theme": "nord"}))
    settings = Settings.load(store)
    assert (settings.preset, settings.seats, settings.theme) == ("duo", 2, "nord")
    app, plans = form_app(store)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(pilot)
        assert form.query_one("#kind-1", Select).value == "bot:hard"
        assert form.query_one("#name-0", Input).value == "Ann"
        assert form.query_one("#target", Input).value == "120"
        await press(pilot, "ctrl+s")
    (plan,) = plans
    assert plan.names == ("Ann", "Rival") and plan.kinds == (HUMAN, "bot:hard")
    assert (plan.rules.target, plan.rules.refill) == (120, "shuffle")


def test_settings_of_another_shape_are_defaults_field_by_field(store):
    store.data_dir.mkdir(parents=True, exist_ok=True)
    (store.data_dir / "settings.json").write_text(json.dumps(
        {"preset": "classic", "seats": 40, "kinds": ["human", "bot:godlike", 7, "human"],
         "names": "Ann", "options": {"classic": {"stacking": "maybe"}, "x": {}}}))
    s = Settings.load(store)
    assert (s.preset, s.seats, s.names) == ("classic", 2, [])
    assert [s.kind(n) for n in range(4)] == [HUMAN, "bot:normal", "bot:normal", HUMAN]
    assert s.options == {"classic": {"stacking": "maybe"}}  # the form drops what is invalid


async def test_a_bad_target_is_said_and_starts_nothing(store):
    app, plans = form_app(store)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(pilot)
        form.query_one("#target", Input).value = "0"
        await press(pilot, "ctrl+s")
        assert plans == [] and isinstance(app.screen, NewMatchScreen)
        assert any("target" in n.message for n in notifications(app))


def test_default_names_number_like_bots_and_name_hot_seat_humans(monkeypatch):
    monkeypatch.setattr("unoduo_tui.plan.login_name", lambda: "Kim")
    kinds = (HUMAN, "bot:normal", "bot:easy", "bot:normal", HUMAN)
    assert default_names(kinds) == ("Player 1", "Normal bot 1", "Easy bot", "Normal bot 2",
                                    "Player 5")
    assert default_names((HUMAN, "bot:hard", "bot:easy")) == ("Kim", "Hard bot", "Easy bot")
    assert default_names((HUMAN, "bot:hard"), ("", "  R\x07ex ")) == ("Kim", "Rex")


async def test_f2_starts_the_match_too_and_the_footer_says_so(store):
    # #21: in a browser Ctrl+S is "save page" whenever the terminal lacks the focus
    app, plans = form_app(store)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(pilot)
        form.query_one("#name-0", Input).focus()  # typing in a field: F2 still starts
        await settle(pilot)
        text = screen_text(app)
        assert "^s/F2 Start" in text and "Start (Ctrl+S or F2)" in text
        await press(pilot, "f2")
    assert len(plans) == 1
