"""The edges of HTTP input, sent as raw bytes to gunicorn: each a clean problem document.

docs/api.md, Errors: bad input never yields a 500, a hang or HTML. A malformed chunked body is a
400; a chunked body past MAX_CONTENT_LENGTH a 413 (not a body cut short and called invalid
JSON); a Content-Length longer than the body sent a 400 once the body has been silent for
REQUEST_READ_TIMEOUT seconds, never a thread held until the worker times out; a sheet id with
a NUL byte a 404 on either database.
"""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import pytest
from flask.testing import FlaskClient

pytestmark = pytest.mark.server

CHECK = b'{"ruleset": "liverpool", "cards": ["7H", "7S", "7D"]}'
HEAD = b"POST /v1/checks/meld HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"


def chunked(*chunks: bytes, raw_sizes: list[bytes] | None = None) -> bytes:
    body = b""
    for index, chunk in enumerate(chunks):
        size = raw_sizes[index] if raw_sizes else f"{len(chunk):x}".encode()
        body += size + b"\r\n" + chunk + b"\r\n"
    return HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + body + b"0\r\n\r\n"


def first_answer(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes, float]:
    """Send ``raw``; the first answer's status, headers and body, and the seconds it took."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(raw)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = sock.recv(65536)
            assert chunk, f"the connection closed without an answer: {received!r}"
            received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        status_line, *lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        while len(body) < int(headers["content-length"]):
            chunk = sock.recv(65536)
            assert chunk
            body += chunk
    return int(status_line.split()[1]), headers, body, time.monotonic() - started


def a_problem(answer: tuple[int, dict[str, str], bytes, float], status: int) -> dict[str, Any]:
    answered, headers, body, _ = answer
    assert answered == status, body
    assert headers["content-type"] == "application/problem+json"
    problem: dict[str, Any] = json.loads(body)
    assert problem["status"] == status and problem["type"] == "about:blank" and problem["detail"]
    return problem


@pytest.fixture
def port(sqlite_server: Any) -> int:
    return int(sqlite_server.port)


def test_a_well_formed_chunked_body_is_read(port: int) -> None:
    answer = first_answer(port, chunked(CHECK[:10], CHECK[10:]))
    assert answer[0] == 200 and json.loads(answer[2])["valid"] is True


@pytest.mark.parametrize(
    "sizes", [[b"zz"], [b"-1"], [b"1;" + b"x" * 9000]], ids=["not hex", "negative", "long ext"]
)
def test_a_malformed_chunked_body_is_a_400(port: int, sizes: list[bytes]) -> None:
    problem = a_problem(first_answer(port, chunked(CHECK, raw_sizes=sizes)), 400)
    assert "not valid JSON" not in problem["detail"]


def test_a_chunked_body_past_the_limit_is_a_413(port: int) -> None:
    big = b'{"ruleset": "liverpool", "cards": ["' + b"7H" * 140_000 + b'"]}'
    problem = a_problem(first_answer(port, chunked(big[:100_000], big[100_000:])), 413)
    assert "262144 bytes" in problem["detail"]


def test_a_chunked_body_of_exactly_the_limit_is_not_refused_as_too_large(port: int) -> None:
    padding = b" " * (262144 - len(CHECK))
    answer = first_answer(port, chunked(CHECK + padding))
    assert answer[0] == 200, answer[2]


def test_a_body_shorter_than_its_content_length_is_a_400_within_seconds(port: int) -> None:
    answer = first_answer(port, HEAD + b"Content-Length: 500\r\n\r\n" + CHECK)
    problem = a_problem(answer, 400)
    assert "Content-Length" in problem["detail"]
    assert answer[3] < 5 + 3, f"answered after {answer[3]:.1f} s"


def test_a_body_cut_short_is_refused_in_the_readers_language(port: int) -> None:
    """The worker answers it before the app sees the request, in the app's words."""
    german = HEAD.replace(b"Host: x\r\n", b"Host: x\r\nAccept-Language: de-AT\r\n")
    answer = first_answer(port, german + b"Content-Length: 500\r\n\r\n" + CHECK)
    problem = a_problem(answer, 400)
    assert answer[1]["content-language"] == "de"
    assert (
        problem["detail"]
        == "der Inhalt der Anfrage endete vor seiner Content-Length oder stockte 5 s lang"
    )


def test_the_server_answers_others_meanwhile(port: int) -> None:
    stalled = socket.create_connection(("127.0.0.1", port), timeout=20)
    try:
        stalled.sendall(HEAD + b"Content-Length: 500\r\n\r\n{")
        answer = first_answer(port, chunked(CHECK))
        # Waiting behind the stalled body would take REQUEST_READ_TIMEOUT (5 s).
        assert answer[0] == 200 and answer[3] < 2
    finally:
        stalled.close()


@pytest.mark.parametrize("path", ["/v1/matches/ab%00cd", "/v1/matches/%00", "/m/ab%00cd"])
def test_a_nul_byte_in_a_sheet_id_is_a_404_from_gunicorn(port: int, path: str) -> None:
    raw = f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n".encode()
    answered, headers, _, _ = first_answer(port, raw)
    assert answered == 404
    if path.startswith("/v1/"):
        assert headers["content-type"] == "application/problem+json"


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
def test_a_nul_byte_in_a_sheet_id_is_a_404_on_both_databases(
    backend_client: FlaskClient, method: str
) -> None:
    path = "/v1/matches/ab\x00cd" + ("/rounds/1" if method == "PUT" else "")
    body = {"results": [{"seat": 0, "went_out": True}]} if method == "PUT" else None
    answer = backend_client.open(
        path, method=method, json=body, headers={"Authorization": "Bearer some-token"}
    )
    assert answer.status_code == 404 and answer.mimetype == "application/problem+json"
