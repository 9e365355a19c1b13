"""Fixtures for the rules-engine tests.

The engine is tested from the working tree whether or not the project is installed in the
virtualenv, so the repository root goes on ``sys.path`` before any test imports ``rules``.
There is deliberately no ``__init__.py`` here: as a package, this directory would be called
``rules`` and could shadow the engine itself.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
