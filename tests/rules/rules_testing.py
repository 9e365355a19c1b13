"""What the rules-engine tests share: the presets by family, cards from text, a verdict's
violation codes and the meld it leaves.

This directory is deliberately not a package (no ``__init__.py``): as one it would be called
``rules`` and could shadow the engine it tests. The engine is imported from the repository root,
which ``pyproject.toml`` puts on ``sys.path`` (``pythonpath = ["."]``), and the test modules
import these helpers with ``from rules_testing import ...``: pytest puts this directory on
``sys.path`` when it imports them. (Not ``conftest``: each test directory has its own, and the
first one imported would answer for all of them.)
"""

from __future__ import annotations

from typing import Protocol

import rules
from rules import Card

#: The presets of each family, as docs/rules.md §3 groups them (May I? is tested on its own,
#: by the May I? engine's vectors).
LIVERPOOL_FAMILY = ("liverpool", "liverpool-9", "liverpool-fixed-hand", "liverpool-no-buy")
PROGRESSIVE_FAMILY = (
    "progressive",
    "shanghai",
    "california",
    "progressive-no-buy",
    "double-progressive",
)
ALL_PRESETS = (*LIVERPOOL_FAMILY, "contract-rummy", *PROGRESSIVE_FAMILY)


def C(text: str) -> tuple[Card, ...]:
    """Cards written as the table writes them, space-separated: ``C("9S 9H JK")``."""
    return rules.parse_cards(text.split())


class Judged(Protocol):
    @property
    def violations(self) -> tuple[rules.Violation, ...]: ...


def codes(judged: Judged) -> list[str]:
    """The codes of the rules a meld or a verdict breaks, in the order they are reported."""
    return [violation.code for violation in judged.violations]


class Placed(Protocol):
    @property
    def meld(self) -> rules.Meld: ...


def result(verdict: Placed) -> str:
    """The meld a lay-off or a swap leaves on the table, in table order: ``"4H 5H JK 7H"``."""
    return " ".join(rules.format_cards(verdict.meld.cards))
