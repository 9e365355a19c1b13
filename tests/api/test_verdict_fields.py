"""The fast verdict fields write exactly what the schemas they stand for would write, as data
and as JSON text."""

from __future__ import annotations

import pytest

import rules
from api.fastjson import encode_json
from api.schemas import (
    ContractField,
    ContractSchema,
    MeldField,
    MeldSchema,
    ViolationField,
    ViolationSchema,
)

SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

MELDS = [
    *(("liverpool", [f"{rank}{suit}" for suit in SUITS[:3]]) for rank in RANKS),
    *(("liverpool", [f"{rank}{suit}" for rank in ("9", "10", "J", "Q")]) for suit in SUITS),
    ("liverpool", ["7H", "7S", "JK"]),
    ("liverpool", ["4H", "5H", "JK", "7H"]),
    ("liverpool", ["7H", "6H", "JK", "4H"]),
    ("liverpool", ["QH", "KH", "AH", "2H"]),
    ("liverpool", ["JK", "JK", "JK"]),
    ("california", ["10H", "JH", "QH", "KH"]),
    ("may-i", ["AH", "2H", "3H", "4H"]),
]


@pytest.mark.parametrize(("ruleset", "cards"), MELDS)
def test_meld_and_violations(ruleset: str, cards: list[str]) -> None:
    meld = rules.check_meld(rules.find_ruleset(ruleset), rules.parse_cards(cards), players=3)
    assert MeldField()._serialize(meld, None, None) == MeldSchema().dump(meld)
    assert MeldField().write_json(meld) == encode_json(MeldSchema().dump(meld))
    for violation in meld.violations:
        dumped = ViolationSchema().dump(violation)
        assert ViolationField()._serialize(violation, None, None) == dumped
        assert ViolationField().write_json(violation) == encode_json(dumped)


@pytest.mark.parametrize("ruleset", ["liverpool", "liverpool-9", "shanghai", "contract-rummy"])
def test_contract(ruleset: str) -> None:
    for spec in rules.find_ruleset(ruleset).rounds:
        contract = spec.contract
        dumped = ContractSchema().dump(contract)
        assert ContractField()._serialize(contract, None, None) == dumped
        assert ContractField().write_json(contract) == encode_json(dumped)
