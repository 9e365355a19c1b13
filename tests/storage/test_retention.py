"""Retention without the web, on both databases: the purge and the once-a-day claim."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select, update

from api.storage import Storage, idempotency, migrate, retention, sheets
from api.storage.tables import idempotency_keys
from api.storage.tables import sheets as sheet_rows
from rules import find_ruleset

LIVERPOOL = find_ruleset("liverpool")
KEEP = timedelta(days=400)


@pytest.fixture
def scratch(fresh_database_url: str) -> Iterator[Storage]:
    """A storage of its own per test: the purge and its marker see only this test's rows."""
    migrate(fresh_database_url)
    bound = Storage(fresh_database_url)
    yield bound
    bound.dispose()


def new_sheet(storage: Storage, age: timedelta = timedelta(0)) -> str:
    with storage.transaction(write=True) as connection:
        sheet, _ = sheets.create(connection, LIVERPOOL, ["Ann", "Bob", "Cleo"], 0)
        if age:
            then = datetime.now(UTC) - age
            connection.execute(
                update(sheet_rows)
                .where(sheet_rows.c.id == sheet.id)
                .values(updated_at=then, created_at=then)
            )
    return sheet.id


def keep_key(storage: Storage, key: str, match_id: str, age: timedelta = timedelta(0)) -> None:
    with storage.transaction(write=True) as connection:
        assert idempotency.reserve(connection, key, {"k": key}) is None
        idempotency.save_answer(connection, key, 201, {"id": match_id}, match_id)
        if age:
            connection.execute(
                update(idempotency_keys)
                .where(idempotency_keys.c.key_hash == idempotency.key_hash(key))
                .values(created_at=datetime.now(UTC) - age)
            )


def stored(storage: Storage) -> tuple[set[str], int]:
    with storage.transaction() as connection:
        ids = set(connection.execute(select(sheet_rows.c.id)).scalars())
        keys = connection.execute(select(func.count()).select_from(idempotency_keys)).scalar()
    return ids, int(keys or 0)


def test_the_purge_deletes_what_is_untouched_and_keeps_the_rest(scratch: Storage) -> None:
    old = new_sheet(scratch, KEEP + timedelta(days=1))
    almost = new_sheet(scratch, KEEP - timedelta(days=1))
    fresh = new_sheet(scratch)
    keep_key(scratch, "key-of-the-old-sheet-0001", old)  # goes with its sheet
    keep_key(scratch, "key-of-a-fresh-sheet-00003", fresh)
    # Last: reserving a key deletes the expired keys it finds.
    keep_key(scratch, "key-expired-long-ago-00002", fresh, idempotency.LIFETIME * 2)

    purged = retention.purge(scratch, KEEP)

    assert (purged.sheets, purged.keys) == (1, 1)
    assert abs(purged.before - (datetime.now(UTC) - KEEP)) < timedelta(minutes=1)
    assert stored(scratch) == ({almost, fresh}, 1)
    assert retention.purge(scratch, KEEP).sheets == 0  # nothing left to do


def test_a_sheet_written_to_is_kept(scratch: Storage) -> None:
    """Untouched means unchanged: recording a round renews a sheet's time."""
    match_id = new_sheet(scratch, KEEP + timedelta(days=30))
    with scratch.transaction(write=True) as connection:
        sheet = sheets.load(connection, match_id, for_update=True)
        sheets.save(connection, sheet)
    assert retention.purge(scratch, KEEP).sheets == 0
    assert stored(scratch)[0] == {match_id}


def test_a_large_backlog_is_purged_in_batches(
    scratch: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(retention, "BATCH", 2)
    old = {new_sheet(scratch, KEEP * 2) for _ in range(5)}
    fresh = new_sheet(scratch)
    assert retention.purge(scratch, KEEP).sheets == 5
    assert stored(scratch)[0] == {fresh} and not old & stored(scratch)[0]


def test_the_purge_is_claimed_once_a_day(scratch: Storage) -> None:
    now = datetime.now(UTC)
    assert retention.claim_purge(scratch, now)  # never ran: due
    assert not retention.claim_purge(scratch, now + timedelta(hours=23))
    assert retention.claim_purge(scratch, now + timedelta(days=1))
    assert not retention.claim_purge(scratch, now + timedelta(days=1, minutes=1))


def test_a_purge_by_hand_counts_as_the_days_purge(scratch: Storage) -> None:
    retention.purge(scratch, KEEP)
    assert retention.purge_if_due(scratch, KEEP) is None
    tomorrow = datetime.now(UTC) + timedelta(days=1, minutes=1)
    assert retention.purge_if_due(scratch, KEEP, tomorrow) is not None


def test_only_one_of_many_workers_purges(fresh_database_url: str) -> None:
    migrate(fresh_database_url)
    workers = [Storage(fresh_database_url) for _ in range(6)]
    now = datetime.now(UTC)
    won: list[bool] = []
    start = threading.Barrier(len(workers))

    def ask(storage: Storage) -> None:
        start.wait()
        won.append(retention.claim_purge(storage, now))

    threads = [threading.Thread(target=ask, args=(storage,)) for storage in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for storage in workers:
        storage.dispose()
    assert sorted(won) == [False] * 5 + [True]
