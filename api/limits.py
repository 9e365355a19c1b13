"""Floods: per-client rate limits on what makes the database grow.

Starting sheets (``POST /v1/matches``, ``RATELIMIT_CREATE``) and changing them (``PUT`` and
``DELETE`` under ``/v1/matches``, ``RATELIMIT_WRITE``) are counted per client address; reads,
the stateless checks and the pages are not counted at all — they store nothing, and a check
must not pay for a limiter. Past a limit the answer is ``429`` with ``Retry-After`` (a problem
document, :mod:`api.errors`), and every counted answer says where the client stands in
``X-RateLimit-Limit``, ``X-RateLimit-Remaining`` and ``X-RateLimit-Reset``.

The client is :func:`api.clients.client_address`: the peer's address, or behind a reverse proxy
named by ``FORWARDED_ALLOW_IPS`` the address that proxy reported (never a header any client can
set). The counts live in ``RATELIMIT_STORAGE_URI``: under gunicorn, by default, an SQLite file
every worker of the instance shares (:class:`FileCounts`: the limits are the instance's, exact);
Redis when several instances must share them; a process's own memory (``memory://``) for an app
outside gunicorn.
A Redis that stops answering does not stop a table recording its rounds: each process counts
in its own memory until Redis is back.

The counting is the ``limits`` library's (fixed windows; its Redis storage, and
:class:`ProcessCounts` in memory), called from a ``before_request`` hook of the sheets'
blueprint: its writes alone are counted. The two limits are known when the app starts, so they are read once
there (a limit the library cannot read stops the start); Flask-Limiter, the extension over the
same library, reads its declared limits again on every request.
"""

from __future__ import annotations

import logging
import math
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, current_app, g, request
from limits import RateLimitItem, parse_many
from limits.errors import ConfigurationError, StorageError
from limits.storage import Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from api.clients import client_address
from api.config import ConfigError

log = logging.getLogger(__name__)

#: Seconds a Redis that failed is left alone before it is asked again; the counts meanwhile
#: are each process's own.
RETRY_STORAGE = 30
#: Seconds to wait for Redis to connect or answer: a count must never hold a write for long.
STORAGE_TIMEOUT = 1.0


class ProcessCounts(Storage):
    """Fixed-window counts in this process's memory, each window expired when it is next read.

    The ``limits`` library's own memory storage expires its windows from a timer thread that it
    starts afresh every 10 ms while requests come; a worker needs no thread for it. Here a
    window is a count and the moment it ends; one that has ended counts from nothing again, and
    the ended ones are swept out once a minute so that a flood from many addresses leaves
    nothing behind. Every answer equals the library's storage's
    (``tests/api/test_limits_storage.py``).
    """

    STORAGE_SCHEME = ["process-memory"]
    #: Seconds between sweeps of the windows that have ended.
    SWEEP_EVERY = 60.0

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._windows: dict[str, tuple[int, float]] = {}  # key -> (count, when the window ends)
        self._lock = threading.Lock()
        self._next_sweep = time.time() + self.SWEEP_EVERY

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return ValueError

    def _window(self, key: str, now: float) -> tuple[int, float]:
        count, ends = self._windows.get(key, (0, now))
        return (count, ends) if ends > now else (0, now)

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        with self._lock:
            if now >= self._next_sweep:
                self._windows = {k: w for k, w in self._windows.items() if w[1] > now}
                self._next_sweep = now + self.SWEEP_EVERY
            count, ends = self._window(key, now)
            if count == 0:
                ends = now + expiry
            count += amount
            self._windows[key] = (count, ends)
        return count

    def get(self, key: str) -> int:
        return self._window(key, time.time())[0]

    def get_expiry(self, key: str) -> float:
        return self._window(key, time.time())[1]

    def __len__(self) -> int:
        """How many windows are kept, ended or not (until the next sweep)."""
        return len(self._windows)

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        with self._lock:
            cleared, self._windows = len(self._windows), {}
        return cleared

    def clear(self, key: str) -> None:
        with self._lock:
            self._windows.pop(key, None)


class FileCounts(Storage):
    """Fixed-window counts in one SQLite file, shared by every worker of an instance.

    The embedded default has no Redis, and each worker counting alone let a client through
    as many times as there are workers while ``X-RateLimit-Remaining`` spoke of one worker's
    share. gunicorn.conf.py names a file in the instance's own runtime folder
    (``sqlite-counts:///path``) and every worker counts there: one statement per count, an
    upsert that starts a window afresh once it has ended, atomic under SQLite's write lock.
    Only writes are counted, so the file takes a few statements a second at most; one that
    fails leaves each worker counting in its memory (:class:`Counts`).
    """

    STORAGE_SCHEME = ["sqlite-counts"]
    #: Seconds between sweeps of the windows that have ended.
    SWEEP_EVERY = 60.0

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = (uri or "").split("://", 1)[1]
        self._connections = threading.local()
        self._next_sweep = time.time() + self.SWEEP_EVERY

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return sqlite3.Error

    def _db(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._connections, "db", None)
        if connection is None:
            connection = sqlite3.connect(self.path, timeout=STORAGE_TIMEOUT, isolation_level=None)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=OFF")  # counts of a running instance only
            connection.execute(
                "CREATE TABLE IF NOT EXISTS windows"
                " (key TEXT PRIMARY KEY, count INTEGER NOT NULL, ends REAL NOT NULL)"
            )
            self._connections.db = connection
        return connection

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        db = self._db()
        if now >= self._next_sweep:
            self._next_sweep = now + self.SWEEP_EVERY
            db.execute("DELETE FROM windows WHERE ends <= ?", (now,))
        row = db.execute(
            "INSERT INTO windows (key, count, ends) VALUES (:key, :amount, :ends)"
            " ON CONFLICT (key) DO UPDATE SET"
            " count = CASE WHEN ends > :now THEN count + :amount ELSE :amount END,"
            " ends = CASE WHEN ends > :now THEN ends ELSE :ends END"
            " RETURNING count",
            {"key": key, "amount": amount, "ends": now + expiry, "now": now},
        ).fetchone()
        return int(row[0])

    def _window(self, key: str) -> tuple[int, float]:
        now = time.time()
        row = self._db().execute("SELECT count, ends FROM windows WHERE key = ?", (key,)).fetchone()
        return (int(row[0]), float(row[1])) if row is not None and row[1] > now else (0, now)

    def get(self, key: str) -> int:
        return self._window(key)[0]

    def get_expiry(self, key: str) -> float:
        return self._window(key)[1]

    def check(self) -> bool:
        self._db().execute("SELECT 1")
        return True

    def reset(self) -> int | None:
        return self._db().execute("DELETE FROM windows").rowcount

    def clear(self, key: str) -> None:
        self._db().execute("DELETE FROM windows WHERE key = ?", (key,))


@dataclass(frozen=True)
class Limit:
    """One configured limit: what it counts (``scope``), and how many."""

    scope: str
    items: tuple[RateLimitItem, ...]  # the shortest window first, the order they are counted in


def read_limits(setting: str, text: str) -> tuple[RateLimitItem, ...]:
    """``"600 per minute;6000 per hour"`` read, or :class:`ConfigError` naming ``setting``."""
    try:
        items = parse_many(text)
    except ValueError as error:
        raise ConfigError(f"{setting}: {error}") from None
    if not items:
        raise ConfigError(f"{setting}: no limit in {text!r}")
    return tuple(sorted(items))


class Counts:
    """Where the counts live, with each process's memory standing in while Redis is away."""

    def __init__(self, uri: str, prefix: str) -> None:
        options: dict[str, Any] = {}
        if uri.startswith(("redis", "rediss")):
            options = {"socket_connect_timeout": STORAGE_TIMEOUT, "socket_timeout": STORAGE_TIMEOUT}
        storage: object = ProcessCounts()
        try:
            if not uri.startswith("memory://"):
                storage = storage_from_string(uri, wrap_exceptions=True, **options)
        except ConfigurationError as error:
            raise ConfigError(f"RATELIMIT_STORAGE_URI: {error}") from None
        if not isinstance(storage, Storage):  # async+redis://: a worker thread cannot await it
            raise ConfigError(f"RATELIMIT_STORAGE_URI: {uri!r} is an asyncio storage")
        self.storage = storage
        self.prefix = prefix
        self._shared = FixedWindowRateLimiter(self.storage)
        self._own = FixedWindowRateLimiter(ProcessCounts())
        #: When the storage last failed, None while it answers.
        self._failed_at: float | None = None

    def _strategy(self) -> FixedWindowRateLimiter:
        if self._failed_at is None:
            return self._shared
        if time.monotonic() - self._failed_at < RETRY_STORAGE:
            return self._own
        try:
            answers = self.storage.check()
        except StorageError:
            answers = False
        if not answers:
            self._failed_at = time.monotonic()
            return self._own
        log.warning("rate-limit storage is back: counting there again")
        self._failed_at = None
        return self._shared

    def _ask(self, call: str, item: RateLimitItem, *keys: str) -> Any:
        strategy = self._strategy()
        try:
            return getattr(strategy, call)(item, self.prefix, *keys)
        except StorageError as error:
            if strategy is self._own:
                raise
            log.warning("rate-limit storage failed (%s): counting in this process", error)
            self._failed_at = time.monotonic()
            return getattr(self._own, call)(item, self.prefix, *keys)

    def hit(self, item: RateLimitItem, *keys: str) -> bool:
        """Count one request against ``item``; False when that was one too many."""
        allowed: bool = self._ask("hit", item, *keys)
        return allowed

    def window(self, item: RateLimitItem, *keys: str) -> tuple[int, int]:
        """``item``'s window for ``keys``: when it resets (epoch seconds), how many remain."""
        stats = self._ask("get_window_stats", item, *keys)
        return int(stats.reset_time), int(stats.remaining)


def retry_after(reset_at: float) -> int:
    """Seconds until a limit lets the client in again (at least 1)."""
    return max(1, math.ceil(reset_at - time.time()))


@dataclass(frozen=True)
class RateLimits:
    """An app's limits, by the method they count, and where they are counted."""

    counts: Counts
    by_method: Mapping[str, Limit]

    def count(self) -> None:
        """Count this request against its limit; :class:`TooManyRequests` past it."""
        limit = self.by_method.get(request.method)
        if limit is None:
            return
        keys = (client_address(), limit.scope)
        for item in limit.items:
            # The counted request is held against the shortest window first; once one window
            # is full the longer ones are not counted, as the request was not served.
            if not self.counts.hit(item, *keys):
                g.rate_limit = (item, keys)
                raise TooManyRequests(str(item))
        g.rate_limit = (limit.items[0], keys)

    def say(self, response: Response) -> Response:
        """Where the client stands: ``X-RateLimit-*``, and ``Retry-After`` on a 429."""
        counted = g.get("rate_limit")
        if counted is None:
            return response
        item, keys = counted
        reset_at, remaining = self.counts.window(item, *keys)
        response.headers["X-RateLimit-Limit"] = str(item.amount)
        response.headers["X-RateLimit-Remaining"] = str(remaining)
        response.headers["X-RateLimit-Reset"] = str(reset_at)
        if response.status_code == 429:
            response.headers["Retry-After"] = str(retry_after(reset_at))
        return response


def init_app(app: Flask) -> RateLimits | None:
    """The app's rate limits, read from its settings, with counts of their own (two apps in one
    process, tests, never share them); None when ``RATELIMIT_ENABLED`` is off. The sheets'
    blueprint counts its writes with :func:`count_writes` and :func:`say_where_writes_stand`."""
    config = app.config
    if not config["RATELIMIT_ENABLED"]:
        return None
    counts = Counts(config["RATELIMIT_STORAGE_URI"], config["RATELIMIT_KEY_PREFIX"])
    # Each limit is shared by the blueprint's endpoints: a script alternating PUT and DELETE,
    # or writing to two sheets, counts against one limit.
    by_method: dict[str, Limit] = {}
    for scope, setting, methods in (
        ("create", "RATELIMIT_CREATE", {"POST"}),
        ("write", "RATELIMIT_WRITE", {"PUT", "DELETE"}),
    ):
        limit = Limit(scope, read_limits(setting, config[setting]))
        by_method.update(dict.fromkeys(methods, limit))
    limits = app.extensions["rate_limits"] = RateLimits(counts, by_method)
    return limits


def count_writes() -> None:
    """A ``before_request`` hook: the request counted against its limit, if the app has any."""
    limits: RateLimits | None = current_app.extensions.get("rate_limits")
    if limits is not None:
        limits.count()


def say_where_writes_stand(response: Response) -> Response:
    """An ``after_request`` hook: the counted request's standing in its headers."""
    limits: RateLimits | None = current_app.extensions.get("rate_limits")
    return response if limits is None else limits.say(response)


__all__ = [
    "Counts",
    "FileCounts",
    "Limit",
    "ProcessCounts",
    "RateLimits",
    "count_writes",
    "init_app",
    "read_limits",
    "retry_after",
    "say_where_writes_stand",
]
