"""The storage extension: where Flask meets :mod:`api.storage`, and nowhere else.

``init_app`` reads ``DATABASE_URL`` from the app's config (an SQLite file in the instance folder
without it), binds a :class:`~api.storage.Storage` to the app and adds ``flask db upgrade``.
The storage belongs to the app (``app.extensions["database"]``), not to this object, so that
two apps in one process — tests, a migration run beside a server — never share or replace each
other's connections.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

import click
from flask import Flask, current_app

from api.config import ConfigError
from api.storage import Connection, Storage, check_serving, default_url, in_memory, migrate


class Database:
    """Created unbound (``api.extensions.database``) and bound to each app in ``init_app``."""

    def init_app(self, app: Flask) -> None:
        url = app.config.get("DATABASE_URL") or default_url(app.instance_path)
        if in_memory(url):
            raise ConfigError(
                f"DATABASE_URL={url} is an SQLite database in memory: each worker and each"
                " connection would have its own, empty one, gone at every restart. Name a"
                " file (sqlite:///path/to/sheets.sqlite3), or leave DATABASE_URL unset for"
                " one in the instance folder."
            )
        app.config["DATABASE_URL"] = url
        app.extensions["database"] = Storage(
            url,
            connect_timeout=app.config["DATABASE_CONNECT_TIMEOUT"],
            statement_timeout=app.config["DATABASE_STATEMENT_TIMEOUT"],
        )
        app.cli.add_command(database_commands)

    @property
    def current(self) -> Storage:
        """The storage of the app handling the current request or command."""
        storage: Storage = current_app.extensions["database"]
        return storage

    def transaction(self, *, write: bool = False) -> AbstractContextManager[Connection]:
        return self.current.transaction(write=write)

    def ping(self) -> None:
        self.current.ping()

    def check_serving(self) -> None:
        """:class:`~api.storage.StorageUnavailable`, with the reason, unless sheets can be served."""
        check_serving(self.current)


@click.group("db")
def database_commands() -> None:
    """The database schema."""


@database_commands.command("upgrade")
def upgrade() -> None:
    """Migrate the database named by DATABASE_URL to the newest schema."""
    migrate(current_app.config["DATABASE_URL"])
    click.echo("the database is up to date")
