"""The database: one engine per app, and short transactions on Core connections.

Any SQLAlchemy URL will do (``postgresql+psycopg://...`` to scale out: any number of stateless
gunicorn instances share one PostgreSQL); the web layer falls back to an SQLite file in the
instance folder. SQLite gets WAL (readers never wait for the writer), a busy timeout, and
writes that start with ``BEGIN IMMEDIATE`` so that two writers queue up at the start of their
transactions instead of one failing half-way with "database is locked".

Nothing waits on the database without a bound: a connection is given ``connect_timeout``
seconds, a statement ``statement_timeout`` (PostgreSQL's own ``statement_timeout``, and on the
client a deadline for an answer that never comes, as from a server cut off behind a silent
network; SQLite's busy timeout) — well inside gunicorn's 30 s worker timeout. Past them, or when
the database refuses or drops the connection, the transaction raises
:class:`StorageUnavailable`.
"""

from __future__ import annotations

import os
import select
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy import Connection, Engine, create_engine, event, exc, text
from sqlalchemy.engine import URL, make_url

from rules.i18n import N_

from .errors import BUSY, DISK_FULL, READ_ONLY, TOO_SLOW, StorageUnavailable
from .errors import UNREACHABLE as UNREACHABLE_REASON

#: Seconds the client waits beyond PostgreSQL's statement_timeout before it gives up on an
#: answer: the server's own timeout, which leaves the connection usable, comes first.
CLIENT_GRACE = 1.0
#: Connections an SQLite engine opens beyond its five kept ones, when that many threads want
#: one at once (SQLite connections are only open files).
POOL_OVERFLOW = 64
#: A database without the service's tables: made, but never migrated.
NO_SCHEMA = N_("the database has no schema")
#: PostgreSQL's code for a table that is not there: the schema is missing, not the SQL wrong.
UNDEFINED_TABLE = "42P01"
#: Why a database refused, by SQLite's primary result code and PostgreSQL's SQLSTATE: the
#: reason a 503 gives. Anything else that fails to serve is unreachable.
SQLITE_REASONS = {8: READ_ONLY, 13: DISK_FULL, 5: BUSY, 6: BUSY}  # READONLY, FULL, BUSY, LOCKED
POSTGRES_REASONS = {
    "25006": READ_ONLY,  # read_only_sql_transaction: a standby, or default_transaction_read_only
    "53100": DISK_FULL,
    "55P03": BUSY,  # lock_not_available: lock_timeout
    "40P01": BUSY,  # deadlock_detected
    "57014": TOO_SLOW,  # query_canceled: statement_timeout
}


def in_memory(url: str | URL) -> bool:
    """Whether ``url`` names an SQLite database kept in memory (``sqlite://``).

    >>> in_memory("sqlite://"), in_memory("sqlite:///sheets.sqlite3")
    (True, False)
    """
    try:
        parsed = make_url(url)
    except exc.ArgumentError:
        return False
    return parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:")


def default_url(instance_path: str | Path) -> str:
    path = Path(instance_path) / "rummy-referee.sqlite3"
    return f"sqlite:///{path}"


class BoundedConnection(psycopg.Connection[Any]):
    """A psycopg connection that waits at most ``answer_within`` seconds for any answer.

    psycopg waits for the server without a limit; behind a network that swallows packets (or a
    proxy that stopped forwarding them) a query would wait for ever. Every exchange goes
    through :meth:`wait`, so a default timeout there bounds them all; a connection that timed
    out is in an unknown state and is closed, so that the pool discards it.
    """

    answer_within: float | None = None

    def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
        if timeout is None:
            timeout = self.answer_within
        try:
            return super().wait(gen, interval, timeout)
        except psycopg.OperationalError:
            if timeout is not None and not self.closed:
                self.pgconn.finish()
            raise


def make_engine(
    url: str | URL, *, connect_timeout: float = 3, statement_timeout: float | None = None
) -> Engine:
    """An engine for ``url``; ``statement_timeout`` None lets statements run as long as they
    need (migrations, which wait on each other's lock)."""
    url = make_url(url)
    if url.get_backend_name() == "sqlite":
        if url.database and url.database != ":memory:":
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        busy = statement_timeout if statement_timeout is not None else 30
        # As many connections as a worker has threads (gunicorn.conf.py): a reader never
        # queues behind writers waiting for the lock, and none waits long for one.
        engine = create_engine(
            url,
            hide_parameters=True,
            connect_args={"timeout": busy},
            pool_size=5,
            max_overflow=POOL_OVERFLOW,
            pool_timeout=connect_timeout,
        )
        _sqlite_transactions(engine, busy)
        if url.database and url.database != ":memory:":
            _sqlite_read_only_folder(engine, url.database)
            _sqlite_file_identity(engine, url.database)
        return engine
    connect_args: dict[str, Any] = {"connect_timeout": max(1, round(connect_timeout))}
    if statement_timeout is not None:
        milliseconds = int(statement_timeout * 1000)
        # A write queued behind another's lock gives up a tenth sooner than the statement
        # would: its 503 then says the database was busy, not slow.
        connect_args["options"] = (
            f"-c statement_timeout={milliseconds} -c lock_timeout={milliseconds * 9 // 10}"
            f" -c idle_in_transaction_session_timeout={milliseconds * 4}"
        )
    psycopg_url = url.get_backend_name() == "postgresql" and url.get_driver_name() == "psycopg"
    engine = create_engine(
        url,
        hide_parameters=True,
        # psycopg's connections are checked for life without a round trip (_alive_on_checkout);
        # another driver's are pinged.
        pool_pre_ping=not psycopg_url,
        pool_size=5,
        max_overflow=5,
        pool_timeout=connect_timeout,
        connect_args=connect_args,
    )
    if psycopg_url:
        answer_within = None if statement_timeout is None else statement_timeout + CLIENT_GRACE
        _bounded_connections(engine, answer_within)
        _alive_on_checkout(engine)
    return engine


def _bounded_connections(engine: Engine, answer_within: float | None) -> None:
    @event.listens_for(engine, "do_connect")
    def connect(_dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        connection = BoundedConnection.connect(*cargs, **cparams)
        connection.answer_within = answer_within
        return connection


def _alive_on_checkout(engine: Engine) -> None:
    """Never hand out a pooled PostgreSQL connection the server has closed or broken.

    Between requests the server has nothing to say: a pooled connection whose socket is
    readable has been closed by the server (a restart, an administrator's kill, an idle timeout,
    a proxy cut off), and the pool makes a new one instead of failing the request with it. A
    poll of the socket asks the server nothing, where a ping (SQLAlchemy's ``pool_pre_ping``)
    is one more round trip and statement on every transaction. A server that silently stopped
    answering is no better found by a ping than by the first statement: either waits out the
    statement timeout.
    """

    @event.listens_for(engine, "checkout")
    def checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        if dbapi_connection.closed or dbapi_connection.broken:
            raise exc.DisconnectionError("the connection was closed")
        poller = select.poll()  # not select.select: no ceiling on the descriptor's number
        try:
            poller.register(dbapi_connection.pgconn.socket, select.POLLIN)
        except (OSError, ValueError, psycopg.OperationalError) as error:
            raise exc.DisconnectionError(f"the connection's socket is gone: {error}") from error
        if poller.poll(0):
            raise exc.DisconnectionError("the server closed the connection")


def _sqlite_transactions(engine: Engine, busy_timeout: float) -> None:
    """Let SQLAlchemy, not the sqlite3 module, say when transactions begin, and how."""

    @event.listens_for(engine, "connect")
    def connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # no implicit BEGIN from the driver
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def begin(connection: Any) -> None:
        mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")


def _sqlite_read_only_folder(engine: Engine, path: str) -> None:
    """Read a database whose folder cannot be written, rather than fail to open it.

    A database in WAL mode is opened with its ``-shm`` file beside it, which SQLite makes when
    it is missing: in a folder it cannot write (a read-only mount, a backup served as it is)
    every connection fails, reads included. There the file is opened read-only and
    immutable — no other process can change it either — so that the sheets are read, and
    every write is refused as the database's being read-only (a 503 that says so).
    """

    @event.listens_for(engine, "do_connect")
    def connect(_dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        folder = os.path.dirname(path) or "."
        if os.access(folder, os.W_OK) or os.path.exists(f"{path}-shm"):
            return None  # SQLAlchemy connects as it always does
        return sqlite3.connect(
            f"{Path(path).resolve().as_uri()}?mode=ro&immutable=1",
            uri=True,
            **{name: value for name, value in cparams.items() if name != "uri"},
        )


def file_identity(path: str) -> tuple[int, int] | None:
    """The device and inode of the file at ``path``, None when there is none."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


def _sqlite_file_identity(engine: Engine, path: str) -> None:
    """Remember which file each connection opened, and never hand out one whose file is gone.

    A connection to an SQLite file that was deleted or replaced goes on reading and writing
    the old file, which nobody will ever open again: writes into it are lost. A connection is
    checked when the pool hands it out (and a stale one is replaced); a write is checked again
    before it commits (:meth:`Storage.transaction`).
    """

    @event.listens_for(engine, "connect")
    def opened(_dbapi_connection: Any, record: Any) -> None:
        record.info["file_identity"] = file_identity(path)

    @event.listens_for(engine, "checkout")
    def checkout(_dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if record.info.get("file_identity") != file_identity(path):
            raise exc.DisconnectionError(f"the database file {path} was deleted or replaced")


def reason(error: exc.SQLAlchemyError) -> str:
    """Why the database failed to serve, in the words of a 503: read-only, its disk full,
    busy, too slow, or (anything else) unreachable."""
    if isinstance(error, exc.TimeoutError):  # every pooled connection in use, for too long
        return TOO_SLOW
    orig = getattr(error, "orig", None)
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int):
        return SQLITE_REASONS.get(code & 0xFF, UNREACHABLE_REASON)
    return POSTGRES_REASONS.get(getattr(orig, "sqlstate", None) or "", UNREACHABLE_REASON)


def _unavailable(error: exc.SQLAlchemyError) -> StorageUnavailable | None:
    """The database failing to serve (not the SQL being wrong): unreachable, read-only, full,
    timed out, busy, or without its tables."""
    if getattr(getattr(error, "orig", None), "sqlstate", None) == UNDEFINED_TABLE:
        return StorageUnavailable(error, NO_SCHEMA)
    if isinstance(error, exc.OperationalError | exc.InterfaceError | exc.TimeoutError):
        return StorageUnavailable(error, reason(error))
    if isinstance(error, exc.DBAPIError) and (
        error.connection_invalidated or getattr(error.orig, "sqlstate", None) in POSTGRES_REASONS
    ):
        return StorageUnavailable(error, reason(error))
    return None


class Storage:
    """One app's database: its engine, and the transactions every read and write runs in."""

    def __init__(
        self, url: str | URL, *, connect_timeout: float = 3, statement_timeout: float = 5
    ) -> None:
        self.engine = make_engine(
            url, connect_timeout=connect_timeout, statement_timeout=statement_timeout
        )
        #: The SQLite file, when the database is one: checked before a write commits.
        database = self.engine.url.database if self.is_sqlite else None
        self.sqlite_path = database if database and database != ":memory:" else None
        #: SQLite: this process's writers take turns here before they ask for the file's lock.
        self._writers = threading.Lock() if self.is_sqlite else None
        self._busy_timeout = statement_timeout

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @contextmanager
    def transaction(self, *, write: bool = False) -> Iterator[Connection]:
        """A connection in one transaction, committed on success and rolled back on error.

        ``write`` says the transaction will change the database: on SQLite it then takes the
        write lock at its start (BEGIN IMMEDIATE, see :func:`_sqlite_transactions`), so a
        writer waits its turn instead of failing when it first writes, and its file is checked
        to be still the database's before the write is committed.
        """
        turn = self._turn_to_write() if write and self._writers is not None else nullcontext()
        with turn, self._transaction(write=write) as connection:
            yield connection

    @contextmanager
    def _turn_to_write(self) -> Iterator[None]:
        """Wait, at most the busy timeout, for this process's other SQLite writers to finish.

        SQLite lets one writer in at a time, and one that finds the file locked sleeps and
        tries again, sleeping longer each time (up to 100 ms a try): a worker's threads all
        asking at once spend the lock's free moments asleep. Queued here, each is woken the
        moment the one before it is done, and only one writer per process asks for the file.
        """
        assert self._writers is not None
        if not self._writers.acquire(timeout=self._busy_timeout):
            raise StorageUnavailable(TimeoutError(self.sqlite_path), BUSY)
        try:
            yield
        finally:
            self._writers.release()

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[Connection]:
        try:
            with self.engine.connect() as connection:
                if write and self.is_sqlite:
                    connection.execution_options(sqlite_begin="IMMEDIATE")
                with connection.begin():
                    yield connection
                    if write and self.sqlite_path is not None:
                        self._still_the_file(connection)
        except exc.SQLAlchemyError as error:
            unavailable = _unavailable(error)
            if unavailable is None:
                raise
            raise unavailable from error

    def _still_the_file(self, connection: Connection) -> None:
        assert self.sqlite_path is not None
        opened = connection.connection.info.get("file_identity")
        if opened is None or opened != file_identity(self.sqlite_path):
            # The pool replaces the connection when it is next handed out (see checkout).
            raise StorageUnavailable(
                FileNotFoundError(self.sqlite_path),
                N_("the database file was deleted or replaced while this request was served"),
            )

    def ping(self) -> None:
        """Ask the database something; :class:`StorageUnavailable` if it cannot answer."""
        with self.transaction() as connection:
            connection.execute(text("SELECT 1"))

    def dispose(self) -> None:
        self.engine.dispose()


__all__ = ["Connection", "Storage", "default_url", "file_identity", "make_engine"]
