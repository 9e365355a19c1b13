"""The match sheets' bodies: starting a sheet, a round's results, and the sheet answered.

A sheet is answered as storage reads it back: the :class:`~api.storage.scoresheet.ScoreSheet`
read model (frozen dataclasses, the arithmetic done by ``rules.match``), which
:class:`SheetSchema` dumps attribute by attribute (compiled once, :mod:`api.schemas.compiled`).
The read model holds what a sheet is; the schema says how it is shown — which fields, in which
order, what each means in the OpenAPI document, and what is left out while a round is pending
(a value its ``get_attribute`` reads as missing, which marshmallow leaves out). A field the read model lacks fails
the dump loudly, and ``tests/api/test_sheet_schema.py`` holds the two to the same fields.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields

from rules import MAX_SEATS
from rules.i18n import N_

from .. import i18n
from ..fields import (
    Boolean,
    CardField,
    Integer,
    List,
    Nested,
    PlainText,
    RequestSchema,
    in_range,
    length,
    one_of,
    refusal,
)
from ..storage.scoresheet import RecordedResult, ScoreSheet, SheetRound
from .common import MAX_ROUND, ContractSchema
from .compiled import CompiledSchema
from .rulesets import ruleset_field

MAX_PLAYERS = MAX_SEATS
MIN_PLAYERS = 2
MAX_NAME = 40
MAX_TITLE = 80

# --- requests ------------------------------------------------------------------------------------


class MatchCreateSchema(RequestSchema):
    ruleset = ruleset_field()
    players = List(
        PlainText(
            min_length=1,
            max_length=MAX_NAME,
            metadata={
                "description": "A player's name: trimmed and stored in Unicode NFC, 1-40"
                " characters, with no control, format or surrogate characters, except the"
                " zero-width joiner between two pictographs of an emoji (a family) and the tags"
                " of a subdivision flag (U+1F3F4, tags, U+E007F). The pattern states the format"
                " characters of the Basic Multilingual Plane but the joiner, which only its"
                " place allows."
            },
        ),
        required=True,
        # No ruleset seats fewer than two: every table size is between MIN_PLAYERS and MAX_SEATS.
        validate=length(MIN_PLAYERS, MAX_PLAYERS),
        metadata={
            "description": "Names in seat order, clockwise; as many as the ruleset allows, each"
            " different from the others ignoring case.",
            "uniqueItems": True,
        },
    )
    title = PlainText(
        min_length=0,
        max_length=MAX_TITLE,
        allow_none=True,
        load_default=None,
        metadata={
            "description": "What the evening is called (up to 80 characters, the rules of a"
            " name); blank or left out, the sheet has none."
        },
    )
    first_dealer = Integer(
        load_default=0,
        validate=in_range(0, MAX_PLAYERS - 1),
        metadata={"description": "The seat that deals round 1 (default 0)."},
    )

    @ma.validates_schema
    def names_told_apart(self, data: dict[str, Any], **_: Any) -> None:
        """Two players the table cannot tell apart on the sheet ("Ann" and "ann")."""
        seen: dict[str, int] = {}
        clashes: dict[int, list[str]] = {}
        for index, name in enumerate(data.get("players", ())):
            key = name.casefold()
            if key in seen:
                clashes[index] = [
                    refusal(
                        N_("{name!r} is the name of seat {seat} already"), name=name, seat=seen[key]
                    )
                ]
            else:
                seen[key] = index
        if clashes:
            raise ma.ValidationError({"players": clashes})

    @ma.post_load
    def blank_title_is_none(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        if not data.get("title"):
            data["title"] = None
        return data


class ResultEntrySchema(RequestSchema):
    seat = Integer(required=True, validate=in_range(0, MAX_PLAYERS - 1))
    went_out = Boolean(metadata={"description": "true for the player who went out"})
    # At every table a player who did not go out is left with cards, and a penalty entered as
    # points is above 0 (the engine's zero_points and points_negative): bounds of the schema.
    points = Integer(
        validate=in_range(1, 5000),
        metadata={"description": "The penalty as points."},
    )
    cards = List(
        CardField(),
        validate=length(1, 60),
        metadata={"description": "The cards left in hand, scored by the ruleset."},
    )
    buys = Integer(validate=in_range(0, 50), metadata={"description": "Buys this round."})
    bonus = Integer(
        validate=in_range(0, 500),
        metadata={"description": "Points taken off (the cut bonus), where the ruleset has one."},
    )

    @ma.validates_schema
    def one_outcome(self, data: dict[str, Any], **_: Any) -> None:
        given = [key for key in ("went_out", "points", "cards") if key in data]
        if data.get("went_out") is False:
            given.remove("went_out")
        if len(given) != 1:
            raise ma.ValidationError(
                refusal(N_('give exactly one of "went_out": true, "points" or "cards"')),
                "_schema",
            )


class RoundWriteSchema(RequestSchema):
    results = List(
        Nested(ResultEntrySchema),
        required=True,
        validate=length(1, MAX_PLAYERS),
        metadata={"description": "One result per seat."},
    )
    stock_ran_out = Boolean(
        load_default=False,
        metadata={"description": "The round ended with nobody out: everyone scores their hand."},
    )


# --- the sheet -----------------------------------------------------------------------------------


class SeatSchema(ma.Schema):
    seat = Integer(required=True)
    name = fields.String(required=True)


class ResultSchema(ma.Schema):
    seat = Integer(required=True)
    points = Integer(required=True, metadata={"description": "What the round adds to the total."})
    total = Integer(
        required=True, metadata={"description": "The player's running total after this round."}
    )
    penalty = Integer(required=True, metadata={"description": "The penalty before any bonus."})
    went_out = fields.Boolean(required=True)
    buys = Integer(allow_none=True, required=True)
    bonus = Integer(required=True)
    cards = fields.List(fields.String(), metadata={"description": "When given as cards."})

    def get_attribute(self, obj: RecordedResult, attr: str, default: Any) -> Any:
        """A result entered as points has no cards to show: the key is left out, not null."""
        if attr == "cards" and obj.cards is None:
            return ma.missing
        return getattr(obj, attr, default)


class SheetRoundSchema(ma.Schema):
    number = Integer(required=True)
    contract = fields.Nested(ContractSchema, required=True)
    hand_size = Integer(required=True)
    whole_hand = fields.Boolean(required=True)
    discard_to_go_out = fields.Boolean(required=True)
    dealer = Integer(required=True)
    cutter = Integer(required=True)
    first_player = Integer(required=True)
    status = fields.String(required=True, validate=one_of(["pending", "played"]))
    stock_ran_out = fields.Boolean()
    results = fields.Nested(ResultSchema, many=True)

    def get_attribute(self, obj: SheetRound, attr: str, default: Any) -> Any:
        """A pending round has not ended yet: no stock_ran_out and no results, not nulls."""
        if obj.status == "pending" and attr in ("stock_ran_out", "results"):
            return ma.missing
        return getattr(obj, attr, default)


class TotalSchema(ma.Schema):
    seat = Integer(required=True)
    total = Integer(required=True)


class StandingSchema(ma.Schema):
    rank = Integer(required=True)
    seat = Integer(required=True)
    name = fields.String(required=True)
    total = Integer(required=True)


class TieBreakSchema(ma.Schema):
    method = fields.String(required=True, metadata={"example": "last_round"})
    seats = fields.List(Integer(), required=True, metadata={"description": "The tied seats."})
    round = Integer(allow_none=True, required=True)
    decided = fields.Boolean(required=True)


class SheetSchema(CompiledSchema):
    id = fields.String(required=True)
    ruleset = fields.Dict(
        required=True, metadata={"description": "The resolved ruleset, as stored with the sheet."}
    )
    players = fields.Nested(SeatSchema, many=True, required=True)
    first_dealer = Integer(required=True)
    rounds = fields.Nested(SheetRoundSchema, many=True, required=True)
    totals = fields.Nested(TotalSchema, many=True, required=True)
    standings = fields.Nested(StandingSchema, many=True, required=True)
    status = fields.String(required=True, validate=one_of(["in_progress", "finished"]))
    winners = fields.List(Integer(), allow_none=True, required=True)
    tie_break = fields.Nested(TieBreakSchema, allow_none=True, required=True)
    version = Integer(required=True)
    created_at = fields.String(
        required=True,
        metadata={
            "format": "date-time",
            "description": "When the sheet was created: RFC 3339, UTC.",
            "example": "2026-12-01T19:30:00Z",
        },
    )
    updated_at = fields.String(
        required=True,
        metadata={
            "format": "date-time",
            "description": "When the sheet last changed: RFC 3339, UTC.",
            "example": "2026-12-01T21:05:12Z",
        },
    )
    title = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "What the evening is called, or null."},
    )

    def get_attribute(self, obj: ScoreSheet, attr: str, default: Any) -> Any:
        """The stored ruleset with its preset's name and description in the reader's words
        (what is stored, and the ETag, stay as they are)."""
        if attr != "ruleset":
            return super().get_attribute(obj, attr, default)
        text = i18n.words().text
        ruleset = obj.ruleset
        return {
            **ruleset,
            "name": text(ruleset["name"]),
            "description": text(ruleset["description"]),
        }


class CreatedSheetSchema(SheetSchema):
    edit_token = fields.String(
        required=True,
        metadata={"description": "Needed to change or delete the sheet; shown only here."},
    )


__all__ = [
    "MAX_NAME",
    "MAX_PLAYERS",
    "MAX_ROUND",
    "MAX_TITLE",
    "MIN_PLAYERS",
    "CreatedSheetSchema",
    "MatchCreateSchema",
    "ResultEntrySchema",
    "RoundWriteSchema",
    "SheetSchema",
]
