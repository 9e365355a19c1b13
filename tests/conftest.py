"""Fixtures for the whole test suite, after the Flask tutorial: ``app``, ``client``, ``runner``."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import settings
from hypothesis.database import DirectoryBasedExampleDatabase
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from api import create_app
from api.storage import migrate

# --- hypothesis -------------------------------------------------------------------------------
#
# Locally, every example hypothesis found failing is kept in .hypothesis/ and tried first the
# next time, so a failure seen once is seen again until it is fixed. In CI (a fresh checkout,
# nothing kept) the examples are derived from each test's name instead of drawn at random: a
# red run is the same run when repeated. Neither profile has a deadline: the machine is shared,
# and speed is measured in bench/, not here. HYPOTHESIS_PROFILE chooses another.

settings.register_profile(
    "dev",
    deadline=None,
    database=DirectoryBasedExampleDatabase(Path(__file__).resolve().parent.parent / ".hypothesis"),
)
settings.register_profile("ci", deadline=None, database=None, derandomize=True, print_blob=True)
settings.load_profile(
    os.environ.get(
        "HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI", "").lower() == "true" else "dev"
    )
)


@pytest.fixture(scope="session")
def database_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An SQLite database migrated once for the session: what the API tests store in."""
    url = f"sqlite:///{tmp_path_factory.mktemp('app') / 'rummy-referee.sqlite3'}"
    migrate(url)
    return url


@pytest.fixture
def app(database_file: str) -> Iterator[Flask]:
    # Rate limits are tested on apps of their own (tests/api/test_operations.py): a suite
    # creating sheets by the hundred would meet them here.
    app = create_app({"TESTING": True, "DATABASE_URL": database_file, "RATELIMIT_ENABLED": False})
    yield app
    app.extensions["database"].dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


# --- the two databases ---------------------------------------------------------------------------
#
# What stores match sheets is tested on SQLite and on the PostgreSQL server both. PostgreSQL is
# the machine's own server (``TEST_POSTGRES_URL``, by default
# ``postgresql+psycopg://postgres@127.0.0.1:5432/test``); each test session works in a scratch
# database of its own, created and dropped here, so that nothing is mocked and nothing is left
# behind. Without a server the PostgreSQL cases are skipped — except under ``CI=true``, where a
# missing server fails them, so CI can never pass on SQLite alone.

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
def backend_app(database_url: str) -> Iterator[Flask]:
    """The app on each database in turn: what a match-sheet test runs against."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "RATELIMIT_ENABLED": False})
    yield app
    app.extensions["database"].dispose()


@pytest.fixture
def backend_client(backend_app: Flask) -> FlaskClient:
    return backend_app.test_client()
