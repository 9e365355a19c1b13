"""The house options as declared on the ruleset's fields: the bounds a client reads in their JSON
Schema are the bounds the engine checks, and the stored form reads back as the same ruleset."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import PARAMETERS, PRESETS, Ruleset, find_ruleset
from rules.parameters import Choice, Flag, Number, Parameter
from rules.ruleset import STORED


def values_of(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Every value a JSON Schema (the parts the parameters use) allows."""
    if schema.get("nullable"):
        return st.none() | values_of({k: v for k, v in schema.items() if k != "nullable"})
    kind = schema["type"]
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        return st.integers(schema["minimum"], schema["maximum"])
    if kind == "string":
        if "enum" in schema:
            return st.sampled_from(schema["enum"])
        # Every string option is a word of a list or a text of a grammar (a rank, a contract).
        longest = schema.get("maxLength", 10_000)
        texts = st.from_regex(schema["pattern"], fullmatch=True)
        return texts.filter(lambda text: schema.get("minLength", 0) <= len(text) <= longest)
    if kind == "array":
        return st.lists(
            values_of(schema["items"]),
            min_size=schema.get("minItems", 0),
            max_size=schema.get("maxItems", 20),
        )
    assert kind == "object", schema
    properties = schema["properties"]
    return st.fixed_dictionaries(
        {name: values_of(properties[name]) for name in schema.get("required", ())},
        optional={
            name: values_of(value)
            for name, value in properties.items()
            if name not in schema.get("required", ())
        },
    )


def read(name: str, value: Any, base: str = "liverpool-9") -> dict[str, Any]:
    """What the option ``name`` changes, read alone (no consistency check across options)."""
    changes: dict[str, Any] = {}
    PARAMETERS[name].apply(find_ruleset(base), value, changes)
    return changes


# --- what the schema says is what the engine reads --------------------------------------------


@pytest.mark.parametrize("name", sorted(PARAMETERS))
def test_every_option_is_described_with_a_type(name: str) -> None:
    schema = PARAMETERS[name].json_schema()
    assert schema["type"] in ("boolean", "integer", "string", "array", "object")
    assert schema["description"] == PARAMETERS[name].description != ""


@settings(max_examples=300)
@given(st.data())
def test_every_value_the_schema_allows_is_read(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(PARAMETERS)))
    value = data.draw(values_of(PARAMETERS[name].value_schema()), label=name)
    # round_count is bounded by the base's rounds too (the document says so in words): the
    # longest preset has 9.
    if name == "round_count":
        value = min(value, find_ruleset("liverpool-9").round_count)
    assert read(name, value), (name, value)


NUMBERS = [name for name, parameter in PARAMETERS.items() if isinstance(parameter, Number)]


@pytest.mark.parametrize("name", NUMBERS)
def test_a_number_is_refused_just_outside_its_bounds(name: str) -> None:
    parameter = PARAMETERS[name]
    assert isinstance(parameter, Number)
    for outside in (parameter.low - 1, parameter.high + 1, True, "3", 2.0):
        with pytest.raises(rules.RulesetError, match=name):
            read(name, outside)
    if parameter.nullable:
        assert read(name, None) == {name: None}
    else:
        with pytest.raises(rules.RulesetError):
            read(name, None)


@pytest.mark.parametrize(
    "name", [name for name, parameter in PARAMETERS.items() if isinstance(parameter, Choice)]
)
def test_a_choice_takes_its_words_and_no_other(name: str) -> None:
    parameter = PARAMETERS[name]
    assert isinstance(parameter, Choice)
    assert parameter.json_schema()["enum"] == list(parameter.choices)
    for word in parameter.choices:
        assert read(name, word) == {name: word}
    for other in ("", parameter.choices[0].upper(), None, 1):
        with pytest.raises(rules.RulesetError, match=name):
            read(name, other)


@pytest.mark.parametrize(
    "name", [name for name, parameter in PARAMETERS.items() if isinstance(parameter, Flag)]
)
def test_a_flag_is_true_or_false_and_nothing_else(name: str) -> None:
    for value in (True, False):
        assert read(name, value)
    for other in (0, 1, "true", None):
        with pytest.raises(rules.RulesetError, match=name):
            read(name, other)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("tables", [{"max_players": 13, "decks": 2, "jokers": 4}]),
        ("tables", [{"max_players": 8, "decks": 5, "jokers": 4}]),
        ("tables", [{"max_players": 8, "decks": 2}]),
        ("tables", [{"max_players": 8, "decks": 2, "jokers": 4}] * 13),
        ("rounds", [{"contract": "2 sets", "hand_size": 31}]),
        ("rounds", [{"contract": "2 sets", "hand_size": 10, "whole_hand": 1}]),
        ("rounds", [{"contract": "2 sets", "hand_size": 10, "extra": True}]),
        ("rounds", [{"contract": "2 sets"}]),
        ("rounds", [{"contract": "2 sets", "hand_size": 10}] * 21),
        ("rounds", [{"contract": "1 set" + " + 1 set" * 30, "hand_size": 10}]),
        ("points", {"A": 501}),
        ("points", {"Z": 5}),
        ("wild_ranks", ["2"] * 14),
    ],
)
def test_a_structured_value_outside_its_schema_is_refused(name: str, value: Any) -> None:
    with pytest.raises(rules.RulesError):  # a bad rank is a CardNotationError
        read(name, value)


def test_points_takes_other_spellings_of_a_rank_and_the_joker() -> None:
    changes = read("points", {"q": 30, "joker": 40, "T": 1})
    assert changes["rank_points"][rules.Rank.QUEEN - 1] == 30
    assert changes["rank_points"][rules.Rank.TEN - 1] == 1
    assert changes["joker_points"] == 40


def test_the_rounds_schema_names_every_field_a_round_may_have() -> None:
    item = PARAMETERS["rounds"].value_schema()["items"]
    assert set(item["properties"]) == {
        "contract",
        "hand_size",
        "whole_hand",
        "discard_to_go_out",
        "exact_minimum",
    }
    assert item["required"] == ["contract", "hand_size"]
    assert item["additionalProperties"] is False


def test_every_option_but_the_derived_ones_is_a_field() -> None:
    fields = {field.name for field in dataclasses.fields(Ruleset)}
    derived = {"jokers", "round_count", "hand_size", "exact_minimum", "points"}
    assert set(PARAMETERS) - fields == derived
    assert all(isinstance(parameter, Parameter) for parameter in PARAMETERS.values())
    assert all(re.fullmatch(r"[a-z_]+", name) for name in PARAMETERS)


# --- the stored form -------------------------------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_stored_preset_reads_back_equal(preset: str) -> None:
    ruleset = find_ruleset(preset)
    again = Ruleset.from_dict(ruleset.as_dict())
    assert again == ruleset and hash(again) == hash(ruleset)
    assert list(ruleset.as_dict()) == [entry.key for entry in STORED]


def test_a_stored_house_ruleset_reads_back_equal() -> None:
    house = find_ruleset("california").with_options(
        {"points": {"Q": 30}, "jokers": 2, "round_count": 5, "buy_limit": None}
    )
    again = Ruleset.from_dict(house.as_dict())
    assert again == house
    assert again.options == house.options
    assert again.points(rules.Card.parse("QH")) == 30


def test_rulesets_that_score_a_card_differently_differ() -> None:
    liverpool = find_ruleset("liverpool")
    assert liverpool.with_options({"points": {"K": 11}}) != liverpool
    assert liverpool.with_options({"points": {"JK": 15}}) == liverpool


@pytest.mark.parametrize("key", ["options", "round_count"])
def test_an_older_stored_form_without_an_entry_made_from_others_reads(key: str) -> None:
    stored = find_ruleset("liverpool").as_dict()
    del stored[key]
    assert Ruleset.from_dict(stored) == find_ruleset("liverpool")


@pytest.mark.parametrize("key", [entry.key for entry in STORED if entry.missing is None])
def test_a_stored_form_missing_an_entry_is_refused(key: str) -> None:
    stored = find_ruleset("liverpool").as_dict()
    del stored[key]
    with pytest.raises(rules.RulesetError, match=key):
        Ruleset.from_dict(stored)


def as_json_schema(schema: Any) -> Any:
    """An OpenAPI 3.0 schema as plain JSON Schema: ``nullable`` becomes a null type."""
    if isinstance(schema, list):
        return [as_json_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    plain = {key: as_json_schema(value) for key, value in schema.items() if key != "nullable"}
    if schema.get("nullable"):
        plain["type"] = [schema["type"], "null"]
    return plain


SHOWN = as_json_schema(
    {
        "type": "object",
        "properties": {entry.key: entry.schema for entry in STORED},
        "required": [entry.key for entry in STORED],
        "additionalProperties": False,
    }
)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_is_shown_as_its_schema_says(preset: str) -> None:
    jsonschema_rs.validate(SHOWN, find_ruleset(preset).as_dict())


def test_a_house_ruleset_is_shown_as_its_schema_says() -> None:
    house = find_ruleset("may-i").with_options(
        {"wilds_outside_span": None, "rounds": [{"contract": "3 runs", "hand_size": 12}]}
    )
    jsonschema_rs.validate(SHOWN, house.as_dict())


def test_a_ruleset_shown_out_of_its_bounds_is_caught() -> None:
    # The schema is strict enough to fail: a table of 13 players is none the engine reads.
    shown = find_ruleset("liverpool").as_dict()
    shown["tables"][0]["max_players"] = 13
    assert not jsonschema_rs.is_valid(SHOWN, shown)


# --- what a preset plays with, as a value of each option ------------------------------------------

PRESET_OPTIONS = [(preset, name) for preset in PRESETS for name in PARAMETERS]


@pytest.mark.parametrize(("preset", "name"), PRESET_OPTIONS)
def test_a_presets_value_of_an_option_changes_nothing(preset: str, name: str) -> None:
    """Given back as the option (through JSON, as a client would), the value a preset shows
    leaves every check answering the same; and it is a value the option's schema allows."""
    ruleset = find_ruleset(preset)
    value = PARAMETERS[name].value_of(ruleset)
    if value is None and not PARAMETERS[name].value_schema().get("nullable"):
        return  # no one value says it (the rounds deal differently): nothing to give back
    jsonschema_rs.validate(as_json_schema(PARAMETERS[name].value_schema()), value)
    changes: dict[str, Any] = {}
    PARAMETERS[name].apply(ruleset, json.loads(json.dumps(value)), changes)
    assert changes, name
    assert dataclasses.replace(ruleset, **changes) == ruleset


def test_an_option_with_no_one_value_shows_none() -> None:
    liverpool = find_ruleset("liverpool")  # 10 then 12 cards; 4 jokers at four, 6 at eight
    assert PARAMETERS["hand_size"].value_of(liverpool) is None
    assert PARAMETERS["jokers"].value_of(liverpool) is None
    assert PARAMETERS["hand_size"].value_of(find_ruleset("liverpool-fixed-hand")) == 10
    assert PARAMETERS["exact_minimum"].value_of(find_ruleset("contract-rummy")) is True
    mixed = liverpool.with_options(
        {
            "rounds": [
                {"contract": "2 sets", "hand_size": 10, "exact_minimum": True},
                {"contract": "2 runs", "hand_size": 10},
            ]
        }
    )
    assert PARAMETERS["exact_minimum"].value_of(mixed) is None


def test_a_rounds_contract_is_written_as_the_option_reads_it() -> None:
    """A meld's size is said where it is not the ruleset's minimum: "2 runs" of a ruleset
    whose runs start at 3 would read back as runs of 3."""
    short_runs = find_ruleset("liverpool").with_options({"run_min": 3})
    rounds = PARAMETERS["rounds"].value_of(short_runs)
    assert [spec["contract"] for spec in rounds[1:3]] == ["1 set + 1 run of 4", "2 runs of 4"]
    assert rounds[6]["contract"] == "1 run of 7"
    assert PARAMETERS["rounds"].value_of(find_ruleset("liverpool"))[1]["contract"] == (
        "1 set + 1 run"
    )
