"""What gunicorn answers on its own, before a request reaches the app: as problem documents.

gunicorn refuses some requests itself — a request line longer than ``limit_request_line``
(414), headers past ``limit_request_fields`` or ``limit_request_field_size`` (431), a request
line or header it cannot parse (400) — and writes an HTML page for each. The API promises
``application/problem+json`` for every error, so each worker writes those answers as problem
documents instead, of the same shape as :func:`api.errors.problem`'s.
"""

from __future__ import annotations

import json
import socket
from http import HTTPStatus

from gunicorn import util  # type: ignore[import-untyped]

from .errors import PROBLEM_JSON, problem_body
from .security import HEADERS


def problem_bytes(status: int, reason: str, detail: str) -> bytes:
    """A whole HTTP/1.1 response: a problem document, and the connection closed after it."""
    try:
        title = HTTPStatus(status).phrase
    except ValueError:  # a status http.HTTPStatus does not know: gunicorn's own phrase
        title = reason
    body = json.dumps(problem_body(status, title, detail or title)).encode("ascii")
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        f"Content-Type: {PROBLEM_JSON}\r\n"
        f"Content-Length: {len(body)}\r\n"
        + "".join(f"{name}: {value}\r\n" for name, value in HEADERS.items())
        + "\r\n"
    )
    return head.encode("latin-1") + body


def write_problem(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """``gunicorn.util.write_error``'s signature and job, writing a problem document."""
    util.write_nonblock(sock, problem_bytes(status_int, reason, mesg))


def answer_errors_as_problems() -> None:
    """Make this process's gunicorn write its own error answers as problem documents.

    gunicorn's workers look ``util.write_error`` up on the module each time they answer an
    error, so replacing it there is the whole change; the gunicorn settings call this in each
    worker, after the fork.
    """
    util.write_error = write_problem
