"""marshmallow fields for the game's values: cards, rulesets, and JSON's own strict types.

Each field documents exactly what it accepts — schemathesis holds the API to its document both
ways, and a client should be able to trust it — so validation here is never looser than the
OpenAPI description (a card is matched against the documented pattern before the engine reads
it) and never stricter than it (what the document allows, the engine is asked about).

The fields check a value as marshmallow's own fields do and turn it into the engine's value in
``deserialize``, after every check has passed; a card is written as its canonical text, which
is what ``str`` of a card gives.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from marshmallow import fields

from rules import PRESETS, Card, Ruleset, RulesetError, resolve_ruleset

from . import i18n

#: docs/rules.md §2: rank then suit, any case, ``T`` for ten, suit letters or symbols; ``JK``
#: a joker.
CARD_PATTERN = r"^(?:(?:[2-9]|10|[AaTtJjQqKk])[SsHhDdCc♠♥♦♣♤♡♢♧]|[Jj][Kk])$"
_CARD = re.compile(CARD_PATTERN)
RANK_PATTERN = r"^(?:[2-9]|10|[AaTtJjQqKk])$"


def card_of(text: str) -> Card | None:
    """The card ``text`` spells in :data:`CARD_PATTERN`'s notation, or ``None``.

    Matched in full: a trailing newline slips past ``$`` in a Python ``match`` but not in JSON
    Schema, and the engine's own reading is more lenient (``"joker"``, spaces) than the
    documented pattern.
    """
    return Card.parse(text) if _CARD.fullmatch(text) else None


def spelt_as_a_card(text: str) -> None:
    """The validator every card passes first: a spelling :data:`CARD_PATTERN` admits."""
    if _CARD.fullmatch(text) is None:
        raise ma.ValidationError(f"not a card: {text!r}")


class StrictBoolean(fields.Boolean):
    """``true`` or ``false`` only; marshmallow's Boolean also takes ``1``, ``"yes"``..."""

    def deserialize(
        self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any
    ) -> Any:
        if value is not ma.missing and value is not None and not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return super().deserialize(value, attr, data, **kwargs)


def integer(**kwargs: Any) -> fields.Integer:
    """A JSON integer: no ``"3"``, no ``3.5``, no ``true``."""
    return fields.Integer(strict=True, **kwargs)


class CardField(fields.String):
    """A card in the notation of docs/rules.md §2, loaded as a :class:`rules.Card`, dumped
    canonical."""

    default_error_messages = {"invalid": "a card is a string, like 10H"}

    def __init__(self, **kwargs: Any) -> None:
        metadata = {
            "type": "string",
            "pattern": CARD_PATTERN,
            "description": "A card: rank (A 2-10 J Q K, T for ten) then suit (S H D C or"
            " ♠ ♥ ♦ ♣), in any case; JK is a joker.",
            "example": "10H",
            **kwargs.pop("metadata", {}),
        }
        super().__init__(metadata=metadata, **kwargs)
        self.validators.insert(0, spelt_as_a_card)

    def deserialize(
        self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any
    ) -> Any:
        text = super().deserialize(value, attr, data, **kwargs)
        return Card.parse(text) if isinstance(text, str) else text


class CardList(fields.List[Any]):
    """A list of cards, in table order: ``List(CardField())`` with its bounds."""

    def __init__(
        self, *, min_items: int | None = None, max_items: int | None = None, **kwargs: Any
    ) -> None:
        if min_items is not None or max_items is not None:
            kwargs["validate"] = ma.validate.Length(min=min_items, max=max_items)
        super().__init__(CardField(), **kwargs)


def cards(*, max_items: int, min_items: int = 0, **kwargs: Any) -> CardList:
    """A bounded list of cards in a request."""
    return CardList(min_items=min_items, max_items=max_items, **kwargs)


class RulesetField(fields.Field[Ruleset]):
    """A preset id (``"liverpool"``), or ``{"base": id, "options": {...}}`` for a house ruleset.

    Loads to a resolved :class:`rules.Ruleset`. The object's shape is checked by
    ``HouseRulesetSchema`` (so a misspelt option is named like any other field), its values
    and their consistency by the engine; either way the error names the field, e.g.
    ``ruleset.options.buy_limit``.
    """

    default_error_messages = {
        "invalid": 'a ruleset is a preset id or {{"base": preset id, "options": {{...}}}}',
        "unknown": "unknown ruleset {input!r}; the presets are: {presets}",
    }

    def __init__(self, house_schema: type[ma.Schema], **kwargs: Any) -> None:
        self.house_schema = house_schema()
        metadata = {
            "description": "A preset id, or a house ruleset: a preset with some parameters"
            " replaced. `GET /v1/rulesets` lists the presets.",
            "oneOf": [
                {"type": "string", "enum": list(PRESETS)},
                {"$ref": "#/components/schemas/HouseRuleset"},
            ],
            "example": "liverpool",
            **kwargs.pop("metadata", {}),
        }
        super().__init__(metadata=metadata, **kwargs)

    def deserialize(
        self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any
    ) -> Any:
        value = super().deserialize(value, attr, data, **kwargs)
        if value is None or value is ma.missing:
            return value
        return self.resolve(value)

    def resolve(self, value: Any) -> Ruleset:
        """The ruleset a preset id or a house ruleset's object names.

        The request's texts are written with the words of the ruleset's family from here on
        (the German Progressive sheet has words of its own), on the stock and the fast path.
        """
        ruleset = self._resolve(value)
        i18n.for_family(ruleset.family)
        return ruleset

    def _resolve(self, value: Any) -> Ruleset:
        if isinstance(value, str):
            if value not in PRESETS:
                raise self.make_error("unknown", input=value, presets=", ".join(PRESETS))
            return PRESETS[value]
        if not isinstance(value, Mapping):
            raise self.make_error("invalid")
        spec = self.house_schema.load(value)  # ValidationError nests under "ruleset"
        try:
            return resolve_ruleset(spec)
        except RulesetError as error:
            raise ma.ValidationError(_nest(error.field, str(error))) from None


def _nest(field: str | None, message: str) -> Any:
    """``"ruleset.options.buy_limit"`` → ``{"options": {"buy_limit": [message]}}``."""
    parts = (field or "ruleset").split(".")
    if parts[0] == "ruleset":
        parts = parts[1:]
    nested: Any = [message]
    for part in reversed(parts):
        nested = {part: nested}
    return nested


# --- text a person types: player names, a sheet's title ----------------------------------------

#: What a name or title may not hold: control (Cc), format (Cf: zero-width spaces, direction
#: marks) and surrogate (Cs) characters. A lone surrogate cannot even be encoded as UTF-8, so
#: a sheet holding one could never be written out again (its spreadsheet would fail).
FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
#: The spaces ``str.strip`` trims that are not already forbidden control characters.
_TRIMMED = "".join(
    chr(c)
    for c in range(0x10000)
    if chr(c).isspace() and unicodedata.category(chr(c)) not in FORBIDDEN_CATEGORIES
)


def _ranges(codes: list[int]) -> str:
    """``[0, 1, 2, 5]`` as a regular-expression class body: ``\\u0000-\\u0002\\u0005``."""
    spans: list[list[int]] = []
    for code in codes:
        if spans and spans[-1][1] == code - 1:
            spans[-1][1] = code
        else:
            spans.append([code, code])
    return "".join(
        f"\\u{low:04x}" if low == high else f"\\u{low:04x}-\\u{high:04x}" for low, high in spans
    )


#: The forbidden characters of the Basic Multilingual Plane as a class body, less the
#: surrogates: refused too, but a pattern cannot name them the same way for Python (code
#: points) and ECMAScript (UTF-16 units), and test generators misread such a class. The few
#: forbidden characters outside the BMP (musical and tag format characters) are refused as well,
#: though a pattern written for both languages cannot name them.
_FORBIDDEN = _ranges([c for c in range(0x10000) if unicodedata.category(chr(c)) in {"Cc", "Cf"}])
_SPACES = _ranges([ord(c) for c in _TRIMMED])
#: A name or title as JSON Schema states it: no forbidden character, and one that is not a space.
TEXT_PATTERN = f"^[^{_FORBIDDEN}]*[^{_FORBIDDEN}{_SPACES}][^{_FORBIDDEN}]*$"
#: The same, where the text may be empty (or only spaces).
OPTIONAL_TEXT_PATTERN = f"^[^{_FORBIDDEN}]*$"


class PlainText(fields.String):
    """Text a person typed (a player's name, a sheet's title), loaded trimmed and in Unicode
    NFC: at most ``max_length`` characters as sent and once normalised, at least
    ``min_length`` once trimmed, and none of :data:`FORBIDDEN_CATEGORIES`.

    Normalised so that a name typed on two phones (one composing é, one not) is one name.
    """

    default_error_messages = {
        "forbidden": "U+{code:04X} {character} cannot be part of a name or title",
        "too_long": "at most {max} characters",
        "too_short": "at least {min} character that is not a space",
    }

    def __init__(self, *, min_length: int, max_length: int, **kwargs: Any) -> None:
        self.min_length, self.max_length = min_length, max_length
        metadata = {
            "minLength": min_length,
            "maxLength": max_length,
            "pattern": TEXT_PATTERN if min_length else OPTIONAL_TEXT_PATTERN,
            **kwargs.pop("metadata", {}),
        }
        super().__init__(metadata=metadata, **kwargs)

    def deserialize(
        self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any
    ) -> Any:
        text = super().deserialize(value, attr, data, **kwargs)
        if not isinstance(text, str):  # None (where allowed) or missing
            return text
        if len(text) > self.max_length:
            raise self.make_error("too_long", max=self.max_length)
        for character in text:
            if unicodedata.category(character) in FORBIDDEN_CATEGORIES:
                name = unicodedata.name(character, "(a control or surrogate character)")
                raise self.make_error("forbidden", character=name, code=ord(character))
        text = unicodedata.normalize("NFC", text.strip())
        if len(text) > self.max_length:
            raise self.make_error("too_long", max=self.max_length)
        if len(text) < self.min_length:
            raise self.make_error("too_short", min=self.min_length)
        return text
