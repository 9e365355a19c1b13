"""Match sheets: creating, reading and changing the stored score of one evening at one table.

This module holds what a sheet *is*: who may change it (the edit token), when a change is
stale (the version a client last read), which rounds may be written (in order, the ruleset's
own), and how a round's results are stored; ``rules.match`` does the arithmetic, and
:mod:`api.storage.scoresheet` reads the stored rounds back as a score sheet. Every function
works on a connection in a transaction its caller holds, and refuses with the errors of
:mod:`api.storage.errors`.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

from sqlalchemy import Connection, Text, bindparam, cast, delete, insert, select, update

from rules import Ruleset, Violation, format_cards
from rules.i18n import N_, Phrase
from rules.match import Entry, Result, score_round

from .errors import (
    BadToken,
    ConcurrentWrite,
    FieldError,
    ImpossibleRound,
    InvalidSheet,
    NoSuchRound,
    PreconditionMissing,
    RoundOutOfOrder,
    SheetNotFound,
    StaleSheet,
    TokenMissing,
)
from .tables import sheets as table


def new_sheet_id() -> str:
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
    #: The resolved ruleset as stored: its JSON text, which is how every sheet of one ruleset
    #: shares the ruleset read back from it (:func:`stored_ruleset`).
    ruleset_text: str
    players: list[str]
    first_dealer: int
    edit_token_hash: str
    version: int
    #: The recorded rounds as stored (see :data:`api.storage.tables.sheets`).
    rounds: list[dict[str, Any]]
    created_at: datetime
    updated_at: datetime
    #: What the evening is called, if anything.
    title: str | None = None

    @property
    def ruleset(self) -> Ruleset:
        return stored_ruleset(self.ruleset_text).ruleset

    @property
    def ruleset_data(self) -> Mapping[str, Any]:
        """The resolved ruleset as stored, every parameter: shared by every sheet of it, so
        never to be changed (the mapping refuses it)."""
        return stored_ruleset(self.ruleset_text).data


@dataclass(frozen=True)
class StoredRuleset:
    """A ruleset as a sheet stored it, and the ruleset read back from it."""

    data: Mapping[str, Any]
    ruleset: Ruleset


@functools.lru_cache(maxsize=64)
def stored_ruleset(text: str) -> StoredRuleset:
    """The ruleset a sheet stored as ``text`` (its JSON), read back once for every sheet of it.

    An evening's sheets, and every sheet of one preset, store the same resolved ruleset, and
    reading it back (parsing its JSON, then every parameter) costs more than scoring the round;
    a write does it while it holds the sheet (on SQLite, the database's one write lock). The
    text is the key, not the value read from it: it tells ``1``, ``1.0`` and ``true`` apart, as
    reading back does.
    """
    data = json.loads(text)
    return StoredRuleset(MappingProxyType(data), Ruleset.from_dict(data))


# The statements every request runs, built once: a request only binds values to them. The
# columns are listed in the order of the Sheet's fields, which is how a row becomes a Sheet.
_COLUMNS = [
    table.c[name]
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
        "title",
    )
]
_SHEET_FIELDS = [field.name for field in fields(Sheet)]
_INSERT = insert(table)
# The ruleset is read as the text it was stored as, not parsed: the text finds it read back.
_SELECT = select(
    *(
        cast(column, Text).label("ruleset") if column.key == "ruleset" else column
        for column in _COLUMNS
    )
).where(table.c.id == bindparam("sheet_id"))
_SELECT_FOR_UPDATE = _SELECT.with_for_update()
_SAVE = (
    update(table)
    .where(table.c.id == bindparam("sheet_id"), table.c.version == bindparam("seen_version"))
    .values(
        rounds=bindparam("new_rounds"),
        version=bindparam("new_version"),
        updated_at=bindparam("now"),
    )
)
_DELETE = delete(table).where(table.c.id == bindparam("sheet_id"))


# --- loading and creating -----------------------------------------------------------------------


#: What a sheet id can be (URL-safe base64, as :func:`new_sheet_id` makes them); anything else
#: names no sheet and is never sent to the database (PostgreSQL refuses a NUL in a string).
_SHEET_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def load(connection: Connection, sheet_id: str, *, for_update: bool = False) -> Sheet:
    """The stored sheet ``sheet_id``; :class:`SheetNotFound` if there is none."""
    if _SHEET_ID.fullmatch(sheet_id) is None:
        raise SheetNotFound(sheet_id)
    # PostgreSQL: writers to one sheet queue at FOR UPDATE. SQLite's BEGIN IMMEDIATE did already.
    statement = _SELECT_FOR_UPDATE if for_update else _SELECT
    row = connection.execute(statement, {"sheet_id": sheet_id}).one_or_none()
    if row is None:
        raise SheetNotFound(sheet_id)
    return Sheet(*row)


def exists(connection: Connection, sheet_id: str) -> bool:
    """Whether a sheet ``sheet_id`` is stored (its rounds are not read)."""
    if _SHEET_ID.fullmatch(sheet_id) is None:
        return False
    found = connection.execute(select(table.c.id).where(table.c.id == sheet_id)).first()
    return found is not None


def create(
    connection: Connection,
    ruleset: Ruleset,
    players: Sequence[str],
    first_dealer: int,
    title: str | None = None,
) -> tuple[Sheet, str]:
    """A new sheet and its edit token (the token is returned once and stored only hashed)."""
    if not ruleset.min_players <= len(players) <= ruleset.max_players:
        raise InvalidSheet(
            (
                FieldError(
                    "players",
                    Phrase(
                        N_("{ruleset!r} is for {low} to {high} players, not {players}"),
                        {
                            "ruleset": ruleset.id,
                            "low": ruleset.min_players,
                            "high": ruleset.max_players,
                            "players": len(players),
                        },
                    ),
                ),
            )
        )
    if not 0 <= first_dealer < len(players):
        raise InvalidSheet(
            (
                FieldError(
                    "first_dealer",
                    Phrase(
                        N_("seats are 0 to {last}, not {seat}"),
                        {"last": len(players) - 1, "seat": first_dealer},
                    ),
                ),
            )
        )
    token = new_edit_token()
    now = datetime.now(UTC)
    resolved = ruleset.as_dict()
    sheet = Sheet(
        id=new_sheet_id(),
        # The text the JSON column stores: json.dumps, as SQLAlchemy writes it.
        ruleset_text=json.dumps(resolved),
        players=list(players),
        first_dealer=first_dealer,
        edit_token_hash=token_hash(token),
        version=1,
        rounds=[],
        created_at=now,
        updated_at=now,
        title=title,
    )
    values = [getattr(sheet, name) for name in _SHEET_FIELDS]
    row = {column.key: value for column, value in zip(_COLUMNS, values, strict=True)}
    connection.execute(_INSERT, row | {"ruleset": resolved})
    return sheet, token


# --- changing -----------------------------------------------------------------------------------


def load_for_change(
    connection: Connection,
    sheet_id: str,
    token: str | None,
    expected_versions: Collection[int] | None = None,
    *,
    precondition: bool = True,
    number: int | None = None,
    lock: bool = True,
) -> Sheet:
    """The sheet, locked until the transaction ends, once ``token`` may change it (round
    ``number``, if the change is to a round).

    A change without a token is refused as such before the sheet is even looked up, whether or
    not the sheet (still) exists. ``expected_versions`` are the versions the change was meant
    for (``If-Match``); None means any. ``precondition`` is whether the change said so at all:
    one that did not is refused (:class:`PreconditionMissing`) once its token is known good and
    the round is one the sheet has, so that no one learns more than a 401, 403 or 404 without
    the token, and a 404 comes before a 428 before a 412. The token is compared in constant
    time.

    ``lock`` False reads the sheet without locking it: a web layer asks that first, in a
    transaction of its own, so that every refusal is decided without waiting for a write's
    turn (on SQLite, the database's one write lock); only a change that would be made waits.
    """
    if not token:
        raise TokenMissing()
    sheet = load(connection, sheet_id, for_update=lock)
    if not hmac.compare_digest(token_hash(token), sheet.edit_token_hash):
        raise BadToken()
    if number is not None:
        _check_round_number(sheet.ruleset, number)
    if not precondition:
        raise PreconditionMissing()
    if expected_versions is not None and sheet.version not in expected_versions:
        raise StaleSheet(sheet.version)
    return sheet


def save(connection: Connection, sheet: Sheet) -> None:
    """Write the changed sheet as its next version, refusing if another writer got there first.

    The WHERE on the version is what keeps two writers from both winning even where rows are
    not locked on reading (SQLite serialises writers at BEGIN IMMEDIATE; PostgreSQL at the
    SELECT ... FOR UPDATE in :func:`load_for_change`).
    """
    now = datetime.now(UTC)
    done = connection.execute(
        _SAVE,
        {
            "sheet_id": sheet.id,
            "seen_version": sheet.version,
            "new_rounds": sheet.rounds,
            "new_version": sheet.version + 1,
            "now": now,
        },
    )
    if done.rowcount != 1:
        raise ConcurrentWrite()
    sheet.version += 1
    sheet.updated_at = now


def remove(connection: Connection, sheet: Sheet) -> None:
    """Delete the sheet (its kept idempotent answers are :mod:`idempotency`'s to forget)."""
    connection.execute(_DELETE, {"sheet_id": sheet.id})


# --- rounds -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundInput:
    """A round's results as the table reports them, one entry per seat."""

    entries: tuple[Entry, ...]
    stock_ran_out: bool = False


def record_round(sheet: Sheet, number: int, given: RoundInput) -> None:
    """Record round ``number`` (or correct it, if it is recorded already) in the sheet."""
    ruleset = sheet.ruleset
    _check_round_number(ruleset, number)
    played = len(sheet.rounds)
    if number > played + 1:
        raise RoundOutOfOrder(
            N_(
                "round {number} cannot be recorded before round {next} (rounds are recorded in order)"
            ),
            number=number,
            next=played + 1,
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
        raise ImpossibleRound(number, tuple(_round_error(v, given) for v in violations))
    record = {
        "number": number,
        "stock_ran_out": given.stock_ran_out,
        "results": [_stored_result(result) for result in results],
        "recorded_at": datetime.now(UTC).isoformat(),
    }
    # A new list, not an edit in place: the JSON column is written from what it is given.
    sheet.rounds = [*sheet.rounds[: number - 1], record, *sheet.rounds[number:]]


def take_back_round(sheet: Sheet, number: int) -> None:
    _check_round_number(sheet.ruleset, number)
    played = len(sheet.rounds)
    if number != played and played:
        raise RoundOutOfOrder(
            N_("only the last recorded round can be taken back; round {last} is the last recorded"),
            last=played,
        )
    if number != played:
        raise RoundOutOfOrder(
            N_("only the last recorded round can be taken back; no round is recorded")
        )
    sheet.rounds = sheet.rounds[:-1]


def _check_round_number(ruleset: Ruleset, number: int) -> None:
    if not 1 <= number <= ruleset.round_count:
        raise NoSuchRound(ruleset.id, ruleset.round_count, number)


def _round_error(violation: Violation, given: RoundInput) -> FieldError:
    """The field a broken rule is about: the seat's entry, or the round's stock_ran_out."""
    seat = violation.params.get("seat")
    where = "results"
    if isinstance(seat, int):
        for index, entry in enumerate(given.entries):
            if entry.seat == seat:
                where = f"results.{index}"
                break
    if violation.code in ("out_when_stock_ran_out", "nobody_went_out"):
        where = "stock_ran_out"
    return FieldError(where, violation.words, violation.code)


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


__all__ = [
    "RoundInput",
    "Sheet",
    "create",
    "exists",
    "load",
    "load_for_change",
    "record_round",
    "remove",
    "save",
    "take_back_round",
]
