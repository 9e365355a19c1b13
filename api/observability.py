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

All three are the WSGI middleware :class:`Observed`, which sees every answer the app makes (a
refusal made in a hook, a 429, included).
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
from collections.abc import Callable, Iterable
from time import perf_counter
from typing import TYPE_CHECKING, Any

from flask import Flask, has_request_context, request

from . import metrics

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: The environ keys the request id and the start time are kept under for the request.
REQUEST_ID = "rummy_referee.request_id"
#: The environ key of the route template, where an answer is made outside Flask's routing
#: (:mod:`api.fastjson.lane`).
ROUTE = "rummy_referee.route"
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
    return os.urandom(16).hex()  # as random as a uuid4, without building one


class Observed:
    """WSGI middleware around the app: the request id, then the metrics and the access-log
    line once the answer is made.

    At the WSGI layer rather than as Flask hooks: it sees every answer (a refusal made in a
    hook, a 429, included), and the id goes straight into the list of headers the server
    sends — through werkzeug's ``Headers`` in an ``after_request`` hook the three cost a
    contract check a sixth of its time. The route template is read while the request is
    still current, when the answer starts.
    """

    def __init__(self, wsgi_app: WSGIApplication, *, log: bool, count: bool) -> None:
        self.wsgi_app = wsgi_app
        self.log = log
        self.count = count

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        started = perf_counter()
        ident = environ[REQUEST_ID] = _given_or_new(environ.get("HTTP_X_REQUEST_ID"))
        answered: list[tuple[str, int]] = []

        def start(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Callable[[bytes], object]:
            headers.append(("X-Request-Id", ident))
            route = environ.get(ROUTE)
            if route is None:
                rule = request.url_rule if has_request_context() else None
                route = rule.rule if rule is not None else UNMATCHED
            answered[:] = [(route, int(status[:3]))]
            return start_response(status, headers, exc_info)

        body = self.wsgi_app(environ, start)
        if answered:
            route, code = answered[0]
            self.finish(environ.get("REQUEST_METHOD", ""), route, code, ident, started)
        return body

    def finish(self, method: str, route: str, status: int, ident: str, started: float) -> None:
        seconds = perf_counter() - started
        if self.count:
            metrics.observe_request(route, method, status, seconds)
        if self.log and access_log.isEnabledFor(logging.INFO):
            # Written by hand, not json.dumps (a third of the line's cost): every value is
            # safe as it stands — a route template of this app, a sane or made request id, a
            # number — except a method, which only the framework's parser has checked.
            if not method.isalpha():
                method = json.dumps(method)[1:-1]
            line = (
                f'{{"time": {time.time():.3f}, "method": "{method}", "route": "{route}",'
                f' "status": {status}, "duration_ms": {seconds * 1000:.3f},'
                f' "request_id": "{ident}"}}'
            )
            # A record made directly: the logger's own info() first looks for its caller in
            # the stack, which no access line names.
            access_log.handle(
                access_log.makeRecord(access_log.name, logging.INFO, "", 0, line, (), None)
            )


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
    """Serve ``/metrics`` and set up the access log, as the settings say."""
    if app.config["ACCESS_LOG"]:
        _log_to_stderr()
    if app.config["METRICS"]:
        app.register_blueprint(metrics.blp)


def middleware(app: Flask, wsgi_app: WSGIApplication) -> Observed:
    """:class:`Observed` around ``wsgi_app``, as the app's settings say."""
    return Observed(wsgi_app, log=bool(app.config["ACCESS_LOG"]), count=bool(app.config["METRICS"]))


__all__ = [
    "REQUEST_ID",
    "ROUTE",
    "UNMATCHED",
    "Observed",
    "access_log",
    "init_app",
    "middleware",
    "request_id",
]
