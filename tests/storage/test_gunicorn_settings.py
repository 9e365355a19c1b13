"""gunicorn as gunicorn.conf.py sets it up, seen from outside: a start that fails leaves nothing
behind in the temporary folder, and no instance listens on a control socket it shares with
every other instance of the same user."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers import ROOT, sqlite_server

pytestmark = pytest.mark.server


def test_a_start_that_fails_leaves_no_metrics_folder(tmp_path: Path) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    environ = {
        **os.environ,
        "TMPDIR": str(temporary),
        "HOME": str(tmp_path),
        "PORT": "0",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'sheets.sqlite3'}",
        "MAX_CONTENT_LENGTH": "lots",  # the app refuses to start, in gunicorn's on_starting
    }
    environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
    done = subprocess.run(
        [sys.executable, "-m", "gunicorn", "wsgi:app"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert "MAX_CONTENT_LENGTH" in done.stdout + done.stderr
    assert list(temporary.iterdir()) == []


def test_no_control_socket_is_shared_by_default(tmp_path: Path) -> None:
    """gunicorn's own default is ~/.gunicorn/gunicorn.ctl (or one in XDG_RUNTIME_DIR): one per
    user, which a second instance would take from the first."""
    home = tmp_path / "home"
    home.mkdir()
    with sqlite_server(tmp_path, {"HOME": str(home), "XDG_RUNTIME_DIR": ""}) as server:
        assert server.process.poll() is None
        assert not (home / ".gunicorn").exists()
