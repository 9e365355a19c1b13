"""An Idempotency-Key reserved by a request that died is taken over once the reservation has
expired; keys are 16 to 255 characters.

docs/api.md, Idempotency. The dead request's reservation is made as a killed worker leaves it: a
pending row, inserted by hand with the time it was reserved, and no answer.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, insert, select

from api import create_app
from api.storage import idempotency
from api.storage.tables import idempotency_keys
from api.storage.tables import sheets as sheet_rows

BODY = {"ruleset": "liverpool", "players": ["Ann", "Bob", "Cleo"]}
PROBLEM = "application/problem+json"


def dead_reservation(app: Flask, key: str, reserved_ago: timedelta, body: object = BODY) -> None:
    """What a worker killed after reserving ``key`` leaves behind: a pending reservation."""
    with app.extensions["database"].transaction(write=True) as connection:
        connection.execute(
            insert(idempotency_keys).values(
                key_hash=idempotency.key_hash(key),
                request_hash=idempotency.request_hash(body),
                state="pending",
                created_at=datetime.now(UTC) - reserved_ago,
            )
        )


def sheets(app: Flask) -> int:
    with app.extensions["database"].transaction() as connection:
        return int(connection.execute(select(func.count()).select_from(sheet_rows)).scalar_one())


def test_a_reservation_left_by_a_dead_request_is_taken_over_once_expired(
    backend_client: FlaskClient, backend_app: Flask
) -> None:
    key = str(uuid.uuid4())
    # A reservation holds 60 s (IDEMPOTENCY_LEASE's default).
    dead_reservation(backend_app, key, timedelta(seconds=61))
    before = sheets(backend_app)
    retry = backend_client.post("/v1/matches", json=BODY, headers={"Idempotency-Key": key})
    assert retry.status_code == 201, retry.get_json()
    assert "Idempotent-Replayed" not in retry.headers
    assert sheets(backend_app) == before + 1
    # ...and that answer is now the key's, repeated to the next retry.
    again = backend_client.post("/v1/matches", json=BODY, headers={"Idempotency-Key": key})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == retry.get_json()
    assert sheets(backend_app) == before + 1


def test_a_reservation_not_yet_expired_still_answers_409(
    backend_client: FlaskClient, backend_app: Flask
) -> None:
    key = str(uuid.uuid4())
    dead_reservation(backend_app, key, timedelta(seconds=50))  # of the 60 s it holds
    answer = backend_client.post("/v1/matches", json=BODY, headers={"Idempotency-Key": key})
    assert answer.status_code == 409 and answer.mimetype == PROBLEM


def test_a_taken_over_reservation_still_refuses_another_body(
    backend_client: FlaskClient, backend_app: Flask
) -> None:
    key = str(uuid.uuid4())
    dead_reservation(backend_app, key, timedelta(minutes=5))
    other = {**BODY, "players": ["Ann", "Bob", "Dan"]}
    answer = backend_client.post("/v1/matches", json=other, headers={"Idempotency-Key": key})
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["field"] == "Idempotency-Key"


def test_how_long_a_reservation_holds_is_a_setting(database_file: str) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_file, "IDEMPOTENCY_LEASE": 5})
    try:
        key = str(uuid.uuid4())
        dead_reservation(app, key, timedelta(seconds=6))  # past the 5 s set above
        answer = app.test_client().post("/v1/matches", json=BODY, headers={"Idempotency-Key": key})
        assert answer.status_code == 201
    finally:
        app.extensions["database"].dispose()


@pytest.mark.parametrize(
    "key",
    [
        "",
        "k" * 16,
        "order-1234-of-table-7",  # guessable: another client could send it too
        "a2b7c3d4-e5f6-1a7b-8c9d-0e1f2a3b4c5d",  # version 1: a time and a machine, not random
        "a2b7c3d4e5f64a7b8c9d0e1f2a3b4c5",  # 31 digits
        "a2b7c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d-",
    ],
)
def test_a_key_that_is_not_a_random_uuid_is_a_422_naming_the_header(
    client: FlaskClient, key: str
) -> None:
    answer = client.post("/v1/matches", json=BODY, headers={"Idempotency-Key": key})
    assert answer.status_code == 422 and answer.mimetype == PROBLEM
    problem = answer.get_json()
    assert [error["field"] for error in problem["errors"]] == ["Idempotency-Key"]
    assert "UUID" in problem["errors"][0]["message"]


@pytest.mark.parametrize(
    "key",
    [
        "9f1c2b7d-5e3a-4c10-8a4b-6f1d2c8e4a8b",
        "9F1C2B7D-5E3A-4C10-8A4B-6F1D2C8E4A8B",
        "5e3a4c108a4b6f1d2c8e4a8b9f1c2b7d",  # 128 random bits, as a page without randomUUID
    ],
)
def test_a_random_uuid_is_taken(client: FlaskClient, key: str) -> None:
    answer = client.post("/v1/matches", json=BODY, headers={"Idempotency-Key": key})
    assert answer.status_code == 201
