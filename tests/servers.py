"""gunicorn on a free loopback port, for the tests that need a real server (storage's, the
generated client's, the example client's)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """gunicorn serving the project on a free loopback port, stopped when done."""

    def __init__(
        self,
        database_url: str,
        workers: int,
        log: Path,
        env: dict[str, str] | None = None,
        wrapper: list[str] | None = None,
    ) -> None:
        """``wrapper`` runs first and ends by executing gunicorn's command, which it is given
        after its own arguments (a mount namespace of the server's own, say)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        environ = {
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
        self._out = open(log, "wb")
        self.process = subprocess.Popen(
            [*(wrapper or []), sys.executable, "-m", "gunicorn", "wsgi:app"],
            cwd=ROOT,
            env=environ,
            stdout=self._out,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout: float = 30, path: str = "/healthz") -> None:
        """Wait until ``path`` answers 200 (a server whose database cannot take writes is
        ready when it reads: ``/v1/rulesets``)."""
        import urllib.request

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log.read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}{path}", timeout=2) as answer:
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


@contextmanager
def sqlite_server(folder: Path, env: dict[str, str] | None = None) -> Iterator[Server]:
    """One gunicorn worker on a scratch SQLite database in ``folder``, ready, stopped after."""
    server = Server(f"sqlite:///{folder / 'sheets.sqlite3'}", 1, folder / "gunicorn.log", env)
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()
