"""The API as another app meets it: gunicorn on a loopback port, and the checked-in document."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.servers import Server


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One gunicorn worker on a scratch SQLite database, shared by a module's tests."""
    folder = tmp_path_factory.mktemp("client-server")
    server = Server(f"sqlite:///{folder / 'sheets.sqlite3'}", 1, folder / "gunicorn.log")
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()
