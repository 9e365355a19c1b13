"""Operations in one process: request ids, the access log, metrics, rate limits, the purge command."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

from api import create_app
from api.config import ConfigError
from api.observability import access_log, formatter
from api.storage import migrate
from api.storage.tables import sheets

CHECK = {"ruleset": "liverpool", "cards": ["7H", "7S", "7D"]}
SHEET = {"ruleset": "liverpool", "players": ["Ann", "Bob", "Cleo"]}
ROUND = {
    "results": [{"seat": 0, "went_out": True}, {"seat": 1, "points": 35}, {"seat": 2, "points": 20}]
}


@pytest.fixture
def ops_app(tmp_path: Path) -> Iterator[Flask]:
    url = f"sqlite:///{tmp_path / 'ops.sqlite3'}"
    migrate(url)
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": url,
            "RATELIMIT_CREATE": "3 per minute",
            "RATELIMIT_WRITE": "4 per minute",
        }
    )
    yield app
    app.extensions["database"].dispose()


@pytest.fixture
def ops(ops_app: Flask) -> FlaskClient:
    return ops_app.test_client()


class Lines(logging.Handler):
    """The access log's lines, as its formatter writes them."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(formatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def logged() -> Iterator[list[str]]:
    handler = Lines()
    access_log.addHandler(handler)
    yield handler.lines
    access_log.removeHandler(handler)


def create(client: FlaskClient, **headers: str) -> Any:
    return client.post("/v1/matches", json=SHEET, headers=headers)


# --- request ids and the access log ---------------------------------------------------------------


def test_a_sane_request_id_is_echoed(ops: FlaskClient) -> None:
    answer = ops.post("/v1/checks/meld", json=CHECK, headers={"X-Request-Id": "table-7.round:3"})
    assert answer.status_code == 200
    assert answer.headers["X-Request-Id"] == "table-7.round:3"


@pytest.mark.parametrize("given", ["", "x" * 129, 'a"b', "a b", "ü", "a\\b", "<script>"])
def test_an_insane_request_id_is_replaced(ops: FlaskClient, given: str) -> None:
    answer = ops.post("/v1/checks/meld", json=CHECK, headers={"X-Request-Id": given})
    made = answer.headers["X-Request-Id"]
    assert made != given and re.fullmatch("[0-9a-f]{32}", made)


def test_every_answer_has_a_request_id(ops: FlaskClient) -> None:
    ids = {
        ops.get("/nowhere").headers["X-Request-Id"],  # 404 before any view
        ops.delete("/v1/checks/meld").headers["X-Request-Id"],  # 405
        ops.post("/v1/checks/meld", data="{").headers["X-Request-Id"],  # 400/415
        ops.get("/healthz").headers["X-Request-Id"],
        ops.get("/").headers["X-Request-Id"],  # a page
    }
    assert len(ids) == 5


def test_one_json_line_per_request_without_ids_or_tokens(
    ops: FlaskClient, logged: list[str]
) -> None:
    made = create(ops)
    sheet = made.get_json()
    token = sheet["edit_token"]
    ops.get(f"/v1/matches/{sheet['id']}?secret=s3cr3t", headers={"X-Request-Id": "rq-1"})
    ops.put(
        f"/v1/matches/{sheet['id']}/rounds/1",
        json=ROUND,
        headers={"Authorization": f"Bearer {token}", "If-Match": "*"},
    )
    assert len(logged) == 3
    lines = [json.loads(line) for line in logged]
    assert [set(line) for line in lines] == [
        {"time", "method", "route", "status", "duration_ms", "request_id"}
    ] * 3
    assert [(x["method"], x["route"], x["status"]) for x in lines] == [
        ("POST", "/v1/matches", 201),
        ("GET", "/v1/matches/<string:match_id>", 200),
        ("PUT", "/v1/matches/<string:match_id>/rounds/<int:number>", 200),
    ]
    assert lines[1]["request_id"] == "rq-1"
    assert lines[0]["request_id"] == made.headers["X-Request-Id"]
    assert all(0 <= line["duration_ms"] < 10_000 for line in lines)
    text = "\n".join(logged)
    for secret in (sheet["id"], token, "s3cr3t"):
        assert secret not in text


def test_no_access_log_when_switched_off(tmp_path: Path, logged: list[str]) -> None:
    url = f"sqlite:///{tmp_path / 'quiet.sqlite3'}"
    app = create_app({"TESTING": True, "DATABASE_URL": url, "ACCESS_LOG": False})
    app.test_client().post("/v1/checks/meld", json=CHECK)
    assert logged == []


# --- metrics ---------------------------------------------------------------------------------------


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of a Prometheus text page (0 when absent)."""
    for line in text.splitlines():
        if line.startswith("#") or not line.startswith(name):
            continue
        head, _, value = line.rpartition(" ")
        metric, _, rest = head.partition("{")
        found = dict(re.findall(r'(\w+)="([^"]*)"', rest))
        if metric == name and found == labels:
            return float(value)
    return 0.0


def test_metrics_count_requests_sheets_and_rounds(ops: FlaskClient) -> None:
    before = ops.get("/metrics").get_data(as_text=True)
    sheet = create(ops).get_json()
    ops.post("/v1/checks/meld", json=CHECK)
    ops.post("/v1/checks/meld", json=CHECK)
    ops.put(
        f"/v1/matches/{sheet['id']}/rounds/1",
        json=ROUND,
        headers={"Authorization": f"Bearer {sheet['edit_token']}", "If-Match": "*"},
    )
    answer = ops.get("/metrics")
    assert answer.status_code == 200
    assert answer.content_type.startswith("text/plain; version=")
    after = answer.get_data(as_text=True)

    def grew(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    meld = {"route": "/v1/checks/meld", "method": "POST", "status": "200"}
    assert grew("rummy_http_requests_total", **meld) == 2
    assert grew("rummy_http_request_duration_seconds_count", route="/v1/checks/meld") == 2
    assert grew("rummy_sheets_created_total") == 1
    assert grew("rummy_rounds_recorded_total") == 1
    assert sheet["id"] not in after and sheet["edit_token"] not in after


def test_no_metrics_page_when_switched_off(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'quiet.sqlite3'}"
    app = create_app({"TESTING": True, "DATABASE_URL": url, "METRICS": False})
    answer = app.test_client().get("/metrics")
    assert answer.status_code == 404
    assert answer.content_type == "application/problem+json"


# --- rate limits -----------------------------------------------------------------------------------


def test_creating_sheets_is_limited_with_429_and_retry_after(ops: FlaskClient) -> None:
    answers = [create(ops) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
    refused = answers[-1]
    assert refused.content_type == "application/problem+json"
    assert refused.get_json()["status"] == 429
    assert "3 per 1 minute" in refused.get_json()["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 61
    assert "Retry-After" not in answers[0].headers


def test_writes_are_limited_apart_from_creating(ops: FlaskClient) -> None:
    sheet = create(ops).get_json()
    # Any version (If-Match: *): the limit is what is tested, not the preconditions.
    auth = {"Authorization": f"Bearer {sheet['edit_token']}", "If-Match": "*"}
    url = f"/v1/matches/{sheet['id']}"
    statuses = [
        ops.put(f"{url}/rounds/1", json=ROUND, headers=auth).status_code,
        ops.delete(f"{url}/rounds/1", headers=auth).status_code,
        ops.put(f"{url}/rounds/1", json=ROUND, headers=auth).status_code,
        ops.delete(f"{url}/rounds/1", headers=auth).status_code,
        ops.put(f"{url}/rounds/1", json=ROUND, headers=auth).status_code,
        ops.delete(url, headers=auth).status_code,
    ]
    assert statuses == [200, 200, 200, 200, 429, 429]  # PUT and DELETE share one limit
    assert create(ops).status_code == 201  # creating counts apart
    assert ops.get(url).status_code == 200  # reads are never counted


def test_checks_and_reads_are_not_limited(ops: FlaskClient) -> None:
    sheet = create(ops).get_json()
    for _ in range(30):
        check = ops.post("/v1/checks/meld", json=CHECK)
        assert check.status_code == 200 and "X-RateLimit-Limit" not in check.headers
        assert ops.get(f"/v1/matches/{sheet['id']}").status_code == 200


def test_limits_are_per_client_address(ops: FlaskClient) -> None:
    for _ in range(3):
        assert create(ops).status_code == 201
    assert create(ops).status_code == 429
    other = ops.post("/v1/matches", json=SHEET, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201


def test_a_longer_window_holds_once_the_shorter_one_lets_through(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'windows.sqlite3'}"
    migrate(url)
    app = create_app(
        {"TESTING": True, "DATABASE_URL": url, "RATELIMIT_CREATE": "5 per minute;3 per hour"}
    )
    client = app.test_client()
    answers = [create(client) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    # Served, the answers speak of the shortest window; refused, of the window that is full.
    assert [a.headers["X-RateLimit-Limit"] for a in answers] == ["5", "5", "5", "3"]
    assert "3 per 1 hour" in answers[-1].get_json()["detail"]
    assert 60 < int(answers[-1].headers["Retry-After"]) <= 3601
    app.extensions["database"].dispose()


@pytest.mark.parametrize(
    ("setting", "value", "said"),
    [
        ("RATELIMIT_WRITE", "lots per minute", "RATELIMIT_WRITE"),
        ("RATELIMIT_CREATE", "", "RATELIMIT_CREATE"),
        ("RATELIMIT_STORAGE_URI", "carrier-pigeon://loft", "RATELIMIT_STORAGE_URI"),
        ("RATELIMIT_STORAGE_URI", "async+memory://", "asyncio"),
    ],
)
def test_a_limit_the_service_cannot_read_stops_it_starting(
    setting: str, value: str, said: str
) -> None:
    with pytest.raises(ConfigError, match=said):
        create_app({"TESTING": True, setting: value})


def test_no_limits_when_switched_off(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'free.sqlite3'}"
    migrate(url)
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": url,
            "RATELIMIT_ENABLED": False,
            "RATELIMIT_CREATE": "1/minute",
        }
    )
    client = app.test_client()
    assert [create(client).status_code for _ in range(3)] == [201] * 3


# --- the purge command -----------------------------------------------------------------------------


def test_the_purge_command_deletes_old_sheets_and_says_so(ops_app: Flask, ops: FlaskClient) -> None:
    old, new = create(ops).get_json(), create(ops).get_json()
    storage = ops_app.extensions["database"]
    long_ago = datetime.now(UTC) - timedelta(days=401)
    with storage.transaction(write=True) as connection:
        connection.execute(
            update(sheets).where(sheets.c.id == old["id"]).values(updated_at=long_ago)
        )
    result = ops_app.test_cli_runner().invoke(args=["sheets", "purge"])
    assert result.exit_code == 0, result.output
    assert re.fullmatch(
        r"purged 1 sheets untouched since \S+ and 0 expired idempotency keys\n", result.output
    )
    with storage.transaction() as connection:
        left = set(connection.execute(select(sheets.c.id)).scalars())
    assert old["id"] not in left and new["id"] in left
    assert ops.get(f"/v1/matches/{old['id']}").status_code == 404
    days = ops_app.test_cli_runner().invoke(args=["sheets", "purge", "--days", "0"])
    assert days.exit_code != 0  # at least a day


def test_metrics_labels_stay_bounded(ops: FlaskClient) -> None:
    for method in ("BREW", "WHEN", "M-SEARCH"):
        ops.open("/v1/checks/meld", method=method)
    text = ops.get("/metrics").get_data(as_text=True)
    assert "BREW" not in text and "M-SEARCH" not in text
    assert (
        sample(text, "rummy_http_requests_total", route="<unmatched>", method="other", status="405")
        >= 3
    )
    ops.get("/v1/matches/no-such-sheet-anywhere")
    assert "no-such-sheet-anywhere" not in ops.get("/metrics").get_data(as_text=True)


def test_behind_a_configured_proxy_each_forwarded_client_counts_alone(tmp_path: Path) -> None:
    from api.clients import proxy_networks

    url = f"sqlite:///{tmp_path / 'proxied.sqlite3'}"
    migrate(url)
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": url,
            "RATELIMIT_CREATE": "2 per minute",
            "FORWARDED_PROXIES": proxy_networks("127.0.0.1"),
        }
    )
    client = app.test_client()

    def create_for(forwarded: str, peer: str = "127.0.0.1") -> int:
        return client.post(
            "/v1/matches",
            json=SHEET,
            headers={"X-Forwarded-For": forwarded},
            environ_base={"REMOTE_ADDR": peer},
        ).status_code

    assert [create_for("198.51.100.1") for _ in range(3)] == [201, 201, 429]
    assert create_for("198.51.100.2") == 201  # another client behind the proxy
    # A peer that is not the proxy cannot choose its address with the header.
    assert [create_for(f"203.0.113.{n}", peer="192.0.2.9") for n in range(3)] == [201, 201, 429]


def test_a_purge_put_off_by_an_outage_logs_one_line(
    ops_app: Flask, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    from api.retention import _purge_if_due
    from api.storage import Storage

    # A database without its tables: storage answers StorageUnavailable, as in an outage.
    ops_app.extensions["database"].dispose()
    ops_app.extensions["database"] = Storage(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    with caplog.at_level(logging.WARNING):
        _purge_if_due(ops_app)
    assert [r.getMessage().split(":")[0] for r in caplog.records] == [
        "the daily purge is put off, the database is unavailable"
    ]
    assert all(record.exc_info is None for record in caplog.records)
