"""The checks' bodies: each check's request, and the verdict it answers."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from rules import CONTRACT_DOWN, ENDS, MAX_SEATS, MELD_TYPES, OBLIGATIONS, ORDERS

from ..fastjson import RequestSchema, ResponseSchema
from ..fields import CardField, CardList, cards, integer
from .common import (
    MAX_HAND,
    MAX_MELD,
    MAX_MELDS,
    ContractSchema,
    MeldSchema,
    ViolationSchema,
    jokers_field,
    round_field,
)
from .rulesets import ruleset_field


def _violations() -> fields.List[Any]:
    return fields.List(fields.Nested(ViolationSchema), required=True)


class MeldVerdictSchema(ResponseSchema):
    """The verdict on one meld is the engine's reading of it: valid, itself, its violations."""

    valid = fields.Boolean(required=True)
    meld = fields.Nested(MeldSchema, required=True)
    violations = _violations()

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        return obj if attr == "meld" else super().get_attribute(obj, attr, default)


class ContractVerdictSchema(ResponseSchema):
    valid = fields.Boolean(required=True)
    round = integer(required=True, attribute="round.number")
    contract = fields.Nested(ContractSchema, required=True)
    melds = fields.List(fields.Nested(MeldSchema), required=True)
    remaining = CardList(
        required=True,
        allow_none=True,
        metadata={"description": "The hand minus the melds; null when no hand was given."},
    )
    goes_out = fields.Boolean(
        required=True,
        allow_none=True,
        metadata={
            "description": "Whether the player can end the round on this turn; null when no"
            " hand was given."
        },
    )
    violations = _violations()


class LayoffVerdictSchema(ResponseSchema):
    valid = fields.Boolean(required=True)
    meld = fields.Nested(
        MeldSchema, required=True, metadata={"description": "The meld with the cards added."}
    )
    violations = _violations()


class JokerSwapVerdictSchema(ResponseSchema):
    valid = fields.Boolean(required=True)
    meld = fields.Nested(
        MeldSchema,
        required=True,
        metadata={"description": "The meld after the swap, the natural in the wild card's place."},
    )
    freed = CardField(
        required=True,
        allow_none=True,
        metadata={"description": "The wild card taken off the table; null if none is there."},
    )
    obligation = fields.String(
        required=True,
        validate=validate.OneOf(OBLIGATIONS),
        metadata={
            "description": "Where the freed wild card must go: into a meld of the player's own"
            " at once, onto the table this turn, or (where the ruleset allows) the hand."
        },
    )
    violations = _violations()


class RefusalSchema(ma.Schema):
    seat = integer(required=True)
    code = fields.String(
        required=True, attribute="violation.code", metadata={"example": "own_discard"}
    )
    message = fields.String(required=True, attribute="violation.message")


class BuyVerdictSchema(ResponseSchema):
    winner = integer(
        required=True,
        allow_none=True,
        metadata={"description": "The seat that gets the discard; null if nobody may buy it."},
    )
    penalty_cards = integer(
        required=True, metadata={"description": "Cards the winner also takes from the stock."}
    )
    refused = fields.List(
        fields.Nested(RefusalSchema),
        required=True,
        metadata={"description": "Every caller who does not get the card, and why."},
    )


class PenaltyCardSchema(ma.Schema):
    """One card of a hand and what it costs: the engine's ``(card, points)`` pair."""

    card = CardField(required=True)
    points = integer(required=True)

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        card, points = obj
        return card if attr == "card" else points


class PenaltyVerdictSchema(ResponseSchema):
    total = integer(required=True)
    cards = fields.List(fields.Nested(PenaltyCardSchema), required=True)
    violations = fields.List(
        fields.Nested(ViolationSchema),
        required=True,
        metadata={
            "description": "Why no table could deal this hand (`too_many_copies`: more copies"
            " of a card, or more jokers, than the decks in play hold); the total is counted"
            " anyway. Empty for a hand that can exist."
        },
    )


# --- check requests ------------------------------------------------------------------------


def _players() -> fields.Integer:
    return integer(
        validate=validate.Range(2, MAX_SEATS),
        metadata={
            "description": "Players at the table, within the ruleset's `players` range; it"
            " sets the decks and jokers in play. Without it, the largest table is assumed."
        },
    )


def _order(runs: str) -> fields.String:
    return fields.String(
        validate=validate.OneOf(ORDERS),
        metadata={
            "description": f"How {runs} given: `table` (the default), as the cards lie, a run"
            " read in that order; `any`, in any order (tapped on a phone): the referee lays"
            " each run out itself — naturals in rank order, wild cards into the gaps, a spare"
            " wild card at the high end, or at the low end where the high end is an ace or"
            " illegal — judges that arrangement and answers it as the meld's `cards`, with"
            " each wild card's reading. Sets are read in any order either way.",
            "example": "any",
        },
    )


def _meld_type(description: str) -> fields.String:
    return fields.String(validate=validate.OneOf(MELD_TYPES), metadata={"description": description})


def _contract_down() -> fields.String:
    return fields.String(
        required=True,
        validate=validate.OneOf(CONTRACT_DOWN),
        metadata={
            "description": "The moment before the move: not down yet, laid earlier on this"
            " turn, or laid on a previous turn."
        },
    )


class MeldCheckSchema(RequestSchema):
    ruleset = ruleset_field()
    cards = cards(
        required=True,
        min_items=1,
        max_items=MAX_MELD,
        metadata={"description": "One meld, in table order."},
    )
    type = _meld_type(
        "Read the cards as this; without it, as whichever they plainly are (in any order,"
        " naturals all of one rank are a set)."
    )
    players = _players()
    jokers = jokers_field()
    order = _order("the cards are")


class ContractCheckSchema(RequestSchema):
    ruleset = ruleset_field()
    round = round_field()
    melds = fields.List(
        cards(min_items=1, max_items=MAX_MELD),
        required=True,
        validate=validate.Length(min=1, max=MAX_MELDS),
        metadata={"description": "The melds laid, each in table order."},
    )
    hand = cards(
        max_items=MAX_HAND,
        metadata={"description": "Every card the player holds, the melds' cards included."},
    )
    types = fields.List(
        fields.String(validate=validate.OneOf(MELD_TYPES), allow_none=True),
        validate=validate.Length(max=MAX_MELDS),
        metadata={
            "description": "The type of each meld, where the player declares it (null: read"
            " from the cards)."
        },
    )
    players = _players()
    jokers = jokers_field()
    order = _order("each meld's cards are")
    contract_down = fields.String(
        validate=validate.OneOf(CONTRACT_DOWN),
        metadata={
            "description": "Whether the player's contract is down already, the moment before"
            " this one: `no` (the default); `this_turn` or `earlier_turn` — a contract is laid"
            " once a round, so the verdict is invalid with `contract_already_down`.",
            "example": "no",
        },
    )


def _table_meld() -> fields.List[Any]:
    """The meld a lay-off or a joker swap changes, as it lies on the table."""
    return cards(
        required=True,
        min_items=1,
        max_items=MAX_MELD,
        metadata={"description": "The meld on the table, in table order."},
    )


class LayoffCheckSchema(RequestSchema):
    ruleset = ruleset_field()
    round = round_field()
    meld = _table_meld()
    cards = cards(
        required=True,
        min_items=1,
        max_items=MAX_MELD,
        metadata={
            "description": "The cards added from hand, in any order: each goes where it fits"
            " (naturals by rank, wild cards into the gaps, then at `end`)."
        },
    )
    contract_down = _contract_down()
    end = fields.String(
        validate=validate.OneOf(ENDS),
        metadata={
            "description": "Where a wild card goes on a run; without it, the high end (the"
            " low end when the high end is an ace)."
        },
    )
    type = _meld_type("The table meld's type, where its cards leave it open.")
    players = _players()
    jokers = jokers_field()
    order = _order("the table meld's cards are (the added `cards` may always come in any order)")


class JokerSwapCheckSchema(RequestSchema):
    ruleset = ruleset_field()
    round = round_field()
    meld = _table_meld()
    joker = integer(
        validate=validate.Range(0, MAX_MELD - 1),
        metadata={
            "description": "Position in `meld` of the wild card to take; required when the"
            " meld holds more than one."
        },
    )
    card = CardField(required=True, metadata={"description": "The natural offered in its place."})
    contract_down = _contract_down()
    type = _meld_type("The table meld's type, where its cards leave it open.")
    players = _players()
    jokers = jokers_field()


def _seat(description: str, **kwargs: Any) -> fields.Integer:
    return integer(
        validate=validate.Range(0, MAX_SEATS - 1),
        metadata={"description": description},
        **kwargs,
    )


BuysUsedSchema = ma.Schema.from_dict(
    {str(seat): integer(validate=validate.Range(0, 99)) for seat in range(MAX_SEATS)},
    name="BuysUsedSchema",
)


class BuyCheckSchema(ma.Schema):  # its validators and post_load: marshmallow loads it
    ruleset = ruleset_field()
    round = round_field()
    seats = integer(
        required=True,
        validate=validate.Range(2, MAX_SEATS),
        metadata={"description": "Players at the table (seats 0 to seats - 1)."},
    )
    on_turn = _seat("The player on turn, who declined the discard.", required=True)
    callers = fields.List(
        _seat("A seat asking to buy."),
        required=True,
        validate=validate.Length(max=MAX_SEATS - 1),
        metadata={
            "uniqueItems": True,
            "description": "Seats asking to buy the discard, not including `on_turn`.",
        },
    )
    buys_used = fields.Nested(
        BuysUsedSchema,
        required=True,
        metadata={"description": "Buys each seat has made this round, by seat number."},
    )
    previous_buyer = _seat("The seat that bought the previous discard, if any.", allow_none=True)
    down = fields.List(
        _seat("A seat whose contract is down."),
        validate=validate.Length(max=MAX_SEATS),
        metadata={
            "uniqueItems": True,
            "description": "Seats whose contract is on the table (for rulesets where they"
            " may no longer buy).",
        },
    )

    @ma.validates("callers")
    def _distinct_callers(self, value: list[int], **kwargs: Any) -> None:
        if len(set(value)) != len(value):
            raise ma.ValidationError("a seat calls at most once")

    @ma.validates("down")
    def _distinct_down(self, value: list[int], **kwargs: Any) -> None:
        if len(set(value)) != len(value):
            raise ma.ValidationError("each seat at most once")

    @ma.post_load
    def _seat_numbers(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        data["buys_used"] = {int(seat): count for seat, count in data["buys_used"].items()}
        return data


class HandPenaltySchema(RequestSchema):
    ruleset = ruleset_field()
    cards = cards(
        required=True,
        max_items=MAX_HAND,
        metadata={"description": "The cards left in hand."},
    )
    players = _players()
    jokers = jokers_field()
