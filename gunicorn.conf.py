"""gunicorn's settings, read from the repository root, so that ``gunicorn wsgi:app`` is the
whole command.

HOST and PORT choose the address (default 127.0.0.1:8000: a deployment that must listen on
every interface says HOST=0.0.0.0), WEB_CONCURRENCY the number of worker processes (default 2),
LOG_LEVEL gunicorn's own logging.

Workers are threaded (gunicorn's ``gthread``, WEB_THREADS threads each, default 32), as
:class:`api.serving.ProblemWorker`, which answers what gunicorn refuses itself as problem
documents: a sync worker is held for as long as one client takes to send its request, so two
clients sending their headers a byte a second stopped the service. A thread is committed to a
connection only once its first bytes arrive, so a few dozen slow clients leave threads free for
everyone else. On the open internet a buffering reverse proxy in front (README, "Behind a
reverse proxy") takes the slow clients instead.

FORWARDED_ALLOW_IPS names the proxies whose X-Forwarded-* headers are believed; unlike gunicorn's
own default (loopback) it is empty here, so nobody's are unless a proxy is configured
(``api.clients`` reads the same variable for the client's address).

gunicorn's control socket (``gunicornc``) is off: its default path is one per user, shared by
every instance that user starts. GUNICORN_CONTROL_SOCKET names a path of this instance's own to
turn it on.
"""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "api.serving.ProblemWorker"
threads = int(os.environ.get("WEB_THREADS", "32"))
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "")
# Checks take microseconds; a request still running after this long is stuck.
timeout = 30
graceful_timeout = 10
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
errorlog = "-"
# Every line on stderr is one JSON object — gunicorn's own, the app's (Flask's logger, which
# adds no handler of its own when the root has one) and the access log (api.observability) —
# so that a log shipper reads them all one way. gunicorn's own access log says nothing: it would
# repeat each request's path and query (sheet ids, a token) where the app's says the route.
_JSON = {
    "()": "pythonjsonlogger.orjson.OrjsonFormatter",
    "fmt": ["created", "levelname", "name", "process", "message"],
    "rename_fields": {"created": "time", "levelname": "level", "name": "logger"},
}
_STDERR = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": _JSON},
    "handlers": {"stderr": _STDERR, "nowhere": {"class": "logging.NullHandler"}},
    "root": {"level": loglevel.upper(), "handlers": ["stderr"]},
    "loggers": {
        "gunicorn.error": {"level": loglevel.upper(), "handlers": ["stderr"], "propagate": False},
        "gunicorn.access": {"handlers": ["nowhere"], "propagate": False},
    },
}
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True

# Metrics (api/metrics.py): each worker keeps its counts in files of one folder, which /metrics
# adds up. Set here, before any worker imports prometheus-client, so every process of this
# server agrees; a folder the deployment names is emptied at start, one made here is removed
# when the server stops, however it stops (a failed start included).
_made_metrics_dir = not os.environ.get("PROMETHEUS_MULTIPROC_DIR")
if _made_metrics_dir:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="rummy-referee-metrics-")
_metrics_dir = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
# Rate limits (api/limits.py): without Redis, every worker of this instance counts in one SQLite
# file beside the metrics, so a limit is the instance's and X-RateLimit-Remaining says so.
os.environ.setdefault(
    "RATELIMIT_STORAGE_URI", f"sqlite-counts://{_metrics_dir / 'rate-limits.sqlite3'}"
)
_master = os.getpid()


def _remove_metrics_dir() -> None:
    # Workers are forked from the master and exit through it too: only the master removes.
    if _made_metrics_dir and os.getpid() == _master:
        shutil.rmtree(_metrics_dir, ignore_errors=True)


atexit.register(_remove_metrics_dir)


def on_starting(server: object) -> None:
    """Create or migrate the database schema once, in the master, before any worker starts.

    Several instances starting against one database queue on a lock in
    ``api.storage.migrate``; workers never migrate, so no request meets a half-made schema.
    """
    _metrics_dir.mkdir(parents=True, exist_ok=True)
    for stale in [*_metrics_dir.glob("*.db"), *_metrics_dir.glob("rate-limits.sqlite3*")]:
        stale.unlink()  # a previous run's counts are not this one's

    from api import create_app
    from api.storage import migrate

    app = create_app()
    try:
        migrated = migrate(app.config["DATABASE_URL"])
    finally:
        app.extensions["database"].dispose()  # no connection may cross the fork
    log = server.log  # type: ignore[attr-defined]
    log.info("the workers' metrics are kept in %s", _metrics_dir)
    if migrated is None:
        log.info("the database schema is up to date")
    else:
        log.info("migrated the database schema from %s to %s", *migrated)


def child_exit(server: object, worker: object) -> None:
    """A dead worker's live gauges are dropped; its counters and histograms are added into the
    folder's archive and its files removed, so the folder does not grow with every restart."""
    from prometheus_client import multiprocess

    from api.metrics import archive_dead_worker

    multiprocess.mark_process_dead(worker.pid)  # type: ignore[attr-defined]
    archive_dead_worker(_metrics_dir, worker.pid)  # type: ignore[attr-defined]


def on_exit(server: object) -> None:
    _remove_metrics_dir()
