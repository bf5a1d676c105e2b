"""Tests of ginsim.gin.game.rules: fields, validation, presets, conversions and per-hand values."""

from __future__ import annotations

import dataclasses
import doctest
import json
import re
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ginsim.gin.game.rules
from ginsim.gin.game.rules import PRESETS, Rules, preset_names

SPADES = range(39, 52)

DEFAULTS = {
    "knock_limit": 10,
    "gin_bonus": 25,
    "undercut_bonus": 25,
    "big_gin_bonus": None,
    "oklahoma": False,
    "oklahoma_ace_limit": 0,
    "spade_doubles": True,
    "stock_floor": 2,
    "exhaustion": "draw",
    "max_reshuffles": 1,
    "next_dealer": "loser",
    "target": 100,
    "box_bonus": 25,
    "game_bonus": 100,
    "shutout_doubles": True,
    "hollywood": False,
}

PRESET_CHANGES = {
    "standard": {},
    "oklahoma": {"oklahoma": True},
    "straight": {"knock_limit": 0},
    "knock5": {"knock_limit": 5},
    "last-card": {"stock_floor": 0},
    "reshuffle": {"exhaustion": "reshuffle"},
    "eaai": {"next_dealer": "alternate", "box_bonus": 0, "game_bonus": 0, "shutout_doubles": False},
}


def valid_rules() -> st.SearchStrategy[Rules]:
    """Any valid Rules, including the corners of every range."""
    optional_bonus = st.none() | st.integers(0, 1000)
    fields = st.fixed_dictionaries(
        {
            "knock_limit": st.integers(0, 10),
            "gin_bonus": st.integers(0, 1000),
            "undercut_bonus": st.integers(0, 1000),
            "big_gin_bonus": optional_bonus,
            "oklahoma": st.booleans(),
            "oklahoma_ace_limit": st.integers(0, 1),
            "spade_doubles": st.booleans(),
            "stock_floor": st.integers(0, 10),
            "exhaustion": st.sampled_from(["draw", "reshuffle"]),
            "max_reshuffles": st.integers(0, 50),
            "next_dealer": st.sampled_from(["loser", "winner", "alternate"]),
            "target": st.none() | st.integers(1, 1000),
            "box_bonus": st.integers(0, 1000),
            "game_bonus": st.integers(0, 1000),
            "shutout_doubles": st.booleans(),
            "hollywood": st.booleans(),
        }
    )

    def consistent(values: dict[str, Any]) -> Rules:
        if values["oklahoma"]:
            values["knock_limit"] = 10
        if values["hollywood"] and values["target"] is None:
            values["target"] = 100
        return Rules(**values)

    return fields.map(consistent)


def as_text(value: object) -> str:
    """A field value as it would be typed on a command line."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# --- fields and defaults -----------------------------------------------------------------------


def test_defaults_are_those_of_rules_md() -> None:
    assert Rules().to_dict() == DEFAULTS


def test_fields_are_declared_in_documented_order() -> None:
    assert [field.name for field in dataclasses.fields(Rules)] == list(DEFAULTS)


def test_public_names() -> None:
    assert sorted(ginsim.gin.game.rules.__all__) == ["MOST_BONUS", "MOST_RESHUFFLES", "MOST_TARGET", "PRESETS", "Rules",
                                                "check_rules", "preset_names"]


def test_fields_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        Rules(5)  # type: ignore[call-arg]


def test_rules_are_frozen() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.knock_limit = 5  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.colour = "red"  # type: ignore[attr-defined]
    assert rules.knock_limit == 10


def test_equal_rules_are_equal_and_hash_alike() -> None:
    assert Rules(knock_limit=5) == Rules.preset("knock5")
    assert hash(Rules(knock_limit=5)) == hash(Rules.preset("knock5"))
    assert Rules(knock_limit=5) != Rules()
    assert len({Rules(), Rules(), Rules(stock_floor=0)}) == 2


# --- validation --------------------------------------------------------------------------------

BAD_VALUES: list[tuple[str, object]] = [
    *[("knock_limit", value) for value in (-1, 11, 100, True, False, 5.0, "5", None)],
    *[("gin_bonus", value) for value in (-1, True, 2.5, "25", None)],
    *[("undercut_bonus", value) for value in (-1, False, 25.0, None)],
    *[("big_gin_bonus", value) for value in (-1, True, "31", 31.0)],
    *[("oklahoma", value) for value in (1, 0, "true", None)],
    *[("oklahoma_ace_limit", value) for value in (-1, 2, 10, True, None)],
    *[("spade_doubles", value) for value in (1, "yes", None)],
    *[("stock_floor", value) for value in (-1, 11, False, 2.0, None)],
    *[("exhaustion", value) for value in ("Draw", "", "shuffle", 1, None)],
    *[("max_reshuffles", value) for value in (-1, True, 1.0, None)],
    *[("next_dealer", value) for value in ("dealer", "Loser", 0, None)],
    *[("target", value) for value in (0, -100, True, "100", 1.5)],
    *[("box_bonus", value) for value in (-1, True, None)],
    *[("game_bonus", value) for value in (-1, False, "100")],
    *[("shutout_doubles", value) for value in (1, 0, None)],
    *[("hollywood", value) for value in (0, "false", None)],
]


def test_every_field_has_rejection_cases() -> None:
    assert {name for name, _ in BAD_VALUES} == set(DEFAULTS)


@pytest.mark.parametrize(("name", "value"), BAD_VALUES)
def test_bad_value_is_refused_naming_field_and_value(name: str, value: object) -> None:
    expected = rf"^{name} must be .+, got {re.escape(repr(value))}"
    with pytest.raises(ValueError, match=expected) as info:
        Rules(**{name: value})  # type: ignore[arg-type]
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(("name", "value"), BAD_VALUES)
def test_bad_value_is_refused_by_replace(name: str, value: object) -> None:
    with pytest.raises(ValueError, match=rf"^{name} must be "):
        Rules().replace(**{name: value})


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"knock_limit": 11}, "knock_limit must be an integer from 0 to 10, got 11"),
        ({"knock_limit": True}, "knock_limit must be an integer from 0 to 10, got True (bool)"),
        ({"gin_bonus": -5}, "gin_bonus must be an integer from 0 to 1000, got -5"),
        (
            {"big_gin_bonus": -1},
            "big_gin_bonus must be None (big gin off) or an integer from 0 to 1000, got -1",
        ),
        ({"oklahoma": 1}, "oklahoma must be True or False, got 1 (int)"),
        ({"oklahoma_ace_limit": 2}, "oklahoma_ace_limit must be 0 or 1, got 2"),
        ({"exhaustion": "x"}, "exhaustion must be one of 'draw', 'reshuffle', got 'x'"),
        (
            {"next_dealer": "x"},
            "next_dealer must be one of 'loser', 'winner', 'alternate', got 'x'",
        ),
        ({"target": 0}, "target must be None (single-hand game) or an integer from 1 to 1000, got 0"),
        ({"stock_floor": "2"}, "stock_floor must be an integer from 0 to 10, got '2' (str)"),
    ],
)
def test_messages_read_well(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as info:
        Rules(**changes)  # type: ignore[arg-type]
    assert str(info.value) == message


@pytest.mark.parametrize(
    "changes",
    [
        {"knock_limit": 0},
        {"knock_limit": 10},
        {"gin_bonus": 0},
        {"undercut_bonus": 1000},
        {"big_gin_bonus": 0},
        {"big_gin_bonus": 31},
        {"oklahoma_ace_limit": 1},
        {"stock_floor": 0},
        {"stock_floor": 10},
        {"max_reshuffles": 0},
        {"next_dealer": "winner"},
        {"target": 1},
        {"target": None},
        {"box_bonus": 0},
        {"game_bonus": 0},
        {"spade_doubles": False, "oklahoma_ace_limit": 1},
        {"oklahoma": True, "knock_limit": 10, "oklahoma_ace_limit": 1},
        {"hollywood": True, "target": 250},
        {"exhaustion": "reshuffle", "max_reshuffles": 3},
    ],
)
def test_values_in_range_are_accepted(changes: dict[str, object]) -> None:
    rules = Rules(**changes)  # type: ignore[arg-type]
    assert {name: getattr(rules, name) for name in changes} == changes


@pytest.mark.parametrize("knock_limit", [0, 5, 9])
def test_oklahoma_refuses_a_knock_limit(knock_limit: int) -> None:
    expected = rf"oklahoma=True requires knock_limit=10 .*upcard.*got knock_limit={knock_limit}$"
    with pytest.raises(ValueError, match=expected):
        Rules(oklahoma=True, knock_limit=knock_limit)
    with pytest.raises(ValueError, match=expected):
        Rules.preset("oklahoma").replace(knock_limit=knock_limit)


def test_oklahoma_cannot_be_added_to_straight_gin() -> None:
    with pytest.raises(ValueError, match="oklahoma=True requires knock_limit=10"):
        Rules.preset("straight").replace(oklahoma=True)


def test_hollywood_needs_a_target() -> None:
    with pytest.raises(ValueError, match=r"hollywood=True requires a target.*got target=None$"):
        Rules(hollywood=True, target=None)


# --- presets -----------------------------------------------------------------------------------


def test_preset_names_in_documented_order() -> None:
    assert preset_names() == tuple(PRESET_CHANGES)
    assert tuple(PRESETS) == tuple(PRESET_CHANGES)


@pytest.mark.parametrize(("name", "changes"), PRESET_CHANGES.items())
def test_preset_has_documented_values(name: str, changes: dict[str, object]) -> None:
    assert Rules.preset(name).to_dict() == {**DEFAULTS, **changes}
    assert Rules.preset(name) is PRESETS[name]


def test_eaai_preset() -> None:
    eaai = Rules.preset("eaai")
    assert (eaai.knock_limit, eaai.gin_bonus, eaai.undercut_bonus) == (10, 25, 25)
    assert (eaai.stock_floor, eaai.next_dealer, eaai.big_gin_bonus) == (2, "alternate", None)


def test_standard_preset_is_the_default() -> None:
    assert Rules.preset("standard") == Rules()


def test_presets_are_read_only() -> None:
    assert isinstance(PRESETS, MappingProxyType)
    with pytest.raises(TypeError):
        PRESETS["mine"] = Rules()  # type: ignore[index]
    with pytest.raises(TypeError):
        del PRESETS["standard"]  # type: ignore[attr-defined]


def test_unknown_preset_suggests_a_close_name_and_lists_all() -> None:
    with pytest.raises(ValueError) as info:
        Rules.preset("oklahma")
    message = str(info.value)
    assert message.startswith("unknown rules preset 'oklahma' (did you mean 'oklahoma'?)")
    assert message.endswith("known presets: " + ", ".join(PRESET_CHANGES))


def test_unknown_preset_without_close_name_lists_all() -> None:
    with pytest.raises(ValueError, match=r"^unknown rules preset 'zzz'; known presets: standard, "):
        Rules.preset("zzz")


@pytest.mark.parametrize("name", [None, 5, ["standard"]])
def test_preset_name_of_wrong_type_is_refused(name: object) -> None:
    with pytest.raises(ValueError, match="^unknown rules preset "):
        Rules.preset(name)  # type: ignore[arg-type]


# --- replace -----------------------------------------------------------------------------------


def test_replace_returns_a_changed_copy() -> None:
    rules = Rules()
    changed = rules.replace(knock_limit=5, target=None)
    assert (changed.knock_limit, changed.target) == (5, None)
    assert rules == Rules()
    assert rules.replace() == rules


def test_replace_refuses_unknown_field_with_suggestion() -> None:
    expected = r"^unknown rules field 'knock_limt' \(did you mean 'knock_limit'\?\)"
    with pytest.raises(ValueError, match=expected):
        Rules().replace(knock_limt=5)


def test_replace_refuses_unknown_field_without_suggestion() -> None:
    expected = r"^unknown rules field 'colour'; known fields: knock_limit, "
    with pytest.raises(ValueError, match=expected):
        Rules().replace(colour="red")


# --- to_dict / from_dict -----------------------------------------------------------------------


def test_to_dict_lists_fields_in_order() -> None:
    assert list(Rules().to_dict()) == list(DEFAULTS)


@given(valid_rules())
def test_dict_round_trip(rules: Rules) -> None:
    assert Rules.from_dict(rules.to_dict()) == rules


@given(valid_rules())
def test_json_round_trip(rules: Rules) -> None:
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_from_dict_fills_missing_fields_with_defaults() -> None:
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"stock_floor": 0}) == Rules.preset("last-card")


def test_from_dict_accepts_any_mapping() -> None:
    assert Rules.from_dict(MappingProxyType({"knock_limit": 5})) == Rules.preset("knock5")


def test_from_dict_refuses_unknown_key_with_suggestion() -> None:
    expected = r"^unknown rules field 'gin_bonsu' \(did you mean 'gin_bonus'\?\)"
    with pytest.raises(ValueError, match=expected):
        Rules.from_dict({**DEFAULTS, "gin_bonsu": 25})


def test_from_dict_names_every_unknown_key() -> None:
    with pytest.raises(ValueError, match=r"^unknown rules fields 'colour', 7; known fields: "):
        Rules.from_dict({"colour": "red", 7: 1})  # type: ignore[dict-item]


def test_from_dict_validates_values() -> None:
    with pytest.raises(ValueError, match=r"^knock_limit must be an integer from 0 to 10, got 12$"):
        Rules.from_dict({"knock_limit": 12})


@pytest.mark.parametrize("data", [[("knock_limit", 5)], "knock_limit=5", None])
def test_from_dict_refuses_non_mapping(data: object) -> None:
    expected = "^rules data must be a mapping of field names to values, got "
    with pytest.raises(ValueError, match=expected):
        Rules.from_dict(data)  # type: ignore[arg-type]


# --- parse_overrides ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "name", "value"),
    [
        ("knock_limit=5", "knock_limit", 5),
        ("knock_limit=+5", "knock_limit", 5),
        ("knock-limit=0", "knock_limit", 0),
        ("  stock_floor =  0 ", "stock_floor", 0),
        ("big_gin_bonus=31", "big_gin_bonus", 31),
        ("big_gin_bonus=none", "big_gin_bonus", None),
        ("target=None", "target", None),
        ("target=NONE", "target", None),
        ("target=250", "target", 250),
        ("hollywood=true", "hollywood", True),
        ("spade_doubles=False", "spade_doubles", False),
        ("spade_doubles=no", "spade_doubles", False),
        ("shutout_doubles=off", "shutout_doubles", False),
        ("hollywood=YES", "hollywood", True),
        ("hollywood=1", "hollywood", True),
        ("oklahoma_ace_limit=1", "oklahoma_ace_limit", 1),
        ("exhaustion=reshuffle", "exhaustion", "reshuffle"),
        ("next_dealer=Alternate", "next_dealer", "alternate"),
    ],
)
def test_override_text_is_parsed_to_the_field_type(item: str, name: str, value: object) -> None:
    rules = Rules.parse_overrides("standard", [item])
    assert getattr(rules, name) == value
    assert type(getattr(rules, name)) is type(value)


def test_overrides_apply_on_the_preset() -> None:
    rules = Rules.parse_overrides("oklahoma", ["oklahoma_ace_limit=1", "target=none"])
    assert rules == Rules(oklahoma=True, oklahoma_ace_limit=1, target=None)


def test_no_overrides_give_the_preset() -> None:
    assert Rules.parse_overrides() == Rules()
    assert Rules.parse_overrides("knock5", []) == Rules.preset("knock5")


def test_overrides_are_applied_together() -> None:
    # Neither change is valid alone from "straight"; together they are.
    rules = Rules.parse_overrides("straight", ["oklahoma=true", "knock_limit=10"])
    assert rules == Rules.preset("oklahoma")


@given(valid_rules())
def test_overrides_round_trip(rules: Rules) -> None:
    items = [f"{name}={as_text(value)}" for name, value in rules.to_dict().items()]
    assert Rules.parse_overrides("standard", items) == rules


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (["knock_limit=abc"], r"^'abc' is not an integer for knock_limit$"),
        (["knock_limit=5.0"], r"^'5.0' is not an integer for knock_limit$"),
        (["knock_limit="], r"^'' is not an integer for knock_limit$"),
        (["knock_limit=none"], r"^'none' is not an integer for knock_limit$"),
        (["target=lots"], r"^'lots' is not an integer or 'none' for target$"),
        (["oklahoma=maybe"], r"^'maybe' is not a boolean for oklahoma \(use true or false\)$"),
        (["knock_limit=11"], r"^knock_limit must be an integer from 0 to 10, got 11$"),
        (["exhaustion=shuffle"], r"^exhaustion must be one of 'draw', 'reshuffle', got 'shuffle'$"),
        (["knock_limit"], r"^an override must be field=value text, got 'knock_limit'$"),
        (["=5"], r"^an override must be field=value text, got '=5'$"),
        (["knock_limt=5"], r"^unknown rules field 'knock_limt' \(did you mean 'knock_limit'\?\)"),
        (
            ["knock_limit=5", "knock-limit=6"],
            r"^knock_limit is set more than once in the overrides$",
        ),
        ("knock_limit=5", r"^overrides must be a list of field=value texts, got 'knock_limit=5'$"),
        ([5], r"^an override must be field=value text, got 5 \(int\)$"),
        (["oklahoma=true", "knock_limit=5"], r"^oklahoma=True requires knock_limit=10 "),
    ],
)
def test_bad_overrides_are_refused(items: list[object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rules.parse_overrides("standard", items)  # type: ignore[arg-type]


def test_overrides_with_unknown_preset_are_refused() -> None:
    expected = r"^unknown rules preset 'knock-5' \(did you mean 'knock5'\?\)"
    with pytest.raises(ValueError, match=expected):
        Rules.parse_overrides("knock-5", ["target=50"])


# --- per-hand values ---------------------------------------------------------------------------


@pytest.mark.parametrize("knock_limit", range(11))
def test_knock_limit_for_is_constant_outside_oklahoma(knock_limit: int) -> None:
    rules = Rules(knock_limit=knock_limit)
    assert [rules.knock_limit_for(upcard) for upcard in range(52)] == [knock_limit] * 52


def test_oklahoma_knock_limit_follows_the_upcard_rank() -> None:
    rules = Rules.preset("oklahoma")
    # Per suit, ranks A..K: the ace allows no knock, 2..10 face value, pictures 10.
    per_suit = [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert [rules.knock_limit_for(upcard) for upcard in range(52)] == per_suit * 4


def test_oklahoma_knock_limit_examples() -> None:
    rules = Rules.preset("oklahoma")
    ace_of_spades, seven_of_hearts, jack_of_clubs, queen_of_diamonds, king_of_spades = (
        39, 32, 10, 24, 51,
    )
    assert rules.knock_limit_for(ace_of_spades) == 0
    assert rules.knock_limit_for(seven_of_hearts) == 7
    pictures = (jack_of_clubs, queen_of_diamonds, king_of_spades)
    assert [rules.knock_limit_for(card) for card in pictures] == [10, 10, 10]


def test_oklahoma_ace_limit_one() -> None:
    rules = Rules(oklahoma=True, oklahoma_ace_limit=1)
    aces = [0, 13, 26, 39]
    assert [rules.knock_limit_for(ace) for ace in aces] == [1, 1, 1, 1]
    others = [upcard for upcard in range(52) if upcard not in aces]
    oklahoma = Rules.preset("oklahoma")
    assert [rules.knock_limit_for(card) for card in others] == [
        oklahoma.knock_limit_for(card) for card in others
    ]


def test_ace_limit_is_ignored_outside_oklahoma() -> None:
    assert Rules(oklahoma_ace_limit=1).knock_limit_for(0) == 10


def test_oklahoma_spade_upcard_doubles_exactly_the_spades() -> None:
    rules = Rules.preset("oklahoma")
    doubled = [upcard for upcard in range(52) if rules.multiplier_for(upcard) == 2]
    assert doubled == list(SPADES)
    assert {rules.multiplier_for(upcard) for upcard in range(39)} == {1}


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(spade_doubles=True), Rules(oklahoma=True, spade_doubles=False)],
)
def test_multiplier_is_one_otherwise(rules: Rules) -> None:
    assert {rules.multiplier_for(upcard) for upcard in range(52)} == {1}


@pytest.mark.parametrize(
    ("upcard", "shown"),
    [
        (-1, "-1"),
        (52, "52"),
        (True, r"True \(bool\)"),
        (3.0, r"3\.0 \(float\)"),
        ("AS", r"'AS' \(str\)"),
    ],
)
@pytest.mark.parametrize("method", ["knock_limit_for", "multiplier_for"])
def test_upcard_is_validated(method: str, upcard: object, shown: str) -> None:
    for rules in (Rules(), Rules.preset("oklahoma")):
        expected = rf"^upcard must be a card index from 0 to 51, got {shown}$"
        with pytest.raises(ValueError, match=expected):
            getattr(rules, method)(upcard)


# --- help and documentation --------------------------------------------------------------------


def test_fields_help_lists_every_field_with_its_default() -> None:
    rows = Rules.fields_help()
    assert [(name, default) for name, default, _ in rows] == list(DEFAULTS.items())


def test_fields_help_descriptions_are_single_lines_with_allowed_values() -> None:
    for name, _, description in Rules.fields_help():
        assert description.strip() == description, name
        assert "\n" not in description, name
        assert "(allowed: " in description, name


def test_documented_examples_hold() -> None:
    results = doctest.testmod(ginsim.gin.game.rules, optionflags=doctest.ELLIPSIS)
    assert results.attempted > 0
    assert results.failed == 0


@pytest.mark.parametrize(
    "item",
    [Rules, Rules.preset, Rules.replace, Rules.to_dict, Rules.from_dict, Rules.parse_overrides,
     Rules.knock_limit_for, Rules.multiplier_for, Rules.fields_help, preset_names],
)
def test_public_items_have_a_docstring_with_an_example(item: object) -> None:
    assert ">>> " in (getattr(item, "__doc__", None) or "")
