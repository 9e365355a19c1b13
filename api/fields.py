"""marshmallow fields for the game's values — cards, rulesets, names — and JSON's own strict
types, each refusing in the reader's language.

Each field documents exactly what it accepts — schemathesis holds the API to its document both
ways, and a client should be able to trust it — so validation here is never looser than the
OpenAPI description (a card is matched against the documented pattern before the engine reads
it) and never stricter than it (what the document allows, the engine is asked about).

Every message a request can be refused with is a text of the catalogs. marshmallow's own are
given to its fields and validators here as their ``error_messages`` and ``error``, translated
lazily (Flask-Babel's ``lazy_gettext``, written ``_l``) so that each is written in the language
of the request it refuses; request schemas use only these fields and :class:`RequestSchema`,
and ``tests/api/test_languages.py`` holds them to it. The fields of the game write their own
refusals with :func:`refusal`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import marshmallow as ma
import regex
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString
from marshmallow import fields, validate

from rules import PRESETS, Card, RulesError, Ruleset, resolve_ruleset
from rules.cards import SPELLINGS
from rules.i18n import N_, Phrase

from . import i18n

# --- refusals in the reader's language ------------------------------------------------------


def refusal(template: str, **params: Any) -> str:
    """A refusal's message, a template of the catalogs, in the request's language."""
    return i18n.say(Phrase(template, params))


def lazy_refusal(template: str, **params: Any) -> LazyString:
    """:func:`refusal`, written when it is read: a message marshmallow keeps as it is given
    (a schema's ``unknown``), made before any request."""
    return LazyString(refusal, template, **params)


#: marshmallow's messages for every field.
FIELD_MESSAGES = {
    "required": _l("Missing data for required field."),
    "null": _l("Field may not be null."),
    "validator_failed": _l("Invalid value."),
}


class RequestSchema(ma.Schema):
    """A request body: refuses an unknown field or a body that is not an object in the
    reader's language."""

    error_messages = {"unknown": _l("Unknown field."), "type": _l("Invalid input type.")}


class String(fields.String):
    default_error_messages = {
        **FIELD_MESSAGES,
        "invalid": _l("Not a valid string."),
        "invalid_utf8": _l("Not a valid utf-8 string."),
    }


class Integer(fields.Integer):
    """A JSON integer: no ``"3"``, no ``3.5``, no ``true``."""

    default_error_messages = {
        **FIELD_MESSAGES,
        "invalid": _l("Not a valid integer."),
        "too_large": _l("Number too large."),
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)


class Boolean(fields.Boolean):
    """``true`` or ``false`` only; marshmallow's Boolean also takes ``1``, ``"yes"``..."""

    default_error_messages = {**FIELD_MESSAGES, "invalid": _l("Not a valid boolean.")}

    def deserialize(
        self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any
    ) -> Any:
        if value is not ma.missing and value is not None and not isinstance(value, bool):
            raise self.make_error("invalid")
        return super().deserialize(value, attr, data, **kwargs)


class List(fields.List[Any]):
    default_error_messages = {**FIELD_MESSAGES, "invalid": _l("Not a valid list.")}


class Nested(fields.Nested):
    default_error_messages = {**FIELD_MESSAGES, "type": _l("Invalid type.")}


class Dict(fields.Dict):
    default_error_messages = {**FIELD_MESSAGES, "invalid": _l("Not a valid mapping type.")}


# --- validators ----------------------------------------------------------------------------


def in_range(low: int | None = None, high: int | None = None) -> validate.Range:
    """``low`` to ``high`` (either may be open), refused in the reader's language."""
    if low is not None and high is not None:
        error = _l("Must be greater than or equal to {min} and less than or equal to {max}.")
    elif low is not None:
        error = _l("Must be greater than or equal to {min}.")
    else:
        error = _l("Must be less than or equal to {max}.")
    return validate.Range(low, high, error=error)


def length(low: int | None = None, high: int | None = None) -> validate.Length:
    """Between ``low`` and ``high`` items or characters (either may be open)."""
    if low is not None and high is not None:
        error = _l("Length must be between {min} and {max}.")
    elif low is not None:
        error = _l("Shorter than minimum length {min}.")
    else:
        error = _l("Longer than maximum length {max}.")
    return validate.Length(low, high, error=error)


def one_of(choices: Sequence[str]) -> validate.OneOf:
    return validate.OneOf(choices, error=_l("Must be one of: {choices}."))


def matching(pattern: str) -> validate.Regexp:
    return validate.Regexp(pattern, error=_l("String does not match expected pattern."))


# --- cards -----------------------------------------------------------------------------------

#: docs/rules.md §2: rank then suit, any case, ``T`` for ten, suit letters or symbols; ``JK``
#: a joker.
CARD_PATTERN = r"^(?:(?:[2-9]|10|[AaTtJjQqKk])[SsHhDdCc♠♥♦♣♤♡♢♧]|[Jj][Kk])$"
_CARD = re.compile(CARD_PATTERN)
RANK_PATTERN = r"^(?:[2-9]|10|[AaTtJjQqKk])$"


#: Every spelling of a card :data:`CARD_PATTERN` admits, and the card it reads as.
CARD_SPELLINGS: Mapping[str, Card] = MappingProxyType(
    {text: card for text, card in SPELLINGS.items() if _CARD.fullmatch(text)}
)


def card_of(text: str) -> Card | None:
    """The card ``text`` spells in :data:`CARD_PATTERN`'s notation, or ``None``.

    Matched in full: a trailing newline slips past ``$`` in a Python ``match`` but not in JSON
    Schema, and the engine's own reading is more lenient (``"joker"``, spaces) than the
    documented pattern.

    >>> card_of("t♥"), card_of("joker")
    (Card.parse('10H'), None)
    """
    return CARD_SPELLINGS.get(text)


class CardField(String):
    """A card in the notation of docs/rules.md §2, loaded as a :class:`rules.Card`, dumped
    canonical."""

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

    def deserialize(
        self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any
    ) -> Any:
        if isinstance(value, str):
            # A hand is read card by card: each is one look-up, then the field's own checks.
            card = CARD_SPELLINGS.get(value)
            if card is None:
                raise ma.ValidationError(refusal(N_("not a card: {text!r}"), text=value))
            for validator in self.validators:
                validator(card)
            return card
        if value is not ma.missing and value is not None:
            raise ma.ValidationError(refusal(N_("a card is a string, like 10H")))
        return super().deserialize(value, attr, data, **kwargs)  # None or missing


class CardList(List):
    """A list of cards, in table order: ``List(CardField())`` with its bounds."""

    def __init__(
        self, *, min_items: int | None = None, max_items: int | None = None, **kwargs: Any
    ) -> None:
        if min_items is not None or max_items is not None:
            kwargs["validate"] = length(min_items, max_items)
        super().__init__(CardField(), **kwargs)

    def deserialize(
        self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any
    ) -> Any:
        """A hand is read card by card; every card spelt as one is a look-up each, then the
        list's own bounds. A list with anything else in it is marshmallow's to refuse, every
        card at fault named."""
        if value.__class__ is list:
            try:
                cards = [CARD_SPELLINGS[text] for text in value]
            except (KeyError, TypeError):
                return super().deserialize(value, attr, data, **kwargs)
            # The list's validators, as marshmallow runs them: every one, their messages
            # together.
            messages: list[Any] = []
            for validator in self.validators:
                try:
                    if validator(cards) is False and not isinstance(validator, validate.Validator):
                        raise self.make_error("validator_failed")
                except ma.ValidationError as error:
                    if isinstance(error.messages, dict):
                        messages.append(error.messages)
                    else:
                        messages.extend(error.messages)
            if messages:
                raise ma.ValidationError(messages)
            return cards
        return super().deserialize(value, attr, data, **kwargs)


def cards(*, max_items: int, min_items: int = 0, **kwargs: Any) -> CardList:
    """A bounded list of cards in a request."""
    return CardList(min_items=min_items, max_items=max_items, **kwargs)


# --- rulesets --------------------------------------------------------------------------------


class RulesetField(fields.Field[Ruleset]):
    """A preset id (``"liverpool"``), or ``{"base": id, "options": {...}}`` for a house ruleset.

    Loads to a resolved :class:`rules.Ruleset`. The object's shape is checked by
    ``HouseRulesetSchema`` (so a misspelt option is named like any other field), its values
    and their consistency by the engine; either way the error names the field, e.g.
    ``ruleset.options.buy_limit``.
    """

    default_error_messages = FIELD_MESSAGES

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
        if isinstance(value, str):
            if value not in PRESETS:
                raise ma.ValidationError(
                    refusal(
                        N_("unknown ruleset {input!r}; the presets are: {presets}"),
                        input=value,
                        presets=", ".join(PRESETS),
                    )
                )
            return PRESETS[value]
        if not isinstance(value, Mapping):
            raise ma.ValidationError(
                refusal(N_('a ruleset is a preset id or {{"base": preset id, "options": {{...}}}}'))
            )
        spec = self.house_schema.load(value)  # ValidationError nests under "ruleset"
        try:
            return resolve_ruleset(spec)
        except RulesError as error:
            raise ma.ValidationError(_nest(error.field, i18n.say(error.words))) from None


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
#: The two format characters an emoji is written with, where they are part of one: a zero-width
#: joiner (U+200D) that joins two pictographs into one symbol (a family: man, joiner, woman,
#: joiner, girl; the rainbow flag), by Unicode's own rule for where a joiner holds a symbol
#: together (UAX #29, GB11: a pictograph, its modifiers and marks, the joiner, a pictograph);
#: and the tag characters of a subdivision flag (Scotland's: the black flag U+1F3F4, the tags
#: "gbsct", the cancel tag U+E007F; UTS #51). Anywhere else they hide text, so they stay refused.
#: The ``regex`` package knows Unicode's emoji properties (Python's unicodedata does not) and
#: follows each Unicode version, so a new pictograph needs no table of ours.
_EMOJI_JOINER = regex.compile(
    r"(?<=\p{Extended_Pictographic}[\p{Grapheme_Extend}\p{Emoji_Modifier}]*)\u200d"
    r"(?=\p{Extended_Pictographic})"
)
_FLAG_TAGS = regex.compile(r"(?<=\U0001F3F4)[\U000E0020-\U000E007E]+\U000E007F")


def _in_emoji(text: str) -> set[int]:
    """Where ``text`` holds a format character as part of an emoji (by index)."""
    return {
        index
        for pattern in (_EMOJI_JOINER, _FLAG_TAGS)
        for found in pattern.finditer(text)
        for index in range(found.start(), found.end())
    }


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
#: though a pattern written for both languages cannot name them; and so is the zero-width joiner
#: outside an emoji, which the class lets through because no class can say where it stands.
_FORBIDDEN = _ranges(
    [c for c in range(0x10000) if unicodedata.category(chr(c)) in {"Cc", "Cf"} and c != 0x200D]
)
_SPACES = _ranges([ord(c) for c in _TRIMMED])
#: A name or title as JSON Schema states it: no forbidden character, and one that is not a space.
TEXT_PATTERN = f"^[^{_FORBIDDEN}]*[^{_FORBIDDEN}{_SPACES}][^{_FORBIDDEN}]*$"
#: The same, where the text may be empty (or only spaces).
OPTIONAL_TEXT_PATTERN = f"^[^{_FORBIDDEN}]*$"


class PlainText(String):
    """Text a person typed (a player's name, a sheet's title), loaded trimmed and in Unicode
    NFC: at most ``max_length`` characters as sent and once normalised, at least
    ``min_length`` once trimmed, and none of :data:`FORBIDDEN_CATEGORIES` but the joiners
    and tags of an emoji (:data:`_EMOJI_JOINER`, :data:`_FLAG_TAGS`).

    Normalised so that a name typed on two phones (one composing é, one not) is one name.
    """

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
        too_long = ma.ValidationError(refusal(N_("at most {max} characters"), max=self.max_length))
        if len(text) > self.max_length:
            raise too_long
        emoji: set[int] | None = None
        for index, character in enumerate(text):
            if unicodedata.category(character) in FORBIDDEN_CATEGORIES:
                if emoji is None:
                    emoji = _in_emoji(text)
                if index in emoji:
                    continue
                raise ma.ValidationError(
                    refusal(
                        N_("U+{code:04X} {character} cannot be part of a name or title"),
                        code=ord(character),
                        character=unicodedata.name(character, "(a control or surrogate character)"),
                    )
                )
        text = unicodedata.normalize("NFC", text.strip())
        if len(text) > self.max_length:
            raise too_long
        if len(text) < self.min_length:
            raise ma.ValidationError(
                refusal(N_("at least {min} character that is not a space"), min=self.min_length)
            )
        return text
