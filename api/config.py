"""Settings of the web layer, read from the environment.

Every setting has a default that serves a developer's machine, and each is read with a small
typed helper that refuses a value it cannot use (``MAX_CONTENT_LENGTH=lots`` stops the app at
start-up with the variable's name, instead of becoming a default or failing on the first request).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from .clients import proxy_networks

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off", ""})


class ConfigError(ValueError):
    """An environment variable holds a value the setting cannot take."""


def env_str(name: str, default: str, environ: Mapping[str, str] | None = None) -> str:
    environ = os.environ if environ is None else environ
    return environ.get(name, default)


def env_int(
    name: str,
    default: int,
    environ: Mapping[str, str] | None = None,
    *,
    minimum: int | None = None,
) -> int:
    environ = os.environ if environ is None else environ
    raw = environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, not {value}")
    return value


def env_bool(name: str, default: bool, environ: Mapping[str, str] | None = None) -> bool:
    environ = os.environ if environ is None else environ
    raw = environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(f"{name} must be true or false, not {raw!r}")


def env_list(name: str, environ: Mapping[str, str] | None = None) -> list[str]:
    """A comma-separated list; empty, or ``*`` alone, is the empty list (nothing narrowed)."""
    environ = os.environ if environ is None else environ
    items = [item.strip() for item in environ.get(name, "").split(",") if item.strip()]
    return [] if items == ["*"] else items


class Config:
    """The settings ``create_app`` starts from; a mapping or object given to it overrides them.

    Read when instantiated, not when imported, so a test or a process that sets a variable
    before calling ``create_app`` gets what it set.
    """

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        environ = os.environ if environ is None else environ
        # --- requests ---------------------------------------------------------------------
        #: Werkzeug answers 413 above this many bytes of body: no check needs more than a few KiB.
        self.MAX_CONTENT_LENGTH = env_int("MAX_CONTENT_LENGTH", 256 * 1024, environ, minimum=1024)
        #: Deepest nesting of arrays and objects a JSON body may have (the deepest valid body
        #: has five levels); deeper bodies are a 400 before anything walks them.
        self.MAX_JSON_DEPTH = env_int("MAX_JSON_DEPTH", 32, environ, minimum=8)
        self.LOG_LEVEL = env_str("LOG_LEVEL", "INFO", environ).upper()
        # --- the OpenAPI document and the docs page (flask-smorest) ---------------------------
        # Not from the environment: openapi.yaml is generated from these and must not drift.
        self.API_TITLE = "rummy-referee"
        self.API_VERSION = "0.1.0"
        self.OPENAPI_VERSION = "3.0.3"
        self.OPENAPI_URL_PREFIX = "/"
        self.OPENAPI_JSON_PATH = "openapi.json"
        self.OPENAPI_SWAGGER_UI_PATH = "/docs"
        #: Swagger UI's scripts come from the installed swagger-ui-bundle, served by api.docs.
        self.OPENAPI_SWAGGER_UI_URL = "/docs/assets/"
        #: No online validator badge: the docs page must work without leaving the machine.
        self.OPENAPI_SWAGGER_UI_CONFIG = {"validatorUrl": None, "tryItOutEnabled": True}
        # --- browsers on other origins (api.cors) ---------------------------------------------
        #: The origins allowed to call /v1, comma-separated; empty (or "*") means any origin.
        self.CORS_ORIGINS = env_list("CORS_ORIGINS", environ)
        # --- storage ----------------------------------------------------------------------
        #: Any SQLAlchemy URL; empty means an SQLite file in the instance folder.
        self.DATABASE_URL = env_str("DATABASE_URL", "", environ)
        #: Seconds to wait for the database to accept a connection, and for a statement to
        #: finish: past either the request is a 503, never a hang.
        self.DATABASE_CONNECT_TIMEOUT = env_int("DATABASE_CONNECT_TIMEOUT", 3, environ, minimum=1)
        self.DATABASE_STATEMENT_TIMEOUT = env_int(
            "DATABASE_STATEMENT_TIMEOUT", 5, environ, minimum=1
        )
        #: Seconds an Idempotency-Key's claim by a request that never answered (its worker
        #: killed or timed out) holds before a retry takes it over.
        self.IDEMPOTENCY_LEASE = env_int("IDEMPOTENCY_LEASE", 60, environ, minimum=1)
        # --- serving ------------------------------------------------------------------------
        #: Seconds a request body may pause before the request is a 400 (a Content-Length
        #: longer than the body sent must not hold a thread until the worker times out).
        self.REQUEST_READ_TIMEOUT = env_int("REQUEST_READ_TIMEOUT", 5, environ, minimum=1)
        #: The reverse proxies whose X-Forwarded-For is believed (api.clients); gunicorn reads
        #: the same variable for X-Forwarded-Proto.
        try:
            self.FORWARDED_PROXIES = proxy_networks(env_str("FORWARDED_ALLOW_IPS", "", environ))
        except ValueError as error:
            raise ConfigError(f"FORWARDED_ALLOW_IPS: {error}") from None
        # --- floods, retention and observability (operations) -------------------------------
        #: The rate limits' switch (api.limits); off, nothing is counted: for a benchmark
        #: without limits, or a deployment limiting at its proxy.
        self.RATELIMIT_ENABLED = env_bool("RATELIMIT_ENABLED", True, environ)
        #: Where the counts live: each process its own (memory://) by default; redis://host:port
        #: when several workers or instances must share them.
        self.RATELIMIT_STORAGE_URI = env_str("RATELIMIT_STORAGE_URI", "memory://", environ)
        #: Prefixes every key in that storage, so that several deployments can share one Redis.
        self.RATELIMIT_KEY_PREFIX = env_str("RATELIMIT_KEY_PREFIX", "rummy-referee", environ)
        #: Sheets started per client address. A table starts one an evening, a club's tables
        #: behind one address a few in a minute, another program's test suite up to ten a
        #: second; a script starting hundreds a second is stopped within seconds, and at 6000
        #: an hour (each gunicorn worker counts alone with the memory storage).
        self.RATELIMIT_CREATE = env_str("RATELIMIT_CREATE", "600 per minute;6000 per hour", environ)
        #: Rounds recorded, corrected or taken back and sheets deleted, per client address: a
        #: table writes about ten times an evening, a club's twenty tables a few times a minute;
        #: a test suite or a script is held to twenty a second.
        self.RATELIMIT_WRITE = env_str("RATELIMIT_WRITE", "1200 per minute;12000 per hour", environ)
        #: A sheet nobody has changed for this many days is deleted, about once a day.
        self.SHEET_RETENTION_DAYS = env_int("SHEET_RETENTION_DAYS", 400, environ, minimum=1)
        #: One JSON line per request on the app's log (``rummy_referee.access``).
        self.ACCESS_LOG = env_bool("ACCESS_LOG", True, environ)
        #: Requests, latencies, sheets and rounds counted for ``GET /metrics``.
        self.METRICS = env_bool("METRICS", True, environ)
        #: Set by gunicorn.conf.py (or the deployment): the folder where every worker keeps its
        #: counts, which ``/metrics`` adds up; empty, each process counts alone.
        self.PROMETHEUS_MULTIPROC_DIR = env_str("PROMETHEUS_MULTIPROC_DIR", "", environ)
