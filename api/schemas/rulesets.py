"""The rulesets' bodies: a preset as ``GET /v1/rulesets`` shows it, and a house ruleset — a
preset with some of its parameters replaced — as a request names it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from rules import PARAMETERS, PRESETS
from rules.i18n import N_
from rules.ruleset import STORED

from ..fields import (
    Boolean,
    Dict,
    Integer,
    List,
    Nested,
    RequestSchema,
    RulesetField,
    String,
    in_range,
    lazy_refusal,
    length,
    matching,
    one_of,
)
from .common import ContractSchema
from .compiled import CompiledSchema

# --- the engine's schemas as marshmallow fields ---------------------------------------------
#
# The engine describes every house option, and every entry of a ruleset as it is shown, as
# JSON Schema (rules.parameters, rules.ruleset.STORED). Each becomes the marshmallow field
# that loads or dumps it, and apispec writes that field back into the document: the bounds a
# client reads are the ones the request is checked against, and the ones the engine checks.

#: The named shapes (a JSON Schema's ``title``), each one schema and one OpenAPI component; a
#: contract is shown as every other response shows it.
SHAPES: dict[str, type[ma.Schema]] = {"Contract": ContractSchema}


def field_for(schema: Mapping[str, Any], **options: Any) -> fields.Field[Any]:
    """The field for the values a JSON Schema of the engine allows (the parts it uses)."""
    metadata = {key: schema[key] for key in ("description", "example") if key in schema}
    options = {"metadata": metadata, "allow_none": bool(schema.get("nullable")), **options}
    kind = schema["type"]
    if kind == "boolean":
        return Boolean(**options)
    if kind == "integer":
        return Integer(validate=in_range(schema.get("minimum"), schema.get("maximum")), **options)
    if kind == "string":
        checks: list[validate.Validator] = []
        if "enum" in schema:
            checks.append(one_of(schema["enum"]))
        if "pattern" in schema:
            checks.append(matching(schema["pattern"]))
        if "minLength" in schema or "maxLength" in schema:
            checks.append(length(schema.get("minLength"), schema.get("maxLength")))
        return String(validate=checks, **options)
    if kind == "array":
        return List(
            field_for(schema["items"]),
            validate=length(schema.get("minItems"), schema.get("maxItems")),
            **options,
        )
    if "properties" in schema:
        return Nested(shape(schema), **options)
    return Dict(**options)


def shape(schema: Mapping[str, Any]) -> type[ma.Schema]:
    """The schema of a named object shape, made the first time the shape is met."""
    title = schema["title"]
    if title not in SHAPES:
        required = set(schema.get("required", ()))
        SHAPES[title] = RequestSchema.from_dict(
            {
                name: field_for(value, required=name in required)
                for name, value in schema["properties"].items()
            },
            name=f"{title}Schema",
        )
    return SHAPES[title]


# --- house rulesets ------------------------------------------------------------------------

HouseOptionsSchema = RequestSchema.from_dict(
    {name: field_for(parameter.json_schema()) for name, parameter in PARAMETERS.items()},
    name="HouseOptionsSchema",
)
HouseOptionsSchema.error_messages = {
    **RequestSchema.error_messages,
    "unknown": lazy_refusal(
        N_("unknown option; the options are: {options}"), options=", ".join(sorted(PARAMETERS))
    ),
}


class HouseRulesetSchema(RequestSchema):
    """A preset with some of its parameters replaced."""

    base = String(required=True, validate=one_of(list(PRESETS)))
    options = Nested(
        HouseOptionsSchema,
        metadata={"description": "Parameters to replace; `GET /v1/rulesets/{id}` shows them."},
    )


def ruleset_field() -> RulesetField:
    return RulesetField(HouseRulesetSchema, required=True)


# --- rulesets ------------------------------------------------------------------------------

#: What the list of presets shows of each, and an example (None: the entry's own shape shows).
SUMMARY: dict[str, Any] = {
    "id": "liverpool",
    "name": "Liverpool Rummy",
    "family": "liverpool",
    "players": None,
    "round_count": 7,
}
_STORED = {entry.key: entry.schema for entry in STORED}


def _shown(key: str, example: Any = None) -> fields.Field[Any]:
    schema = _STORED[key] if example is None else {**_STORED[key], "example": example}
    return field_for(schema, required=True)


RulesetSummarySchema = CompiledSchema.from_dict(
    {key: _shown(key, example) for key, example in SUMMARY.items()},
    name="RulesetSummarySchema",
)


class RulesetListSchema(CompiledSchema):
    rulesets = fields.List(fields.Nested(RulesetSummarySchema), required=True)


class HouseOptionSchema(ma.Schema):
    """One option a house ruleset's ``options`` may replace, as this preset sets it."""

    name = fields.String(
        required=True,
        validate=one_of(list(PARAMETERS)),
        metadata={"description": "The option's name: a key of `options`.", "example": "buy_limit"},
    )
    schema = fields.Dict(
        required=True,
        metadata={
            "description": "The values the option takes, as JSON Schema (the OpenAPI 3.0"
            " dialect): its type, bounds and choices, as `HouseOptions` states them.",
            "example": {"type": "integer", "minimum": 1, "maximum": 20, "nullable": True},
        },
    )
    value = fields.Raw(
        required=True,
        allow_none=True,
        metadata={
            "description": "What the preset plays with, as a value of the option: given as it"
            " is, it changes nothing. `null` where the rule is off (an option that may be"
            " null) or where no one value says it (`hand_size` when the rounds deal"
            " differently, `jokers` when the table sizes differ).",
            "example": 3,
        },
    )
    description = fields.String(
        required=True,
        metadata={
            "description": "What the option means, in the reader's language.",
            "example": "most buys per player per round",
        },
    )


#: Every parameter of a preset (docs/rules.md §3 says what each means), and its rounds: what
#: ``Ruleset.as_dict`` writes, entry by entry; then the house options, each with its value.
RulesetDetailSchema = RulesetSummarySchema.from_dict(
    {
        **{key: _shown(key) for key in _STORED if key not in SUMMARY},
        "house_options": fields.List(
            fields.Nested(HouseOptionSchema),
            required=True,
            metadata={
                "description": "Every option a house ruleset's `options` may replace, in a"
                " stable order, with the preset's value and what it means in the reader's"
                " language."
            },
        ),
    },
    name="RulesetDetailSchema",
)

#: The shapes the entries name, for whoever refers to one.
PlayersSchema = SHAPES["Players"]
RoundSchema = SHAPES["Round"]
RoundOptionSchema = SHAPES["RoundOption"]
TableSchema = SHAPES["Table"]
PointsSchema = SHAPES["Points"]
