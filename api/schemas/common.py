"""What the resources share: the bounds of a request, the round, and the engine's values as
the verdicts and the rulesets show them — a contract, a meld, a wild card, a violation.

Response schemas dump the rules engine's own values (``Meld``, ``Violation``, ``Card``) by
attribute, so the engine's reading of a meld reaches the client without a copy in between.
Lists are bounded (at most 200 cards in a hand, 60 in a meld, 12 melds) so that no request is
expensive to check; nothing a table can hold comes near the bounds.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from rules import MAX_SEATS, MELD_TYPES

from ..fields import CardList, integer

MAX_HAND = 200
MAX_MELD = 60
MAX_MELDS = 12
MAX_ROUND = 20


def jokers_field() -> fields.Integer:
    """How many jokers this table shuffled in (beside ``players``)."""
    return integer(
        validate=validate.Range(0, MAX_SEATS),
        metadata={
            "description": "How many jokers this table actually shuffled in, within the"
            " ruleset's range for the table size (at least one a deck, at most the ruleset's"
            " count: a Liverpool table of four plays with 2, 3 or 4; without `players`, any"
            " table size's range); copies of jokers are limited by it. Outside the range: a"
            " 422 naming `jokers`. Without it, the ruleset's count for the table.",
            "example": 3,
        },
    )


def round_field() -> fields.Integer:
    return integer(
        required=True,
        validate=validate.Range(1, MAX_ROUND),
        metadata={"description": "A round of the ruleset (1 to its `round_count`).", "example": 2},
    )


class MeldSpecSchema(ma.Schema):
    type = fields.String(required=True, validate=validate.OneOf(MELD_TYPES))
    min = integer(required=True)


class ContractSchema(ma.Schema):
    #: A round's contract is part of its ruleset, which never changes once made: the fast
    #: path (api.fastjson) writes each contract's text once.
    values_never_change = True

    melds = fields.List(fields.Nested(MeldSpecSchema), required=True)
    text = fields.String(required=True, metadata={"example": "1 set + 1 run"})


# --- verdicts ------------------------------------------------------------------------------


class ViolationSchema(ma.Schema):
    code = fields.String(required=True, metadata={"example": "run_not_consecutive"})
    message = fields.String(required=True)
    meld = integer(
        required=True,
        allow_none=True,
        metadata={"description": "Index of the meld in the request, when one is at fault."},
    )
    card = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The card at fault, canonical, when there is one."},
    )


class WildSchema(ma.Schema):
    index = integer(
        required=True, metadata={"description": "Position of the wild card in `cards`."}
    )
    stands_for = fields.String(
        required=True,
        metadata={
            "description": "In a run the card it stands for (`6H`), in a set the rank alone"
            " (`7`); `?` where the meld's naturals fix nothing.",
            "example": "6H",
        },
    )


def _suit(meld: Any) -> str | None:
    return None if meld.suit is None else str(meld.suit.value)


def _rank(meld: Any) -> str | None:
    return None if meld.rank is None else str(meld.rank.symbol)


class MeldSchema(ma.Schema):
    """A meld as the referee reads it."""

    type = fields.String(required=True, validate=validate.OneOf(MELD_TYPES))
    suit = fields.Function(
        _suit,
        required=True,
        allow_none=True,
        metadata={"type": "string", "description": "A run's suit (`H`); null for a set."},
    )
    rank = fields.Function(
        _rank,
        required=True,
        allow_none=True,
        metadata={"type": "string", "description": "A set's rank (`7`); null for a run."},
    )
    cards = CardList(required=True, metadata={"description": "In table order, canonical."})
    wilds = fields.List(fields.Nested(WildSchema), required=True)
