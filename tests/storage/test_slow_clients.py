"""Clients that send their requests a byte a second do not stop anybody else's.

Two such connections used to hold both sync workers. gunicorn.conf.py runs threaded workers:
here 20 slow clients send their headers or their bodies a byte a second for several seconds
while /healthz and a contract check are asked, one after the other, about four times a second;
every answer must come within 2 s. (One held behind a slow client would wait for as long as the
test lasts: at a byte a second, their requests take minutes to arrive.)
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from typing import Any

import pytest

pytestmark = pytest.mark.server

CHECK = json.dumps(
    {"ruleset": "liverpool", "round": 1, "melds": [["7H", "7S", "7D"], ["9C", "9D", "JK"]]}
).encode()
SLOW_CLIENTS = 20
SECONDS = 8
#: Each of the two is asked at least this many times, however long that takes.
PROBES = 2 * SECONDS


def send_slowly(sock: socket.socket, raw: bytes, stop: threading.Event) -> None:
    """Send ``raw`` on ``sock`` one byte a second until told to stop (or it is all sent)."""
    for byte in raw:
        if stop.wait(1.0):
            break
        try:
            sock.sendall(bytes([byte]))
        except OSError:
            break


def timed(request: urllib.request.Request) -> tuple[int, float]:
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=10) as answer:
        answer.read()
        return answer.status, time.monotonic() - started


def test_twenty_slow_clients_stop_nobody(start_server: Any, tmp_path: Any) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'sheets.sqlite3'}", 2)
    headers = (
        b"POST /v1/checks/contract HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + b"X-Padding: "
        + b"p" * 200
        + b"\r\n\r\n"
    )
    body = (
        b"POST /v1/checks/contract HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(CHECK)}\r\n\r\n".encode()
    )
    stop = threading.Event()
    opened: list[socket.socket] = []
    slow_clients = []
    for number in range(SLOW_CLIENTS):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        opened.append(sock)
        if number % 2:  # the headers at once, then the body a byte a second
            sock.sendall(body)
            sent = CHECK
        else:  # the headers a byte a second
            sent = headers
        slow_clients.append(
            threading.Thread(target=send_slowly, args=(sock, sent, stop), daemon=True)
        )
    for thread in slow_clients:
        thread.start()
    time.sleep(1.5)  # every slow client is connected and has sent its first bytes

    slowest = 0.0
    probes = 0
    deadline = time.monotonic() + SECONDS
    try:
        while time.monotonic() < deadline or probes < 2 * PROBES:
            health = urllib.request.Request(f"{server.url}/healthz")
            check = urllib.request.Request(
                f"{server.url}/v1/checks/contract",
                data=CHECK,
                headers={"Content-Type": "application/json"},
            )
            for request in (health, check):
                status, took = timed(request)
                assert status == 200
                assert took < 2, f"{request.full_url} took {took:.2f} s behind the slow clients"
                slowest = max(slowest, took)
                probes += 1
            time.sleep(0.25)
    finally:
        stop.set()
        for sock in opened:
            sock.close()
