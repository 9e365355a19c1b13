"""The stored tables: match sheets, their recorded rounds, and idempotency keys.

A sheet stores its ruleset *resolved* (every parameter, as ``Ruleset.as_dict`` gives it), so a
later change to a preset never rescores an old evening. Results are stored as the table
entered them (points or the cards left in hand) together with the points they scored.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, Text, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


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

    rounds: Mapped[list[RoundRecord]] = relationship(
        back_populates="match",
        order_by="RoundRecord.number",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )


class RoundRecord(Base):
    __tablename__ = "rounds"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    stock_ran_out: Mapped[bool] = mapped_column(Boolean, default=False)
    #: One object per seat: seat, points, penalty, went_out, buys, bonus and cards (if given).
    results: Mapped[list[Any]] = mapped_column(JSON)
    recorded_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )

    match: Mapped[Match] = relationship(back_populates="rounds")


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
