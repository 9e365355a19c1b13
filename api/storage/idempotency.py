"""``Idempotency-Key`` for creating sheets: a retried POST answers what the first one did.

A phone that loses the network after sending ``POST /v1/matches`` cannot know whether the sheet
was made, so it sends the same request again with the same key. The first answer is kept for
24 hours and repeated — the same 201, sheet and ``edit_token``, since the first answer may never
have arrived. The edit token is never stored in the clear: the kept answer is encrypted with a
key derived from the Idempotency-Key, which only the client has (the table keeps the key's
SHA-256 to find the row, not the key). Keys should therefore be random, like a UUID.

A claim is a lease: the request that claimed a key may die before it answers (its worker
killed, or timed out) and cannot release it then. A pending claim older than the lease (a
minute by default, far longer than any request is served) is taken over by the next request
with the key, which then serves it afresh.
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

from .errors import IdempotencyConflict, IdempotencyMismatch
from .tables import idempotency_keys as keys

LIFETIME = timedelta(hours=24)
#: How long a pending claim holds before a retry may take it over (the web layer's setting).
LEASE = timedelta(seconds=60)


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
class Kept:
    """A kept first answer: its status, body, and the language its words are in (None for a
    key kept before languages were)."""

    status: int
    body: dict[str, Any]
    language: str | None = None


def _find(connection: Connection, hashed: str) -> Row[Any] | None:
    return connection.execute(select(keys).where(keys.c.key_hash == hashed)).one_or_none()


def _take_over(connection: Connection, row: Row[Any], now: datetime, lease: timedelta) -> bool:
    """Take a pending claim whose lease ran out; False if it holds (or someone else took it)."""
    if _aware(row.created_at) >= now - lease:
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


def claim(connection: Connection, key: str, body: Any, lease: timedelta = LEASE) -> Kept | None:
    """Claim ``key`` for this request, or return the answer kept for it.

    Returns None when this request is the first with the key, or takes over a claim whose
    lease ran out (the caller serves it and calls :func:`keep`); raises
    :class:`IdempotencyMismatch` when the key came with another body,
    :class:`IdempotencyConflict` while the first request with it is still being served.
    """
    hashed = key_hash(key)
    wanted = request_hash(body)
    now = datetime.now(UTC)
    connection.execute(delete(keys).where(keys.c.created_at < now - LIFETIME))
    row = _find(connection, hashed)
    if row is None:
        claimed = {"key_hash": hashed, "request_hash": wanted, "state": "pending"}
        try:
            with connection.begin_nested():
                connection.execute(insert(keys).values(**claimed, created_at=now))
            return None
        except IntegrityError:  # another request with this key got there first
            row = _find(connection, hashed)
            if row is None:
                raise IdempotencyConflict(
                    "a request with this Idempotency-Key is in progress"
                ) from None
    if row.request_hash != wanted:
        raise IdempotencyMismatch()
    if row.state != "done" and _take_over(connection, row, now, lease):
        return None
    if row.state != "done" or row.answer is None or row.status is None:
        raise IdempotencyConflict(
            "the first request with this Idempotency-Key is still being served"
        )
    try:
        body_text = _cipher(key).decrypt(row.answer.encode()).decode()
    except InvalidToken:  # cannot happen unless the row was tampered with
        raise IdempotencyConflict(
            "the kept answer for this Idempotency-Key is unreadable"
        ) from None
    return Kept(row.status, json.loads(body_text), row.language)


def keep(
    connection: Connection,
    key: str,
    status: int,
    body: dict[str, Any],
    match_id: str,
    language: str | None = None,
) -> None:
    """Keep the first answer to the request that claimed ``key``, for its retries, with the
    language it is written in."""
    connection.execute(
        update(keys)
        .where(keys.c.key_hash == key_hash(key))
        .values(
            state="done",
            status=status,
            match_id=match_id,
            language=language,
            answer=_cipher(key).encrypt(json.dumps(body).encode()).decode(),
        )
    )


def release(connection: Connection, key: str) -> None:
    """Forget a claim whose request failed, so that a retry is served afresh."""
    connection.execute(
        delete(keys).where(keys.c.key_hash == key_hash(key), keys.c.state == "pending")
    )


def forget_match(connection: Connection, match_id: str) -> None:
    """A deleted sheet's kept answers go with it: a retry must not resurrect its token."""
    connection.execute(delete(keys).where(keys.c.match_id == match_id))


__all__ = ["Kept", "claim", "forget_match", "keep", "release"]
