"""What the resources share: the bounds of a request, the round, and the engine's values as
the verdicts and the rulesets show them — a contract, a meld, a wild card, a violation.

Response schemas dump the rules engine's own values (``Meld``, ``Violation``, ``Card``) by
attribute, so the engine's reading of a meld reaches the client without a copy in between.
Lists are bounded (at most 200 cards in a hand, 60 in a meld, 12 melds) so that no request is
expensive to check; nothing a table can hold comes near the bounds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from rules import MELD_TYPES, Contract, Rank, Suit

from ..fastjson import encode_json, json_string
from ..fields import CardList, card_list_json, card_texts, integer

MAX_HAND = 200
MAX_MELD = 60
MAX_MELDS = 12
MAX_ROUND = 20


def round_field() -> fields.Integer:
    return integer(
        required=True,
        validate=validate.Range(1, MAX_ROUND),
        metadata={"description": "A round of the ruleset (1 to its `round_count`).", "example": 2},
    )


class MeldSpecSchema(ma.Schema):
    type = fields.String(required=True, validate=validate.OneOf(MELD_TYPES))
    min = integer(required=True)


class ContractSchema(ma.Schema):
    melds = fields.List(fields.Nested(MeldSpecSchema), required=True)
    text = fields.String(required=True, metadata={"example": "1 set + 1 run"})


# --- verdicts ------------------------------------------------------------------------------


class ViolationSchema(ma.Schema):
    code = fields.String(required=True, metadata={"example": "run_not_consecutive"})
    message = fields.String(required=True)
    meld = integer(
        required=True,
        allow_none=True,
        metadata={"description": "Index of the meld in the request, when one is at fault."},
    )
    card = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The card at fault, canonical, when there is one."},
    )


class WildSchema(ma.Schema):
    index = integer(
        required=True, metadata={"description": "Position of the wild card in `cards`."}
    )
    stands_for = fields.String(
        required=True,
        metadata={
            "description": "In a run the card it stands for (`6H`), in a set the rank alone"
            " (`7`); `?` where the meld's naturals fix nothing.",
            "example": "6H",
        },
    )


def _suit(meld: Any) -> str | None:
    return None if meld.suit is None else str(meld.suit.value)


def _rank(meld: Any) -> str | None:
    return None if meld.rank is None else str(meld.rank.symbol)


class MeldSchema(ma.Schema):
    """A meld as the referee reads it."""

    type = fields.String(required=True, validate=validate.OneOf(MELD_TYPES))
    suit = fields.Function(
        _suit,
        required=True,
        allow_none=True,
        metadata={"type": "string", "description": "A run's suit (`H`); null for a set."},
    )
    rank = fields.Function(
        _rank,
        required=True,
        allow_none=True,
        metadata={"type": "string", "description": "A set's rank (`7`); null for a run."},
    )
    cards = CardList(required=True, metadata={"description": "In table order, canonical."})
    wilds = fields.List(fields.Nested(WildSchema), required=True)


#: What ``_suit`` and ``_rank`` write, by suit and rank: their enums' value and symbol are
#: Python properties, and these look-ups hash in C.
_SUIT_TEXTS = {suit: str(suit.value) for suit in Suit}
_RANK_TEXTS = {rank: str(rank.symbol) for rank in Rank}
_SUIT_JSON = {suit: json_string(text) for suit, text in _SUIT_TEXTS.items()}
_RANK_JSON = {rank: json_string(text) for rank, text in _RANK_TEXTS.items()}


def _wild_json(wild: Any) -> str:
    index, stands_for = wild.index, wild.stands_for
    if index.__class__ is int and stands_for.__class__ is str:
        return f'{{"index":{index!r},"stands_for":{json_string(stands_for)}}}'
    return encode_json({"index": index, "stands_for": stands_for})


class MeldField(fields.Nested):
    """``Nested(MeldSchema)``, written directly.

    Verdicts are dumped on every check, and marshmallow's field-by-field dump of their melds
    and violations costs more than the check; these fields write the same JSON (a test holds
    them to the schemas they stand for) and are documented as those schemas.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(MeldSchema, **kwargs)

    def _serialize(self, nested_obj: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]  # marshmallow renames the parameter
        meld = nested_obj
        if meld is None:
            return None
        suit, rank = meld.suit, meld.rank
        return {
            "type": meld.type,
            "suit": None if suit is None else _SUIT_TEXTS[suit],
            "rank": None if rank is None else _RANK_TEXTS[rank],
            "cards": card_texts(meld.cards),
            "wilds": [{"index": w.index, "stands_for": w.stands_for} for w in meld.wilds],
        }

    def write_json(self, meld: Any) -> str:
        """``encode_json(self._serialize(meld, ...))``, written directly."""
        if meld is None:
            return "null"
        suit, rank, kind = meld.suit, meld.rank, meld.type
        wilds = meld.wilds
        return (
            f'{{"type":{json_string(kind) if kind.__class__ is str else encode_json(kind)},'
            f'"suit":{"null" if suit is None else _SUIT_JSON[suit]},'
            f'"rank":{"null" if rank is None else _RANK_JSON[rank]},'
            f'"cards":{card_list_json(meld.cards)},'
            f'"wilds":{"[" + ",".join([_wild_json(w) for w in wilds]) + "]" if wilds else "[]"}}}'
        )


class ViolationField(fields.Nested):
    """``Nested(ViolationSchema)``, written by the engine's own ``Violation.as_dict()``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(ViolationSchema, **kwargs)

    def _serialize(self, nested_obj: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]  # marshmallow renames the parameter
        return None if nested_obj is None else nested_obj.as_dict()

    def write_json(self, violation: Any) -> str:
        """``encode_json(self._serialize(violation, ...))``."""
        return "null" if violation is None else encode_json(violation.as_dict())


class ContractField(fields.Nested):
    """``Nested(ContractSchema)``, written as the engine's own ``contract_as_dict`` writes it,
    with the contract's text — which the engine composes anew each time it is asked, at more
    cost than the rest of a verdict — composed once per contract."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(ContractSchema, **kwargs)

    def _serialize(self, nested_obj: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]  # marshmallow renames the parameter
        return None if nested_obj is None else _contract_dict(nested_obj)

    def write_json(self, contract: Contract | None) -> str:
        """``encode_json(self._serialize(contract, ...))``, encoded once per contract."""
        return "null" if contract is None else _contract_json(contract)


def _contract_dict(contract: Contract) -> dict[str, Any]:
    return {
        "melds": [{"type": spec.type, "min": spec.min} for spec in contract.melds],
        "text": _contract_text(contract),
    }


class _PerContract:
    """A value computed once per contract: kept by the contract's identity, each entry holding
    its contract so that no other object can have its id while it is kept. Bounded, since a
    house ruleset's contracts are new objects each time. (An lru_cache would hash contracts,
    field by field in Python, at about the cost of computing the value again.)"""

    def __init__(self, compute: Callable[[Contract], str]) -> None:
        self.compute = compute
        self.known: dict[int, tuple[Contract, str]] = {}

    def __call__(self, contract: Contract) -> str:
        known = self.known.get(id(contract))
        if known is not None and known[0] is contract:
            return known[1]
        value = self.compute(contract)
        if len(self.known) >= 256:
            self.known.clear()
        self.known[id(contract)] = (contract, value)
        return value


#: The engine composes a contract's text anew each time it is asked.
_contract_text = _PerContract(lambda contract: contract.text)
_contract_json = _PerContract(lambda contract: encode_json(_contract_dict(contract)))
