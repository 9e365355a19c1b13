"""Fixtures for the storage tests that start servers (the databases are in tests/conftest.py)."""

from __future__ import annotations

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


# --- storage without the web --------------------------------------------------------------------


@pytest.fixture(scope="session")
def storage(database_url: str) -> Iterator[Storage]:
    """The storage package on each database in turn, with no Flask app around it."""
    bound = Storage(database_url)
    yield bound
    bound.dispose()
