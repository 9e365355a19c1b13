"""The storage package on its own, on SQLite and on PostgreSQL: no Flask app, no HTTP.

What storage promises a caller: a sheet is changed only with its edit token and only from the
version the caller meant; rounds go in order; nothing that could not have happened is stored;
two writers never both win; a retried creation gets its first answer back, and only with the
same request; and each refusal says what the caller needs to act on it.
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, update

from api.storage import Storage, idempotency, sheets
from api.storage.errors import (
    BadToken,
    ConcurrentWrite,
    IdempotencyConflict,
    IdempotencyMismatch,
    ImpossibleRound,
    InvalidSheet,
    NoSuchRound,
    RoundOutOfOrder,
    SheetNotFound,
    StaleSheet,
    TokenMissing,
)
from api.storage.scoresheet import score_sheet
from api.storage.tables import idempotency_keys
from api.storage.tables import sheets as sheet_rows
from rules import find_ruleset, parse_cards
from rules.match import Entry

LIVERPOOL = find_ruleset("liverpool")
PLAYERS = ["Ann", "Bob", "Cleo", "Dan"]


def a_round(out: int, points: tuple[int, ...] = (35, 20, 10)) -> sheets.RoundInput:
    others = iter(points)
    return sheets.RoundInput(
        tuple(
            Entry(seat=seat, went_out=True) if seat == out else Entry(seat, points=next(others))
            for seat in range(len(PLAYERS))
        )
    )


@pytest.fixture
def new_sheet(storage: Storage) -> tuple[sheets.Sheet, str]:
    """A stored Liverpool sheet for four, and its edit token."""
    with storage.transaction(write=True) as connection:
        return sheets.create(connection, LIVERPOOL, PLAYERS, 0)


def record(storage: Storage, match_id: str, token: str, number: int, given: Any) -> sheets.Sheet:
    with storage.transaction(write=True) as connection:
        sheet = sheets.load_for_change(connection, match_id, token)
        sheets.record_round(sheet, number, given)
        sheets.save(connection, sheet)
    return sheet


def read(storage: Storage, match_id: str) -> sheets.Sheet:
    with storage.transaction() as connection:
        return sheets.load(connection, match_id)


# --- every refusal is a StorageError ---------------------------------------------------------


def test_a_change_without_a_token_is_refused_before_the_sheet_is_looked_up(
    storage: Storage,
) -> None:
    with storage.transaction(write=True) as connection:
        with pytest.raises(TokenMissing):
            sheets.load_for_change(connection, "no-such-sheet", None)
        with pytest.raises(SheetNotFound) as missing:
            sheets.load_for_change(connection, "no-such-sheet", "some-token")
    # The error knows which sheet; its text, which is answered and logged, does not say.
    assert missing.value.sheet_id == "no-such-sheet"
    assert "no-such-sheet" not in str(missing.value)


def test_only_the_edit_token_changes_a_sheet(
    storage: Storage, new_sheet: tuple[sheets.Sheet, str]
) -> None:
    sheet, token = new_sheet
    with pytest.raises(BadToken):
        record(storage, sheet.id, token[:-1], 1, a_round(0))
    assert read(storage, sheet.id).rounds == []
    assert record(storage, sheet.id, token, 1, a_round(0)).version == 2


def test_a_change_meant_for_another_version_is_stale_and_says_the_current_one(
    storage: Storage, new_sheet: tuple[sheets.Sheet, str]
) -> None:
    sheet, token = new_sheet
    record(storage, sheet.id, token, 1, a_round(0))
    with storage.transaction(write=True) as connection:
        with pytest.raises(StaleSheet) as stale:
            sheets.load_for_change(connection, sheet.id, token, {1})
        assert stale.value.version == 2
        assert sheets.load_for_change(connection, sheet.id, token, {1, 2}).version == 2


def test_two_writers_from_one_version_never_both_win(
    storage: Storage, new_sheet: tuple[sheets.Sheet, str]
) -> None:
    """The save itself refuses a version another writer moved on, whatever the locks did."""
    sheet, token = new_sheet
    with storage.transaction() as connection:
        first = sheets.load(connection, sheet.id)
        second = sheets.load(connection, sheet.id)
    with storage.transaction(write=True) as connection:
        sheets.record_round(first, 1, a_round(0))
        sheets.save(connection, first)
    with storage.transaction(write=True) as connection:
        sheets.record_round(second, 1, a_round(1))
        with pytest.raises(ConcurrentWrite):
            sheets.save(connection, second)
    stored = read(storage, sheet.id)
    assert stored.version == 2
    assert stored.rounds[0]["results"][0]["went_out"] is True


def test_writers_on_one_sheet_queue_and_each_sees_the_other(
    storage: Storage, new_sheet: tuple[sheets.Sheet, str]
) -> None:
    """Four writers each add the next round at once: all land, in order, none lost."""
    sheet, token = new_sheet
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            with storage.transaction(write=True) as connection:
                current = sheets.load_for_change(connection, sheet.id, token)
                number = len(current.rounds) + 1
                sheets.record_round(current, number, a_round(number % 4))
                sheets.save(connection, current)
        except BaseException as error:  # surfaced in the main thread
            errors.append(error)

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    stored = read(storage, sheet.id)
    assert [r["number"] for r in stored.rounds] == [1, 2, 3, 4]
    assert stored.version == 5


def test_rounds_go_in_order_and_only_the_last_is_taken_back(
    storage: Storage, new_sheet: tuple[sheets.Sheet, str]
) -> None:
    sheet, _ = new_sheet
    with pytest.raises(RoundOutOfOrder, match="before round 1"):
        sheets.record_round(sheet, 2, a_round(0))
    with pytest.raises(NoSuchRound, match="1 to 7, not 8"):
        sheets.record_round(sheet, 8, a_round(0))
    with pytest.raises(RoundOutOfOrder, match="no round is recorded"):
        sheets.take_back_round(sheet, 1)
    sheets.record_round(sheet, 1, a_round(0))
    sheets.record_round(sheet, 2, a_round(1))
    sheets.record_round(sheet, 1, a_round(2))  # a correction keeps round 2
    assert [r["number"] for r in sheet.rounds] == [1, 2]
    with pytest.raises(RoundOutOfOrder, match="round 2 is the last recorded"):
        sheets.take_back_round(sheet, 1)
    sheets.take_back_round(sheet, 2)
    assert [r["number"] for r in sheet.rounds] == [1]


def test_a_round_that_cannot_have_happened_names_each_field_and_rule(
    new_sheet: tuple[sheets.Sheet, str],
) -> None:
    sheet, _ = new_sheet
    given = sheets.RoundInput(
        (Entry(0, went_out=True), Entry(1, went_out=True), Entry(3, points=37)),
    )
    with pytest.raises(ImpossibleRound) as refused:
        sheets.record_round(sheet, 1, given)
    found = {(error.field, error.code) for error in refused.value.errors or ()}
    assert ("results", "several_went_out") in found
    assert ("results", "seat_missing") in found
    assert ("results.2", "points_impossible") in found  # seat 3 is the request's third entry
    assert str(refused.value).startswith("round 1 cannot have happened: ")
    assert sheet.rounds == []


@pytest.mark.parametrize(
    ("players", "first_dealer", "field"),
    [(["A", "B"], 0, "players"), (["A"] * 9, 0, "players"), (["A", "B", "C"], 3, "first_dealer")],
)
def test_a_table_the_ruleset_does_not_seat_is_not_stored(
    storage: Storage, players: list[str], first_dealer: int, field: str
) -> None:
    with storage.transaction(write=True) as connection:
        before = len(connection.execute(select(sheet_rows.c.id)).all())
        with pytest.raises(InvalidSheet) as refused:
            sheets.create(connection, LIVERPOOL, players, first_dealer)
        assert [error.field for error in refused.value.errors or ()] == [field]
        assert len(connection.execute(select(sheet_rows.c.id)).all()) == before


# --- reading a sheet back --------------------------------------------------------------------


def test_the_score_sheet_adds_up_what_was_stored(
    storage: Storage, new_sheet: tuple[sheets.Sheet, str]
) -> None:
    sheet, token = new_sheet
    record(storage, sheet.id, token, 1, a_round(1, (35, 20, 10)))
    given = sheets.RoundInput(
        (
            Entry(0, went_out=True),
            Entry(1, cards=parse_cards(["AS", "KH"])),
            Entry(2, points=5),
            Entry(3, points=5),
        )
    )
    record(storage, sheet.id, token, 2, given)
    score = score_sheet(read(storage, sheet.id))
    assert [total.total for total in score.totals] == [35, 25, 25, 15]
    assert [(place.rank, place.name) for place in score.standings] == [
        (1, "Dan"),
        (2, "Bob"),
        (2, "Cleo"),
        (4, "Ann"),
    ]
    assert [r.status for r in score.rounds] == ["played", "played"] + ["pending"] * 5
    assert score.rounds[1].results is not None and score.rounds[1].results[1].cards == ["AS", "KH"]
    assert score.rounds[2].results is None and score.rounds[2].stock_ran_out is None
    assert score.status == "in_progress" and score.winners is None
    assert score.created_at.endswith("Z") and score.edit_token is None


def test_the_edit_token_is_stored_only_as_a_hash(
    storage: Storage, new_sheet: tuple[sheets.Sheet, str]
) -> None:
    sheet, token = new_sheet
    with storage.transaction() as connection:
        row = connection.execute(select(sheet_rows).where(sheet_rows.c.id == sheet.id)).one()
    assert token not in str(tuple(row))
    assert row.edit_token_hash == sheets.token_hash(token) != token


# --- idempotent creation ---------------------------------------------------------------------


def test_a_key_answers_its_first_answer_and_only_to_the_same_request(storage: Storage) -> None:
    key = f"key-{datetime.now(UTC).timestamp()}"
    body = {"ruleset": "liverpool", "players": PLAYERS}
    with storage.transaction(write=True) as connection:
        assert idempotency.reserve(connection, key, body) is None
    with storage.transaction(write=True) as connection, pytest.raises(IdempotencyConflict):
        idempotency.reserve(connection, key, body)  # the first is still being served
    answer = {"id": "sheet", "edit_token": "secret", "version": 1}
    with storage.transaction(write=True) as connection:
        idempotency.save_answer(connection, key, 201, answer, "sheet")
    with storage.transaction(write=True) as connection:
        assert idempotency.reserve(connection, key, body) == idempotency.SavedAnswer(201, answer)
        with pytest.raises(IdempotencyMismatch) as mismatch:
            idempotency.reserve(connection, key, {**body, "players": PLAYERS[:3]})
        assert [error.field for error in mismatch.value.errors or ()] == ["Idempotency-Key"]
        stored = connection.execute(select(idempotency_keys.c.answer)).scalars().all()
    assert not any("secret" in (text or "") for text in stored)


def test_a_cancelled_or_expired_key_serves_afresh(storage: Storage) -> None:
    body = {"ruleset": "liverpool", "players": PLAYERS}
    cancelled = f"cancelled-{datetime.now(UTC).timestamp()}"
    with storage.transaction(write=True) as connection:
        assert idempotency.reserve(connection, cancelled, body) is None
    with storage.transaction(write=True) as connection:
        idempotency.cancel(connection, cancelled)
    with storage.transaction(write=True) as connection:
        assert idempotency.reserve(connection, cancelled, body) is None

    expired = f"expired-{datetime.now(UTC).timestamp()}"
    with storage.transaction(write=True) as connection:
        assert idempotency.reserve(connection, expired, body) is None
        idempotency.save_answer(connection, expired, 201, {"id": "old"}, "old")
        connection.execute(
            update(idempotency_keys)
            .where(idempotency_keys.c.key_hash == idempotency.key_hash(expired))
            .values(created_at=datetime.now(UTC) - idempotency.LIFETIME - timedelta(minutes=1))
        )
    with storage.transaction(write=True) as connection:
        assert idempotency.reserve(connection, expired, body) is None


def test_forgetting_a_sheet_forgets_its_saved_answers(storage: Storage) -> None:
    body = {"ruleset": "liverpool", "players": PLAYERS}
    key = f"forgotten-{datetime.now(UTC).timestamp()}"
    with storage.transaction(write=True) as connection:
        idempotency.reserve(connection, key, body)
        idempotency.save_answer(connection, key, 201, {"id": "gone"}, "gone")
    with storage.transaction(write=True) as connection:
        idempotency.forget_sheet(connection, "gone")
    with storage.transaction(write=True) as connection:
        assert idempotency.reserve(connection, key, body) is None


# --- the stored ruleset, read back ----------------------------------------------------------------


def _stored_sheet(ruleset_data: dict[str, Any]) -> sheets.Sheet:
    moment = datetime.now(UTC)
    text = json.dumps(ruleset_data)
    return sheets.Sheet("a-sheet", text, ["A", "B"], 0, "0" * 64, 1, [], moment, moment)


def test_sheets_of_one_stored_ruleset_share_it_as_read_back() -> None:
    stored = find_ruleset("liverpool").as_dict()
    first, second = _stored_sheet(stored), _stored_sheet(dict(stored))
    assert first.ruleset is second.ruleset
    assert first.ruleset == find_ruleset("liverpool")


def test_a_stored_ruleset_is_read_back_as_the_text_it_was_stored_as(
    storage: Storage, new_sheet: tuple[sheets.Sheet, str]
) -> None:
    """The column is read as text, on both databases, and that text finds the ruleset read
    back for every other sheet of it: the very value, and the one the sheet was made with."""
    made, _ = new_sheet
    with storage.transaction() as connection:
        stored = connection.execute(
            select(sheet_rows.c.ruleset).where(sheet_rows.c.id == made.id)
        ).scalar_one()
        first = sheets.load(connection, made.id)
        again = sheets.load(connection, made.id)
    assert first.ruleset_text == made.ruleset_text == json.dumps(LIVERPOOL.as_dict())
    assert stored == LIVERPOOL.as_dict()  # stored as JSON, as every sheet was
    assert first.ruleset is again.ruleset is made.ruleset
    assert first.ruleset == LIVERPOOL
    assert dict(first.ruleset_data) == LIVERPOOL.as_dict()
    with pytest.raises(TypeError):
        first.ruleset_data["name"] = "changed"  # type: ignore[index]  # shared: read-only


def test_a_stored_ruleset_is_read_back_as_its_json_says() -> None:
    """Python finds 50 == 50.0, the stored JSON does not: each reads back as it was stored."""
    stored = find_ruleset("contract-rummy").as_dict() | {"cut_bonus": 50}
    as_float = _stored_sheet(stored | {"cut_bonus": 50.0}).ruleset
    as_int = _stored_sheet(stored).ruleset
    assert type(as_int.cut_bonus) is int
    assert type(as_float.cut_bonus) is float
