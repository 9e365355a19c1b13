"""What the schemathesis runs share: a table's names made to obey the rule JSON Schema cannot
state fully (unique ignoring case, once trimmed and normalised)."""

from __future__ import annotations

import unicodedata


def _key(name: str) -> str:
    return unicodedata.normalize("NFC", name.strip()).casefold()


def distinct_names(names: list[str], count: int) -> list[str]:
    """``count`` names taken from ``names`` (repeated as needed), each told apart from the
    others as the API tells them (a suffix " 2", " 3"... where one would clash)."""
    chosen: list[str] = []
    seen: set[str] = set()
    for seat in range(count):
        name = names[seat % len(names)] if names else "P"
        suffix = 1
        candidate = name
        while _key(candidate) in seen:
            suffix += 1
            candidate = f"{name[: 40 - len(str(suffix)) - 1]} {suffix}"
        seen.add(_key(candidate))
        chosen.append(candidate)
    return chosen
