"""Fixtures for the storage tests that start servers (the databases are in tests/conftest.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.storage import Storage

ROOT = Path(__file__).resolve().parents[2]


# --- servers -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """gunicorn serving the project on a free loopback port, stopped when done."""

    def __init__(
        self, database_url: str, workers: int, log: Path, env: dict[str, str] | None = None
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "PORT": str(self.port),
            "HOST": "127.0.0.1",
            "WEB_CONCURRENCY": str(workers),
            "LOG_LEVEL": "info",
            # Racing phones by the dozen from one address: limits have tests of their own.
            "RATELIMIT_ENABLED": "0",
            **(env or {}),
        }
        self._out = open(log, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "wsgi:app"],
            cwd=ROOT,
            env=env,
            stdout=self._out,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout: float = 30) -> None:
        import urllib.request

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log.read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer in {timeout} s: {self.log.read_text()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self._out.close()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Any]:
    """Start gunicorn servers for the test; all are stopped at its end."""
    servers: list[Server] = []

    def start(
        database_url: str, workers: int = 2, wait: bool = True, env: dict[str, str] | None = None
    ) -> Server:
        server = Server(database_url, workers, tmp_path / f"gunicorn-{len(servers)}.log", env)
        servers.append(server)
        if wait:
            server.wait_ready()
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One gunicorn worker on a scratch SQLite database, shared by a module's tests."""
    folder = tmp_path_factory.mktemp("server")
    server = Server(f"sqlite:///{folder / 'sheets.sqlite'}", 1, folder / "gunicorn.log")
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


# --- storage without the web --------------------------------------------------------------------


@pytest.fixture(scope="session")
def storage(database_url: str) -> Iterator[Storage]:
    """The storage package on each database in turn, with no Flask app around it."""
    bound = Storage(database_url)
    yield bound
    bound.dispose()
