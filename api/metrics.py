"""``GET /metrics``: Prometheus text, right however many gunicorn workers serve the app.

prometheus-client keeps each worker's counts in files of ``PROMETHEUS_MULTIPROC_DIR`` when that
is set (``gunicorn.conf.py`` makes the folder, empties it at start and marks dead workers), and
``/metrics`` then adds up every worker's files: whichever worker answers, the counts are the
service's. Without it (``flask run``, tests in one process) the counts are the process's own.

Labels are route templates (``/v1/matches/<match_id>``), methods and statuses: a bounded set,
and never a sheet id or a token.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

REQUESTS = Counter(
    "rummy_http_requests",
    "HTTP requests answered, by route template, method and status.",
    ["route", "method", "status"],
)
LATENCY = Histogram(
    "rummy_http_request_duration_seconds",
    "Time from the request's arrival in the app to its answer, by route template.",
    ["route"],
    # A check takes well under a millisecond; a write waits on the database.
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
SHEETS_CREATED = Counter("rummy_sheets_created", "Match sheets started.")
ROUNDS_RECORDED = Counter("rummy_rounds_recorded", "Rounds recorded or corrected on a sheet.")

# labels() takes a lock and builds a key on every call; the children are kept here instead,
# one per (route, method, status) seen, a bounded set.
_requests: dict[tuple[str, str, int], Counter] = {}
_latency: dict[str, Histogram] = {}


#: Any other method is counted as "other": a client may send any token as a method, and each
#: label value would be a series for ever.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def observe_request(route: str, method: str, status: int, seconds: float) -> None:
    if method not in METHODS:
        method = "other"
    key = (route, method, status)
    counter = _requests.get(key)
    if counter is None:
        counter = _requests[key] = REQUESTS.labels(route, method, str(status))
    counter.inc()
    histogram = _latency.get(route)
    if histogram is None:
        histogram = _latency[route] = LATENCY.labels(route)
    histogram.observe(seconds)


def sheet_created() -> None:
    SHEETS_CREATED.inc()


def round_recorded() -> None:
    ROUNDS_RECORDED.inc()


blp = Blueprint("metrics", __name__)


@blp.get("/metrics")
def serve_metrics() -> Response:
    """Every worker's counts added up when they are kept in files, else this process's."""
    if current_app.config.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry = REGISTRY
    return Response(generate_latest(registry), mimetype=None, content_type=CONTENT_TYPE_LATEST)


__all__ = ["blp", "observe_request", "round_recorded", "sheet_created"]
