"""The API as another app meets it: gunicorn on a loopback port, and the checked-in document."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.servers import Server, sqlite_server


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One gunicorn worker on a scratch SQLite database, shared by a module's tests."""
    with sqlite_server(tmp_path_factory.mktemp("client-server")) as server:
        yield server
