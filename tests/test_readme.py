"""The README's short tour runs as written: its shell blocks, pasted in turn into one shell,
against a real server (gunicorn on a free loopback port, an SQLite file of its own)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.servers import sqlite_server

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

pytestmark = pytest.mark.server


def tour() -> str:
    """The ``sh`` blocks of the README's "A short tour", in order, as one script."""
    section = re.search(r"^## A short tour\n(.*?)(?=^## )", README, re.M | re.S)
    assert section is not None
    blocks = re.findall(r"^```sh\n(.*?)^```", section.group(1), re.M | re.S)
    assert len(blocks) == 2
    return "".join(blocks)


def test_the_tour_runs_as_written(tmp_path: Path) -> None:
    if shutil.which("curl") is None:
        pytest.skip("no curl on this machine")
    script = tour()
    assert "api=http://127.0.0.1:8000\n" in script
    with sqlite_server(tmp_path) as server:
        script = script.replace("api=http://127.0.0.1:8000\n", f"api={server.url}\n")
        done = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", script],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    out = done.stdout
    assert done.returncode == 0, done.stderr + out[-2000:]
    # What the comments promise, answer by answer.
    assert '"stands_for":"6H"' in out and '"goes_out":true' in out
    assert "exceeds_contract_minimum" in out and "run_wraps_around" in out
    assert "ein Ass beendet eine Sequenz" in out  # the same meld, in German
    assert '"winner":3' in out and "joker_locked" in out
    assert '"can_lay":false' in out and '"total":37' in out
    assert re.search(r'(?im)^etag: "1"', out)
    assert re.search(r"(?m)^HTTP/1.1 200", out) and re.search(r'(?im)^etag: "2"', out)
    assert re.search(r"(?m)^HTTP/1.1 412", out)
    assert "round,contract,dealer,Ann,Ann total" in out
