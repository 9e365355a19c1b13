"""``POST /v1/hands/analysis`` over HTTP: answers, their round trip, and refusals."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient


def analyse(client: FlaskClient, **body: Any) -> Any:
    answer = client.post("/v1/hands/analysis", json=body)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


@pytest.mark.parametrize(
    ("ruleset", "round_", "hand"),
    [
        ("liverpool", 1, "7H 7S 7D KC KD JK 2C 9H 4S 5D 6D"),
        ("liverpool", 2, "4H 5H 6H 7H 9C 9S 9D KD QS 2D"),
        ("liverpool", 7, "3S 4S 5S 6S 7S 8S JK 2D 2H KC QC 10D 9H"),
        ("contract-rummy", 2, "9S 9H 9D 4H 5H 6H 7H 8H KC"),
        ("progressive", 7, "3S 4S 5S 6S 7S 8H 9H 10H JH QD KD AD JK"),
        ("california", 3, "4H 5H QS 7H 9C 10C JC QD 2S 3S"),
    ],
)
def test_a_laid_contract_reads_back_valid_through_the_contract_check(
    client: FlaskClient, ruleset: str, round_: int, hand: str
) -> None:
    cards = hand.split()
    answer = analyse(client, ruleset=ruleset, round=round_, hand=cards)
    assert answer["can_lay"] is True, answer
    assert answer["needs"] == [] and answer["closest"] is None
    melds = [meld["cards"] for meld in answer["melds"]]
    verdict = client.post(
        "/v1/checks/contract",
        json={"ruleset": ruleset, "round": round_, "melds": melds, "hand": cards},
    ).get_json()
    assert verdict["valid"] is True, verdict
    assert verdict["remaining"] == answer["remaining"]
    assert verdict["goes_out"] == answer["goes_out"]
    assert [m["wilds"] for m in verdict["melds"]] == [m["wilds"] for m in answer["melds"]]
    penalty = client.post(
        "/v1/hands/penalty", json={"ruleset": ruleset, "cards": answer["remaining"]}
    ).get_json()
    assert penalty["total"] == answer["penalty"]


def test_the_seed_example_lays_the_exact_minimum(client: FlaskClient) -> None:
    # 002: "Legg 9-erne og hjerter 4–5–6–7. Hjerter 8 må vente til en senere tur" -- four
    # hearts, never five; the analysis keeps back the cheaper end (4H costs 4, 8H costs 8).
    answer = analyse(
        client, ruleset="contract-rummy", round=2, hand="9S 9H 9D 4H 5H 6H 7H 8H KC".split()
    )
    assert sorted(map(sorted, (m["cards"] for m in answer["melds"]))) == [
        ["5H", "6H", "7H", "8H"],
        ["9D", "9H", "9S"],
    ]
    assert sorted(answer["remaining"]) == ["4H", "KC"]
    assert answer["penalty"] == 4 + 10


def test_what_a_hand_is_waiting_for(client: FlaskClient) -> None:
    hand = "4H 5H 6H 8C 9C 9S KD QS 2D 3D JK".split()
    answer = analyse(client, ruleset="liverpool", round=2, hand=hand)
    assert answer["can_lay"] is False and answer["melds"] == []
    # A 9 completes the set (the joker goes to the run); 3H or 7H the run (the joker to the
    # set); a second joker either.
    assert sorted(answer["needs"]) == sorted(["3H", "7H", "9C", "9D", "9H", "9S", "JK"])
    closest = answer["closest"]
    assert closest["missing"] == 1 and closest["complete"] == 1
    assert answer["remaining"] == hand


def test_two_cards_short_needs_no_single_card(client: FlaskClient) -> None:
    answer = analyse(
        client, ruleset="liverpool", round=2, hand="4H 5H 6H 8C 9C 9S KD QS 2D 3D".split()
    )
    assert answer["can_lay"] is False
    assert answer["needs"] == []
    assert answer["closest"]["missing"] == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"ruleset": "liverpool", "round": 2, "hand": ["4H", "ZZ"]}, "hand.1"),
        ({"ruleset": "liverpool", "round": 8, "hand": ["4H"]}, "round"),
        ({"ruleset": "snap", "round": 1, "hand": ["4H"]}, "ruleset"),
        ({"ruleset": "liverpool", "round": 1, "hand": ["4H"] * 31}, "hand"),
        ({"ruleset": "liverpool", "round": 1, "hand": []}, "hand"),
        # California plays without jokers: a hand holding one cannot exist.
        ({"ruleset": "california", "round": 1, "hand": ["JK", "4H", "4S"]}, "hand"),
        ({"ruleset": "liverpool", "round": 1, "hand": ["4H"] * 4, "players": 3}, "hand"),
    ],
)
def test_a_malformed_question_is_a_problem_naming_the_field(
    client: FlaskClient, problem: Callable[..., dict[str, Any]], body: dict[str, Any], field: str
) -> None:
    document = problem(client.post("/v1/hands/analysis", json=body), 422)
    assert field in [error["field"] for error in document["errors"]]
