"""The database itself: migrations, SQLite's transactions, reachability, on both databases."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from api import create_app
from api.storage import Storage, StorageUnavailable, make_engine, migrate
from api.storage.schema import alembic_config, current_revision
from api.storage.tables import metadata

#: The newest migration: what a fresh database is migrated to.
HEAD = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def test_migrations_make_exactly_the_models(fresh_database_url: str) -> None:
    assert migrate(fresh_database_url) == (None, HEAD)
    engine = make_engine(fresh_database_url)
    try:
        with engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), metadata) == []
        assert current_revision(engine) == HEAD
        assert set(inspect(engine).get_table_names()) >= {
            "sheets",
            "idempotency_keys",
            "alembic_version",
        }
    finally:
        engine.dispose()


def test_migrating_again_does_nothing(fresh_database_url: str) -> None:
    migrate(fresh_database_url)
    assert migrate(fresh_database_url) is None


def test_migrations_go_down_and_up_again(fresh_database_url: str) -> None:
    migrate(fresh_database_url)
    engine = make_engine(fresh_database_url)
    try:
        with engine.begin() as connection:
            config = alembic_config(fresh_database_url)
            config.attributes["connection"] = connection
            command.downgrade(config, "base")
        assert "sheets" not in inspect(engine).get_table_names()
        assert "matches" not in inspect(engine).get_table_names()
    finally:
        engine.dispose()
    assert migrate(fresh_database_url) == (None, HEAD)


def test_the_sheets_of_an_older_schema_are_kept_when_it_is_renamed(fresh_database_url: str) -> None:
    """Revision 0005 renames the table ``matches`` to ``sheets`` and a saved answer's
    ``match_id`` to ``sheet_id``: what was stored before is all there after."""
    engine = make_engine(fresh_database_url)
    try:
        with engine.begin() as connection:
            config = alembic_config(fresh_database_url)
            config.attributes["connection"] = connection
            command.upgrade(config, "0004")
            connection.execute(
                text(
                    "INSERT INTO matches (id, ruleset, players, first_dealer, edit_token_hash,"
                    " version, rounds) VALUES ('old', '{}', '[]', 0, 'hash', 3, '[]')"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO idempotency_keys (key_hash, request_hash, state, match_id,"
                    " created_at) VALUES ('key', 'body', 'done', 'old', CURRENT_TIMESTAMP)"
                )
            )
        assert migrate(fresh_database_url) == ("0004", HEAD)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT id, version FROM sheets")).all() == [("old", 3)]
            assert connection.execute(text("SELECT sheet_id FROM idempotency_keys")).all() == [
                ("old",)
            ]
        assert "matches" not in inspect(engine).get_table_names()
    finally:
        engine.dispose()


def test_sqlite_writes_take_the_write_lock_at_begin(tmp_path: Path) -> None:
    """BEGIN IMMEDIATE: a second writer waits at the start, never fails half-way."""
    path = tmp_path / "lock.sqlite3"
    url = f"sqlite:///{path}"
    migrate(url)
    database = Storage(url)
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with database.transaction(write=True):
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        with database.transaction():  # a reader takes no write lock
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
        mode = other.execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"
    finally:
        other.close()
        database.dispose()


def test_an_unreachable_database_is_said_to_be_so() -> None:
    # Port 9 on loopback (discard) has no PostgreSQL: the connection is refused at once.
    storage = Storage("postgresql+psycopg://nobody@127.0.0.1:9/none")
    try:
        with pytest.raises(StorageUnavailable) as raised:
            storage.ping()
        assert str(raised.value) == "the database is unreachable"
        assert raised.value.cause is not None
    finally:
        storage.dispose()


def test_health_says_when_the_database_is_unreachable() -> None:
    # Port 9 on loopback (discard) has no PostgreSQL: the connection is refused at once.
    app = create_app(
        {"TESTING": True, "DATABASE_URL": "postgresql+psycopg://nobody@127.0.0.1:9/none"}
    )
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 503
    assert answer.mimetype == "application/problem+json"
    assert answer.get_json()["detail"] == "the database is unreachable"


def test_without_database_url_the_sheets_live_in_the_instance_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app({"TESTING": True})
    url = app.config["DATABASE_URL"]
    assert url == f"sqlite:///{Path(app.instance_path) / 'rummy-referee.sqlite3'}"
    app.extensions["database"].dispose()


def test_a_sheet_made_before_titles_reads_without_one(fresh_database_url: str) -> None:
    """Migrating from the first revision keeps the old sheets, and they have no title."""
    engine = make_engine(fresh_database_url)
    config = alembic_config(fresh_database_url)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0001")
        with engine.begin() as connection:
            connection.exec_driver_sql(
                "INSERT INTO matches (id, ruleset, players, first_dealer, edit_token_hash,"
                " version, rounds) VALUES ('old', '{}', '[\"Ann\", \"Bob\", \"Cleo\"]', 0,"
                " 'x', 3, '[]')"
            )
    finally:
        engine.dispose()
    assert migrate(fresh_database_url) == ("0001", HEAD)
    database = Storage(fresh_database_url)
    try:
        from api.storage import sheets

        with database.transaction() as connection:
            sheet = sheets.load(connection, "old")
        assert (sheet.title, sheet.version, sheet.players) == (None, 3, ["Ann", "Bob", "Cleo"])
        assert sheet.created_at is not None and sheet.updated_at is not None
    finally:
        database.dispose()
