"""Match sheets over HTTP: ``/v1/matches`` (docs/api.md, "Match sheets").

Reading needs only the sheet's id, which is long and random; writing needs the edit token
shown once at creation. ``If-Match`` makes a write conditional on the version a phone last saw,
and ``Idempotency-Key`` makes creating a sheet safe to retry. What a sheet is, and every
refusal of a change to it, is :mod:`api.storage`'s; this module reads requests, and writes the
:class:`~api.storage.scoresheet.ScoreSheet` storage reads back through :class:`SheetSchema`.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from datetime import timedelta
from typing import Any

import marshmallow as ma
from flask import Response, current_app, request, url_for
from marshmallow import fields, validate

from api import i18n, metrics
from api.errors import Problem, version_etag
from api.extensions import database
from api.fastjson.sheets import RoundRequestSchema, SheetResponseSchema
from api.fields import CardField, PlainText, StrictBoolean, integer
from api.parsing import Blueprint
from api.schemas import MAX_ROUND, ContractSchema, ruleset_field
from api.security import SHEET_CACHE_CONTROL
from api.storage import idempotency, sheets
from api.storage.scoresheet import ScoreSheet, score_sheet
from rules import MAX_SEATS
from rules import i18n as words
from rules.i18n import N_
from rules.match import Entry

blp = Blueprint(
    "matches",
    __name__,
    url_prefix="/v1/matches",
    description="Stored match sheets: rounds, penalties, totals, standings and the winner.",
)


@blp.after_request
def private_to_its_holders(response: Response) -> Response:
    """A sheet is private to whoever has its address, and changes with every round."""
    response.headers["Cache-Control"] = SHEET_CACHE_CONTROL
    return response


MAX_PLAYERS = MAX_SEATS
MIN_PLAYERS = 2
MAX_NAME = 40
#: An Idempotency-Key's length: long enough to be random (a UUID is 36), short enough to keep.
MIN_KEY, MAX_KEY = 16, 255


# --- schemas ------------------------------------------------------------------------------------


MAX_TITLE = 80


class MatchCreateSchema(ma.Schema):
    ruleset = ruleset_field()
    players = fields.List(
        PlainText(
            min_length=1,
            max_length=MAX_NAME,
            metadata={
                "description": "A player's name: trimmed and stored in Unicode NFC, 1-40"
                " characters, with no control, format or surrogate characters."
            },
        ),
        required=True,
        # No ruleset seats fewer than two: every table size is between MIN_PLAYERS and MAX_SEATS.
        validate=validate.Length(MIN_PLAYERS, MAX_PLAYERS),
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
    first_dealer = integer(
        load_default=0,
        validate=validate.Range(0, MAX_PLAYERS - 1),
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
                clashes[index] = [f"{name!r} is the name of seat {seen[key]} already"]
            else:
                seen[key] = index
        if clashes:
            raise ma.ValidationError({"players": clashes})

    @ma.post_load
    def blank_title_is_none(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        if not data.get("title"):
            data["title"] = None
        return data


class ResultEntrySchema(ma.Schema):
    seat = integer(required=True, validate=validate.Range(0, MAX_PLAYERS - 1))
    went_out = StrictBoolean(metadata={"description": "true for the player who went out"})
    # At every table a player who did not go out is left with cards, and a penalty entered as
    # points is above 0 (the engine's zero_points and points_negative): bounds of the schema.
    points = integer(
        validate=validate.Range(1, 5000),
        metadata={"description": "The penalty as points."},
    )
    cards = fields.List(
        CardField(),
        validate=validate.Length(1, 60),
        metadata={"description": "The cards left in hand, scored by the ruleset."},
    )
    buys = integer(validate=validate.Range(0, 50), metadata={"description": "Buys this round."})
    bonus = integer(
        validate=validate.Range(0, 500),
        metadata={"description": "Points taken off (the cut bonus), where the ruleset has one."},
    )

    @ma.validates_schema
    def one_outcome(self, data: dict[str, Any], **_: Any) -> None:
        given = [key for key in ("went_out", "points", "cards") if key in data]
        if data.get("went_out") is False:
            given.remove("went_out")
        if len(given) != 1:
            raise ma.ValidationError(
                'give exactly one of "went_out": true, "points" or "cards"', "_schema"
            )


class RoundWriteSchema(RoundRequestSchema):
    results = fields.List(
        fields.Nested(ResultEntrySchema),
        required=True,
        validate=validate.Length(1, MAX_PLAYERS),
        metadata={"description": "One result per seat."},
    )
    stock_ran_out = StrictBoolean(
        load_default=False,
        metadata={"description": "The round ended with nobody out: everyone scores their hand."},
    )


class ViewSchema(ma.Schema):
    """A schema dumping the objects storage reads back, whose fields are attributes."""

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        return getattr(obj, attr, default)


class SeatSchema(ViewSchema):
    seat = integer(required=True)
    name = fields.String(required=True)


class ResultSchema(ViewSchema):
    seat = integer(required=True)
    points = integer(required=True, metadata={"description": "What the round adds to the total."})
    total = integer(
        required=True, metadata={"description": "The player's running total after this round."}
    )
    penalty = integer(required=True, metadata={"description": "The penalty before any bonus."})
    went_out = fields.Boolean(required=True)
    buys = integer(allow_none=True, required=True)
    bonus = integer(required=True)
    cards = fields.List(fields.String(), metadata={"description": "When given as cards."})

    @ma.post_dump
    def cards_only_if_given(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        """A result entered as points has no cards to show: the key is left out, not null."""
        if data["cards"] is None:
            del data["cards"]
        return data


class SheetRoundSchema(ViewSchema):
    number = integer(required=True)
    contract = fields.Nested(ContractSchema, required=True)
    hand_size = integer(required=True)
    whole_hand = fields.Boolean(required=True)
    discard_to_go_out = fields.Boolean(required=True)
    dealer = integer(required=True)
    cutter = integer(required=True)
    first_player = integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["pending", "played"]))
    stock_ran_out = fields.Boolean()
    results = fields.Nested(ResultSchema, many=True)

    @ma.post_dump
    def results_only_if_played(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        """A pending round has not ended yet: no stock_ran_out and no results, not nulls."""
        if data["status"] == "pending":
            del data["stock_ran_out"], data["results"]
        return data


class TotalSchema(ViewSchema):
    seat = integer(required=True)
    total = integer(required=True)


class StandingSchema(ViewSchema):
    rank = integer(required=True)
    seat = integer(required=True)
    name = fields.String(required=True)
    total = integer(required=True)


class TieBreakSchema(ViewSchema):
    method = fields.String(required=True, metadata={"example": "last_round"})
    seats = fields.List(integer(), required=True, metadata={"description": "The tied seats."})
    round = integer(allow_none=True, required=True)
    decided = fields.Boolean(required=True)


class SheetSchema(SheetResponseSchema, ViewSchema):
    id = fields.String(required=True)
    ruleset = fields.Dict(
        required=True, metadata={"description": "The resolved ruleset, as stored with the sheet."}
    )
    players = fields.Nested(SeatSchema, many=True, required=True)
    first_dealer = integer(required=True)
    rounds = fields.Nested(SheetRoundSchema, many=True, required=True)
    totals = fields.Nested(TotalSchema, many=True, required=True)
    standings = fields.Nested(StandingSchema, many=True, required=True)
    status = fields.String(required=True, validate=validate.OneOf(["in_progress", "finished"]))
    winners = fields.List(integer(), allow_none=True, required=True)
    tie_break = fields.Nested(TieBreakSchema, allow_none=True, required=True)
    version = integer(required=True)
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


class CreatedSheetSchema(SheetSchema):
    edit_token = fields.String(
        required=True,
        metadata={"description": "Needed to change or delete the sheet; shown only here."},
    )


# --- examples ------------------------------------------------------------------------------------

CREATE_EXAMPLE = {"ruleset": "liverpool", "players": ["Ann", "Bob", "Cleo"], "first_dealer": 0}
ROUND_EXAMPLE = {
    "results": [
        {"seat": 0, "went_out": True},
        {"seat": 1, "points": 35, "buys": 1},
        {"seat": 2, "cards": ["AS", "KH", "JK"]},
    ]
}

#: A write to the new sheet names the version this answer is of (without it, a 428), and
#: carries the ``edit_token`` of this answer as its bearer token.
_WRITE_LINK = {"header.If-Match": "$response.header.ETag"}
_LINKS = {
    "GetMatch": {
        "operationId": "getMatch",
        "parameters": {"match_id": "$response.body#/id"},
    },
    "RecordRound": {
        "operationId": "recordRound",
        "parameters": {"match_id": "$response.body#/id", "number": 1, **_WRITE_LINK},
    },
    "TakeBackRound": {
        "operationId": "takeBackRound",
        "parameters": {"match_id": "$response.body#/id", "number": 1, **_WRITE_LINK},
    },
    "DeleteMatch": {
        "operationId": "deleteMatch",
        "parameters": {"match_id": "$response.body#/id", **_WRITE_LINK},
    },
}
_AUTH: list[dict[str, list[str]]] = [{"editToken": []}]
_HEADER = {"schema": {"type": "string"}}

SHEET = SheetSchema()
CREATED_SHEET = CreatedSheetSchema()


# --- answers -------------------------------------------------------------------------------------


def json_answer(
    body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """A dumped sheet as the API has always written sheets: ``app.json.dumps``'s layout.

    flask-smorest's ``jsonify`` would write it compactly with a final newline; the sheets keep
    the bytes they were first answered with, since a retried creation repeats its first answer
    exactly (:func:`replay`) and phones compare what they kept.
    """
    return Response(
        current_app.json.dumps(body), status=status, headers=headers, mimetype="application/json"
    )


def in_readers_words(score: ScoreSheet) -> ScoreSheet:
    """The sheet with its ruleset's name and description in the reader's language where the
    catalogs know them: a preset's, which a house ruleset made from it keeps. What is stored
    stays as it was, and so does the ETag, which names the version in every language."""
    text = words.current().text
    ruleset = score.ruleset
    shown = {key: text(ruleset[key]) for key in ("name", "description")}
    if shown["name"] == ruleset["name"] and shown["description"] == ruleset["description"]:
        return score
    return dataclasses.replace(score, ruleset={**ruleset, **shown})


def sheet_answer(score: ScoreSheet) -> Response:
    i18n.for_family(score.ruleset["family"])  # the contracts in the words of the sheet's family
    shown = SHEET.dump(in_readers_words(score))
    return json_answer(shown, headers={"ETag": version_etag(score.version)})


def _created(sheet: sheets.Sheet, token: str) -> dict[str, Any]:
    """A new sheet's answer, dumped: the sheet in the reader's words, with its edit token."""
    answer: dict[str, Any] = CREATED_SHEET.dump(
        in_readers_words(score_sheet(sheet, edit_token=token))
    )
    return answer


def replay(kept: idempotency.Kept, replayed: bool = True) -> Response:
    """The kept first answer to a creation, exactly as it was (it is already dumped), in the
    language its words were written in."""
    if kept.language is not None:
        words.use(i18n.language(kept.language))
    body = kept.body
    headers = {
        "Location": url_for("matches.get_match", match_id=body["id"]),
        "ETag": version_etag(body["version"]),
    }
    if replayed:
        headers["Idempotent-Replayed"] = "true"
    return json_answer(body, kept.status, headers)


#: The spreadsheet's column headings, said once (a translation replaces them here).
CSV_HEADINGS = {
    "round": N_("round"),
    "contract": N_("contract"),
    "dealer": N_("dealer"),
    "points": "{name}",
    "total": N_("{name} total"),
}
#: What makes a spreadsheet read a cell as a formula (or hide its start): the ASCII triggers and
#: their full-width forms, which some spreadsheets read as the ASCII ones.
FORMULA_TRIGGERS = frozenset("=+-@\t\r\uff1d\uff0b\uff0d\uff20")


def _cell(text: str) -> str:
    """A text as a spreadsheet cell: never read as a formula (CSV injection, OWASP's advice)."""
    return "'" + text if text[:1] in FORMULA_TRIGGERS else text


def as_csv(score: ScoreSheet) -> str:
    """The sheet for a spreadsheet: a row per round; per player, the round's points and the
    running total after it (empty while the round is pending)."""
    i18n.for_family(score.ruleset["family"])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    names = [player.name for player in score.players]
    text = words.current().text
    headings = [text(CSV_HEADINGS[column]) for column in ("round", "contract", "dealer")]
    for name in names:
        headings += [
            CSV_HEADINGS["points"].format(name=name),
            text(CSV_HEADINGS["total"]).format(name=name),
        ]
    writer.writerow([_cell(heading) for heading in headings])
    for played in score.rounds:
        cells: list[Any] = [""] * (2 * len(names))
        for result in played.results or ():
            cells[2 * result.seat : 2 * result.seat + 2] = [result.points, result.total]
        writer.writerow(
            [played.number, _cell(played.contract.label), _cell(names[played.dealer]), *cells]
        )
    return out.getvalue()


# --- request headers -----------------------------------------------------------------------------

#: An ETag this API made: a version, of the JSON or of the spreadsheet (``"3"``, ``"3-csv"``).
_VERSION_TAG = re.compile(r'"([1-9][0-9]*)(?:-csv)?"')


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None without one."""
    scheme, _, token = (authorization or "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def versions_named(if_match: str | None) -> frozenset[int] | None:
    """The versions an ``If-Match`` header names (weak or strong, JSON or CSV); None for any."""
    if if_match is None:
        return None
    tags = [tag.strip().removeprefix("W/") for tag in if_match.split(",")]
    if "*" in tags:
        return None
    return frozenset(
        int(match[1]) for tag in tags if (match := _VERSION_TAG.fullmatch(tag)) is not None
    )


# --- views ---------------------------------------------------------------------------------------


@blp.route("", methods=["POST"])
@blp.json_body(MatchCreateSchema, example=CREATE_EXAMPLE)
@blp.response(201, CreatedSheetSchema, headers={"Location": _HEADER, "ETag": _HEADER})
@blp.refusals(409, 422, 429, 503)
@blp.doc(
    operationId="createMatch",
    parameters=[
        {
            "in": "header",
            "name": "Idempotency-Key",
            "required": False,
            "schema": {"type": "string", "minLength": MIN_KEY, "maxLength": MAX_KEY},
            "description": "A random key (a UUID) that makes a retry answer what the first"
            " request answered, for 24 hours.",
        }
    ],
    responses={201: {"links": _LINKS}},
)
def create_match(data: dict[str, Any]) -> Any:
    """Start a match sheet

    Answers the sheet with its `edit_token`, which is shown only here.
    """
    key = request.headers.get("Idempotency-Key")
    if key is not None and not MIN_KEY <= len(key) <= MAX_KEY:
        raise Problem(
            422,
            f"invalid input: Idempotency-Key: {MIN_KEY} to {MAX_KEY} characters, not {len(key)}",
            [
                {
                    "field": "Idempotency-Key",
                    "message": f"{MIN_KEY} to {MAX_KEY} characters (a random UUID will do),"
                    f" not {len(key)}",
                }
            ],
        )
    table = (data["ruleset"], data["players"], data["first_dealer"], data["title"])
    if key is None:
        with database.transaction(write=True) as connection:
            sheet, token = sheets.create(connection, *table)
        metrics.sheet_created()
        return json_answer(
            _created(sheet, token),
            201,
            {
                "ETag": version_etag(sheet.version),
                "Location": url_for("matches.get_match", match_id=sheet.id),
            },
        )
    # The claim is committed on its own, so that a retry arriving while this request is still
    # being served sees it (409) instead of waiting for it.
    with database.transaction(write=True) as connection:
        lease = timedelta(seconds=current_app.config["IDEMPOTENCY_LEASE"])
        kept = idempotency.claim(connection, key, request.get_json(), lease)
    if kept is not None:
        return replay(kept)
    try:
        with database.transaction(write=True) as connection:
            sheet, token = sheets.create(connection, *table)
            answer = _created(sheet, token)
            language = i18n.current_code()
            idempotency.keep(connection, key, 201, answer, sheet.id, language)
        metrics.sheet_created()
    except Exception:
        with database.transaction(write=True) as connection:
            idempotency.release(connection, key)
        raise
    return replay(idempotency.Kept(201, answer, language), replayed=False)


@blp.route("/<string:match_id>", methods=["GET"])
@blp.response(200, SheetSchema, headers={"ETag": _HEADER})
@blp.refusals(404, 503)
@blp.doc(operationId="getMatch")
def get_match(match_id: str) -> Any:
    """Read a match sheet

    With `Accept: text/csv`, the sheet as a spreadsheet: a row per round, a column per player.
    """
    with database.transaction() as connection:
        sheet = sheets.load(connection, match_id)
    wants = request.accept_mimetypes.best_match(["application/json", "text/csv"])
    if (
        wants == "text/csv"
        and request.accept_mimetypes["text/csv"] > request.accept_mimetypes["application/json"]
    ):
        return Response(
            as_csv(score_sheet(sheet)),
            mimetype="text/csv",
            headers={
                "ETag": f'"{sheet.version}-csv"',
                "Content-Disposition": f'attachment; filename="match-{sheet.id}.csv"',
            },
        )
    if request.if_none_match and request.if_none_match.contains(str(sheet.version)):
        return Response(status=304, headers={"ETag": version_etag(sheet.version)})
    return sheet_answer(score_sheet(sheet))


_WRITE_DOC: dict[str, Any] = {
    "security": _AUTH,
    "parameters": [
        {
            "in": "header",
            "name": "If-Match",
            "required": True,
            "schema": {"type": "string", "minLength": 1},
            "description": 'The ETag last read (`"3"`), or `*` for any version: the write'
            " fails with 412 if the sheet changed since, and with 428 without this header.",
        }
    ],
}


def _credentials() -> dict[str, Any]:
    """A write's edit token (``Authorization: Bearer``), the versions it is meant for and
    whether it named any (``If-Match``): what :func:`api.storage.sheets.load_for_change` lets
    through or refuses."""
    headers = request.headers
    if_match = headers.get("If-Match")
    return {
        "token": bearer_token(headers.get("Authorization")),
        "expected_versions": versions_named(if_match),
        # A blank If-Match names no version: as good as none, so a 428, not a 412.
        "precondition": bool(if_match and if_match.strip()),
    }


#: A round's number in a path: within what any ruleset may have (a round the sheet's own lacks
#: is a 404).
_ROUND_NUMBER = {
    "in": "path",
    "name": "number",
    "required": True,
    "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ROUND},
    "description": "The round, counted from 1.",
}


@blp.route("/<string:match_id>/rounds/<int:number>", methods=["PUT"], parameters=[_ROUND_NUMBER])
@blp.json_body(RoundWriteSchema, example=ROUND_EXAMPLE)
@blp.response(200, SheetSchema, headers={"ETag": _HEADER})
@blp.refusals(401, 403, 404, 409, 412, 422, 428, 429, 503)
@blp.doc(operationId="recordRound", **_WRITE_DOC)
def record_round(data: dict[str, Any], match_id: str, number: int) -> Response:
    """Record or correct a round

    Rounds are recorded in order; an already recorded round may be corrected. A round that
    cannot have happened is refused with each problem named, and nothing is stored.
    """
    entries = tuple(
        Entry(
            seat=item["seat"],
            went_out=item.get("went_out", False),
            points=item.get("points"),
            cards=tuple(item["cards"]) if "cards" in item else None,
            buys=item.get("buys"),
            bonus=item.get("bonus", 0),
        )
        for item in data["results"]
    )
    given = sheets.RoundInput(entries, data["stock_ran_out"])
    with database.transaction(write=True) as connection:
        sheet = sheets.load_for_change(connection, match_id, **_credentials())
        sheets.record_round(sheet, number, given)
        sheets.save(connection, sheet)
    metrics.round_recorded()
    return sheet_answer(score_sheet(sheet))


@blp.route("/<string:match_id>/rounds/<int:number>", methods=["DELETE"], parameters=[_ROUND_NUMBER])
@blp.response(200, SheetSchema, headers={"ETag": _HEADER})
@blp.refusals(401, 403, 404, 409, 412, 428, 429, 503)
@blp.doc(operationId="takeBackRound", **_WRITE_DOC)
def take_back_round(match_id: str, number: int) -> Any:
    """Take back the last recorded round"""
    with database.transaction(write=True) as connection:
        sheet = sheets.load_for_change(connection, match_id, **_credentials())
        sheets.take_back_round(sheet, number)
        sheets.save(connection, sheet)
    return sheet_answer(score_sheet(sheet))


@blp.route("/<string:match_id>", methods=["DELETE"])
@blp.response(204)
@blp.refusals(401, 403, 404, 412, 428, 429, 503)
@blp.doc(operationId="deleteMatch", **_WRITE_DOC)
def delete_match(match_id: str) -> Any:
    """Delete a match sheet"""
    with database.transaction(write=True) as connection:
        sheet = sheets.load_for_change(connection, match_id, **_credentials())
        idempotency.forget_match(connection, sheet.id)
        sheets.remove(connection, sheet)
    return Response(status=204)
