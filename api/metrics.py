"""``GET /metrics``: Prometheus text, right however many gunicorn workers serve the app.

prometheus-client keeps each worker's counts in files of ``PROMETHEUS_MULTIPROC_DIR`` when that
is set (``gunicorn.conf.py`` makes the folder, empties it at start and marks dead workers), and
``/metrics`` then adds up every worker's files: whichever worker answers, the counts are the
service's. Without it (``flask run``, tests in one process) the counts are the process's own.

Labels are route templates (``/v1/matches/<match_id>``), methods and statuses: a bounded set,
and never a sheet id or a token.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
from prometheus_client.mmap_dict import MmapedDict

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


#: The kinds of file a worker keeps whose counts outlive it: summed into the folder's archive.
KEPT_KINDS = ("counter", "histogram", "summary")


@contextmanager
def _folder_lock(folder: Path, *, exclusive: bool) -> Iterator[None]:
    """Readers of the folder (``/metrics``) share it; the archiving of a dead worker's files
    takes it alone, so that no reading sees a count twice or not at all."""
    with open(folder / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def archive_dead_worker(folder: Path, pid: int) -> None:
    """Add a dead worker's counts into the folder's archive files and remove its own.

    prometheus-client keeps a file per kind per worker and sums them all on every
    ``/metrics``; a worker restarted a hundred times would leave a hundred files. Run by
    gunicorn's master when a worker exits (``child_exit``): the folder holds the live workers'
    files and one archive per kind, and the sums stay what they were.
    """
    with _folder_lock(folder, exclusive=True):
        for kind in KEPT_KINDS:
            dead = folder / f"{kind}_{pid}.db"
            if not dead.exists():
                continue
            archive = MmapedDict(str(folder / f"{kind}_archive.db"))  # type: ignore[no-untyped-call]
            try:
                for key, value, timestamp, _ in MmapedDict.read_all_values_from_file(str(dead)):  # type: ignore[no-untyped-call]
                    kept, _ = archive.read_value(key)  # type: ignore[no-untyped-call]
                    archive.write_value(key, kept + value, timestamp)  # type: ignore[no-untyped-call]
            finally:
                archive.close()  # type: ignore[no-untyped-call]
            dead.unlink()


blp = Blueprint("metrics", __name__)


@blp.get("/metrics")
def serve_metrics() -> Response:
    """Every worker's counts added up when they are kept in files, else this process's."""
    folder = current_app.config.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        text = generate_latest(REGISTRY)
    else:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        with _folder_lock(Path(folder), exclusive=False):
            text = generate_latest(registry)
    return Response(text, mimetype=None, content_type=CONTENT_TYPE_LATEST)


__all__ = ["archive_dead_worker", "blp", "observe_request", "round_recorded", "sheet_created"]
