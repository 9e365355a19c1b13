"""What the schemathesis runs share: a table's names made to obey the rule JSON Schema cannot
state fully (unique ignoring case, once trimmed and normalised)."""

from __future__ import annotations

import unicodedata


def _key(name: str) -> str:
    return unicodedata.normalize("NFC", name.strip()).casefold()


def _told_by_the_pattern(character: str) -> bool:
    """Whether the document's pattern, written for Python and ECMAScript alike, says where
    ``character`` may stand (docs/api.md, Names): not a format character outside the BMP (tags,
    musical controls), nor the zero-width joiner, which only an emoji around it allows."""
    if character == "\u200d":
        return False
    return ord(character) < 0x10000 or unicodedata.category(character) != "Cf"


def _named_by_the_pattern(name: str) -> str:
    """The name less the characters the pattern lets through but the service refuses where they
    stand (above). Left in, a positive case would be rightly refused."""
    kept = "".join(c for c in name if _told_by_the_pattern(c))
    return kept if kept.strip() else "P"


def distinct_names(names: list[str], count: int) -> list[str]:
    """``count`` names taken from ``names`` (repeated as needed), each told apart from the
    others as the API tells them (a suffix " 2", " 3"... where one would clash)."""
    chosen: list[str] = []
    seen: set[str] = set()
    for seat in range(count):
        name = _named_by_the_pattern(names[seat % len(names)]) if names else "P"
        suffix = 1
        candidate = name
        while _key(candidate) in seen:
            suffix += 1
            candidate = f"{name[: 40 - len(str(suffix)) - 1]} {suffix}"
        seen.add(_key(candidate))
        chosen.append(candidate)
    return chosen


def plain_title(body: dict[str, object]) -> None:
    """A sheet's title, if any, less the format characters the pattern cannot name (above)."""
    title = body.get("title")
    if isinstance(title, str):
        body["title"] = "".join(c for c in title if _told_by_the_pattern(c))
