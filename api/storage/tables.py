"""The stored tables: match sheets (with their recorded rounds) and idempotency keys.

Storage reads and writes them with Core statements on a connection, never through an ORM: a
sheet is one row, read whole and written whole, and the statements are few. The migrations in
``migrations/`` make exactly these tables (a test compares the two).

A sheet stores its ruleset *resolved* (every parameter, as ``Ruleset.as_dict`` gives it), so a
later change to a preset never rescores an old evening. Results are stored as the table
entered them (points or the cards left in hand) together with the points they scored.
"""

from __future__ import annotations

from sqlalchemy import JSON, Column, DateTime, Integer, MetaData, String, Table, Text, func

metadata = MetaData()

sheets = Table(
    "sheets",
    metadata,
    #: 128 random bits, URL-safe: knowing the id is what lets one read the sheet.
    Column("id", String(32), primary_key=True),
    Column("ruleset", JSON, nullable=False),
    Column("players", JSON, nullable=False),
    Column("first_dealer", Integer, nullable=False),
    #: SHA-256 of the edit token, hex: the token itself is never stored.
    Column("edit_token_hash", String(64), nullable=False),
    #: Grows by one with every change; the ETag is made from it.
    Column("version", Integer, nullable=False),
    #: The recorded rounds, in order: each {number, stock_ran_out, results, recorded_at}, with
    #: one result per seat {seat, points, penalty, went_out, buys, bonus, cards}. A sheet is one
    #: document, read and written whole: a write is one SELECT and one UPDATE.
    Column("rounds", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), server_default=func.now(), nullable=False),
    #: Indexed: a sheet untouched for SHEET_RETENTION_DAYS is purged (api.storage.retention).
    Column(
        "updated_at",
        DateTime(timezone=True),
        server_default=func.now(),
        nullable=False,
        index=True,
    ),
    #: What the evening is called (up to 80 characters), if it was given one.
    Column("title", String(80), nullable=True),
)

#: The first answer to a ``POST /v1/matches`` with an ``Idempotency-Key``, for 24 hours.
#:
#: The answer holds the edit token, which is never stored in the clear: it is kept encrypted
#: with a key derived from the Idempotency-Key itself, which only the client knows (the table
#: stores the key's SHA-256, not the key).
idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("key_hash", String(64), primary_key=True),
    Column("request_hash", String(64), nullable=False),
    #: "pending" while the first request is being served, then "done".
    Column("state", String(8), nullable=False),
    Column("status", Integer, nullable=True),
    Column("sheet_id", String(32), nullable=True),
    Column("answer", Text, nullable=True),
    #: The language the answer is written in, said again on every retry.
    Column("language", String(8), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False, index=True),
)

#: When each periodic task last ran, shared by every worker and instance: the one that moves
#: ``done_at`` forward is the one that runs the task (``api.storage.retention``).
maintenance = Table(
    "maintenance",
    metadata,
    Column("task", String(32), primary_key=True),
    Column("done_at", DateTime(timezone=True), nullable=False),
)

__all__ = ["idempotency_keys", "maintenance", "metadata", "sheets"]
