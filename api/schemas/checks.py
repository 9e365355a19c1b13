"""The checks' bodies: each check's request, and the verdict it answers."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields

from rules import CONTRACT_DOWN, ENDS, MAX_SEATS, MELD_TYPES, OBLIGATIONS, ORDERS, Violation
from rules.i18n import N_

from .. import i18n
from ..fields import (
    CardField,
    CardList,
    Integer,
    List,
    Nested,
    RequestSchema,
    String,
    cards,
    in_range,
    length,
    one_of,
    refusal,
)
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
from .compiled import CompiledSchema
from .rulesets import ruleset_field


def _violations() -> fields.List[Any]:
    return fields.List(fields.Nested(ViolationSchema), required=True)


class MeldVerdictSchema(CompiledSchema):
    """The verdict on one meld is the engine's reading of it: valid, itself, its violations."""

    valid = fields.Boolean(required=True)
    meld = fields.Nested(MeldSchema, required=True)
    violations = _violations()

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        return obj if attr == "meld" else super().get_attribute(obj, attr, default)


class ContractVerdictSchema(CompiledSchema):
    valid = fields.Boolean(required=True)
    round = Integer(required=True, attribute="round.number")
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


class LayoffVerdictSchema(CompiledSchema):
    valid = fields.Boolean(required=True)
    meld = fields.Nested(
        MeldSchema, required=True, metadata={"description": "The meld with the cards added."}
    )
    violations = _violations()


class JokerSwapVerdictSchema(CompiledSchema):
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
        validate=one_of(OBLIGATIONS),
        metadata={
            "description": "Where the freed wild card must go: into a meld of the player's own"
            " at once, onto the table this turn, or (where the ruleset allows) the hand."
        },
    )
    violations = _violations()


class RefusalSchema(ma.Schema):
    seat = Integer(required=True)
    code = fields.String(
        required=True, attribute="violation.code", metadata={"example": "own_discard"}
    )
    message = fields.String(required=True, attribute="violation")

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        if attr == "violation":
            violation: Violation = obj.violation
            return i18n.say(violation.words)
        return super().get_attribute(obj, attr, default)


class BuyVerdictSchema(CompiledSchema):
    winner = Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The seat that gets the discard; null if nobody may buy it."},
    )
    penalty_cards = Integer(
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
    points = Integer(required=True)

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        card, points = obj
        return card if attr == "card" else points


class PenaltyVerdictSchema(CompiledSchema):
    total = Integer(required=True)
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


def _players() -> Integer:
    return Integer(
        validate=in_range(2, MAX_SEATS),
        metadata={
            "description": "Players at the table, within the ruleset's `players` range; it"
            " sets the decks and jokers in play. Without it, the largest table is assumed."
        },
    )


def _order(runs: str) -> String:
    return String(
        validate=one_of(ORDERS),
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


def _meld_type(description: str) -> String:
    return String(validate=one_of(MELD_TYPES), metadata={"description": description})


def _contract_down() -> String:
    return String(
        required=True,
        validate=one_of(CONTRACT_DOWN),
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
    melds = List(
        cards(min_items=1, max_items=MAX_MELD),
        required=True,
        validate=length(1, MAX_MELDS),
        metadata={"description": "The melds laid, each in table order."},
    )
    hand = cards(
        max_items=MAX_HAND,
        metadata={"description": "Every card the player holds, the melds' cards included."},
    )
    types = List(
        String(validate=one_of(MELD_TYPES), allow_none=True),
        validate=length(high=MAX_MELDS),
        metadata={
            "description": "The type of each meld, where the player declares it (null: read"
            " from the cards)."
        },
    )
    players = _players()
    jokers = jokers_field()
    order = _order("each meld's cards are")
    contract_down = String(
        validate=one_of(CONTRACT_DOWN),
        metadata={
            "description": "Whether the player's contract is down already, the moment before"
            " this one: `no` (the default); `this_turn` or `earlier_turn` — a contract is laid"
            " once a round, so the verdict is invalid with `contract_already_down`.",
            "example": "no",
        },
    )


def _table_meld() -> CardList:
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
    end = String(
        validate=one_of(ENDS),
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
    joker = Integer(
        validate=in_range(0, MAX_MELD - 1),
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


def _seat(description: str, **kwargs: Any) -> Integer:
    return Integer(
        validate=in_range(0, MAX_SEATS - 1),
        metadata={"description": description},
        **kwargs,
    )


BuysUsedSchema = RequestSchema.from_dict(
    {str(seat): Integer(validate=in_range(0, 99)) for seat in range(MAX_SEATS)},
    name="BuysUsedSchema",
)


class BuyCheckSchema(RequestSchema):
    ruleset = ruleset_field()
    round = round_field()
    seats = Integer(
        required=True,
        validate=in_range(2, MAX_SEATS),
        metadata={"description": "Players at the table (seats 0 to seats - 1)."},
    )
    on_turn = _seat("The player on turn, who declined the discard.", required=True)
    callers = List(
        _seat("A seat asking to buy."),
        required=True,
        validate=length(high=MAX_SEATS - 1),
        metadata={
            "uniqueItems": True,
            "description": "Seats asking to buy the discard, not including `on_turn`.",
        },
    )
    buys_used = Nested(
        BuysUsedSchema,
        required=True,
        metadata={"description": "Buys each seat has made this round, by seat number."},
    )
    previous_buyer = _seat("The seat that bought the previous discard, if any.", allow_none=True)
    down = List(
        _seat("A seat whose contract is down."),
        validate=length(high=MAX_SEATS),
        metadata={
            "uniqueItems": True,
            "description": "Seats whose contract is on the table (for rulesets where they"
            " may no longer buy).",
        },
    )

    @ma.validates("callers")
    def _distinct_callers(self, value: list[int], **kwargs: Any) -> None:
        if len(set(value)) != len(value):
            raise ma.ValidationError(refusal(N_("a seat calls at most once")))

    @ma.validates("down")
    def _distinct_down(self, value: list[int], **kwargs: Any) -> None:
        if len(set(value)) != len(value):
            raise ma.ValidationError(refusal(N_("each seat at most once")))

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
