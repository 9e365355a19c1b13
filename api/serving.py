"""What gunicorn answers on its own, before a request reaches the app: as problem documents.

gunicorn refuses some requests itself — a request line longer than ``limit_request_line``
(414), headers past ``limit_request_fields`` or ``limit_request_field_size`` (431), a request
line or header it cannot parse (400) — and writes an HTML page for each. The API promises
``application/problem+json`` for every error, so the service runs gunicorn's threaded worker
as :class:`ProblemWorker` (``worker_class`` in gunicorn.conf.py; gunicorn takes any subclass of
its ``Worker`` there), whose ``handle_error`` writes those answers as problem documents of the
same shape as :func:`api.errors.problem`'s.

The detail says what kind of request it was, never the request itself: a request line can hold
a token in its query string, and neither the answer nor the log repeats it.
"""

from __future__ import annotations

import json
import re
import socket
from http import HTTPStatus
from typing import Any

from gunicorn import util
from gunicorn.http import errors
from gunicorn.workers.gthread import ThreadWorker

from .errors import PROBLEM_JSON, problem_body
from .security import HEADERS

#: The status of each kind of request gunicorn refuses; any other it cannot read is a 400.
STATUSES: dict[type[Exception], int] = {
    errors.LimitRequestLine: 414,
    errors.LimitRequestHeaders: 431,
    errors.ExpectationFailed: 417,
    errors.UnsupportedTransferCoding: 501,
    errors.ForbiddenProxyRequest: 403,
}
#: What gunicorn's worker treats as the client's fault; anything else is the server's (500).
CLIENT_ERRORS = (errors.ParseException, errors.NoMoreData)
#: gunicorn's own faults among its parse errors: a header the app tried to send.
SERVER_ERRORS = (errors.InvalidResponseHeader, errors.InvalidResponseHeaderName)


def problem_bytes(status: int, detail: str) -> bytes:
    """A whole HTTP/1.1 response: a problem document, and the connection closed after it."""
    title = HTTPStatus(status).phrase
    body = json.dumps(problem_body(status, title, detail)).encode("ascii")
    head = (
        f"HTTP/1.1 {status} {title}\r\n"
        "Connection: close\r\n"
        f"Content-Type: {PROBLEM_JSON}\r\n"
        # Written before any request header is read: in English.
        "Content-Language: en\r\n"
        "Vary: Accept-Language\r\n"
        f"Content-Length: {len(body)}\r\n"
        + "".join(f"{name}: {value}\r\n" for name, value in HEADERS.items())
        + "\r\n"
    )
    return head.encode("latin-1") + body


def kind_of(error: Exception) -> str:
    """What kind of request gunicorn could not read, in words (``InvalidRequestLine`` →
    ``invalid request line``)."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", type(error).__name__).lower()


def refusal(error: Exception) -> tuple[int, str]:
    """The status and detail of a request gunicorn refused."""
    if isinstance(error, SERVER_ERRORS) or not isinstance(error, CLIENT_ERRORS):
        return 500, "the server could not answer this request"
    status = next((code for kind, code in STATUSES.items() if isinstance(error, kind)), 400)
    return status, f"the request cannot be read as HTTP: {kind_of(error)}"


class ProblemWorker(ThreadWorker):  # type: ignore[misc]
    """gunicorn's threaded worker (``gthread``), answering what it refuses itself as problem
    documents."""

    def handle_error(self, req: Any, client: socket.socket, addr: Any, exc: Exception) -> None:
        status, detail = refusal(exc)
        if status == 500:
            self.log.exception("error handling a request")
        else:
            self.log.warning("refused a request from %s: %s", (addr or ("",))[0], kind_of(exc))
        try:
            util.write_nonblock(client, problem_bytes(status, detail))
        except Exception:  # the client went away: nothing is left to answer
            self.log.debug("failed to send error message")


__all__ = ["ProblemWorker", "problem_bytes", "refusal"]
