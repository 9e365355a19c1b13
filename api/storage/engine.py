"""The database: one engine per app, and short transactions on Core connections.

Any SQLAlchemy URL will do (``postgresql+psycopg://...`` to scale out: any number of stateless
gunicorn instances share one PostgreSQL); the web layer falls back to an SQLite file in the
instance folder. SQLite gets WAL (readers never wait for the writer), a busy timeout, and
writes that start with ``BEGIN IMMEDIATE`` so that two writers queue up at the start of their
transactions instead of one failing half-way with "database is locked".
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import SQLAlchemyError

from .errors import StorageUnavailable


def default_url(instance_path: str | Path) -> str:
    path = Path(instance_path) / "rummy-referee.sqlite3"
    return f"sqlite:///{path}"


def make_engine(url: str | URL) -> Engine:
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
    """One app's database: its engine, and the transactions every read and write runs in."""

    def __init__(self, url: str | URL) -> None:
        self.engine = make_engine(url)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @contextmanager
    def transaction(self, *, write: bool = False) -> Iterator[Connection]:
        """A connection in one transaction, committed on success and rolled back on error.

        ``write`` says the transaction will change the database: on SQLite it then takes the
        write lock at its start (BEGIN IMMEDIATE, see :func:`_sqlite_transactions`), so a
        writer waits its turn instead of failing when it first writes.
        """
        with self.engine.connect() as connection:
            if write and self.is_sqlite:
                connection.execution_options(sqlite_begin="IMMEDIATE")
            with connection.begin():
                yield connection

    def ping(self) -> None:
        """Ask the database something; :class:`StorageUnavailable` if it cannot answer."""
        try:
            with self.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except SQLAlchemyError as error:
            raise StorageUnavailable(error) from error

    def dispose(self) -> None:
        self.engine.dispose()


__all__ = ["Connection", "Storage", "default_url", "make_engine"]
