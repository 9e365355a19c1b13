"""Retention: sheets nobody has touched for a long time are deleted, and expired idempotency keys.

A sheet is kept for ``retention`` after its last change (``updated_at``: created, a round
recorded or taken back), then deleted with its saved idempotent answers; idempotency keys go
when their lifetime is over. :func:`purge` does it in short batches, so that on SQLite a large
backlog never holds the write lock for long. :func:`purge_if_due` is how the service runs it
about once a day without cron: every worker and instance may ask, and the one whose UPDATE moves
the ``maintenance`` row's ``done_at`` forward is the one that purges.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from . import idempotency
from .engine import Storage
from .tables import idempotency_keys as keys
from .tables import maintenance, sheets

#: How often the service purges on its own.
EVERY = timedelta(days=1)
#: Sheets deleted per transaction.
BATCH = 500
TASK = "purge"


@dataclass(frozen=True)
class Purged:
    """What one purge deleted: sheets last changed before ``before``, and idempotency keys."""

    sheets: int
    keys: int
    before: datetime


def purge(storage: Storage, retention: timedelta, now: datetime | None = None) -> Purged:
    """Delete every sheet unchanged for ``retention`` and every expired idempotency key."""
    now = now or datetime.now(UTC)
    before = now - retention
    purged = 0
    while True:
        with storage.transaction(write=True) as connection:
            found = _purge_batch(connection, before)
        purged += found
        if found < BATCH:
            break
    with storage.transaction(write=True) as connection:
        expired = connection.execute(
            delete(keys).where(keys.c.created_at < now - idempotency.LIFETIME)
        ).rowcount
        _mark_done(connection, now)
    return Purged(purged, expired, before)


def _purge_batch(connection: Connection, before: datetime) -> int:
    ids = list(
        connection.execute(
            select(sheets.c.id).where(sheets.c.updated_at < before).limit(BATCH)
        ).scalars()
    )
    if not ids:
        return 0
    # The date is asked again: a sheet written to since the SELECT is kept (on PostgreSQL the
    # DELETE waits for that writer's row lock, then sees its new updated_at).
    deleted = list(
        connection.execute(
            delete(sheets)
            .where(sheets.c.id.in_(ids), sheets.c.updated_at < before)
            .returning(sheets.c.id)
        ).scalars()
    )
    if deleted:
        # A deleted sheet's saved answers go with it: a retry must not resurrect its token.
        connection.execute(delete(keys).where(keys.c.sheet_id.in_(deleted)))
    return len(ids)


def _mark_done(connection: Connection, now: datetime) -> None:
    moved = connection.execute(
        update(maintenance).where(maintenance.c.task == TASK).values(done_at=now)
    ).rowcount
    if not moved:
        connection.execute(insert(maintenance).values(task=TASK, done_at=now))


def claim_purge(storage: Storage, now: datetime | None = None, every: timedelta = EVERY) -> bool:
    """True for the one caller that should purge now: the last purge is ``every`` ago or more
    (or there was none), and this caller's UPDATE is the one that moved its date forward."""
    now = now or datetime.now(UTC)
    with storage.transaction(write=True) as connection:
        moved = connection.execute(
            update(maintenance)
            .where(maintenance.c.task == TASK, maintenance.c.done_at <= now - every)
            .values(done_at=now)
        ).rowcount
        if moved:
            return True
        if connection.execute(select(maintenance.c.task).where(maintenance.c.task == TASK)).first():
            return False
        try:
            with connection.begin_nested():
                connection.execute(insert(maintenance).values(task=TASK, done_at=now))
        except IntegrityError:  # another worker made the row first: it purges
            return False
        return True


def purge_if_due(
    storage: Storage, retention: timedelta, now: datetime | None = None, every: timedelta = EVERY
) -> Purged | None:
    """Purge when this caller wins the day's claim; None when it is not due or another has it."""
    now = now or datetime.now(UTC)
    if not claim_purge(storage, now, every):
        return None
    return purge(storage, retention, now)


__all__ = ["BATCH", "EVERY", "Purged", "claim_purge", "purge", "purge_if_due"]
