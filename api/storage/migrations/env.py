"""Alembic's environment: runs migrations on the connection ``api.storage.schema.migrate``
hands it."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from api.storage.tables import metadata

config = context.config
target_metadata = metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(
            connection=connection, target_metadata=target_metadata, render_as_batch=True
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    # Run from the alembic command line: connect to sqlalchemy.url ourselves.
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as connection:
        context.configure(
            connection=connection, target_metadata=target_metadata, render_as_batch=True
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    run()
