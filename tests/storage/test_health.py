"""/healthz says 200 only when sheets can be served, and a database that cannot serve is a 503.

docs/api.md, Running it: the database reachable within a short timeout and its schema at the
code's revision; an SQLite file present and writable. A deleted or replaced SQLite file is
noticed before a write is acknowledged; a writer holding SQLite's lock makes other writers
wait at most the busy timeout (then 503), while readers and /healthz do not wait at all.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert, text

from api import create_app
from api.storage import Storage, StorageUnavailable, migrate
from api.storage.schema import head_revision
from api.storage.tables import idempotency_keys

PLAYERS = ["Ann", "Bob", "Cleo"]
ROUND = {
    "results": [{"seat": 0, "went_out": True}, {"seat": 1, "points": 25}, {"seat": 2, "points": 30}]
}
#: Seconds a writer waits for SQLite's lock (DATABASE_STATEMENT_TIMEOUT, the busy timeout):
#: long enough that a writer who waited it out is told apart from a reader who did not wait,
#: answered within 2 s however busy the machine.
BUSY_TIMEOUT = 3


def app_on(url: str, **settings: object) -> Flask:
    return create_app({"TESTING": True, "DATABASE_URL": url, **settings})


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[tuple[Flask, Path]]:
    path = tmp_path / "sheets.sqlite3"
    migrate(f"sqlite:///{path}")
    app = app_on(f"sqlite:///{path}", DATABASE_STATEMENT_TIMEOUT=BUSY_TIMEOUT)
    yield app, path
    app.extensions["database"].dispose()


def unavailable(answer: object, reason: str) -> None:
    assert answer.status_code == 503, answer.get_json()  # type: ignore[attr-defined]
    assert answer.mimetype == "application/problem+json"  # type: ignore[attr-defined]
    assert int(answer.headers["Retry-After"]) > 0  # type: ignore[attr-defined]
    assert reason in answer.get_json()["detail"]  # type: ignore[attr-defined]


def start_sheet(client: FlaskClient) -> tuple[str, dict[str, str]]:
    created = client.post("/v1/matches", json={"ruleset": "liverpool", "players": PLAYERS})
    assert created.status_code == 201
    sheet = created.get_json()
    # The headers of a write that would go through (the new sheet's ETag is "1").
    return f"/v1/matches/{sheet['id']}", {
        "Authorization": f"Bearer {sheet['edit_token']}",
        "If-Match": '"1"',
    }


def test_healthz_is_200_with_the_schema_at_the_codes_revision(client: FlaskClient) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.get_json() == {"status": "ok", "database": "ok"}


def test_an_empty_database_is_not_healthy(fresh_database_url: str, tmp_path: Path) -> None:
    if fresh_database_url.startswith("sqlite"):
        sqlite3.connect(fresh_database_url.removeprefix("sqlite:///")).close()  # an empty file
    app = app_on(fresh_database_url)
    try:
        client = app.test_client()
        unavailable(
            client.get("/healthz"), f"schema is at revision none, the code's is {head_revision()}"
        )
        # A sheet cannot be served either: a 503, not a 500.
        unavailable(client.get("/v1/matches/abcdefghijklmnopqrstuv"), "")
        created = client.post("/v1/matches", json={"ruleset": "liverpool", "players": PLAYERS})
        unavailable(created, "")
    finally:
        app.extensions["database"].dispose()


def test_a_deleted_sqlite_file_is_not_healthy_and_takes_no_write(
    sqlite_app: tuple[Flask, Path],
) -> None:
    app, path = sqlite_app
    client = app.test_client()
    sheet, auth = start_sheet(client)
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)
    unavailable(client.get("/healthz"), "the SQLite database file is missing")
    # The pooled connection still has the deleted file open: its write must not be acknowledged.
    written = client.put(f"{sheet}/rounds/1", json=ROUND, headers=auth)
    assert written.status_code == 503, written.get_json()
    assert int(written.headers["Retry-After"]) > 0


def test_a_replaced_sqlite_file_is_the_one_written(
    sqlite_app: tuple[Flask, Path], tmp_path: Path
) -> None:
    app, path = sqlite_app
    client = app.test_client()
    sheet, auth = start_sheet(client)
    other = tmp_path / "restored.sqlite3"
    migrate(f"sqlite:///{other}")
    os.replace(other, path)  # a backup restored over the live file
    Path(f"{path}-wal").unlink(missing_ok=True)
    Path(f"{path}-shm").unlink(missing_ok=True)
    assert client.get("/healthz").status_code == 200
    # The sheet is not in the restored file: a 404, not a write into the file that was replaced.
    assert client.put(f"{sheet}/rounds/1", json=ROUND, headers=auth).status_code == 404
    again, _ = start_sheet(client)
    with sqlite3.connect(path) as restored:
        ids = [row[0] for row in restored.execute("SELECT id FROM sheets")]
    assert ids == [again.rsplit("/", 1)[1]]


def test_a_write_is_refused_when_its_file_goes_away_before_commit(tmp_path: Path) -> None:
    path = tmp_path / "sheets.sqlite3"
    migrate(f"sqlite:///{path}")
    storage = Storage(f"sqlite:///{path}")
    row = {"key_hash": "k" * 64, "request_hash": "r" * 64, "state": "pending"}
    try:
        with pytest.raises(StorageUnavailable, match="deleted or replaced"):
            with storage.transaction(write=True) as connection:
                connection.execute(
                    insert(idempotency_keys).values(**row, created_at=text("CURRENT_TIMESTAMP"))
                )
                path.unlink()
        migrate(f"sqlite:///{path}")
        with storage.transaction() as connection:  # a new connection, on the new file
            assert connection.execute(text("SELECT count(*) FROM idempotency_keys")).scalar() == 0
    finally:
        storage.dispose()


def test_a_held_write_lock_makes_writers_503_and_nobody_else_wait(
    sqlite_app: tuple[Flask, Path],
) -> None:
    app, path = sqlite_app
    client = app.test_client()
    sheet, auth = start_sheet(client)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # a writer stuck with the lock
        started = time.monotonic()
        written = client.put(f"{sheet}/rounds/1", json=ROUND, headers=auth)
        took = time.monotonic() - started
        unavailable(written, "")
        assert BUSY_TIMEOUT - 0.1 < took < BUSY_TIMEOUT + 2, f"{took:.1f} s for {BUSY_TIMEOUT} s"
        started = time.monotonic()
        assert client.get(sheet).status_code == 200
        assert client.get("/healthz").status_code == 200
        assert time.monotonic() - started < 2  # not the busy timeout the writer waited
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert client.put(f"{sheet}/rounds/1", json=ROUND, headers=auth).status_code == 200


def test_a_processs_sqlite_writers_take_turns_and_wait_at_most_the_busy_timeout(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'turns.sqlite3'}"
    migrate(url)
    storage = Storage(url, statement_timeout=BUSY_TIMEOUT)
    held, done = threading.Event(), threading.Event()
    order: list[str] = []

    def slow_writer() -> None:
        with storage.transaction(write=True) as connection:
            connection.execute(text("SELECT 1"))
            order.append("first in")
            held.set()
            done.wait(30)  # until the test lets it finish
            order.append("first out")

    writer = threading.Thread(target=slow_writer)
    writer.start()
    try:
        assert held.wait(5)
        # The second writer of this process waits in the process's queue, not on SQLite's
        # file lock, and gives up after the busy timeout with a 503's reason.
        started = time.monotonic()
        with pytest.raises(StorageUnavailable, match="another write held the database"):
            with storage.transaction(write=True):
                pass
        assert BUSY_TIMEOUT - 0.1 < time.monotonic() - started < BUSY_TIMEOUT + 2
        # A reader never queues behind the writer.
        started = time.monotonic()
        with storage.transaction() as connection:
            assert connection.execute(text("SELECT count(*) FROM sheets")).scalar() == 0
        assert time.monotonic() - started < 2  # not the busy timeout a writer waits
        # Queued behind a writer that finishes in time, the next one gets its turn once that
        # writer is done.
        threading.Timer(0.3, done.set).start()
        started = time.monotonic()
        with storage.transaction(write=True):
            order.append("second in")
        assert 0.2 < time.monotonic() - started < 2
        assert order == ["first in", "first out", "second in"]
    finally:
        done.set()
        writer.join(5)
        storage.dispose()


def test_the_timeouts_reach_the_database(database_url: str) -> None:
    storage = Storage(database_url, connect_timeout=2, statement_timeout=4)
    try:
        with storage.transaction() as connection:
            if storage.is_sqlite:
                assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 4000
                assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            else:
                assert connection.exec_driver_sql("SHOW statement_timeout").scalar() == "4s"
                # A tenth sooner: a write queued behind a lock is told the database is busy.
                assert connection.exec_driver_sql("SHOW lock_timeout").scalar() == "3600ms"
    finally:
        storage.dispose()


def test_a_statement_past_the_timeout_is_a_503(database_url: str) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite's statements wait only on the lock (the busy timeout, above)")
    app = app_on(database_url, DATABASE_STATEMENT_TIMEOUT=1)
    try:
        with app.app_context(), pytest.raises(StorageUnavailable):
            with app.extensions["database"].transaction() as connection:
                connection.execute(text("SELECT pg_sleep(3)"))
    finally:
        app.extensions["database"].dispose()
