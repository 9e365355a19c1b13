"""The rulesets' bodies: a preset as ``GET /v1/rulesets`` shows it, and a house ruleset — a
preset with some of its parameters replaced — as a request names it."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from rules import MAX_SEATS, PARAMETERS, PRESETS, parameters

from ..fields import RANK_PATTERN, RulesetField, StrictBoolean, integer
from .common import MAX_ROUND, ContractSchema

# --- house rulesets ------------------------------------------------------------------------


class RoundOptionSchema(ma.Schema):
    contract = fields.String(
        required=True,
        validate=validate.Length(min=1, max=200),
        metadata={"description": 'Like "1 set + 2 runs" or "1 run of 7".'},
    )
    hand_size = integer(required=True)
    whole_hand = StrictBoolean()
    discard_to_go_out = StrictBoolean()
    exact_minimum = StrictBoolean()


class TableOptionSchema(ma.Schema):
    max_players = integer(required=True)
    decks = integer(required=True)
    jokers = integer(required=True)


def _option_field(name: str) -> fields.Field[Any]:
    """The field for one house option, from the engine's description of the parameter.

    Plain kinds carry their bounds in :data:`rules.PARAMETERS`; the structured ones are given
    their shape here and their values are checked by the engine, which names the option.
    """
    parameter = PARAMETERS[name]
    meta = {"description": parameter.description}
    if isinstance(parameter, parameters.Flag):
        return StrictBoolean(metadata=meta)
    if isinstance(parameter, parameters.RoundCount | parameters.HandSize | parameters.Jokers):
        return integer(validate=validate.Range(min=0), metadata=meta)
    if isinstance(parameter, parameters.Number):
        return integer(
            validate=validate.Range(parameter.low, parameter.high),
            allow_none=parameter.nullable,
            metadata=meta,
        )
    if isinstance(parameter, parameters.Choice):
        return fields.String(validate=validate.OneOf(parameter.choices), metadata=meta)
    if isinstance(parameter, parameters.Ranks):
        return fields.List(
            fields.String(validate=validate.Regexp(RANK_PATTERN)),
            validate=validate.Length(max=13),
            metadata=meta,
        )
    if isinstance(parameter, parameters.Points):
        return fields.Dict(
            keys=fields.String(validate=validate.Length(min=1, max=5)),
            values=integer(validate=validate.Range(min=0)),
            validate=validate.Length(max=14),
            metadata={**meta, "description": 'Points by rank and "JK", like {"JK": 25}.'},
        )
    if isinstance(parameter, parameters.Rounds):
        return fields.List(
            fields.Nested(RoundOptionSchema),
            validate=validate.Length(min=1, max=MAX_ROUND),
            metadata=meta,
        )
    if isinstance(parameter, parameters.Tables):
        return fields.List(
            fields.Nested(TableOptionSchema),
            validate=validate.Length(min=1, max=MAX_SEATS),
            metadata=meta,
        )
    # A kind this layer does not know yet: any JSON value, for the engine to judge.
    return fields.Raw(metadata=meta)


HouseOptionsSchema = ma.Schema.from_dict(
    {name: _option_field(name) for name in PARAMETERS}, name="HouseOptionsSchema"
)
HouseOptionsSchema.error_messages = {
    "unknown": "unknown option; the options are: " + ", ".join(sorted(PARAMETERS))
}


class HouseRulesetSchema(ma.Schema):
    """A preset with some of its parameters replaced."""

    base = fields.String(required=True, validate=validate.OneOf(list(PRESETS)))
    options = fields.Nested(
        HouseOptionsSchema,
        metadata={"description": "Parameters to replace; `GET /v1/rulesets/{id}` shows them."},
    )


def ruleset_field() -> RulesetField:
    return RulesetField(HouseRulesetSchema, required=True)


# --- rulesets ------------------------------------------------------------------------------


class PlayersSchema(ma.Schema):
    min = integer(required=True)
    max = integer(required=True)


class RulesetSummarySchema(ma.Schema):
    id = fields.String(required=True, metadata={"example": "liverpool"})
    name = fields.String(required=True, metadata={"example": "Liverpool Rummy"})
    family = fields.String(required=True, metadata={"example": "liverpool"})
    players = fields.Nested(PlayersSchema, required=True)
    round_count = integer(required=True, metadata={"example": 7})


class RulesetListSchema(ma.Schema):
    rulesets = fields.List(fields.Nested(RulesetSummarySchema), required=True)


class RoundSchema(ma.Schema):
    number = integer(required=True)
    contract = fields.Nested(ContractSchema, required=True)
    hand_size = integer(required=True)
    min_cards = integer(required=True)
    whole_hand = fields.Boolean(required=True)
    discard_to_go_out = fields.Boolean(required=True)
    exact_minimum = fields.Boolean(required=True)


class TableSchema(ma.Schema):
    max_players = integer(required=True)
    decks = integer(required=True)
    jokers = integer(required=True)


class RulesetDetailSchema(RulesetSummarySchema):
    """Every parameter of a preset (RULES.md §3 says what each means), and its rounds."""

    description = fields.String(required=True)
    base = fields.String(required=True, allow_none=True)
    options = fields.Dict(required=True)
    tables = fields.List(fields.Nested(TableSchema), required=True)
    wild_ranks = fields.List(fields.String(), required=True)
    wild_rank_in_melds = fields.Boolean(required=True)
    ace_low = fields.Boolean(required=True)
    ace_high = fields.Boolean(required=True)
    set_min = integer(required=True)
    run_min = integer(required=True)
    runs_may_touch = fields.Boolean(required=True)
    same_suit_run_gap = integer(required=True)
    layoff_timing = fields.String(required=True)
    set_min_naturals = integer(required=True)
    run_min_naturals = integer(required=True)
    wilds_outside_span = integer(required=True, allow_none=True)
    run_wilds_per_cards = integer(required=True, allow_none=True)
    wilds_at_most_naturals = fields.Boolean(required=True)
    wild_limits_on_layoff = fields.Boolean(required=True)
    swaps = fields.Boolean(required=True)
    swap_from_sets = fields.Boolean(required=True)
    swap_from_runs = fields.Boolean(required=True)
    swap_jokers_only = fields.Boolean(required=True)
    swap_timing = fields.String(required=True)
    freed_joker = fields.String(required=True)
    buying = fields.Boolean(required=True)
    buy_limit = integer(required=True, allow_none=True)
    buy_penalty_cards = integer(required=True)
    no_consecutive_buys = fields.Boolean(required=True)
    buy_when_down = fields.Boolean(required=True)
    go_out_by_melding = fields.Boolean(required=True)
    points = fields.Dict(keys=fields.String(), values=integer(), required=True)
    tie_break = fields.String(required=True)
    cut_bonus = integer(required=True)
    cutter = fields.String(required=True)
    first_dealer = fields.String(required=True)
    stock_exhausted = fields.String(required=True)
    rounds = fields.List(fields.Nested(RoundSchema), required=True)
