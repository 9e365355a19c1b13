"""The database schema: Alembic migrations, run once however many processes start at once."""

from __future__ import annotations

import errno
import fcntl
import functools
import logging
import os
from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text
from sqlalchemy.engine import URL, make_url

from rules.i18n import N_

from .engine import Storage, make_engine
from .errors import DISK_FULL, READ_ONLY, StorageUnavailable

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: Any constant will do: it only has to be the same for every instance sharing a database.
POSTGRES_MIGRATION_LOCK = 0x52554D4D59  # "RUMMY"


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
    engine = make_engine(url)
    try:
        if engine.dialect.name == "sqlite":
            database = engine.url.database
            if database and database != ":memory:":
                try:
                    lock = open(f"{database}.migrate-lock", "a")
                except OSError as error:
                    if error.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):
                        raise
                    # A folder nobody may write: nobody can migrate it either. The sheets are
                    # served for reading if the schema is the code's; else the start fails.
                    return _upgrade(engine)
                with lock:
                    fcntl.flock(lock, fcntl.LOCK_EX)
                    try:
                        return _upgrade(engine)
                    finally:
                        fcntl.flock(lock, fcntl.LOCK_UN)
            return _upgrade(engine)
        elif engine.dialect.name == "postgresql":
            key = {"key": POSTGRES_MIGRATION_LOCK}
            with engine.connect() as connection:
                connection.execute(text("SELECT pg_advisory_lock(:key)"), key)
                try:
                    return _upgrade(engine)
                finally:
                    connection.execute(text("SELECT pg_advisory_unlock(:key)"), key)
                    connection.commit()
        return _upgrade(engine)
    finally:
        engine.dispose()


def _upgrade(engine: Engine) -> tuple[str | None, str | None] | None:
    config = alembic_config(engine.url)
    head = ScriptDirectory.from_config(config).get_current_head()
    current = current_revision(engine)
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


@functools.cache
def head_revision() -> str | None:
    """The newest migration: the revision the code expects the schema at."""
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


#: Below this much free space on an SQLite database's disk, writes are about to fail.
MIN_FREE_BYTES = 1024 * 1024


def check_serving(storage: Storage) -> None:
    """Whether sheets can be served: :class:`StorageUnavailable`, with the reason, if not.

    The database must answer (within the storage's timeouts) and hold the schema at the code's
    revision; an SQLite file must also be there (connecting would make an empty one), be
    writable, and have room left on its disk. Nothing here waits for the write lock.
    """
    path = storage.sqlite_path
    if path is not None:
        folder = os.path.dirname(path) or "."
        if not os.path.isfile(path):
            raise StorageUnavailable(
                FileNotFoundError(path), N_("the SQLite database file is missing")
            )
        if not os.access(path, os.W_OK) or not os.access(folder, os.W_OK):
            raise StorageUnavailable(PermissionError(path), READ_ONLY)
        disk = os.statvfs(folder)
        if disk.f_bavail * disk.f_frsize < MIN_FREE_BYTES:
            raise StorageUnavailable(OSError(path), DISK_FULL)
    with storage.transaction() as connection:
        revision = MigrationContext.configure(connection).get_current_revision()
    head = head_revision()
    if revision != head:
        raise StorageUnavailable(
            LookupError(revision),
            N_("the database schema is at revision {revision}, the code's is {head}"),
            revision=revision or "none",
            head=head,
        )


__all__ = ["alembic_config", "check_serving", "current_revision", "head_revision", "migrate"]
