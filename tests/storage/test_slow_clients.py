"""A crowd of idle and slow connections costs the service nothing: the embedded default
(``bin/serve``: gunicorn, two workers, no proxy) answers everybody else at once.

A table of phones on a flaky Wi-Fi opens connections it never uses and sends requests that
arrive a byte at a time. gunicorn's threaded worker gave each new connection a thread that
waited up to 5 s for its first byte, and a slow request kept its thread until it had arrived:
64 idle sockets, or 100 slow clients, and a contract check waited 15 s. The service's worker
(api.serving.ProblemWorker) reads each request whole in its main loop before any thread is
given it. Here 200 connections stay idle and 100 clients send their headers or their bodies a
byte a second while a contract check and /healthz are asked four times a second; every answer
must come well under a second. A request that stops arriving is answered once it has been
silent for REQUEST_READ_TIMEOUT seconds: 408 when its head never arrived whole, 400 for a body
shorter than its Content-Length (tests/storage/test_input_edges.py); a connection that never
said anything is closed.
"""

from __future__ import annotations

import json
import socket
import statistics
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.servers import Server

pytestmark = pytest.mark.server

CHECK = json.dumps(
    {"ruleset": "liverpool", "round": 1, "melds": [["7H", "7S", "7D"], ["9C", "9D", "JK"]]}
).encode()
IDLE = 200
TRICKLING = 100
SECONDS = 8
#: Each of the two is asked at least this many times, however long that takes.
PROBES = 2 * SECONDS
#: "Well under a second", with room for a shared, noisy machine.
PROMPT = 1.0
HEAD = b"POST /v1/checks/contract HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The embedded default: two workers on SQLite, with bin/serve's settings."""
    folder = tmp_path_factory.mktemp("crowd")
    # Short silences, so that the test of them is short too.
    started = Server(
        f"sqlite:///{folder / 'sheets.sqlite3'}",
        2,
        folder / "gunicorn.log",
        {"REQUEST_READ_TIMEOUT": "2"},
    )
    try:
        started.wait_ready()
        yield started
    finally:
        started.stop()


def timed(request: urllib.request.Request) -> tuple[int, float]:
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=30) as answer:
        answer.read()
        return answer.status, time.monotonic() - started


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=30)


def trickle(sockets: list[tuple[socket.socket, bytes]], stop: threading.Event) -> None:
    """Send each socket's bytes one a second, all sockets at once, until told to stop."""
    sent = 0
    while not stop.wait(1.0):
        for sock, raw in sockets:
            if sent < len(raw):
                try:
                    sock.sendall(raw[sent : sent + 1])
                except OSError:
                    pass
        sent += 1


def test_idle_and_trickling_crowds_leave_everybody_else_answered(server: Server) -> None:
    headers = HEAD + b"X-Padding: " + b"p" * 200 + b"\r\n\r\n"
    body_head = HEAD + f"Content-Length: {len(CHECK)}\r\n\r\n".encode()
    opened: list[socket.socket] = []
    trickling: list[tuple[socket.socket, bytes]] = []
    stop = threading.Event()
    try:
        for _ in range(IDLE):
            opened.append(connect(server.port))
        for number in range(TRICKLING):
            sock = connect(server.port)
            opened.append(sock)
            if number % 2:  # the head at once, then the body a byte a second
                sock.sendall(body_head)
                trickling.append((sock, CHECK))
            else:  # the head a byte a second
                trickling.append((sock, headers))
        sender = threading.Thread(target=trickle, args=(trickling, stop), daemon=True)
        sender.start()
        time.sleep(1.5)  # every slow client has sent its first bytes

        took: list[float] = []
        deadline = time.monotonic() + SECONDS
        while time.monotonic() < deadline or len(took) < 2 * PROBES:
            health = urllib.request.Request(f"{server.url}/healthz")
            check = urllib.request.Request(
                f"{server.url}/v1/checks/contract",
                data=CHECK,
                headers={"Content-Type": "application/json"},
            )
            for request in (health, check):
                status, seconds = timed(request)
                assert status == 200
                took.append(seconds)
            time.sleep(0.25)
    finally:
        stop.set()
        for sock in opened:
            sock.close()
    slowest, median = max(took), statistics.median(took)
    figures = f"{len(took)} answers, median {median * 1000:.1f} ms, slowest {slowest * 1000:.1f} ms"
    assert slowest < PROMPT, f"behind {IDLE} idle and {TRICKLING} slow clients: {figures}"


def first_answer(sock: socket.socket) -> bytes:
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def test_a_head_that_stops_arriving_is_a_408_and_silence_is_closed(server: Server) -> None:
    with connect(server.port) as silent, connect(server.port) as halfway:
        halfway.sendall(HEAD[:20])
        started = time.monotonic()
        answer = first_answer(halfway)
        took = time.monotonic() - started
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 "), answer
        assert b"Content-Type: application/problem+json" in head
        problem: dict[str, Any] = json.loads(body)
        assert problem["status"] == 408 and problem["detail"]
        assert b"checks/contract" not in body  # what was sent is never repeated
        assert 1.5 < took < 2 + 3, f"answered after {took:.1f} s of silence"
        assert first_answer(silent) == b""  # closed, nothing said
