"""A compiled schema dumps what marshmallow dumps (api.schemas.compiled), proved on generated
values, not on a corpus:

* random schemas, of every kind of field the compiler takes and every option it honours
  (``data_key``, ``attribute`` dotted or not, ``dump_default``, ``many``, nesting), dumping
  random objects — plain objects and mappings, attributes missing, values of the wrong type —
  through the compiled schema and through marshmallow's own walk of the same fields: the same
  answer, or the same kind of error;
* every response schema of the API, dumping the engine's real verdicts and sheets for random
  cards, melds, hands, tables and rounds, against a twin of the schema whose dump (and every
  nested schema's) is marshmallow's own;
* a schema with a feature the compiler does not take is refused when it is made, by name.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import marshmallow as ma
import pytest
from flask import Flask
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from marshmallow import fields

import rules
from api.schemas import analysis, checks, health, rulesets, sheets
from api.schemas.compiled import CompiledSchema, UncompilableSchema
from api.storage import sheets as stored_sheets
from api.storage.scoresheet import score_sheet
from rules.analysis import analyse_hand
from rules.match import Entry

EXAMPLES = settings(
    max_examples=200, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def dumped(dump: Callable[[Any], Any], value: Any) -> tuple[str, Any]:
    """What a dump answers: its value, or the kind of error it raised."""
    try:
        return "value", dump(value)
    except Exception as error:  # the kind of error is what both must agree on
        return "error", type(error).__name__


# --- random schemas --------------------------------------------------------------------------

NAMES = st.text(string.ascii_lowercase, min_size=1, max_size=3)
#: Anything a value of a field may be, the right type or not.
JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4)
    | st.binary(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
    max_leaves=6,
)


def _defaults() -> st.SearchStrategy[Any]:
    return st.sampled_from([ma.missing, None, 7, "x", ma.missing]) | st.just(lambda: 3)


@st.composite
def field_specs(draw: st.DrawFn, depth: int = 0) -> dict[str, Any]:
    """One field, as a recipe both schemas build their own field from."""
    kinds = ["string", "integer", "boolean", "raw", "dict", "function", "list"]
    if depth < 2:
        kinds.append("nested")
    kind = draw(st.sampled_from(kinds))
    spec: dict[str, Any] = {"kind": kind}
    if kind == "list":
        spec["inner"] = draw(field_specs(depth + 1).filter(lambda s: s["kind"] != "function"))
    if kind == "nested":
        spec["schema"] = draw(schema_specs(depth + 1))
        spec["many"] = draw(st.booleans())
    if kind != "function":
        spec["data_key"] = draw(st.none() | NAMES)
        spec["attribute"] = draw(st.none() | NAMES | st.builds("{}.{}".format, NAMES, NAMES))
        spec["dump_default"] = draw(_defaults())
    return spec


@st.composite
def schema_specs(draw: st.DrawFn, depth: int = 0) -> dict[str, dict[str, Any]]:
    spec: dict[str, dict[str, Any]] = draw(
        st.dictionaries(NAMES, field_specs(depth), min_size=1, max_size=4)
    )
    return spec


def _name_of_type(obj: Any) -> str:
    return type(obj).__name__


def build_field(spec: dict[str, Any], base: type[ma.Schema]) -> fields.Field[Any]:
    options = {key: spec[key] for key in ("data_key", "attribute", "dump_default") if key in spec}
    kind = spec["kind"]
    if kind == "list":
        return fields.List(build_field(spec["inner"], base), **options)
    if kind == "nested":
        return fields.Nested(build_schema(spec["schema"], base), many=spec["many"], **options)
    if kind == "function":
        return fields.Function(_name_of_type)
    kinds: dict[str, type[fields.Field[Any]]] = {
        "string": fields.String,
        "integer": fields.Integer,
        "boolean": fields.Boolean,
        "raw": fields.Raw,
        "dict": fields.Dict,
    }
    return kinds[kind](**options)


def build_schema(spec: dict[str, dict[str, Any]], base: type[ma.Schema]) -> type[ma.Schema]:
    return base.from_dict({name: build_field(field, base) for name, field in spec.items()})


def keys_read(spec: dict[str, dict[str, Any]]) -> list[str]:
    """The names an object of the schema is asked for (the first part of a dotted one)."""
    return sorted({(field.get("attribute") or name).split(".")[0] for name, field in spec.items()})


@st.composite
def objects(draw: st.DrawFn, spec: dict[str, dict[str, Any]]) -> Any:
    """An object a schema may be asked to dump: some of its names there, others not, each
    value of its field's kind or anything else; a mapping or a plain object."""
    values: dict[str, Any] = {}
    for name in keys_read(spec):
        if draw(st.booleans()):
            continue  # missing: marshmallow leaves the key out, or writes its dump_default
        field = next(
            (f for n, f in spec.items() if (f.get("attribute") or n).split(".")[0] == name), None
        )
        if field is not None and field["kind"] == "nested" and draw(st.booleans()):
            nested = draw(objects(field["schema"]))
            values[name] = [nested, nested] if field["many"] else nested
        else:
            values[name] = draw(JUNK | st.builds(SimpleNamespace, b=JUNK))
    if draw(st.booleans()):
        return values
    return SimpleNamespace(**values)


@given(st.data())
@EXAMPLES
def test_a_random_schema_dumps_a_random_object_as_marshmallow_does(data: st.DataObject) -> None:
    spec = data.draw(schema_specs())
    try:
        # Compiling makes every nested schema at once: one marshmallow refuses (two fields
        # written under one key) is refused here, and the stock schema is never asked.
        compiled = build_schema(spec, CompiledSchema)()
    except ValueError:
        assume(False)
    stock = build_schema(spec, ma.Schema)()
    for _ in range(3):
        obj = data.draw(objects(spec))
        assert dumped(compiled.dump, obj) == dumped(stock.dump, obj)
        assert dumped(lambda o: compiled.dump(o, many=True), [obj, obj]) == dumped(
            lambda o: stock.dump(o, many=True), [obj, obj]
        )


# --- the API's own schemas --------------------------------------------------------------------


def marshmallows(schema: type[ma.Schema]) -> type[ma.Schema]:
    """A twin of ``schema`` dumped by marshmallow's own walk, every nested schema's too."""
    declared: dict[str, Any] = {"dump": ma.Schema.dump}
    for name, field in schema().declared_fields.items():
        declared[name] = _walked(field)
    return type(f"Marshmallows{schema.__name__}", (schema,), declared)


def _walked(field: fields.Field[Any]) -> fields.Field[Any]:
    if isinstance(field, fields.Nested):
        nested = field.nested
        assert isinstance(nested, type), nested
        return fields.Nested(
            marshmallows(nested), many=field.many, attribute=field.attribute, required=True
        )
    if isinstance(field, fields.List):
        inner = _walked(field.inner)
        return fields.List(inner, attribute=field.attribute, allow_none=field.allow_none)
    return field


def assert_dumped_alike(schema: type[ma.Schema], value: Any) -> None:
    assert dumped(schema().dump, value) == dumped(marshmallows(schema)().dump, value)


RULESETS = st.sampled_from(list(rules.PRESETS.values()))
CARDS = st.sampled_from([*rules.DECK, rules.JOKER])
MELD = st.lists(CARDS, min_size=1, max_size=8)


@given(RULESETS, MELD, st.sampled_from(rules.ORDERS))
@EXAMPLES
def test_a_meld_verdict(ruleset: rules.Ruleset, cards: list[rules.Card], order: Any) -> None:
    assert_dumped_alike(checks.MeldVerdictSchema, rules.check_meld(ruleset, cards, order=order))


@given(RULESETS, st.data(), st.lists(MELD, min_size=1, max_size=3), st.booleans())
@EXAMPLES
def test_a_contract_verdict(
    ruleset: rules.Ruleset, data: st.DataObject, melds: list[list[rules.Card]], with_hand: bool
) -> None:
    number = data.draw(st.integers(1, ruleset.round_count))
    hand = [card for meld in melds for card in meld] + data.draw(st.lists(CARDS, max_size=3))
    try:
        verdict = rules.check_contract(ruleset, number, melds, hand=hand if with_hand else None)
    except rules.RulesError:
        assume(False)  # a hand no table could deal: a 422, no verdict
    assert_dumped_alike(checks.ContractVerdictSchema, verdict)


@given(RULESETS, st.data(), MELD, MELD, st.sampled_from(rules.CONTRACT_DOWN))
@EXAMPLES
def test_a_layoff_and_a_swap_verdict(
    ruleset: rules.Ruleset,
    data: st.DataObject,
    meld: list[rules.Card],
    added: list[rules.Card],
    down: Any,
) -> None:
    number = data.draw(st.integers(1, ruleset.round_count))
    try:
        layoff = rules.check_layoff(ruleset, number, meld, added, down)
        swap = rules.check_joker_swap(ruleset, number, meld, added[0], down, joker=0)
    except rules.RulesError:
        assume(False)
    assert_dumped_alike(checks.LayoffVerdictSchema, layoff)
    assert_dumped_alike(checks.JokerSwapVerdictSchema, swap)


@given(RULESETS, st.data())
@EXAMPLES
def test_a_buy_and_a_penalty_verdict(ruleset: rules.Ruleset, data: st.DataObject) -> None:
    seats = data.draw(st.integers(ruleset.min_players, ruleset.max_players))
    on_turn = data.draw(st.integers(0, seats - 1))
    callers = data.draw(
        st.lists(st.integers(0, seats - 1).filter(lambda s: s != on_turn), unique=True)
    )
    used = data.draw(st.dictionaries(st.integers(0, seats - 1), st.integers(0, 4)))
    number = data.draw(st.integers(1, ruleset.round_count))
    buy = rules.check_buy(ruleset, number, seats, on_turn, callers, used)
    assert_dumped_alike(checks.BuyVerdictSchema, buy)
    assert_dumped_alike(checks.PenaltyVerdictSchema, rules.penalty(ruleset, data.draw(MELD)))


@given(RULESETS, st.data())
@settings(EXAMPLES, max_examples=40)
def test_an_analysis(ruleset: rules.Ruleset, data: st.DataObject) -> None:
    number = data.draw(st.integers(1, ruleset.round_count))
    hand = data.draw(st.lists(CARDS, min_size=1, max_size=12))
    try:
        found = analyse_hand(ruleset, number, hand)
    except rules.RulesError:
        assume(False)
    assert_dumped_alike(analysis.AnalysisSchema, found)


@st.composite
def score_sheets(draw: st.DrawFn) -> Any:
    """A sheet of a random table, some rounds recorded, as storage reads it back."""
    ruleset = draw(RULESETS)
    players = draw(st.integers(ruleset.min_players, min(ruleset.max_players, 6)))
    now = datetime(2026, 12, 1, 20, tzinfo=UTC)
    sheet = stored_sheets.Sheet(
        id="s",
        ruleset_text=json.dumps(ruleset.as_dict()),
        players=[f"P{seat}" for seat in range(players)],
        first_dealer=draw(st.integers(0, players - 1)),
        edit_token_hash="h",
        version=1,
        rounds=[],
        created_at=now,
        updated_at=now,
        title=draw(st.none() | st.text(max_size=5)),
    )
    for number in range(1, draw(st.integers(0, ruleset.round_count)) + 1):
        out = draw(st.none() | st.integers(0, players - 1))
        entries = tuple(
            Entry(seat=seat, went_out=True)
            if seat == out
            else Entry(seat=seat, cards=tuple(draw(st.lists(CARDS, min_size=1, max_size=4))))
            for seat in range(players)
        )
        try:
            stored_sheets.record_round(
                sheet, number, stored_sheets.RoundInput(entries, stock_ran_out=out is None)
            )
        except Exception:  # a round no table could have had (a cut bonus...): stop there
            break
    return score_sheet(sheet, edit_token=draw(st.none() | st.just("t")))


@given(score_sheets())
@settings(EXAMPLES, max_examples=60)
def test_a_sheet(score: Any) -> None:
    assert_dumped_alike(sheets.SheetSchema, score)
    assert_dumped_alike(sheets.CreatedSheetSchema, score)


@pytest.mark.parametrize("ruleset", list(rules.PRESETS))
def test_the_rulesets(app: Flask, ruleset: str) -> None:
    from api import rulesets as views

    with app.test_request_context("/"):
        assert_dumped_alike(rulesets.RulesetListSchema, views.list_rulesets())
        assert_dumped_alike(rulesets.RulesetDetailSchema, views.get_ruleset(ruleset))
        assert_dumped_alike(health.HealthSchema, {"status": "ok", "database": "ok"})


# --- what the compiler refuses ----------------------------------------------------------------


class _Hooked(CompiledSchema):
    name = fields.String()

    @ma.post_dump
    def shout(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        return data


class _Method(CompiledSchema):
    name = fields.Method("named")

    def named(self, obj: Any) -> str:
        return "name"


REFUSED: list[tuple[Callable[[], Any], str]] = [
    (lambda: _Hooked(), "processors"),
    (lambda: CompiledSchema.from_dict({"n": fields.Integer(as_string=True)})(), "as a string"),
    (lambda: CompiledSchema.from_dict({"d": fields.Dict(values=fields.Integer())})(), "typed"),
    (lambda: _Method(), "does not compile"),
    (lambda: CompiledSchema.from_dict({"t": fields.DateTime()})(), "does not compile"),
    (lambda: CompiledSchema.from_dict({"e": fields.Email()})(), "does not compile"),
]


@pytest.mark.parametrize(("make", "reason"), REFUSED)
def test_a_feature_it_cannot_compile_is_refused_when_the_schema_is_made(
    make: Callable[[], Any], reason: str
) -> None:
    with pytest.raises(UncompilableSchema, match=reason):
        make()


def test_a_field_of_another_library_is_refused() -> None:
    class Elsewhere(fields.String):
        pass

    Elsewhere.__module__ = "somewhere.else"
    with pytest.raises(UncompilableSchema, match="does not know|does not compile"):
        CompiledSchema.from_dict({"x": Elsewhere()})()


def test_a_view_answers_only_with_a_compiled_schema() -> None:
    """Every schema a view answers with is compiled: the blueprint refuses any other when the
    view is declared, so none is left to marshmallow's walk."""
    from api.parsing import Blueprint

    blueprint = Blueprint("plain", __name__)
    with pytest.raises(TypeError, match="CompiledSchema"):
        blueprint.response(200, ma.Schema.from_dict({"x": fields.String()}))

    def view() -> dict[str, str]:
        return {"x": "y"}

    decorated = blueprint.response(200, CompiledSchema.from_dict({"x": fields.String()}))(view)
    assert callable(decorated) and decorated is not view  # flask-smorest's wrapper
