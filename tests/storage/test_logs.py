"""Every line gunicorn writes is one JSON object — its own, the app's and the access log's —
and no line holds a sheet's id, an edit token or a raw request line (docs/api.md, Logs).

One server lives through what fills a log: a start and a migration, sheets made, read and
written, refusals of the app (a wrong token, an unknown sheet, a 503 from a database file
deleted under it) and of gunicorn (request lines and headers it cannot read, each carrying a
token), a worker killed, and a stop.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
from test_sheets_servers import call, results_for

from tests.servers import Server

pytestmark = pytest.mark.server

SECRET = "s3cr3tT0k3n"


def send_raw(port: int, raw: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(raw)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


def test_every_log_line_is_json_and_holds_no_secret(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'sheets.sqlite3'}", 2, tmp_path / "gunicorn.log")
    try:
        server.wait_ready()
        status, _, sheet = call(
            server.url,
            "POST",
            "/v1/matches",
            {"ruleset": "liverpool", "players": ["A", "B", "C", "D"]},
        )
        assert status == 201
        path = f"/v1/matches/{sheet['id']}"
        token = {"Authorization": f"Bearer {sheet['edit_token']}"}
        assert call(server.url, "GET", f"{path}?token={SECRET}")[0] == 200
        wrong = {"Authorization": f"Bearer {SECRET}", "If-Match": "*"}
        assert (
            call(server.url, "PUT", f"{path}/rounds/1", {"results": results_for(1)}, wrong)[0]
            == 403
        )
        assert call(server.url, "GET", f"/v1/matches/{SECRET}")[0] == 404
        for raw in (
            f"GET /v1/rulesets?token={SECRET} HTTP/1.1 x\r\n\r\n",
            f"GET /v1/rulesets?token={SECRET} HTTP/1.1\r\nBad Header: {SECRET}\r\n\r\n",
            f"GET /{SECRET}{'a' * 5000} HTTP/1.1\r\nHost: x\r\n\r\n",
        ):
            assert b"HTTP/1.1 4" in send_raw(server.port, raw.encode())
        # The database file deleted under the service: its writes are 503s, logged.
        for leftover in tmp_path.glob("sheets.sqlite3*"):
            leftover.unlink()
        write = {**token, "If-Match": "*"}
        assert call(server.url, "PUT", f"{path}/rounds/1", {"results": results_for(1)}, write)[
            0
        ] in (
            404,
            503,
        )
        assert call(server.url, "GET", "/healthz")[0] == 503
        # A worker killed: the master says so, and starts another.
        found = subprocess.run(
            ["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True, check=True
        )
        pids = [int(pid) for pid in found.stdout.split()]
        os.kill(pids[0], signal.SIGKILL)
        time.sleep(2)
    finally:
        server.stop()
    text = server.log.read_text()
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) > 20
    for line in lines:
        record = json.loads(line)  # every line, whoever wrote it
        assert isinstance(record, dict) and "time" in record
    for secret in (sheet["id"], sheet["edit_token"], SECRET, "HTTP/1.1 x", "Bad Header"):
        assert secret not in text, secret
    assert '"level":"ERROR"' not in text or "SIGKILL" in text
    assert "was sent SIGKILL" in text or "exited" in text
