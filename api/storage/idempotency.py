r"""``Idempotency-Key`` for creating sheets: a retried POST answers what the first one did.

A phone that loses the network after sending ``POST /v1/matches`` cannot know whether the sheet
was made, so it sends the same request again with the same key. The first answer is kept for
24 hours and repeated — the same 201, sheet and ``edit_token``, since the first answer may never
have arrived. The edit token is never stored in the clear: the saved answer is encrypted with a
key derived from the Idempotency-Key, which only the client has (the table keeps the key's
SHA-256 to find the row, not the key). Keys should therefore be random, like a UUID.

The first request with a key :func:`reserve`\ s it, serves the request, then saves its answer
(:func:`save_answer`), or cancels the reservation if it failed (:func:`cancel`). A reservation
expires: the request that made it may die before it answers (its worker killed, or timed out)
and cannot cancel it then. One older than ``expires_after`` (a minute by default, far longer
than any request is served) is taken over by the next request with the key, which then serves
it afresh.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from sqlalchemy import Connection, Row, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from rules.i18n import N_

from .errors import IdempotencyConflict, IdempotencyMismatch
from .tables import idempotency_keys as keys

LIFETIME = timedelta(hours=24)
#: How long a reservation holds before a retry may take it over (the web layer's setting).
RESERVATION = timedelta(seconds=60)


def key_hash(key: str) -> str:
    return hashlib.sha256(b"rummy-referee/idempotency-key/" + key.encode()).hexdigest()


def request_hash(body: Any) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _cipher(key: str) -> Fernet:
    secret = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=None, info=b"rummy-referee/idempotent-answer"
    ).derive(key.encode())
    return Fernet(base64.urlsafe_b64encode(secret))


@dataclass(frozen=True)
class SavedAnswer:
    """The first answer to a request with a key: its status, body, and the language its words
    are in (None for an answer saved before languages were)."""

    status: int
    body: dict[str, Any]
    language: str | None = None


def _find(connection: Connection, hashed: str) -> Row[Any] | None:
    return connection.execute(select(keys).where(keys.c.key_hash == hashed)).one_or_none()


def _take_over(
    connection: Connection, row: Row[Any], now: datetime, expires_after: timedelta
) -> bool:
    """Take over a reservation that expired; False if it holds (or someone else took it)."""
    if _aware(row.created_at) >= now - expires_after:
        return False
    taken = connection.execute(
        update(keys)
        .where(
            keys.c.key_hash == row.key_hash,
            keys.c.state == "pending",
            keys.c.created_at == row.created_at,
        )
        .values(created_at=now)
    )
    return taken.rowcount == 1


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes; they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def reserve(
    connection: Connection, key: str, body: Any, expires_after: timedelta = RESERVATION
) -> SavedAnswer | None:
    """Reserve ``key`` for this request, or return the answer saved for it.

    Returns None when this request is the first with the key, or takes over a reservation that
    expired (the caller serves it and calls :func:`save_answer`); raises
    :class:`IdempotencyMismatch` when the key came with another body,
    :class:`IdempotencyConflict` while the first request with it is still being served.
    """
    hashed = key_hash(key)
    wanted = request_hash(body)
    now = datetime.now(UTC)
    connection.execute(delete(keys).where(keys.c.created_at < now - LIFETIME))
    row = _find(connection, hashed)
    if row is None:
        reserved = {"key_hash": hashed, "request_hash": wanted, "state": "pending"}
        try:
            with connection.begin_nested():
                connection.execute(insert(keys).values(**reserved, created_at=now))
            return None
        except IntegrityError:  # another request with this key got there first
            row = _find(connection, hashed)
            if row is None:
                raise IdempotencyConflict(
                    N_("a request with this Idempotency-Key is in progress")
                ) from None
    if row.request_hash != wanted:
        raise IdempotencyMismatch()
    if row.state != "done" and _take_over(connection, row, now, expires_after):
        return None
    if row.state != "done" or row.answer is None or row.status is None:
        raise IdempotencyConflict(
            N_("the first request with this Idempotency-Key is still being served")
        )
    try:
        body_text = _cipher(key).decrypt(row.answer.encode()).decode()
    except InvalidToken:  # cannot happen unless the row was tampered with
        raise IdempotencyConflict(
            N_("the saved answer for this Idempotency-Key is unreadable")
        ) from None
    return SavedAnswer(row.status, json.loads(body_text), row.language)


def save_answer(
    connection: Connection,
    key: str,
    status: int,
    body: dict[str, Any],
    sheet_id: str,
    language: str | None = None,
) -> None:
    """Save the first answer to the request that reserved ``key``, for its retries, with the
    language it is written in."""
    connection.execute(
        update(keys)
        .where(keys.c.key_hash == key_hash(key))
        .values(
            state="done",
            status=status,
            sheet_id=sheet_id,
            language=language,
            answer=_cipher(key).encrypt(json.dumps(body).encode()).decode(),
        )
    )


def cancel(connection: Connection, key: str) -> None:
    """Forget the reservation of a request that failed, so that a retry is served afresh."""
    connection.execute(
        delete(keys).where(keys.c.key_hash == key_hash(key), keys.c.state == "pending")
    )


def forget_sheet(connection: Connection, sheet_id: str) -> None:
    """A deleted sheet's saved answers go with it: a retry must not resurrect its token."""
    connection.execute(delete(keys).where(keys.c.sheet_id == sheet_id))


__all__ = ["SavedAnswer", "cancel", "forget_sheet", "reserve", "save_answer"]
