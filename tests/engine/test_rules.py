"""O — options: one table (name, label, rule id, choices, default per preset) that
:class:`Rules` validates against and a new-match form can be built from."""

from dataclasses import fields

import pytest

from engine.rules import OPTIONS, PRESETS, Rules, option


def test_o_every_rules_field_but_the_preset_is_one_row_of_the_table():
    assert [o.name for o in OPTIONS] == [f.name for f in fields(Rules) if f.name != "preset"]
    for o in OPTIONS:
        assert o.label and o.rule[0] in "DSTAUECHO" and o.rule[1:].isdigit()
        assert set(o.default) <= set(PRESETS) and set(o.choices) == set(o.default)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_o_a_presets_defaults_come_from_the_table(preset):
    r = Rules(preset=preset)
    for o in OPTIONS:
        assert getattr(r, o.name) == o.default.get(preset)
        values = o.values(preset) if preset in o.choices else None
        if values is not None:
            assert o.default[preset] in values
            assert all(c.label for c in o.choices[preset])


def test_o_classic_defaults_to_a_shuffled_refill_and_500_points():
    r = Rules(preset="classic")
    assert (r.refill, r.target, r.deck, r.stacking, r.scoring, r.seats) == (
        "shuffle", 500, "classic108", False, "winner_takes", 2)
    assert Rules().refill == "turn_over"


def test_c1_classic_seats_2_to_10_and_duo_only_2():
    assert [Rules(preset="classic", seats=n).seats for n in range(2, 11)] == list(range(2, 11))
    assert option("seats").values("classic") == tuple(range(2, 11))
    for bad in (1, 11, "4", True):
        with pytest.raises(ValueError, match="seats"):
            Rules(preset="classic", seats=bad)
    with pytest.raises(ValueError, match="duo is for 2 players"):
        Rules(seats=3)


@pytest.mark.parametrize("name,value", [("stacking", True), ("scoring", "own_hand")])
def test_o_an_option_of_the_other_preset_is_refused(name, value):
    with pytest.raises(ValueError, match="only exists in the classic preset"):
        Rules(**{name: value})
    assert getattr(Rules(preset="classic", **{name: value}), name) == value


@pytest.mark.parametrize("name,value", [("stacking", 1), ("stacking", "yes"), ("refill", "burn"),
                                        ("deck", "uno"), ("scoring", "most")])
def test_o_a_value_not_in_the_table_is_refused_naming_the_choices(name, value):
    with pytest.raises(ValueError, match=name):
        Rules(preset="classic", **{name: value})


def test_o_rules_round_trip_and_describe_only_differences():
    r = Rules(preset="classic", seats=4, stacking=True, refill="turn_over")
    assert Rules.from_dict(r.to_dict()) == r
    assert r.describe() == "classic (refill=turn_over, stacking=True, seats=4)"
