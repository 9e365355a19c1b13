"""``bin/setup-venv`` (what ``bin/serve`` and ``bin/test`` start with) on an interpreter too old
for the project: it says so, names what to do, and leaves no half-made ``.venv`` behind."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_an_old_python_is_named_before_anything_is_installed(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    shutil.copy(ROOT / "bin" / "setup-venv", tmp_path / "bin" / "setup-venv")
    (tmp_path / "requirements.lock").write_text("")
    old = tmp_path / "python3.10"
    old.write_text(
        '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "Python 3.10.12"; exit 0; fi\nexit 1\n'
    )
    old.chmod(0o755)
    done = subprocess.run(
        ["bash", str(tmp_path / "bin" / "setup-venv"), "requirements.lock"],
        env={"PATH": "/usr/bin:/bin", "PYTHON": str(old)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert "needs Python 3.11 or newer" in done.stderr and "Python 3.10.12" in done.stderr
    assert "PYTHON=" in done.stderr
    assert not (tmp_path / ".venv").exists()
