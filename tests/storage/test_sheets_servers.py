"""Match sheets under gunicorn: several workers, several instances, several phones at once.

Each test starts real gunicorn processes on free loopback ports against a scratch database
(SQLite and PostgreSQL both), the way the service runs in production.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

import pytest
from sqlalchemy import create_engine, text

pytestmark = pytest.mark.server

ROUNDS = 7


def call(
    base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], Any]:
    """One HTTP request on a fresh connection: status, headers, decoded JSON (or None)."""
    connection = http.client.HTTPConnection(urlsplit(base).netloc, timeout=30)
    try:
        payload = None if body is None else json.dumps(body)
        sent = {"Content-Type": "application/json", **(headers or {})} if payload else headers
        connection.request(method, path, body=payload, headers=sent or {})
        answer = connection.getresponse()
        raw = answer.read()
        data = (
            json.loads(raw) if raw and "json" in (answer.getheader("Content-Type") or "") else None
        )
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, data
    finally:
        connection.close()


def results_for(round_number: int, players: int = 4) -> list[dict[str, Any]]:
    out = round_number % players
    return [
        {"seat": s, "went_out": True} if s == out else {"seat": s, "points": 5 * (s + 1)}
        for s in range(players)
    ]


def put_round(
    base: str, path: str, number: int, token: dict[str, str], etag: str
) -> tuple[int, dict[str, str], Any]:
    """Record round ``number`` of the sheet at ``path``, if it is still as ``etag`` says."""
    return call(
        base,
        "PUT",
        f"{path}/rounds/{number}",
        {"results": results_for(number)},
        {**token, "If-Match": etag},
    )


def new_sheet(base: str) -> dict[str, Any]:
    status, _, sheet = call(
        base, "POST", "/v1/matches", {"ruleset": "liverpool", "players": ["A", "B", "C", "D"]}
    )
    assert status == 201, sheet
    return sheet  # type: ignore[no-any-return]


def test_eight_phones_writing_one_sheet_lose_no_round_and_double_none(
    fresh_database_url: str, start_server: Any
) -> None:
    """4 workers, 8 clients, If-Match on every write: each round lands exactly once."""
    server = start_server(fresh_database_url, workers=4)
    sheet = new_sheet(server.url)
    token = {"Authorization": f"Bearer {sheet['edit_token']}"}
    outcomes: Counter[int] = Counter()
    won: list[int] = []
    lock = threading.Lock()
    errors: list[BaseException] = []

    def phone() -> None:
        try:
            for _ in range(200):  # bounded: far more tries than 7 rounds can need
                status, headers, current = call(server.url, "GET", f"/v1/matches/{sheet['id']}")
                assert status == 200
                played = sum(1 for r in current["rounds"] if r["status"] == "played")
                if played == ROUNDS:
                    return
                number = played + 1
                status, _, body = put_round(
                    server.url, f"/v1/matches/{sheet['id']}", number, token, headers["etag"]
                )
                with lock:
                    outcomes[status] += 1
                    if status == 200:
                        won.append(number)
        except BaseException as error:  # surfaced in the main thread
            errors.append(error)

    phones = [threading.Thread(target=phone) for _ in range(8)]
    for thread in phones:
        thread.start()
    for thread in phones:
        thread.join(120)
    assert not errors, errors
    assert sorted(won) == list(range(1, ROUNDS + 1)), won  # none lost, none doubled
    assert set(outcomes) <= {200, 412}, outcomes  # every loser was told the sheet moved on
    assert outcomes[412] > 0, outcomes  # the phones did race
    status, _, final = call(server.url, "GET", f"/v1/matches/{sheet['id']}")
    assert final["version"] == 1 + ROUNDS
    assert final["status"] == "finished"
    assert [r["number"] for r in final["rounds"] if r["status"] == "played"] == list(
        range(1, ROUNDS + 1)
    )


@pytest.mark.postgres
def test_two_instances_on_one_postgresql_are_one_service(
    fresh_postgres_url: str, start_server: Any
) -> None:
    """Nothing lives in a process: a sheet made on one instance is read and written on the
    other, and the two, started together on an empty database, migrate it once."""
    first = start_server(fresh_postgres_url, workers=2, wait=False)
    second = start_server(fresh_postgres_url, workers=2, wait=False)
    first.wait_ready()
    second.wait_ready()
    logs = first.log.read_text() + second.log.read_text()
    assert logs.count("migrated the database schema") == 1, logs
    assert logs.count("the database schema is up to date") == 1, logs

    sheet = new_sheet(first.url)
    path = f"/v1/matches/{sheet['id']}"
    token = {"Authorization": f"Bearer {sheet['edit_token']}"}
    status, headers, read = call(second.url, "GET", path)
    assert status == 200 and read["id"] == sheet["id"]
    status, _, written = put_round(second.url, path, 1, token, headers["etag"])
    assert status == 200 and written["version"] == 2
    # The first instance sees the write, and refuses a write based on what it saw before.
    status, _, seen = call(first.url, "GET", path)
    assert seen["version"] == 2 and seen["rounds"][0]["status"] == "played"
    status, _, _ = put_round(first.url, path, 2, token, headers["etag"])
    assert status == 412
    status, _, _ = call(first.url, "DELETE", path, headers=token)
    assert status == 428  # a delete must name the version it means, too
    status, _, _ = call(first.url, "DELETE", path, headers={**token, "If-Match": '"2"'})
    assert status == 204
    assert call(second.url, "GET", path)[0] == 404


def test_the_schema_is_migrated_once_however_many_workers(
    fresh_database_url: str, start_server: Any
) -> None:
    server = start_server(fresh_database_url, workers=4)
    status, _, _ = call(server.url, "GET", "/healthz")
    assert status == 200
    log = server.log.read_text()
    assert log.count("migrated the database schema") == 1, log
    engine = create_engine(fresh_database_url)
    try:
        with engine.connect() as connection:
            revision = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    finally:
        engine.dispose()
    assert len(revision) == 1
