"""What the resources share: the bounds of a request, the round, and the engine's values as
the verdicts and the rulesets show them — a contract, a meld, a wild card, a violation.

Response schemas dump the rules engine's own values (``Meld``, ``Violation``, ``Card``) by
attribute, so the engine's reading of a meld reaches the client without a copy in between.
Lists are bounded (at most 200 cards in a hand, 60 in a meld, 12 melds) so that no request is
expensive to check; nothing a table can hold comes near the bounds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from marshmallow import fields

from rules import MAX_SEATS, MELD_TYPES, Contract, Meld, MeldSpec, Violation

from .. import i18n
from ..fields import CardList, Integer, in_range, one_of

MAX_HAND = 200
MAX_MELD = 60
MAX_MELDS = 12
MAX_ROUND = 20


def jokers_field() -> Integer:
    """How many jokers this table shuffled in (beside ``players``)."""
    return Integer(
        validate=in_range(0, MAX_SEATS),
        metadata={
            "description": "How many jokers this table actually shuffled in, within the"
            " ruleset's range for the table size (at least one a deck, at most the ruleset's"
            " count: a Liverpool table of four plays with 2, 3 or 4; without `players`, any"
            " table size's range); copies of jokers are limited by it. Outside the range: a"
            " 422 naming `jokers`. Without it, the ruleset's count for the table.",
            "example": 3,
        },
    )


def round_field() -> Integer:
    return Integer(
        required=True,
        validate=in_range(1, MAX_ROUND),
        metadata={"description": "A round of the ruleset (1 to its `round_count`).", "example": 2},
    )


class MeldSpecSchema(ma.Schema):
    type = fields.String(required=True, validate=one_of(MELD_TYPES))
    min = Integer(required=True)


def contract_text(contract: Contract | Mapping[str, Any]) -> str:
    """A contract's words in the answer's language, made once per language, from the engine's
    value or its stored form (a ruleset's rounds as ``Ruleset.as_dict`` writes them)."""
    if not isinstance(contract, Contract):
        contract = Contract(tuple(MeldSpec(m["type"], m["min"]) for m in contract["melds"]))
    words = i18n.words()
    return words.remember(("contract", contract), lambda: words.phrase(contract.words))


class ContractSchema(ma.Schema):
    melds = fields.List(fields.Nested(MeldSpecSchema), required=True)
    text = fields.String(
        required=True,
        metadata={
            "description": "The contract in words, in the answer's language (`Content-Language`).",
            "example": "1 set + 1 run",
        },
    )

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        return contract_text(obj) if attr == "text" else super().get_attribute(obj, attr, default)


# --- verdicts ------------------------------------------------------------------------------


class ViolationSchema(ma.Schema):
    code = fields.String(required=True, metadata={"example": "run_not_consecutive"})
    message = fields.String(required=True)
    meld = Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Index of the meld in the request, when one is at fault."},
    )
    card = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The card at fault, canonical, when there is one."},
    )

    def get_attribute(self, obj: Violation, attr: str, default: Any) -> Any:
        if attr == "message":
            return i18n.say(obj.words)
        return super().get_attribute(obj, attr, default)


class WildSchema(ma.Schema):
    index = Integer(
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


def _suit(meld: Meld) -> str | None:
    return None if meld.suit is None else str(meld.suit.value)


def _rank(meld: Meld) -> str | None:
    return None if meld.rank is None else str(meld.rank.symbol)


class MeldSchema(ma.Schema):
    """A meld as the referee reads it."""

    type = fields.String(required=True, validate=one_of(MELD_TYPES))
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
