"""Fixtures for the storage tests that start servers (the databases are in tests/conftest.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.storage import Storage
from tests.servers import Server
from tests.servers import sqlite_server as serve_sqlite


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Any]:
    """Start gunicorn servers for the test; all are stopped at its end."""
    servers: list[Server] = []

    def start(
        database_url: str, workers: int = 2, wait: bool = True, env: dict[str, str] | None = None
    ) -> Server:
        server = Server(database_url, workers, tmp_path / f"gunicorn-{len(servers)}.log", env)
        servers.append(server)
        if wait:
            server.wait_ready()
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One gunicorn worker on a scratch SQLite database, shared by a module's tests."""
    with serve_sqlite(tmp_path_factory.mktemp("server")) as server:
        yield server


# --- Redis, where the rate limits of several workers or instances are counted -------------------

#: The machine's Redis (it keeps nothing on disk); each test counts under a key prefix of its own.
REDIS = ("127.0.0.1", 6379)


@pytest.fixture(scope="session")
def redis_url() -> str:
    """``redis://`` of the machine's Redis; the test skips without it, and fails under CI."""
    import redis

    client = redis.Redis(*REDIS, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI needs Redis at {REDIS} for the shared rate limits: {error}")
        pytest.skip(f"no Redis at {REDIS}: {error}")
    finally:
        client.close()
    return f"redis://{REDIS[0]}:{REDIS[1]}"


# --- storage without the web --------------------------------------------------------------------


@pytest.fixture(scope="session")
def storage(database_url: str) -> Iterator[Storage]:
    """The storage package on each database in turn, with no Flask app around it."""
    bound = Storage(database_url)
    yield bound
    bound.dispose()
