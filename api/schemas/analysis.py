"""``POST /v1/hands/analysis``'s bodies: the hand asked about, and the analysis answered."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from rules import MAX_SEATS, MELD_TYPES

from ..fields import CardList, Integer, RequestSchema, cards, in_range, one_of
from .common import ContractSchema, MeldSchema, jokers_field, round_field
from .compiled import CompiledSchema
from .rulesets import ruleset_field

#: A hand to analyse: 12 dealt, one drawn, and every buy's two cards leave room to spare. The
#: bound keeps every request's search cheap.
MAX_ANALYSED_HAND = 30


class AnalysisRequestSchema(RequestSchema):
    ruleset = ruleset_field()
    round = round_field()
    hand = cards(
        required=True,
        min_items=1,
        max_items=MAX_ANALYSED_HAND,
        metadata={"description": "Every card the player holds, wild cards included."},
    )
    players = Integer(
        validate=in_range(2, MAX_SEATS),
        metadata={
            "description": "Players at the table (sets the decks and jokers in play); without"
            " it, the largest table the ruleset allows."
        },
    )
    jokers = jokers_field()


class PartialMeldSchema(ma.Schema):
    type = fields.String(required=True, validate=one_of(MELD_TYPES))
    cards = CardList(required=True, metadata={"description": "The held cards, in table order."})
    missing = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "What each absent card stands for: a card in a run (`8H`), a rank"
            " in a set (`7`)."
        },
    )


class ClosestSchema(ma.Schema):
    melds = fields.List(fields.Nested(PartialMeldSchema), required=True)
    missing = Integer(required=True, metadata={"description": "Cards not held that it needs."})
    complete = Integer(required=True, metadata={"description": "Melds with nothing missing."})
    remaining = CardList(required=True)
    penalty = Integer(required=True)


class AnalysisSchema(CompiledSchema):
    can_lay = fields.Boolean(required=True)
    round = Integer(required=True, attribute="round.number")
    contract = fields.Nested(ContractSchema, required=True, attribute="round.contract")
    melds = fields.List(
        fields.Nested(MeldSchema),
        required=True,
        attribute="readings",
        metadata={
            "description": "The best arrangement (lowest penalty left, then fewest wild cards,"
            " then most cards laid), read as the contract check reads it; empty when the"
            " contract cannot be laid."
        },
    )
    remaining = CardList(required=True, metadata={"description": "The cards left in hand."})
    penalty = Integer(required=True, metadata={"description": "What `remaining` costs."})
    goes_out = fields.Boolean(required=True)
    needs = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "When the contract cannot be laid: every single card (canonical,"
            " `JK` for a joker) that, drawn, would make it layable."
        },
    )
    closest = fields.Nested(
        ClosestSchema,
        required=True,
        allow_none=True,
        metadata={"description": "When the contract cannot be laid: the nearest arrangement."},
    )
