"""marshmallow fields for the game's values: cards, rulesets, and JSON's own strict types.

Each field documents exactly what it accepts — schemathesis holds the API to its document both
ways, and a client should be able to trust it — so validation here is never looser than the
OpenAPI description (a card is matched against the documented pattern before the engine reads
it) and never stricter than it (what the document allows, the engine is asked about).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import marshmallow as ma
from marshmallow import fields

from rules import PRESETS, Card, Ruleset, RulesetError, resolve_ruleset

from .fastjson import Unsure, encode_json, json_string

#: RULES §2: rank then suit, any case, ``T`` for ten, suit letters or symbols; ``JK`` a joker.
CARD_PATTERN = r"^(?:(?:[2-9]|10|[AaTtJjQqKk])[SsHhDdCc♠♥♦♣♤♡♢♧]|[Jj][Kk])$"
_CARD = re.compile(CARD_PATTERN)
RANK_PATTERN = r"^(?:[2-9]|10|[AaTtJjQqKk])$"


# --- cards by table ------------------------------------------------------------------------
#
# Every check reads and writes a dozen cards or more, and a regex match and a parse per card
# read, or a str() through two enums per card written, cost more than the rest of the body.


def _spellings() -> dict[str, Card]:
    """Every string :data:`CARD_PATTERN` admits, and the card it reads as: 308 of them.

    A test holds this table to the pattern, both ways.
    """
    ranks = [*"23456789", "10", *"AaTtJjQqKk"]
    suits = "SsHhDdCc♠♥♦♣♤♡♢♧"
    texts = [rank + suit for rank in ranks for suit in suits] + ["JK", "Jk", "jK", "jk"]
    assert all(_CARD.fullmatch(text) for text in texts)
    return {text: Card.parse(text) for text in texts}


#: The card each spelling of a card reads as: loading a card is one look-up.
CARDS: dict[str, Card] = _spellings()
_CARD_OF_TEXT = CARDS.__getitem__

#: The canonical text of each card: writing one is a look-up too (a card hashes by identity,
#: in C). Anything else handed to a card field is str()-ed, as marshmallow would.
_TEXT_OF_CARD: dict[Card, str] = {card: str(card) for card in CARDS.values()}
_TEXT_OF = _TEXT_OF_CARD.__getitem__


def card_texts(cards: Sequence[Card]) -> list[str]:
    """``[str(card) for card in cards]``, without a line of Python per card."""
    try:
        return list(map(_TEXT_OF, cards))
    except (KeyError, TypeError):  # not a card
        return [_TEXT_OF_CARD.get(card) or str(card) for card in cards]


# --- JSON written directly -----------------------------------------------------------------

_JSON_OF_CARD: dict[Card, str] = {card: json_string(text) for card, text in _TEXT_OF_CARD.items()}
_JSON_OF = _JSON_OF_CARD.__getitem__


def card_list_json(cards: Sequence[Card]) -> str:
    """``encode_json(card_texts(cards))``, from the cards' JSON strings, written once."""
    try:
        return "[" + ",".join(map(_JSON_OF, cards)) + "]"
    except (KeyError, TypeError):  # not a card
        return encode_json(card_texts(cards))


# --- fields --------------------------------------------------------------------------------


class StrictBoolean(fields.Boolean):
    """``true`` or ``false`` only; marshmallow's Boolean also takes ``1``, ``"yes"``..."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value

    def load_fast(self, value: Any) -> bool:
        if value is True or value is False:
            return value
        raise Unsure


def integer(**kwargs: Any) -> fields.Integer:
    """A JSON integer: no ``"3"``, no ``3.5``, no ``true``."""
    return fields.Integer(strict=True, **kwargs)


class CardField(fields.Field[Card]):
    """A card in the notation of RULES §2, loaded as a :class:`rules.Card`, dumped canonical."""

    default_error_messages = {
        "invalid": "a card is a string, like 10H",
        "invalid_card": "not a card: {input!r}",
    }

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

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Card:
        if not isinstance(value, str):
            raise self.make_error("invalid")
        # The spellings of CARD_PATTERN, matched in full: a trailing newline slips past "$" in
        # Python but not in JSON Schema.
        card = CARDS.get(value)
        if card is None:
            raise self.make_error("invalid_card", input=value)
        return card

    def load_fast(self, value: Any) -> Card:
        card = CARDS.get(value) if type(value) is str else None
        if card is None:
            raise Unsure
        return card

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else _TEXT_OF_CARD.get(value) or str(value)

    def write_json(self, value: Any) -> str:
        """``encode_json(self._serialize(value, ...))``."""
        if value is None:
            return "null"
        return _JSON_OF_CARD.get(value) or json_string(str(value))


class CardList(fields.List[Card]):
    """A list of cards, read and written in one pass.

    Documented as marshmallow's ``List(CardField())``; a hand or a meld is many cards, and a
    field call per card costs more than the check, so the common case skips it.
    """

    def __init__(
        self, *, min_items: int | None = None, max_items: int | None = None, **kwargs: Any
    ) -> None:
        if min_items is not None or max_items is not None:
            kwargs["validate"] = ma.validate.Length(min=min_items, max=max_items)
        super().__init__(CardField(), **kwargs)

    def _deserialize(
        self, value: Any, attr: str | None, data: Any, **kwargs: Any
    ) -> list[Card | None]:
        if not isinstance(value, list):
            raise self.make_error("invalid")
        try:
            return list(map(_CARD_OF_TEXT, value))
        except (KeyError, TypeError):  # not a card, or not even hashable: say which, below
            pass
        loaded: list[Card | None] = []
        errors: dict[int, Any] = {}
        for index, text in enumerate(value):
            try:  # the field says what is wrong, in its words
                loaded.append(self.inner.deserialize(text))
            except ma.ValidationError as error:
                errors[index] = error.messages
        if errors:
            raise ma.ValidationError(errors, valid_data=loaded)
        return loaded

    def load_fast(self, value: Any) -> list[Card]:
        if type(value) is not list:
            raise Unsure
        try:
            return list(map(_CARD_OF_TEXT, value))
        except (KeyError, TypeError):  # TypeError: a list or an object, which cannot be a key
            raise Unsure from None

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return None if value is None else card_texts(value)

    def write_json(self, value: Any) -> str:
        """``encode_json(self._serialize(value, ...))``."""
        return "null" if value is None else card_list_json(value)


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

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Ruleset:
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

    def load_fast(self, value: Any) -> Ruleset:
        if type(value) is str and value in PRESETS:
            return PRESETS[value]
        return self._deserialize(value, None, None)  # a house ruleset: ValidationError or one

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value.id if isinstance(value, Ruleset) else value


def _nest(field: str | None, message: str) -> Any:
    """``"ruleset.options.buy_limit"`` → ``{"options": {"buy_limit": [message]}}``."""
    parts = (field or "ruleset").split(".")
    if parts[0] == "ruleset":
        parts = parts[1:]
    nested: Any = [message]
    for part in reversed(parts):
        nested = {part: nested}
    return nested
