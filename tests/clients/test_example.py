"""examples/keep_score.py runs against a real server: the example cannot rot."""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest

from tests.servers import ROOT, Server

pytestmark = pytest.mark.server


def test_the_example_client_keeps_score(api_server: Server) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "keep_score.py"), api_server.url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "7H 7S JK is a set - valid: True"
    assert lines[1] == "round 1 contract laid: True - left in hand: ['KD']"
    location = lines[2].removeprefix("sheet ")
    assert lines[3] == 'round 1 recorded, sheet now at "2"'
    assert lines[4:] == ["  1. Bob: 0", "  2. Ann: 10", "  3. Cleo: 35"]
    # What it printed is what the sheet holds.
    sheet = httpx.get(f"{api_server.url}{location}").json()
    assert sheet["title"] == "Example" and sheet["version"] == 2
    assert sheet["rounds"][0]["results"][1] == {
        "seat": 1,
        "points": 0,
        "total": 0,
        "penalty": 0,
        "went_out": True,
        "buys": None,
        "bonus": 0,
    }
