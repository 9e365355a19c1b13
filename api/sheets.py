"""Match sheets over HTTP: ``/v1/matches`` (docs/api.md, "Match sheets").

Reading needs only the sheet's id, which is long and random; writing needs the edit token
shown once at creation. ``If-Match`` makes a write conditional on the version a phone last saw,
and ``Idempotency-Key`` makes creating a sheet safe to retry. What a sheet is, and every
refusal of a change to it, is :mod:`api.storage`'s; this module reads requests, and answers
the :class:`~api.storage.scoresheet.ScoreSheet` storage reads back, which the response schemas
of :mod:`api.schemas.sheets` dump.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from typing import Any

from flask import Response, current_app, jsonify, request, url_for

from rules.i18n import N_, Phrase
from rules.match import Entry

from . import i18n, limits, metrics, retention
from .errors import FieldError, Problem, version_etag
from .extensions import database
from .parsing import Blueprint
from .schemas.common import MAX_ROUND, contract_text
from .schemas.sheets import (
    CreatedSheetSchema,
    MatchCreateSchema,
    RoundWriteSchema,
    SheetSchema,
)
from .security import SHEET_CACHE_CONTROL
from .storage import idempotency, sheets
from .storage.scoresheet import ScoreSheet, score_sheet

#: The resource's public name is "matches": its addresses, and its tag in openapi.yaml (which
#: client generators make a module of). What it keeps is a sheet.
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


# What makes the database grow is counted against floods (api.limits: a 429 past a limit, and
# every counted answer says where the client stands), and it is after a write that the daily
# purge may be due (api.retention). The checks, the reads and the pages never pay for either.
blp.before_request(limits.count_writes)
blp.after_request(limits.say_where_writes_stand)
blp.after_request(retention.purge_when_due)


#: An Idempotency-Key is a random UUID (version 4: 122 random bits), or 32 hexadecimal digits
#: (128 random bits: what a page makes where crypto.randomUUID is missing, on a plain-http home
#: network). A retry with the key is answered the first answer, the sheet's edit token in it,
#: so a key anyone could guess would hand the token to whoever guessed it; a key of this shape
#: is what a client's random generator makes, and one nobody guesses.
RANDOM_KEY = (
    "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}"
    "|[0-9a-fA-F]{32}"
)
_RANDOM_KEY = re.compile(RANDOM_KEY)

CREATED_SHEET = CreatedSheetSchema()

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


# --- answers -------------------------------------------------------------------------------------


def answered(score: ScoreSheet) -> tuple[ScoreSheet, dict[str, str]]:
    """A sheet as a view returns it: dumped by the response schema, with its version's ETag,
    its contracts in the words of its family's rule sheet."""
    i18n.about_family(score.ruleset["family"])
    return score, {"ETag": version_etag(score.version)}


def repeat(saved: idempotency.SavedAnswer, *, replayed: bool = True) -> Response:
    """The first answer to a creation, exactly as it was dumped, in the language its words
    were written in."""
    body = saved.body
    response = jsonify(body)
    response.status_code = saved.status
    response.headers["Location"] = url_for("matches.get_sheet", match_id=body["id"])
    response.headers["ETag"] = version_etag(body["version"])
    if saved.language is not None:
        response.headers["Content-Language"] = saved.language
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


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
#: Where a cell can begin, whatever the spreadsheet splits on: the start of the text, and the
#: place after every ``,`` and ``;`` (German, Dutch, Italian and Norwegian spreadsheets split
#: CSV on ``;``, and a text unquoted for ``,`` is split there) — when a formula's trigger
#: follows, after any spaces.
_FORMULA_START = re.compile(
    "(?:^|(?<=[,;]))(?= *[" + re.escape("".join(sorted(FORMULA_TRIGGERS))) + "])"
)


def _cell(text: str) -> str:
    """A text as a spreadsheet cell: never read as a formula, in any locale (CSV injection,
    OWASP's advice): a ``'`` before every place a cell could begin with a formula's trigger.

    >>> _cell("x;=cmd|' /C calc'!A0;y")
    "x;'=cmd|' /C calc'!A0;y"
    >>> _cell("Ann, Bob")
    'Ann, Bob'
    """
    return _FORMULA_START.sub("'", text)


def as_csv(score: ScoreSheet) -> str:
    """The sheet for a spreadsheet: a row per round; per player, the round's points and the
    running total after it (empty while the round is pending)."""
    i18n.about_family(score.ruleset["family"])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    names = [player.name for player in score.players]
    text = i18n.words().text
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
            [
                played.number,
                _cell(contract_text(played.contract)),
                _cell(names[played.dealer]),
                *cells,
            ]
        )
    return out.getvalue()


# --- request headers -----------------------------------------------------------------------------

#: An ETag this API made: a version, of the JSON or of the spreadsheet (``"3"``, ``"3-csv"``);
#: the version alone (``3``, the quotes forgotten) names it too.
_VERSION_TAG = re.compile(r'"([1-9][0-9]*)(?:-csv)?"|([1-9][0-9]*)')


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None without one."""
    scheme, _, token = (authorization or "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def versions_named(if_match: str | None) -> frozenset[int] | None:
    """The versions an ``If-Match`` header names (weak or strong, JSON or CSV); None for any.

    >>> sorted(versions_named('"3", W/"4-csv", 5'))
    [3, 4, 5]
    >>> versions_named("*") is None
    True
    """
    if if_match is None:
        return None
    tags = [tag.strip().removeprefix("W/") for tag in if_match.split(",")]
    if "*" in tags:
        return None
    return frozenset(
        int(match[1] or match[2])
        for tag in tags
        if (match := _VERSION_TAG.fullmatch(tag)) is not None
    )


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


def _refused_or_let_through(match_id: str, number: int | None = None) -> dict[str, Any]:
    """Refuse a write that cannot be made (401, 403, 404, 428, 412) from a plain read, before
    it waits for its turn to write; else its credentials, checked again under the lock (the
    sheet may change meanwhile: then a 412)."""
    credentials = _credentials()
    with database.transaction() as connection:
        sheets.load_for_change(connection, match_id, number=number, lock=False, **credentials)
    return credentials


def idempotency_key() -> str | None:
    """The creation's ``Idempotency-Key``, if it has one, when it is random (a UUID)."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and _RANDOM_KEY.fullmatch(key) is None:
        raise Problem(
            422,
            Phrase(N_("invalid input: Idempotency-Key: not a random UUID (version 4)")),
            [
                FieldError(
                    "Idempotency-Key",
                    Phrase(
                        N_("a random UUID (version 4, 122 random bits), such as {example}"),
                        {"example": "4a8b0f52-1c2d-4e3f-9a0b-1c2d3e4f5a6b"},
                    ),
                )
            ],
        )
    return key


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
            "schema": {"type": "string", "pattern": f"^(?:{RANDOM_KEY})$"},
            "description": "A random UUID (version 4), or 32 random hexadecimal digits, that"
            " makes a retry answer what the first request answered, its `edit_token` included,"
            " for 24 hours. It must be random (122 bits or more): whoever sends the key and the"
            " body again gets that answer, so any other key is refused (422).",
        }
    ],
    responses={201: {"links": _LINKS}},
)
def create_sheet(data: dict[str, Any]) -> Any:
    """Start a match sheet

    Answers the sheet with its `edit_token`, which is shown only here.
    """
    key = idempotency_key()
    table = (data["ruleset"], data["players"], data["first_dealer"], data["title"])
    i18n.about_family(data["ruleset"].family)
    if key is None:
        with database.transaction(write=True) as connection:
            sheet, token = sheets.create(connection, *table)
        metrics.sheet_created()
        score = score_sheet(sheet, edit_token=token)
        return (
            score,
            201,
            {
                "ETag": version_etag(sheet.version),
                "Location": url_for("matches.get_sheet", match_id=sheet.id),
            },
        )
    # The reservation is committed on its own, so that a retry arriving while this request is
    # still being served sees it (409) instead of waiting for it.
    with database.transaction(write=True) as connection:
        expires = timedelta(seconds=current_app.config["IDEMPOTENCY_LEASE"])
        saved = idempotency.reserve(connection, key, request.get_json(), expires)
    if saved is not None:
        return repeat(saved)
    try:
        with database.transaction(write=True) as connection:
            sheet, token = sheets.create(connection, *table)
            # Dumped here, as the answer is saved to be repeated exactly.
            answer = CREATED_SHEET.dump(score_sheet(sheet, edit_token=token))
            language = i18n.code()
            idempotency.save_answer(connection, key, 201, answer, sheet.id, language)
        metrics.sheet_created()
    except Exception:
        with database.transaction(write=True) as connection:
            idempotency.cancel(connection, key)
        raise
    return repeat(idempotency.SavedAnswer(201, answer, language), replayed=False)


@blp.route("/<string:match_id>", methods=["GET"])
@blp.response(200, SheetSchema, headers={"ETag": _HEADER})
@blp.refusals(404, 503)
@blp.doc(operationId="getMatch")
def get_sheet(match_id: str) -> Any:
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
    return answered(score_sheet(sheet))


_WRITE_DOC: dict[str, Any] = {
    "security": _AUTH,
    "parameters": [
        {
            "in": "header",
            "name": "If-Match",
            "required": True,
            "schema": {"type": "string", "minLength": 1},
            "description": 'The ETag last read (`"3"`), or `*` for any version: the write'
            " fails with 412 if the sheet changed since, and with 428 without this header."
            " The version alone (`3`) is read as its ETag.",
        }
    ],
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
def record_round(data: dict[str, Any], match_id: str, number: int) -> Any:
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
    credentials = _refused_or_let_through(match_id, number)
    with database.transaction(write=True) as connection:
        sheet = sheets.load_for_change(connection, match_id, number=number, **credentials)
        i18n.about_family(sheet.ruleset.family)
        sheets.record_round(sheet, number, given)
        sheets.save(connection, sheet)
    metrics.round_recorded()
    return answered(score_sheet(sheet))


@blp.route("/<string:match_id>/rounds/<int:number>", methods=["DELETE"], parameters=[_ROUND_NUMBER])
@blp.response(200, SheetSchema, headers={"ETag": _HEADER})
@blp.refusals(401, 403, 404, 409, 412, 428, 429, 503)
@blp.doc(operationId="takeBackRound", **_WRITE_DOC)
def take_back_round(match_id: str, number: int) -> Any:
    """Take back the last recorded round"""
    credentials = _refused_or_let_through(match_id, number)
    with database.transaction(write=True) as connection:
        sheet = sheets.load_for_change(connection, match_id, number=number, **credentials)
        sheets.take_back_round(sheet, number)
        sheets.save(connection, sheet)
    return answered(score_sheet(sheet))


@blp.route("/<string:match_id>", methods=["DELETE"])
@blp.response(204)
@blp.refusals(401, 403, 404, 412, 428, 429, 503)
@blp.doc(operationId="deleteMatch", **_WRITE_DOC)
def delete_sheet(match_id: str) -> Any:
    """Delete a match sheet"""
    credentials = _refused_or_let_through(match_id)
    with database.transaction(write=True) as connection:
        sheet = sheets.load_for_change(connection, match_id, **credentials)
        idempotency.forget_sheet(connection, sheet.id)
        sheets.remove(connection, sheet)
    return Response(status=204)
