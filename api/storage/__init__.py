"""Where match sheets are kept: the database and everything stored in it, apart from the web.

Nothing here imports Flask or knows HTTP: functions take a connection in a transaction their
caller holds and refuse with the domain errors of :mod:`api.storage.errors`, which the web
layer answers with statuses (``api.errors``). The web layer binds a :class:`Storage` to each
app in ``api.database``, the one place the two meet.

* :mod:`~api.storage.engine` — the engine of one app and its transactions (:class:`Storage`)
* :mod:`~api.storage.schema` — the Alembic migrations in ``migrations/``, run once
* :mod:`~api.storage.tables` — the tables, as Core ``Table`` objects
* :mod:`~api.storage.sheets` — a sheet: creating, loading, guarding and changing it
* :mod:`~api.storage.scoresheet` — a stored sheet read back as a score sheet
* :mod:`~api.storage.idempotency` — the saved first answers of retried creations
* :mod:`~api.storage.errors` — what storage refuses
"""

from __future__ import annotations

from .engine import Connection, Storage, default_url, in_memory, make_engine
from .errors import SheetNotFound, StorageError, StorageUnavailable
from .schema import check_serving, migrate

__all__ = [
    "Connection",
    "Storage",
    "SheetNotFound",
    "StorageError",
    "StorageUnavailable",
    "check_serving",
    "default_url",
    "in_memory",
    "make_engine",
    "migrate",
]
