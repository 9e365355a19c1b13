"""Fixtures for the whole test suite, after the Flask tutorial: ``app``, ``client``, ``runner``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from api import create_app
from api.db import migrate


@pytest.fixture(scope="session")
def database_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An SQLite database migrated once for the session: what the API tests store in."""
    url = f"sqlite:///{tmp_path_factory.mktemp('app') / 'rummy-referee.sqlite3'}"
    migrate(url)
    return url


@pytest.fixture
def app(database_file: str) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE_URL": database_file})
    yield app
    app.extensions["database"].dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
