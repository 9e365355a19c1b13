"""Errors gunicorn answers before the app sees the request are problem documents too.

docs/api.md: "Every error is `application/problem+json` … No error ever answers HTML." gunicorn
itself refuses a request line past 4094 bytes (414), a header past 8190 bytes (431) and a
request it cannot parse (400), with an HTML page of its own unless told otherwise.
"""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest

from api.serving import problem_bytes

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


def test_the_app_still_answers_on_that_server(port: int) -> None:
    status, headers, body = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 200 and headers["content-type"] == "application/json"


def test_a_problem_keeps_gunicorns_detail_and_escapes_it() -> None:
    raw = problem_bytes(431, "Request Header Fields Too Large", 'header "X-Big" </html>')
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431 Request Header Fields Too Large\r\n")
    assert json.loads(body)["detail"] == 'header "X-Big" </html>'
    odd = json.loads(problem_bytes(599, "Odd Status", "").partition(b"\r\n\r\n")[2])
    assert odd == {
        "type": "about:blank",
        "title": "Odd Status",
        "status": 599,
        "detail": "Odd Status",
    }
