"""The rate limits' counts in Redis: shared by every instance, and a Redis that fails never
stops a table recording its rounds (api/limits.py).

docs/api.md, Rate limits: "When Redis stops answering, each process counts in its own memory
until it is back." The outages are made by a TCP proxy the test owns (``faultproxy``) between
the app and the machine's Redis, which is never stopped.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from faultproxy import FaultProxy, fault_proxy
from flask import Flask

from api import create_app, limits
from api.storage import migrate

SHEET = {"ruleset": "liverpool", "players": ["Ann", "Bob", "Cleo"]}


@pytest.fixture
def redis_port(redis_url: str) -> int:
    port = urlsplit(redis_url).port
    assert port is not None
    return port


@pytest.fixture
def proxy(redis_port: int) -> Iterator[FaultProxy]:
    with fault_proxy(("127.0.0.1", redis_port)) as made:
        yield made


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """Apps on one SQLite file, counting in the Redis at ``port`` under one prefix: as several
    instances of one deployment would."""
    url = f"sqlite:///{tmp_path / 'limits.sqlite3'}"
    migrate(url)
    prefix = f"rummy-test-{secrets.token_hex(6)}"
    made: list[Flask] = []

    def make(port: int, create: str = "3 per minute") -> Flask:
        app = create_app(
            {
                "TESTING": True,
                "DATABASE_URL": url,
                "RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{port}",
                "RATELIMIT_KEY_PREFIX": prefix,
                "RATELIMIT_CREATE": create,
            }
        )
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["database"].dispose()


def statuses(app: Flask, times: int) -> list[int]:
    client = app.test_client()
    return [client.post("/v1/matches", json=SHEET).status_code for _ in range(times)]


def test_instances_share_their_counts_through_redis(
    make_app: Callable[..., Flask], redis_port: int
) -> None:
    first, second = make_app(redis_port), make_app(redis_port)
    assert statuses(first, 2) == [201, 201]
    # The second instance sees the first one's two: one left for the address, then none.
    answers = [second.test_client().post("/v1/matches", json=SHEET) for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 429]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["0", "0"]
    assert statuses(first, 1) == [429]


@pytest.mark.parametrize("fault", ["refuse", "blackhole"])
def test_a_redis_that_fails_leaves_each_process_counting_alone(
    make_app: Callable[..., Flask],
    proxy: FaultProxy,
    fault: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Redis is asked again only after RETRY_STORAGE (30 s), long after this test is done.
    app = make_app(proxy.port)
    assert statuses(app, 2) == [201, 201]  # counted in Redis
    getattr(proxy, fault)()
    proxy.cut()
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="api.limits"):
        first = app.test_client().post("/v1/matches", json=SHEET)
    # Redis's own timeouts end the wait (1 s to connect, 1 s for an answer), never the worker's.
    assert time.monotonic() - started < 4
    assert first.status_code == 201 and first.headers["X-RateLimit-Remaining"] == "2"
    assert "counting in this process" in caplog.text
    # Meanwhile the limit still holds, counted in this process's memory, and promptly: asking
    # a silent Redis would cost each of the three requests at least its 1 s timeout.
    started = time.monotonic()
    assert statuses(app, 3) == [201, 201, 429]
    assert time.monotonic() - started < 2


def test_the_counts_go_back_to_redis_once_it_answers(
    make_app: Callable[..., Flask],
    proxy: FaultProxy,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    redis_port: int,
) -> None:
    monkeypatch.setattr(limits, "RETRY_STORAGE", 0.2)
    counting, watching = make_app(proxy.port), make_app(redis_port)
    proxy.refuse()
    assert statuses(counting, 1) == [201]  # counted in memory alone: Redis never saw it
    proxy.forward()
    time.sleep(0.3)
    with caplog.at_level(logging.WARNING, logger="api.limits"):
        assert statuses(counting, 1) == [201]  # this one in Redis again
    assert "storage is back" in caplog.text
    # Another instance counting in Redis sees the one write Redis saw, not the one it missed.
    answers: Any = [watching.test_client().post("/v1/matches", json=SHEET) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 429]
