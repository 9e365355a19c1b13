"""The examples in the docstrings of rules/ and api/ run, and say what they show.

python-chess's way: a docstring's ``>>>`` lines are the shortest documentation of a value, and
they stay true because the suite runs them, module by module.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def modules() -> list[str]:
    """Every module of the two packages (Alembic's scripts are Alembic's to import)."""
    found = []
    for package in ("rules", "api"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


@pytest.mark.parametrize("name", modules())
def test_the_examples_of_a_module_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} fail"


def test_there_are_examples_to_run() -> None:
    attempted = sum(
        doctest.testmod(importlib.import_module(name), verbose=False).attempted
        for name in modules()
    )
    assert attempted >= 40, attempted
