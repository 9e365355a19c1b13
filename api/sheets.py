"""Match sheets: creating, reading and changing the stored score of one evening at one table.

The web layer (``api.matches``) parses requests and formats answers; this module holds what a
sheet *is*: who may change it (the edit token), when a change is stale (the version behind the
ETag), which rounds may be written (in order, the ruleset's own), and how the stored rounds
read as a score sheet (``rules.match`` does the arithmetic).
"""

from __future__ import annotations

import csv
import functools
import hashlib
import hmac
import io
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, insert, select, update
from sqlalchemy import delete as delete_statement

from api.errors import Problem
from api.models import Match
from rules import Card, Ruleset, Violation, format_cards, parse_cards
from rules.match import Entry, Result, outcome, schedule, score_round
from rules.ruleset import contract_as_dict


def new_match_id() -> str:
    """128 random bits, URL-safe (22 characters): the id is what lets one read a sheet."""
    return secrets.token_urlsafe(16)


def new_edit_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Sheet:
    """A stored match sheet as one document: read whole, changed in memory, written whole."""

    id: str
    ruleset_data: dict[str, Any]
    players: list[str]
    first_dealer: int
    edit_token_hash: str
    version: int
    rounds: list[dict[str, Any]]
    created_at: datetime
    updated_at: datetime

    @functools.cached_property
    def ruleset(self) -> Ruleset:
        return Ruleset.from_dict(self.ruleset_data)


# The statements of the hot paths, built once: every request only binds values to them.
_TABLE = cast(Table, Match.__table__)
_COLUMNS = [
    _TABLE.c[name]
    for name in (
        "id",
        "ruleset",
        "players",
        "first_dealer",
        "edit_token_hash",
        "version",
        "rounds",
        "created_at",
        "updated_at",
    )
]
_SHEET_FIELDS = [f.name for f in fields(Sheet)]
_INSERT = insert(_TABLE)
_SELECT = select(*_COLUMNS).where(_TABLE.c.id == bindparam("match_id"))
_SELECT_FOR_UPDATE = _SELECT.with_for_update()
_SAVE = (
    update(_TABLE)
    .where(_TABLE.c.id == bindparam("match_id"), _TABLE.c.version == bindparam("seen_version"))
    .values(
        rounds=bindparam("new_rounds"),
        version=bindparam("new_version"),
        updated_at=bindparam("now"),
    )
)
_DELETE = delete_statement(_TABLE).where(_TABLE.c.id == bindparam("match_id"))


def etag(sheet: Sheet) -> str:
    return f'"{sheet.version}"'


# --- access -----------------------------------------------------------------------------------


def bearer_token(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer`` header; 401 without one.

    Asked before the sheet is even looked up: a write without a token is refused as such,
    whether or not the sheet (still) exists.
    """
    scheme, _, token = (authorization or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Problem(
            401,
            "changing a sheet needs its edit token: Authorization: Bearer <edit_token>",
            headers={"WWW-Authenticate": 'Bearer realm="rummy-referee"'},
        )
    return token


def authorize(sheet: Sheet, token: str) -> None:
    """403 unless ``token`` is the sheet's edit token; compared in constant time."""
    if not hmac.compare_digest(token_hash(token), sheet.edit_token_hash):
        raise Problem(403, "that is not this sheet's edit token")


def check_precondition(sheet: Sheet, if_match: str | None) -> None:
    """412 when ``If-Match`` names another version of the sheet than the stored one."""
    if if_match is None:
        return
    wanted = {tag.strip().removeprefix("W/") for tag in if_match.split(",")}
    if "*" in wanted:
        return
    current = {etag(sheet), f'"{sheet.version}-csv"'}
    if not wanted & current:
        raise Problem(
            412,
            f"the sheet has changed: it is at version {sheet.version} now; read it again",
            headers={"ETag": etag(sheet)},
        )


# --- loading and creating -----------------------------------------------------------------------


def load(connection: Connection, match_id: str, *, for_update: bool = False) -> Sheet:
    # PostgreSQL: writers to one sheet queue at FOR UPDATE. SQLite's BEGIN IMMEDIATE did already.
    statement = _SELECT_FOR_UPDATE if for_update else _SELECT
    row = connection.execute(statement, {"match_id": match_id}).one_or_none()
    if row is None:
        raise Problem(404, f"no match sheet {match_id!r}")
    return Sheet(*row)


def create(
    connection: Connection, ruleset: Ruleset, players: Sequence[str], first_dealer: int
) -> tuple[Sheet, str]:
    """A new sheet and its edit token (the token is returned once and stored only hashed)."""
    problems = []
    if not ruleset.min_players <= len(players) <= ruleset.max_players:
        problems.append(
            {
                "field": "players",
                "message": f"{ruleset.id!r} is for {ruleset.min_players} to"
                f" {ruleset.max_players} players, not {len(players)}",
            }
        )
    elif not 0 <= first_dealer < len(players):
        problems.append(
            {
                "field": "first_dealer",
                "message": f"seats are 0 to {len(players) - 1}, not {first_dealer}",
            }
        )
    if problems:
        raise Problem(422, f"invalid input: {problems[0]['message']}", problems)
    token = new_edit_token()
    now = datetime.now(UTC)
    sheet = Sheet(
        id=new_match_id(),
        ruleset_data=ruleset.as_dict(),
        players=list(players),
        first_dealer=first_dealer,
        edit_token_hash=token_hash(token),
        version=1,
        rounds=[],
        created_at=now,
        updated_at=now,
    )
    # _COLUMNS lists the row in the order of the Sheet's fields (``load`` reads it back so).
    values = [getattr(sheet, name) for name in _SHEET_FIELDS]
    connection.execute(_INSERT, {c.key: v for c, v in zip(_COLUMNS, values, strict=True)})
    return sheet, token


def save(connection: Connection, sheet: Sheet) -> None:
    """Write the changed sheet as its next version, refusing if another writer got there first.

    The WHERE on the version is what keeps two writers from both winning even where rows are
    not locked on reading (SQLite serialises writers at BEGIN IMMEDIATE; PostgreSQL at the
    SELECT ... FOR UPDATE in :func:`load`).
    """
    now = datetime.now(UTC)
    done = connection.execute(
        _SAVE,
        {
            "match_id": sheet.id,
            "seen_version": sheet.version,
            "new_rounds": sheet.rounds,
            "new_version": sheet.version + 1,
            "now": now,
        },
    )
    if done.rowcount != 1:
        raise Problem(409, "the sheet changed while this request was being served; retry")
    sheet.version += 1
    sheet.updated_at = now


def delete(connection: Connection, sheet: Sheet) -> None:
    connection.execute(_DELETE, {"match_id": sheet.id})


# --- changing rounds ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundInput:
    """A round's results as the request gives them."""

    entries: tuple[Entry, ...]
    stock_ran_out: bool = False
    #: Where each entry came from in the request, for naming fields in errors.
    fields: tuple[str, ...] = field(default_factory=tuple)


def record_round(sheet: Sheet, number: int, given: RoundInput) -> None:
    """Record round ``number`` (or correct it, if it is recorded already) in the sheet."""
    ruleset = sheet.ruleset
    if not 1 <= number <= ruleset.round_count:
        raise Problem(404, f"{ruleset.id!r} has rounds 1 to {ruleset.round_count}, not {number}")
    played = len(sheet.rounds)
    if number > played + 1:
        raise Problem(
            409,
            f"round {number} cannot be recorded before round {played + 1}"
            " (rounds are recorded in order)",
        )
    results, violations = score_round(
        ruleset,
        number,
        len(sheet.players),
        given.entries,
        stock_ran_out=given.stock_ran_out,
        first_dealer=sheet.first_dealer,
    )
    if violations:
        errors = [_round_error(v, given) for v in violations]
        raise Problem(422, f"round {number} cannot have happened: {errors[0]['message']}", errors)
    record = {
        "number": number,
        "stock_ran_out": given.stock_ran_out,
        "results": [_stored_result(result) for result in results],
        "recorded_at": datetime.now(UTC).isoformat(),
    }
    # A new list, not an edit in place: the JSON column is written from what it is given.
    sheet.rounds = [*sheet.rounds[: number - 1], record, *sheet.rounds[number:]]


def take_back_round(sheet: Sheet, number: int) -> None:
    ruleset = sheet.ruleset
    if not 1 <= number <= ruleset.round_count:
        raise Problem(404, f"{ruleset.id!r} has rounds 1 to {ruleset.round_count}, not {number}")
    played = len(sheet.rounds)
    if number != played:
        last = f"round {played} is the last recorded" if played else "no round is recorded"
        raise Problem(409, f"only the last recorded round can be taken back; {last}")
    sheet.rounds = sheet.rounds[:-1]


def _round_error(violation: Violation, given: RoundInput) -> dict[str, str]:
    seat = violation.params.get("seat")
    where = "results"
    if isinstance(seat, int):
        for index, entry in enumerate(given.entries):
            if entry.seat == seat:
                where = f"results.{index}"
                break
    if violation.code in ("out_when_stock_ran_out", "nobody_went_out"):
        where = "stock_ran_out"
    return {"field": where, "message": violation.message, "code": violation.code}


def _stored_result(result: Result) -> dict[str, Any]:
    return {
        "seat": result.seat,
        "points": result.points,
        "penalty": result.penalty,
        "went_out": result.went_out,
        "buys": result.buys,
        "bonus": result.bonus,
        "cards": format_cards(result.cards) if result.cards is not None else None,
    }


def _result_of(stored: dict[str, Any]) -> Result:
    cards: tuple[Card, ...] | None = (
        parse_cards(stored["cards"]) if stored.get("cards") is not None else None
    )
    return Result(
        seat=stored["seat"],
        points=stored["points"],
        went_out=stored["went_out"],
        buys=stored.get("buys"),
        bonus=stored.get("bonus", 0),
        penalty=stored.get("penalty", stored["points"]),
        cards=cards,
    )


# --- reading ------------------------------------------------------------------------------------


def view(sheet: Sheet) -> dict[str, Any]:
    """The sheet as the API shows it."""
    ruleset = sheet.ruleset
    players = len(sheet.players)
    names = sheet.players
    played = {record["number"]: record for record in sheet.rounds}
    scored = [[_result_of(item) for item in record["results"]] for record in sheet.rounds]
    result = outcome(ruleset, players, scored)
    rounds = []
    for seat in schedule(ruleset, players, sheet.first_dealer):
        spec = seat.round
        entry: dict[str, Any] = {
            "number": spec.number,
            "contract": contract_as_dict(spec.contract),
            "hand_size": spec.hand_size,
            "whole_hand": spec.whole_hand,
            "discard_to_go_out": spec.discard_to_go_out,
            "dealer": seat.dealer,
            "cutter": seat.cutter,
            "first_player": seat.first_player,
            "status": "played" if spec.number in played else "pending",
        }
        record = played.get(spec.number)
        if record is not None:
            entry["stock_ran_out"] = record["stock_ran_out"]
            entry["results"] = [
                {key: value for key, value in item.items() if value is not None or key == "buys"}
                for item in record["results"]
            ]
        rounds.append(entry)
    tie_break = None
    if result.tie_break is not None:
        tie = result.tie_break
        tie_break = {
            "method": tie.method,
            "seats": list(tie.seats),
            "round": tie.round,
            "decided": tie.decided,
        }
    return {
        "id": sheet.id,
        "ruleset": sheet.ruleset_data,
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(names)],
        "first_dealer": sheet.first_dealer,
        "rounds": rounds,
        "totals": [{"seat": seat, "total": total} for seat, total in enumerate(result.totals)],
        "standings": [
            {"rank": s.rank, "seat": s.seat, "name": names[s.seat], "total": s.total}
            for s in result.standings
        ],
        "status": "finished" if result.finished else "in_progress",
        "winners": list(result.winners) if result.finished else None,
        "tie_break": tie_break,
        "version": sheet.version,
        "created_at": _iso(sheet.created_at),
        "updated_at": _iso(sheet.updated_at),
    }


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:  # SQLite hands back naive datetimes; they were stored as UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


def _cell(text: str) -> str:
    """A name as a spreadsheet cell: never read as a formula (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def as_csv(sheet: dict[str, Any]) -> str:
    """The sheet for a spreadsheet: a row per round, a column per player, then the totals."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    names = [_cell(player["name"]) for player in sheet["players"]]
    writer.writerow(["round", "contract", "dealer", *names])
    for entry in sheet["rounds"]:
        points: list[Any] = [""] * len(names)
        for item in entry.get("results", []):
            points[item["seat"]] = item["points"]
        writer.writerow(
            [entry["number"], entry["contract"]["text"], names[entry["dealer"]], *points]
        )
    writer.writerow(["total", "", "", *(t["total"] for t in sheet["totals"])])
    return out.getvalue()
