"""What operations sees of each request: a request id, one JSON access-log line, and metrics.

* ``X-Request-Id``: taken from the request when it is sane (1 to 128 letters, digits and
  ``._:/+=-``, so that it can be logged and echoed as it is), made otherwise, and returned on
  every answer; a 500's log line names it too.
* The access log (``ACCESS_LOG``): one JSON object per request on the ``rummy_referee.access``
  logger — time, method, route template (``/v1/matches/<match_id>``, never the path: a path
  holds sheet ids, and a query string or a header may hold a token), status, duration in
  milliseconds and the request id — written by python-json-logger's formatter.
* Metrics (``METRICS``, :mod:`api.metrics`): requests by route template, method and status, their
  latency, sheets created and rounds recorded, served at ``GET /metrics``.

The id is made in a ``before_request`` hook and the rest is done in an ``after_request`` hook,
which Flask runs for every answer it makes: a refusal made in another hook (a 429), a 404 before
any view, and an error's problem document included.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from time import perf_counter

from flask import Flask, Response, g, request
from pythonjsonlogger.orjson import OrjsonFormatter

from . import metrics

#: What a route is called when no route matched (a 404 or 405 before any view).
UNMATCHED = "<unmatched>"

_SANE_ID = re.compile(r"[A-Za-z0-9._:/+=-]{1,128}")

access_log = logging.getLogger("rummy_referee.access")


def route() -> str:
    """The current request's route template (``/v1/matches/<string:match_id>``): what a log
    line names, never the path, which holds sheet ids."""
    rule = request.url_rule
    return rule.rule if rule is not None else UNMATCHED


def request_id() -> str:
    """The current request's id (made on first use outside the hooks, for a CLI's request)."""
    found: str | None = g.get("request_id")
    if found is None:
        found = g.request_id = _given_or_new(request.environ.get("HTTP_X_REQUEST_ID"))
    return found


def _given_or_new(given: str | None) -> str:
    if given is not None and _SANE_ID.fullmatch(given):
        return given
    return os.urandom(16).hex()  # as random as a uuid4


def start_request() -> None:
    g.request_started = perf_counter()
    request_id()


def formatter() -> logging.Formatter:
    """One JSON object per line: the record's time, then the fields of the request."""
    return OrjsonFormatter(["created"], rename_fields={"created": "time"})


def _log_to_stderr() -> None:
    """The access log as JSON lines on stderr (gunicorn's error log), unless the deployment
    has configured the logger itself."""
    if access_log.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter())
    access_log.addHandler(handler)
    access_log.setLevel(logging.INFO)
    access_log.propagate = False


def init_app(app: Flask) -> None:
    """Give every request its id; count and log every answer, as the settings say."""
    log, count = bool(app.config["ACCESS_LOG"]), bool(app.config["METRICS"])
    if log:
        _log_to_stderr()
    if count:
        app.register_blueprint(metrics.blp)

    def finish_request(response: Response) -> Response:
        response.headers["X-Request-Id"] = request_id()
        started = g.get("request_started")
        if started is None:
            return response
        seconds = perf_counter() - started
        template = route()
        if count:
            metrics.observe_request(template, request.method, response.status_code, seconds)
        if log:
            access_log.info(
                "%s %s %s",
                request.method,
                template,
                response.status_code,
                extra={
                    "method": request.method,
                    "route": template,
                    "status": response.status_code,
                    "duration_ms": round(seconds * 1000, 3),
                    "request_id": request_id(),
                },
            )
        return response

    app.before_request(start_request)
    app.after_request(finish_request)


__all__ = ["UNMATCHED", "access_log", "formatter", "init_app", "request_id", "route"]
