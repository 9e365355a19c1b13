"""The fast path writes each of the engine's values as Flask writes what marshmallow dumps of it:
the same JSON text, for melds of every shape, their violations, and every preset's contracts."""

from __future__ import annotations

import json

import marshmallow as ma
import pytest

import rules
from api.fastjson import schema_writer
from api.schemas import ContractSchema, MeldSchema, ViolationSchema


def _flask_writes(schema: ma.Schema, value: object) -> str:
    """What flask.jsonify writes, in this app's settings, of what ``schema`` dumps."""
    return json.dumps(schema.dump(value), separators=(",", ":"))


def _assert_written_as_dumped(schema: ma.Schema, value: object) -> None:
    write = schema_writer(schema)
    assert write is not None, f"{type(schema).__name__} has no fast writer"
    written = write(value)
    assert written == _flask_writes(schema, value)
    assert json.loads(written) == schema.dump(value)


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
    _assert_written_as_dumped(MeldSchema(), meld)
    for violation in meld.violations:
        _assert_written_as_dumped(ViolationSchema(), violation)


def test_the_melds_include_broken_ones() -> None:
    """The corpus above holds melds the engine refuses, so violations are written too."""
    broken = [
        cards
        for ruleset, cards in MELDS
        if rules.check_meld(rules.find_ruleset(ruleset), rules.parse_cards(cards)).violations
    ]
    assert broken


@pytest.mark.parametrize("ruleset", ["liverpool", "liverpool-9", "shanghai", "contract-rummy"])
def test_contract(ruleset: str) -> None:
    for spec in rules.find_ruleset(ruleset).rounds:
        _assert_written_as_dumped(ContractSchema(), spec.contract)
