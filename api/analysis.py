"""``POST /v1/hands/analysis``: can this hand lay the round's contract, and what is it waiting for?

The question new players ask most at a real table. The answer comes from
:func:`rules.analysis.analyse_hand`, an exact search: the best way to lay the contract (read
exactly as ``POST /v1/checks/contract`` reads melds, so feeding it back is always valid), or
every single card that would make it layable and the nearest partial arrangement.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from rules import MELD_TYPES
from rules.analysis import Analysis, analyse_hand

from .fields import CardList, cards, integer
from .parsing import Blueprint
from .schemas import ContractField, MeldField, round_field, ruleset_field

blp = Blueprint(
    "analysis",
    __name__,
    url_prefix="/v1/hands",
    description="Hand analysis: the best contract a hand can lay, or the cards it waits for.",
)

#: A hand to analyse: 12 dealt, one drawn, and every buy's two cards leave room to spare. The
#: bound keeps every request's search cheap.
MAX_ANALYSED_HAND = 30


class AnalysisRequestSchema(ma.Schema):
    ruleset = ruleset_field()
    round = round_field()
    hand = cards(
        required=True,
        min_items=1,
        max_items=MAX_ANALYSED_HAND,
        metadata={"description": "Every card the player holds, wild cards included."},
    )
    players = integer(
        validate=validate.Range(2, 12),
        metadata={
            "description": "Players at the table (sets the decks and jokers in play); without"
            " it, the largest table the ruleset allows."
        },
    )


class PartialMeldSchema(ma.Schema):
    type = fields.String(required=True, validate=validate.OneOf(MELD_TYPES))
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
    missing = integer(required=True, metadata={"description": "Cards not held that it needs."})
    complete = integer(required=True, metadata={"description": "Melds with nothing missing."})
    remaining = CardList(required=True)
    penalty = integer(required=True)


class AnalysisSchema(ma.Schema):
    can_lay = fields.Boolean(required=True)
    round = integer(required=True, attribute="round.number")
    contract = ContractField(required=True, attribute="round.contract")
    melds = fields.List(
        MeldField(),
        required=True,
        attribute="readings",
        metadata={
            "description": "The best arrangement (lowest penalty left, then fewest wild cards,"
            " then most cards laid), read as the contract check reads it; empty when the"
            " contract cannot be laid."
        },
    )
    remaining = CardList(required=True, metadata={"description": "The cards left in hand."})
    penalty = integer(required=True, metadata={"description": "What `remaining` costs."})
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


@blp.post("/analysis")
@blp.json_body(
    AnalysisRequestSchema,
    example={
        "ruleset": "liverpool",
        "round": 2,
        "hand": ["4H", "5H", "6H", "8C", "9C", "9S", "KD", "QS", "2D", "3D", "JK"],
    },
)
@blp.response(
    200,
    AnalysisSchema,
    example={
        "can_lay": False,
        "round": 2,
        "contract": {
            "melds": [{"type": "set", "min": 3}, {"type": "run", "min": 4}],
            "text": "1 set + 1 run",
        },
        "melds": [],
        "remaining": ["4H", "5H", "6H", "8C", "9C", "9S", "KD", "QS", "2D", "3D", "JK"],
        "penalty": 75,
        "goes_out": False,
        "needs": ["3H", "7H", "9S", "9H", "9D", "9C", "JK"],
        "closest": {
            "melds": [
                {"type": "set", "cards": ["9S", "9C"], "missing": ["9"]},
                {"type": "run", "cards": ["JK", "4H", "5H", "6H"], "missing": []},
            ],
            "missing": 1,
            "complete": 1,
            "remaining": ["8C", "KD", "QS", "2D", "3D"],
            "penalty": 35,
        },
    },
)
def analyse(args: dict[str, Any]) -> Analysis:
    """Analyse a hand

    Whether the round's contract can be laid from this hand now and the best way to lay it
    (the arrangement leaving the lowest penalty in hand, then the fewest wild cards, then the
    most cards laid); when it cannot, every single card that would make it layable, and the
    closest partial arrangement.
    """
    return analyse_hand(args["ruleset"], args["round"], args["hand"], args.get("players"))
