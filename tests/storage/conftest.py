"""Fixtures for storage tests: every one runs on SQLite and on the PostgreSQL server.

PostgreSQL is the machine's own server (``TEST_POSTGRES_URL``, by default
``postgresql+psycopg://postgres@127.0.0.1:5432/test``); each test session works in a scratch
database of its own, created and dropped here, so that nothing is mocked and nothing is left
behind. Without a server the PostgreSQL cases are skipped — except under ``CI=true``, where a
missing server fails them, so CI can never pass on SQLite alone.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from api import create_app
from api.db import migrate

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_URL = os.environ.get(
    "TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def _postgres_or_skip() -> None:
    engine = create_engine(POSTGRES_URL, connect_args={"connect_timeout": 3})
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except OperationalError as error:
        message = f"no PostgreSQL server at {make_url(POSTGRES_URL)!r}: {error.orig}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI needs PostgreSQL for the storage tests; {message}")
        pytest.skip(message)
    finally:
        engine.dispose()


@contextmanager
def scratch_postgres() -> Iterator[str]:
    """A new, empty PostgreSQL database for the duration of the block."""
    _postgres_or_skip()
    name = f"rummy_test_{secrets.token_hex(6)}"
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def scratch_database(backend: str, folder: Path) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{folder / f'sheets-{secrets.token_hex(4)}.sqlite3'}"
    else:
        with scratch_postgres() as url:
            yield url


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[str]:
    """One migrated database per backend for the session (tests use their own sheets)."""
    with scratch_database(request.param, tmp_path_factory.mktemp("db")) as url:
        migrate(url)
        yield url


@pytest.fixture(params=BACKENDS)
def fresh_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty, unmigrated database per test."""
    with scratch_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def fresh_postgres_url() -> Iterator[str]:
    """An empty PostgreSQL database per test (for what only PostgreSQL can show)."""
    with scratch_postgres() as url:
        yield url


@pytest.fixture(scope="session")
def storage_app(database_url: str) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url})
    yield app
    app.extensions["database"].dispose()


@pytest.fixture
def sclient(storage_app: Flask) -> FlaskClient:
    return storage_app.test_client()


# --- servers -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """gunicorn serving the project on a free loopback port, stopped when done."""

    def __init__(self, database_url: str, workers: int, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "PORT": str(self.port),
            "HOST": "127.0.0.1",
            "WEB_CONCURRENCY": str(workers),
            "LOG_LEVEL": "info",
        }
        self._out = open(log, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "wsgi:app"],
            cwd=ROOT,
            env=env,
            stdout=self._out,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout: float = 30) -> None:
        import urllib.request

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log.read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer in {timeout} s: {self.log.read_text()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self._out.close()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Any]:
    """Start gunicorn servers for the test; all are stopped at its end."""
    servers: list[Server] = []

    def start(database_url: str, workers: int = 2, wait: bool = True) -> Server:
        server = Server(database_url, workers, tmp_path / f"gunicorn-{len(servers)}.log")
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
    folder = tmp_path_factory.mktemp("server")
    server = Server(f"sqlite:///{folder / 'sheets.sqlite'}", 1, folder / "gunicorn.log")
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()
