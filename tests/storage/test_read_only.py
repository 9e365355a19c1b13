"""A read-only SQLite — its file, or its whole folder — is served for reading: the service
starts, reads sheets and answers the checks, and refuses every write with a 503 that says the
database is read-only (docs/api.md, Errors).

It used to stop the start (the migration's lock file could not be made), so not even reads
were served. The test runs as root, whom file modes do not stop: the server runs in a mount
namespace of its own (``unshare -m``) where the file or the folder is bind-mounted read-only,
as a read-only disk or a backup served where it lies would be; nothing outside it changes.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from test_sheets_servers import call

from api.storage import Storage, migrate, sheets
from rules import find_ruleset
from tests.servers import Server

pytestmark = pytest.mark.server

ROUND = {
    "results": [{"seat": 0, "went_out": True}, {"seat": 1, "points": 25}, {"seat": 2, "points": 5}]
}
READ_ONLY = "the database is read-only: sheets can be read, not changed"


def read_only_mount(target: Path) -> list[str]:
    """The command that runs gunicorn with ``target`` mounted read-only, or a skip."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1) to make a mount namespace")
    if subprocess.run(["unshare", "-m", "true"], check=False).returncode != 0:
        pytest.skip("this user may not make a mount namespace")
    script = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" && exec "$@"'
    return ["unshare", "-m", "sh", "-c", script, str(target)]


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_sqlite_serves_reads_and_refuses_writes(tmp_path: Path, what: str) -> None:
    folder = tmp_path / "data"
    path = folder / "sheets.sqlite3"
    url = f"sqlite:///{path}"
    migrate(url)
    storage = Storage(url)
    with storage.transaction(write=True) as connection:
        sheet, token = sheets.create(
            connection, find_ruleset("liverpool"), ["Ann", "Bob", "Cleo"], 0
        )
    storage.dispose()
    wrapper = read_only_mount(path if what == "file" else folder)
    server = Server(url, 2, tmp_path / "gunicorn.log", wrapper=wrapper)
    try:
        server.wait_ready(path="/v1/rulesets")
        status, headers, read = call(server.url, "GET", f"/v1/matches/{sheet.id}")
        assert status == 200 and read["players"][1]["name"] == "Bob"
        check = {"ruleset": "liverpool", "cards": ["7H", "7S", "7D"]}
        assert call(server.url, "POST", "/v1/checks/meld", check)[0] == 200
        auth = {"Authorization": f"Bearer {token}", "If-Match": headers["etag"]}
        written = call(server.url, "PUT", f"/v1/matches/{sheet.id}/rounds/1", ROUND, auth)
        created = call(
            server.url, "POST", "/v1/matches", {"ruleset": "liverpool", "players": ["A", "B", "C"]}
        )
        health = call(server.url, "GET", "/healthz")
        for status, headers, problem in (written, created, health):
            assert status == 503 and int(headers["retry-after"]) > 0
            assert problem["detail"] == READ_ONLY
        german = call(server.url, "GET", "/healthz", headers={"Accept-Language": "de"})
        assert german[2]["detail"].startswith("die Datenbank ist schreibgeschützt")
        # Nothing was written: the round is still pending.
        assert call(server.url, "GET", f"/v1/matches/{sheet.id}")[2]["version"] == 1
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()
