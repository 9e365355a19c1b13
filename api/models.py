"""The stored tables: match sheets (with their recorded rounds) and idempotency keys.

A sheet stores its ruleset *resolved* (every parameter, as ``Ruleset.as_dict`` gives it), so a
later change to a preset never rescores an old evening. Results are stored as the table
entered them (points or the cards left in hand) together with the points they scored.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Integer, String, Text, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Match(Base):
    __tablename__ = "matches"

    #: 128 random bits, URL-safe: knowing the id is what lets one read the sheet.
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ruleset: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[Any]] = mapped_column(JSON)
    first_dealer: Mapped[int] = mapped_column(Integer)
    #: SHA-256 of the edit token, hex: the token itself is never stored.
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    #: Grows by one with every change; the ETag is made from it.
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())

    #: The recorded rounds, in order: each {number, stock_ran_out, results, recorded_at}, with
    #: one result per seat {seat, points, penalty, went_out, buys, bonus, cards?}. A sheet is
    #: one document, read and written whole: a write is one SELECT and one UPDATE.
    rounds: Mapped[list[Any]] = mapped_column(JSON)


class IdempotencyKey(Base):
    """The first answer to a ``POST /v1/matches`` with an ``Idempotency-Key``, for 24 hours.

    The answer holds the edit token, which is never stored in the clear: it is kept encrypted
    with a key derived from the Idempotency-Key itself, which only the client knows (the
    table stores the key's SHA-256, not the key).
    """

    __tablename__ = "idempotency_keys"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    #: "pending" while the first request is being served, then "done".
    state: Mapped[str] = mapped_column(String(8))
    status: Mapped[int | None] = mapped_column(Integer, nullable=True)
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    answer: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
