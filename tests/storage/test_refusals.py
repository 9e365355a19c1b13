"""A write that will be refused is refused at once, in the order docs/api.md gives, and every
503 says what is wrong with the database.

A refused write (no token, a wrong one, an unknown sheet or round, no If-Match, a stale one)
used to wait for SQLite's write lock first: a 503 after the busy timeout instead of an
immediate 401 or 403. Refusals are now decided from a plain read, before a write's turn; a
round the ruleset lacks is a 404 before a missing If-Match is a 428, before a stale one is a
412. A 503's detail names the trouble — read-only, the disk full, another write holding the
database, too slow, unreachable — in the reader's language, and neither it nor any error's
text repeats the sheet's id.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, event, text

from api import create_app
from api.storage import Storage, StorageUnavailable, migrate, sheets
from api.storage.errors import BUSY, DISK_FULL, READ_ONLY, TOO_SLOW
from rules import find_ruleset

PLAYERS = ["Ann", "Bob", "Cleo"]
ROUND = {
    "results": [{"seat": 0, "went_out": True}, {"seat": 1, "points": 25}, {"seat": 2, "points": 30}]
}
#: SQLite's busy timeout here: a refusal that waited for the lock would take this long.
BUSY_TIMEOUT = 3


@pytest.fixture
def locked_sqlite(tmp_path: Path) -> Iterator[tuple[FlaskClient, str, dict[str, str]]]:
    """An app on SQLite, a sheet on it, and the database's write lock held by another writer."""
    path = tmp_path / "sheets.sqlite3"
    migrate(f"sqlite:///{path}")
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{path}",
            "DATABASE_STATEMENT_TIMEOUT": BUSY_TIMEOUT,
            "RATELIMIT_ENABLED": False,
        }
    )
    client = app.test_client()
    sheet = client.post("/v1/matches", json={"ruleset": "liverpool", "players": PLAYERS}).get_json()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        yield (
            client,
            f"/v1/matches/{sheet['id']}",
            {"Authorization": f"Bearer {sheet['edit_token']}"},
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        app.extensions["database"].dispose()


@pytest.mark.parametrize(
    ("method", "path", "headers", "status"),
    [
        ("PUT", "/rounds/1", {"Authorization": ""}, 401),
        ("PUT", "/rounds/1", {"Authorization": "Bearer not-the-token", "If-Match": "*"}, 403),
        ("DELETE", "", {"Authorization": "Bearer not-the-token", "If-Match": "*"}, 403),
        ("PUT", "/rounds/99", {}, 404),  # a round the ruleset lacks: before the missing If-Match
        ("DELETE", "/rounds/99", {"If-Match": '"7"'}, 404),
        ("PUT", "/rounds/1", {}, 428),
        ("DELETE", "", {}, 428),
        ("PUT", "/rounds/1", {"If-Match": '"7"'}, 412),
        ("DELETE", "/rounds/1", {"If-Match": '"7"'}, 412),
    ],
)
def test_a_refused_write_never_waits_for_the_write_lock(
    locked_sqlite: tuple[FlaskClient, str, dict[str, str]],
    method: str,
    path: str,
    headers: dict[str, str],
    status: int,
) -> None:
    client, sheet, token = locked_sqlite
    started = time.monotonic()
    body = ROUND if method == "PUT" else None
    answer = client.open(sheet + path, method=method, json=body, headers={**token, **headers})
    took = time.monotonic() - started
    assert answer.status_code == status, answer.get_json()
    assert took < BUSY_TIMEOUT / 2, f"a {status} waited {took:.1f} s for the write lock"


def test_an_unknown_sheet_is_a_404_at_once_and_its_id_is_not_repeated(
    locked_sqlite: tuple[FlaskClient, str, dict[str, str]],
) -> None:
    client, _, token = locked_sqlite
    started = time.monotonic()
    answer = client.put("/v1/matches/NoSuchSheetAtAll00000/rounds/1", json=ROUND, headers=token)
    assert answer.status_code == 404 and time.monotonic() - started < BUSY_TIMEOUT / 2
    assert "NoSuchSheetAtAll" not in answer.get_data(as_text=True)


def test_only_a_write_that_would_be_made_waits_and_its_503_says_why(
    locked_sqlite: tuple[FlaskClient, str, dict[str, str]],
) -> None:
    client, sheet, token = locked_sqlite
    answer = client.put(
        f"{sheet}/rounds/1",
        json=ROUND,
        headers={**token, "If-Match": '"1"', "Accept-Language": "de"},
    )
    assert answer.status_code == 503 and int(answer.headers["Retry-After"]) > 0
    assert answer.get_json()["detail"] == "ein anderer Schreibvorgang hielt die Datenbank zu lange"


def test_the_order_is_the_same_on_both_databases(backend_client: FlaskClient) -> None:
    made = backend_client.post("/v1/matches", json={"ruleset": "liverpool", "players": PLAYERS})
    sheet = made.get_json()
    path, token = f"/v1/matches/{sheet['id']}", {"Authorization": f"Bearer {sheet['edit_token']}"}
    statuses = [
        backend_client.put(f"{path}/rounds/8", json=ROUND, headers=token).status_code,
        backend_client.put(f"{path}/rounds/1", json=ROUND, headers=token).status_code,
        backend_client.put(
            f"{path}/rounds/1", json=ROUND, headers={**token, "If-Match": '"2"'}
        ).status_code,
        backend_client.put(
            f"{path}/rounds/1", json=ROUND, headers={**token, "If-Match": '"1"'}
        ).status_code,
    ]
    assert statuses == [404, 428, 412, 200]


# --- why a database cannot serve, said by real databases ----------------------------------------


def unavailable_reason(storage: Storage, statement: str, **params: Any) -> str:
    with pytest.raises(StorageUnavailable) as refused:
        with storage.transaction(write=True) as connection:
            connection.execute(text(statement), params)
    return refused.value.reason


def test_sqlite_full_and_read_only_are_told_apart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'small.sqlite3'}"
    migrate(url)
    storage = Storage(url, statement_timeout=1)

    @event.listens_for(storage.engine, "connect")
    def no_more_pages(dbapi_connection: Any, _record: Any) -> None:
        # The database may not grow: as if its disk were full.
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count={pages}")

    try:
        big = "x" * 200_000
        insert = "INSERT INTO maintenance (task, done_at) VALUES (:task, CURRENT_TIMESTAMP)"
        assert unavailable_reason(storage, insert, task=big) == DISK_FULL
    finally:
        storage.dispose()
    read_only = Storage(f"sqlite:///file:{tmp_path / 'small.sqlite3'}?mode=ro&uri=true")
    try:
        assert unavailable_reason(read_only, "DELETE FROM maintenance") == READ_ONLY
    finally:
        read_only.dispose()


@pytest.mark.postgres
def test_postgresql_read_only_busy_and_slow_are_told_apart(fresh_postgres_url: str) -> None:
    migrate(fresh_postgres_url)
    storage = Storage(fresh_postgres_url, statement_timeout=1)
    admin = create_engine(fresh_postgres_url, isolation_level="AUTOCOMMIT")
    try:
        with storage.transaction(write=True) as connection:
            sheet, _ = sheets.create(connection, find_ruleset("liverpool"), PLAYERS, 0)
        # Another writer holds the sheet's row past the lock timeout.
        with admin.connect() as holder:
            holder.execute(text("BEGIN"))
            holder.execute(text("SELECT 1 FROM sheets WHERE id = :id FOR UPDATE"), {"id": sheet.id})
            with pytest.raises(StorageUnavailable) as refused:
                with storage.transaction(write=True) as connection:
                    sheets.load(connection, sheet.id, for_update=True)
            assert refused.value.reason == BUSY
            holder.execute(text("ROLLBACK"))
        assert unavailable_reason(storage, "SELECT pg_sleep(3)") == TOO_SLOW
        # A standby, or a database an administrator made read-only.
        with admin.connect() as connection:
            name = connection.execute(text("SELECT current_database()")).scalar_one()
            connection.execute(
                text(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
            )
        storage.dispose()  # new connections take the setting
        assert unavailable_reason(storage, "DELETE FROM maintenance") == READ_ONLY
    finally:
        storage.dispose()
        admin.dispose()


def test_the_reasons_are_translated(tmp_path: Path) -> None:
    app: Flask = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}"}
    )
    try:
        client = app.test_client()
        # An empty file: no schema, and the 503 says so in the reader's language.
        sqlite3.connect(tmp_path / "x.sqlite3").close()
        answer = client.get("/healthz", headers={"Accept-Language": "nl"})
        assert answer.status_code == 503
        assert answer.headers["Content-Language"] == "nl"
        assert "none" in answer.get_json()["detail"] and "0005" in answer.get_json()["detail"]
        assert answer.get_json()["detail"] != client.get("/healthz").get_json()["detail"]
    finally:
        app.extensions["database"].dispose()
