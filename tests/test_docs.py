"""The repository's own reference stays true to the code and stands alone.

docs/api.md lists every violation code and every house option; docs/rules.md covers every
preset; and nothing in the repository points at material a clone does not have.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from rules import MESSAGES, PARAMETERS, PRESETS

ROOT = Path(__file__).resolve().parent.parent
API_GUIDE = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
RULES_GUIDE = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """The body of the ``## heading`` section of a Markdown document."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"no section {heading!r}"
    return match.group(1)


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_violation_code_is_explained(code: str) -> None:
    assert f"`{code}`" in section(API_GUIDE, "Violation codes")


@pytest.mark.parametrize("option", sorted(PARAMETERS))
def test_every_house_option_is_described(option: str) -> None:
    assert f"`{option}`" in section(API_GUIDE, "House rules")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_is_in_the_rules_reference(preset: str) -> None:
    assert f"`{preset}`" in section(RULES_GUIDE, "3. Presets")


def tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return [ROOT / name for name in listed.split("\0") if name]


#: What a clone does not have: the brief's folder, its numbered sheets, its section numbers.
OUTSIDE = re.compile(
    r"\.\./shared|shared/(?:RULES|API|seeds|peer)|\bseeds? \d{3}\b|\bRULES(?:\.md)? §"
)


def test_nothing_points_outside_the_repository() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    found = []
    for path in tracked_files():
        if path.suffix in {".json", ".png", ".pdf", ".ico", ".mo"} or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line) and path.name != "test_docs.py":
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    assert not found, "\n".join(found)
