"""Operations under gunicorn with two workers: metrics and rate limits shared by the workers,
the JSON access log on gunicorn's output, and the purge the service runs itself."""

from __future__ import annotations

import json
import re
import secrets
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, update
from test_sheets_servers import call

from api.storage import Storage, migrate, sheets
from api.storage.tables import maintenance
from api.storage.tables import sheets as sheet_rows
from rules import find_ruleset

pytestmark = pytest.mark.server

SHEET = {"ruleset": "liverpool", "players": ["Ann", "Bob", "Cleo"]}
CHECK = {"ruleset": "liverpool", "cards": ["7H", "7S", "7D"]}


def workers_that_counted(folder: Path) -> set[str]:
    """The pids whose counter files prometheus-client wrote in the metrics folder."""
    return {m[1] for p in folder.glob("counter_*.db") if (m := re.match(r"counter_(\d+)", p.name))}


def in_parallel(times: int, job: Any) -> list[Any]:
    with ThreadPoolExecutor(max_workers=16) as pool:
        return list(pool.map(lambda _: job(), range(times)))


def sample(text: str, name: str, **labels: str) -> float:
    for line in text.splitlines():
        head, _, value = line.rpartition(" ")
        metric, _, rest = head.partition("{")
        if metric == name and dict(re.findall(r'(\w+)="([^"]*)"', rest)) == labels:
            return float(value)
    return 0.0


def test_metrics_add_up_across_workers(start_server: Any, tmp_path: Path) -> None:
    folder = tmp_path / "metrics"
    server = start_server(
        f"sqlite:///{tmp_path / 'm.sqlite3'}",
        env={"PROMETHEUS_MULTIPROC_DIR": str(folder), "RATELIMIT_ENABLED": "0"},
    )
    sent = 0
    while len(workers_that_counted(folder)) < 2 and sent < 2000:
        statuses = in_parallel(100, lambda: call(server.url, "POST", "/v1/checks/meld", CHECK)[0])
        assert set(statuses) == {200}
        sent += 100
    assert len(workers_that_counted(folder)) == 2, "one worker served every request"
    made = in_parallel(6, lambda: call(server.url, "POST", "/v1/matches", SHEET)[0])
    assert made == [201] * 6

    totals = set()
    for _ in range(6):  # whichever worker answers, the sums are the same
        status, headers, _ = call(server.url, "GET", "/metrics")
        assert status == 200 and headers["content-type"].startswith("text/plain; version=")
        _, _, body = _raw(server.url, "/metrics")
        meld = {"route": "/v1/checks/meld", "method": "POST", "status": "200"}
        totals.add(
            (
                sample(body, "rummy_http_requests_total", **meld),
                sample(body, "rummy_http_request_duration_seconds_count", route="/v1/checks/meld"),
                sample(body, "rummy_sheets_created_total"),
            )
        )
    assert totals == {(sent, sent, 6)}


def _raw(base: str, path: str) -> tuple[int, dict[str, str], str]:
    import urllib.request

    with urllib.request.urlopen(base + path, timeout=10) as answer:
        return answer.status, dict(answer.headers), answer.read().decode()


def test_gunicorn_removes_the_metrics_folder_it_made(start_server: Any, tmp_path: Path) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'c.sqlite3'}", workers=1)
    assert call(server.url, "POST", "/v1/checks/meld", CHECK)[0] == 200
    found = re.search(r"the workers' metrics are kept in ([^\s\"]+)", server.log.read_text())
    assert found, server.log.read_text()
    folder = Path(found[1])
    assert workers_that_counted(folder)
    server.stop()
    assert not folder.exists()


def test_one_json_access_line_per_request_on_gunicorns_output(
    start_server: Any, tmp_path: Path
) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    status, headers, sheet = call(
        server.url, "POST", "/v1/matches", SHEET, {"X-Request-Id": "phone-1.create"}
    )
    assert status == 201 and headers["x-request-id"] == "phone-1.create"
    call(server.url, "GET", f"/v1/matches/{sheet['id']}?token={sheet['edit_token']}")
    call(server.url, "POST", "/v1/checks/meld", CHECK)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        # Every line is JSON (gunicorn's own too): the access log's are those with a route.
        lines = [
            record
            for record in map(json.loads, server.log.read_text().splitlines())
            if "route" in record
        ]
        if len(lines) >= 4:  # and the readiness probe's
            break
        time.sleep(0.1)
    routes = Counter((line["method"], line["route"], line["status"]) for line in lines)
    assert routes[("POST", "/v1/matches", 201)] == 1
    assert routes[("GET", "/v1/matches/<string:match_id>", 200)] == 1
    assert routes[("POST", "/v1/checks/meld", 200)] == 1
    assert [x["request_id"] for x in lines if x["route"] == "/v1/matches"] == ["phone-1.create"]
    text = server.log.read_text()
    assert sheet["id"] not in text and sheet["edit_token"] not in text


def test_rate_limits_are_shared_by_the_workers_through_redis(
    start_server: Any, tmp_path: Path, redis_url: str
) -> None:
    uri = redis_url
    folder = tmp_path / "metrics"
    server = start_server(
        f"sqlite:///{tmp_path / 'r.sqlite3'}",
        env={
            "RATELIMIT_ENABLED": "1",
            "RATELIMIT_STORAGE_URI": uri,
            # A prefix of this test's own: nothing else counted on this Redis counts here.
            "RATELIMIT_KEY_PREFIX": f"rummy-test-{secrets.token_hex(6)}",
            "RATELIMIT_CREATE": "10 per hour",
            "PROMETHEUS_MULTIPROC_DIR": str(folder),
        },
    )
    while len(workers_that_counted(folder)) < 2:  # both workers are serving
        in_parallel(50, lambda: call(server.url, "POST", "/v1/checks/meld", CHECK))
    answers = in_parallel(30, lambda: call(server.url, "POST", "/v1/matches", SHEET))
    statuses = Counter(status for status, _, _ in answers)
    # Each worker counting alone would let up to 20 through.
    assert statuses == {201: 10, 429: 20}
    refused = next(answer for answer in answers if answer[0] == 429)
    assert refused[1]["content-type"] == "application/problem+json"
    assert 1 <= int(refused[1]["retry-after"]) <= 3601
    assert call(server.url, "POST", "/v1/checks/meld", CHECK)[0] == 200


def test_the_service_purges_on_its_own_after_a_write(start_server: Any, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'p.sqlite3'}"
    migrate(url)
    storage = Storage(url)
    long_ago = datetime.now(UTC) - timedelta(days=3)
    with storage.transaction(write=True) as connection:
        old, _ = sheets.create(connection, find_ruleset("liverpool"), ["Ann", "Bob", "Cleo"], 0)
        connection.execute(
            update(sheet_rows).where(sheet_rows.c.id == old.id).values(updated_at=long_ago)
        )
        # The last purge was two days ago: the next one is due.
        connection.execute(
            insert(maintenance).values(task="purge", done_at=long_ago + timedelta(days=1))
        )
    storage.dispose()
    server = start_server(url, env={"SHEET_RETENTION_DAYS": "2"})
    # Reads and checks never purge.
    for _ in range(5):
        assert call(server.url, "POST", "/v1/checks/meld", CHECK)[0] == 200
        assert call(server.url, "GET", f"/v1/matches/{old.id}")[0] == 200
    status, _, fresh = call(server.url, "POST", "/v1/matches", SHEET)
    assert status == 201
    deadline = time.monotonic() + 10
    while call(server.url, "GET", f"/v1/matches/{old.id}")[0] != 404:
        assert time.monotonic() < deadline, server.log.read_text()
        time.sleep(0.1)
    assert call(server.url, "GET", f"/v1/matches/{fresh['id']}")[0] == 200
    assert "purged 1 sheets untouched since" in server.log.read_text()


def test_the_metrics_folder_is_pruned_as_workers_die(start_server: Any, tmp_path: Path) -> None:
    """Workers killed three times over leave no file behind, and no count is lost."""
    import os
    import signal
    import subprocess

    folder = tmp_path / "metrics"
    server = start_server(
        f"sqlite:///{tmp_path / 'k.sqlite3'}", env={"PROMETHEUS_MULTIPROC_DIR": str(folder)}
    )
    sent = 0
    for _ in range(3):
        assert set(
            in_parallel(20, lambda: call(server.url, "POST", "/v1/checks/meld", CHECK)[0])
        ) == {200}
        sent += 20
        found = subprocess.run(
            ["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True, check=True
        )
        for pid in found.stdout.split():
            os.kill(int(pid), signal.SIGKILL)
        server.wait_ready()
    files = sorted(p.name for p in folder.glob("*.db"))
    live = workers_that_counted(folder) - {"archive"}
    # The live workers' files (each counted the readiness probe at most) and one archive each.
    assert len(files) <= 2 * (len(live) + 1) + 2, files
    assert "counter_archive.db" in files and "histogram_archive.db" in files
    _, _, body = _raw(server.url, "/metrics")
    meld = {"route": "/v1/checks/meld", "method": "POST", "status": "200"}
    assert sample(body, "rummy_http_requests_total", **meld) == sent


def test_without_redis_the_workers_of_an_instance_share_their_counts(
    start_server: Any, tmp_path: Path
) -> None:
    """The embedded default: two workers, no Redis, one count (an SQLite file of the
    instance's own, made by gunicorn.conf.py)."""
    folder = tmp_path / "metrics"
    server = start_server(
        f"sqlite:///{tmp_path / 'w.sqlite3'}",
        env={
            "RATELIMIT_ENABLED": "1",
            "RATELIMIT_CREATE": "10 per hour",
            "PROMETHEUS_MULTIPROC_DIR": str(folder),
        },
    )
    while len(workers_that_counted(folder)) < 2:  # both workers are serving
        in_parallel(50, lambda: call(server.url, "POST", "/v1/checks/meld", CHECK))
    answers = in_parallel(30, lambda: call(server.url, "POST", "/v1/matches", SHEET))
    assert Counter(status for status, _, _ in answers) == {201: 10, 429: 20}
    # Every answer speaks of the instance's one count: at most 9 left after the first.
    for status, headers, _ in answers:
        assert headers["x-ratelimit-limit"] == "10"
        assert 0 <= int(headers["x-ratelimit-remaining"]) <= (9 if status == 201 else 0)
    assert (folder / "rate-limits.sqlite3").exists()
