"""The lock files pin every dependency, and a restart installs nothing and needs no index."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
#: ``name==version \`` opening each pinned requirement of a pip-compile'd lock file.
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+) \\$", re.MULTILINE)


def pins(lock: str) -> dict[str, str]:
    text = (ROOT / lock).read_text()
    return {canonicalize_name(name): version for name, version in _PIN.findall(text)}


def names(requirements: list[str]) -> set[str]:
    return {canonicalize_name(Requirement(line).name) for line in requirements}


def test_the_service_lock_pins_every_dependency() -> None:
    pinned = pins("requirements.lock")
    assert names(PYPROJECT["project"]["dependencies"]) <= set(pinned)
    assert "setuptools" in pinned  # the project is installed without build isolation


def test_the_test_lock_pins_every_dependency_with_the_same_versions() -> None:
    pinned = pins("requirements-test.lock")
    wanted = names(PYPROJECT["project"]["dependencies"])
    wanted |= names(PYPROJECT["project"]["optional-dependencies"]["test"])
    assert wanted <= set(pinned)
    service = pins("requirements.lock")
    assert {name: pinned[name] for name in service} == service


@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-test.lock"])
def test_every_pin_has_hashes(lock: str) -> None:
    """``pip install --require-hashes`` refuses a lock with a pin without a hash."""
    blocks = re.split(r"\n(?=\S)", (ROOT / lock).read_text())
    pinned = [block for block in blocks if _PIN.match(block)]
    assert len(pinned) == len(pins(lock)) > 10
    for block in pinned:
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", block), block.splitlines()[0]


def _copy_of_the_project(where: Path) -> Path:
    copy = where / "project"
    for name in ("bin", "api", "rules"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in (
        "pyproject.toml",
        "README.md",
        "LICENSE",
        "wsgi.py",
        "gunicorn.conf.py",
        "requirements.lock",
        "requirements-test.lock",
    ):
        shutil.copy2(ROOT / name, copy / name)
    return copy


def _venv_seeing_this_ones_packages(copy: Path) -> None:
    """A new .venv that sees the packages installed here, pip and setuptools among them (a .pth
    file, and none of its own), so the first install finds every pin already there instead of
    downloading it."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(copy / ".venv")], check=True)
    site = subprocess.run(
        [
            str(copy / ".venv/bin/python"),
            "-c",
            "import sysconfig; print(sysconfig.get_path('purelib'))",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "the-tests-packages.pth").write_text(sysconfig.get_path("purelib") + "\n")


def _offline() -> dict[str, str]:
    """No package index, no local wheels, no machine-wide pip configuration."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    return {**env, "PIP_NO_INDEX": "1", "PIP_CONFIG_FILE": os.devnull, "PIP_FIND_LINKS": ""}


@pytest.mark.server
def test_a_second_start_installs_nothing_and_needs_no_index(tmp_path: Path) -> None:
    copy = _copy_of_the_project(tmp_path)
    _venv_seeing_this_ones_packages(copy)
    setup = [str(copy / "bin/setup-venv"), "requirements.lock"]

    first = subprocess.run(setup, env=_offline(), capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    stamp = copy / ".venv/.installed-requirements.lock"
    made = stamp.stat().st_mtime_ns

    started = time.monotonic()
    again = subprocess.run(setup, env=_offline(), capture_output=True, text=True, timeout=60)
    took = time.monotonic() - started
    assert again.returncode == 0, again.stderr
    assert took < 2, f"a second start took {took:.1f} s"
    assert stamp.stat().st_mtime_ns == made  # nothing was installed

    started = time.monotonic()
    served = subprocess.run(
        [str(copy / "bin/serve"), "--version"],
        env=_offline(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert served.returncode == 0, served.stderr
    assert "gunicorn" in served.stdout + served.stderr
    assert time.monotonic() - started < 2

    # A changed lock is installed again (offline too: every pin is already there).
    with open(copy / "requirements.lock", "a") as lock:
        lock.write("# re-pinned\n")
    changed = subprocess.run(setup, env=_offline(), capture_output=True, text=True, timeout=300)
    assert changed.returncode == 0, changed.stderr
    assert stamp.stat().st_mtime_ns != made
