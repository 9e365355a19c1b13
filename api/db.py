"""The database: one engine per process, short transactions, migrations run once.

``DATABASE_URL`` names any SQLAlchemy URL (``postgresql+psycopg://...`` to scale out: any
number of stateless gunicorn instances share one PostgreSQL); without it an SQLite file in the
instance folder is used. SQLite gets WAL (readers never wait for the writer), a busy timeout,
and writes that start with ``BEGIN IMMEDIATE`` so that two writers queue up at the start of
their transactions instead of one failing half-way with "database is locked".
"""

from __future__ import annotations

import fcntl
import logging
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import click
from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask, current_app
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.orm import Session, sessionmaker

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: Any constant will do: it only has to be the same for every instance sharing a database.
_PG_MIGRATION_LOCK = 0x52554D4D59  # "RUMMY"


def default_url(instance_path: str | Path) -> str:
    path = Path(instance_path) / "rummy-referee.sqlite3"
    return f"sqlite:///{path}"


def make_db_engine(url: str | URL) -> Engine:
    url = make_url(url)
    if url.get_backend_name() == "sqlite":
        if url.database and url.database != ":memory:":
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30})
        _sqlite_transactions(engine)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)


def _sqlite_transactions(engine: Engine) -> None:
    """Let SQLAlchemy, not the sqlite3 module, say when transactions begin, and how."""

    @event.listens_for(engine, "connect")
    def connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # no implicit BEGIN from the driver
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def begin(connection: Any) -> None:
        mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")


class Storage:
    """One app's database: its engine and the sessions made on it."""

    def __init__(self, url: str | URL) -> None:
        self.engine = make_db_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @contextmanager
    def transaction(self, *, write: bool = False) -> Iterator[Session]:
        """A session in one transaction, committed on success and rolled back on error."""
        with self._sessions() as session:
            if write and self.is_sqlite:
                # Begins the transaction now, as BEGIN IMMEDIATE (see _sqlite_transactions).
                session.connection(execution_options={"sqlite_begin": "IMMEDIATE"})
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise

    @contextmanager
    def connection(self, *, write: bool = False) -> Iterator[Connection]:
        """A Core connection in one transaction (for the hot paths, which need no ORM)."""
        with self.engine.connect() as connection:
            if write and self.is_sqlite:
                connection.execution_options(sqlite_begin="IMMEDIATE")
            with connection.begin():
                yield connection

    def ping(self) -> None:
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def dispose(self) -> None:
        self.engine.dispose()


class Database:
    """The storage extension, created unbound and bound to each app in ``init_app``.

    The engine belongs to the app (``app.extensions["database"]``), not to this object, so
    that two apps in one process — tests, a migration run beside a server — never share or
    replace each other's connections.
    """

    def init_app(self, app: Flask) -> None:
        url = app.config.get("DATABASE_URL") or default_url(app.instance_path)
        app.config["DATABASE_URL"] = url
        app.extensions["database"] = Storage(url)
        app.cli.add_command(_db_cli)

    @property
    def current(self) -> Storage:
        storage: Storage = current_app.extensions["database"]
        return storage

    def transaction(self, *, write: bool = False) -> AbstractContextManager[Session]:
        return self.current.transaction(write=write)

    def connection(self, *, write: bool = False) -> AbstractContextManager[Connection]:
        return self.current.connection(write=write)

    def ping(self) -> None:
        self.current.ping()


db = Database()


def alembic_config(url: str | URL) -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", make_url(url).render_as_string(hide_password=False))
    return config


def migrate(url: str | URL) -> tuple[str | None, str | None] | None:
    """Bring the schema to the newest migration, once, however many processes ask at once.

    gunicorn's master calls this before forking workers; several instances starting against
    one database serialise on a lock (an advisory lock in PostgreSQL, a lock file beside an
    SQLite database), and whoever comes second finds nothing left to do. Returns the
    revisions migrated from and to, or None when the schema was already the newest.
    """
    engine = make_db_engine(url)
    try:
        if engine.dialect.name == "sqlite":
            database = engine.url.database
            if database and database != ":memory:":
                with open(f"{database}.migrate-lock", "a") as lock:
                    fcntl.flock(lock, fcntl.LOCK_EX)
                    try:
                        return _upgrade(engine)
                    finally:
                        fcntl.flock(lock, fcntl.LOCK_UN)
            return _upgrade(engine)
        elif engine.dialect.name == "postgresql":
            with engine.connect() as connection:
                connection.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
                try:
                    return _upgrade(engine)
                finally:
                    connection.execute(
                        text("SELECT pg_advisory_unlock(:k)"), {"k": _PG_MIGRATION_LOCK}
                    )
                    connection.commit()
        return _upgrade(engine)
    finally:
        engine.dispose()


def _upgrade(engine: Engine) -> tuple[str | None, str | None] | None:
    config = alembic_config(engine.url)
    head = ScriptDirectory.from_config(config).get_current_head()
    with engine.begin() as connection:
        current = MigrationContext.configure(connection).get_current_revision()
    if current == head:
        return None
    log.info("migrating the database from %s to %s", current, head)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    return current, head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


@click.group("db")
def _db_cli() -> None:
    """The database schema."""


@_db_cli.command("upgrade")
def _db_upgrade() -> None:
    """Migrate the database named by DATABASE_URL to the newest schema."""
    from flask import current_app

    migrate(current_app.config["DATABASE_URL"])
    click.echo("the database is up to date")
