"""What operations sees of each request: a request id, one JSON access-log line, and metrics.

* ``X-Request-Id``: taken from the request when it is sane (1 to 128 letters, digits and
  ``._:/+=-``, so that it can be logged and echoed as it is), made otherwise, and returned on
  every answer the app makes; a 500's log line names it too.
* The access log (``ACCESS_LOG``): one JSON object per request on the ``rummy_referee.access``
  logger — time, method, route template (``/v1/matches/<match_id>``, never the path: a path
  holds sheet ids, and a query string or a header may hold a token), status, duration in
  milliseconds and the request id.
* Metrics (``METRICS``, :mod:`api.metrics`): requests by route template, method and status, their
  latency, sheets created and rounds recorded, served at ``GET /metrics``.

Both hooks are plain Flask ``before_request``/``after_request`` functions, registered first so
that a refusal made in another hook (a 429) is still timed, counted and logged.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import uuid
from collections.abc import Callable
from time import perf_counter

from flask import Flask, Response, request

from . import metrics

#: The environ keys the request id and the start time are kept under for the request.
REQUEST_ID = "rummy_referee.request_id"
STARTED = "rummy_referee.started"
#: What a route is called when no route matched (a 404 or 405 before any view).
UNMATCHED = "<unmatched>"

_SANE_ID = re.compile(r"[A-Za-z0-9._:/+=-]{1,128}")

access_log = logging.getLogger("rummy_referee.access")


def request_id() -> str:
    """The current request's id (made on first use outside the hooks, for a CLI's request)."""
    environ = request.environ
    found: str | None = environ.get(REQUEST_ID)
    if found is None:
        found = environ[REQUEST_ID] = _given_or_new(environ.get("HTTP_X_REQUEST_ID"))
    return found


def _given_or_new(given: str | None) -> str:
    if given is not None and _SANE_ID.fullmatch(given):
        return given
    return uuid.uuid4().hex


def _start() -> None:
    environ = request.environ
    environ[STARTED] = perf_counter()
    environ[REQUEST_ID] = _given_or_new(environ.get("HTTP_X_REQUEST_ID"))


def _finisher(log: bool, count: bool) -> Callable[[Response], Response]:
    def finish(response: Response) -> Response:
        environ = request.environ
        seconds = perf_counter() - environ.get(STARTED, perf_counter())
        ident = request_id()
        response.headers["X-Request-Id"] = ident
        rule = request.url_rule
        route = rule.rule if rule is not None else UNMATCHED
        status = response.status_code
        if count:
            metrics.observe_request(route, request.method, status, seconds)
        if log:
            # Written by hand, not json.dumps (a third of the line's cost): every value is
            # safe as it stands — a route template of this app, a sane or made request id, a
            # number — except a method, which only the framework's parser has checked.
            method = request.method
            if not method.isalpha():
                method = json.dumps(method)[1:-1]
            access_log.info(
                f'{{"time": {time.time():.3f}, "method": "{method}", "route": "{route}",'
                f' "status": {status}, "duration_ms": {seconds * 1000:.3f},'
                f' "request_id": "{ident}"}}'
            )
        return response

    return finish


def _log_to_stderr() -> None:
    """The access log as bare JSON lines on stderr (gunicorn's error log), unless the
    deployment has configured the logger itself."""
    if access_log.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    access_log.addHandler(handler)
    access_log.setLevel(logging.INFO)
    access_log.propagate = False


def init_app(app: Flask) -> None:
    """Called before any other extension adds hooks, so these run first and see every answer."""
    log = bool(app.config["ACCESS_LOG"])
    count = bool(app.config["METRICS"])
    if log:
        _log_to_stderr()
    app.before_request(_start)
    app.after_request(_finisher(log, count))
    if count:
        app.register_blueprint(metrics.blp)


__all__ = ["REQUEST_ID", "UNMATCHED", "access_log", "init_app", "request_id"]
