"""Errors gunicorn answers before the app sees the request are problem documents too.

docs/api.md: "Every error is `application/problem+json` … No error ever answers HTML." gunicorn
itself refuses a request line past 4094 bytes (414), a header past 8190 bytes (431) and a
request it cannot parse (400), with an HTML page of its own; the service's worker class
(api.serving.ProblemWorker) writes a problem document instead, which says what kind of request
it was and never repeats it.
"""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest
from gunicorn.http import errors

from api.serving import problem_bytes, refusal

pytestmark = pytest.mark.server


def exchange(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``raw`` on a fresh connection; the status, headers and body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(raw)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers, body


@pytest.fixture
def port(sqlite_server: Any) -> int:
    return int(sqlite_server.port)


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"GET /v1/rulesets/" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        (
            b"POST /v1/checks/meld HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n",
            431,
        ),
        (b"GARBAGE\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n", 400),
    ],
    ids=["uri too long", "header too large", "no request line", "malformed header"],
)
def test_gunicorns_own_refusals_are_problem_documents(port: int, raw: bytes, status: int) -> None:
    answered, headers, body = exchange(port, raw)
    assert answered == status
    assert headers["content-type"] == "application/problem+json"
    assert headers["content-language"] == "en" and headers["vary"] == "Accept-Language"
    assert int(headers["content-length"]) == len(body)
    problem = json.loads(body)
    assert problem["status"] == status and problem["type"] == "about:blank"
    assert problem["title"] and problem["detail"]
    assert b"<html" not in body.lower()
    # What was sent is never repeated: a request line can hold a token in its query string.
    assert b"aaaa" not in body and b"bbbb" not in body and b"GARBAGE" not in body


def test_the_app_still_answers_on_that_server(port: int) -> None:
    status, headers, body = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 200 and headers["content-type"] == "application/json"


def test_a_problem_document_has_the_shape_of_the_apps() -> None:
    raw = problem_bytes(431, 'header "X-Big" </html>')
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431 Request Header Fields Too Large\r\n")
    assert json.loads(body) == {
        "type": "about:blank",
        "title": "Request Header Fields Too Large",
        "status": 431,
        "detail": 'header "X-Big" </html>',
    }


@pytest.mark.parametrize(
    ("error", "status", "detail"),
    [
        (errors.LimitRequestLine(5000, 4094), 414, "limit request line"),
        (errors.LimitRequestHeaders("too many"), 431, "limit request headers"),
        (errors.InvalidRequestLine("GET /?token=s3cr3t"), 400, "invalid request line"),
        (errors.InvalidHeaderName("Bad Header"), 400, "invalid header name"),
        (errors.InvalidResponseHeaderName("x"), 500, "the server could not answer"),
        (RuntimeError("a bug"), 500, "the server could not answer"),
    ],
)
def test_each_refusal_says_what_kind_of_request_it_was(
    error: Exception, status: int, detail: str
) -> None:
    assert refusal(error)[0] == status
    assert detail in refusal(error)[1]
    assert "s3cr3t" not in refusal(error)[1]
