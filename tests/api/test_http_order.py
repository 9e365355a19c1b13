"""Over HTTP: the card order (``order``), a contract already down (``contract_down`` on the
contract check), the jokers at the table (``jokers``), where a freed May I? joker goes, and the
ace bridge in a lay-off — each field's verdicts and each field's 422 (docs/api.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

Verdict = Callable[[str, dict[str, Any]], dict[str, Any]]
Problem = Callable[[TestResponse, int], dict[str, Any]]

MELD = "/v1/checks/meld"
CONTRACT = "/v1/checks/contract"
LAYOFF = "/v1/checks/layoff"
SWAP = "/v1/checks/joker-swap"
PENALTY = "/v1/hands/penalty"
ANALYSIS = "/v1/hands/analysis"

TAPPED = ["QH", "10H", "JK", "KH"]  # the run, tapped in any order, with a joker


def codes(data: dict[str, Any]) -> list[str]:
    return [violation["code"] for violation in data["violations"]]


def fields(body: dict[str, Any]) -> list[str]:
    return [error["field"] for error in body["errors"]]


# --- order ---------------------------------------------------------------------------------


def test_the_meld_check_lays_out_a_run_given_in_any_order(verdict: Verdict) -> None:
    body = {"ruleset": "liverpool", "cards": ["QH", "10H", "KH", "JH"]}
    assert codes(verdict(MELD, body)) == ["run_not_consecutive"]  # the complaint
    assert codes(verdict(MELD, {**body, "order": "table"})) == ["run_not_consecutive"]
    data = verdict(MELD, {**body, "order": "any"})
    assert data == {
        "valid": True,
        "meld": {
            "type": "run",
            "suit": "H",
            "rank": None,
            "cards": ["10H", "JH", "QH", "KH"],
            "wilds": [],
        },
        "violations": [],
    }
    data = verdict(MELD, {"ruleset": "liverpool", "cards": TAPPED, "order": "any"})
    assert data["meld"]["cards"] == ["10H", "JK", "QH", "KH"]
    assert data["meld"]["wilds"] == [{"index": 1, "stands_for": "JH"}]


def test_any_order_spare_wild_low_under_an_ace_and_sets_as_given(verdict: Verdict) -> None:
    data = verdict(
        MELD, {"ruleset": "liverpool", "cards": ["AH", "JK", "KH", "QH"], "order": "any"}
    )
    assert data["meld"]["cards"] == ["JK", "QH", "KH", "AH"]
    assert data["meld"]["wilds"] == [{"index": 0, "stands_for": "JH"}]
    data = verdict(MELD, {"ruleset": "liverpool", "cards": ["7S", "JK", "7H"], "order": "any"})
    assert data["meld"]["type"] == "set" and data["meld"]["cards"] == ["7S", "JK", "7H"]
    data = verdict(
        MELD, {"ruleset": "liverpool", "cards": ["3H", "KH", "2H", "AH"], "order": "any"}
    )
    assert codes(data) == ["run_wraps_around"]
    data = verdict(
        MELD,
        {"ruleset": "liverpool", "cards": ["5H", "7H", "5H", "6H"], "order": "any", "type": "run"},
    )
    assert codes(data) == ["run_not_consecutive"]


def test_the_contract_check_lays_out_each_run(verdict: Verdict) -> None:
    body = {
        "ruleset": "liverpool",
        "round": 2,
        "melds": [["7S", "7H", "7D"], TAPPED],
        "hand": ["KH", "7S", "JK", "7H", "QH", "7D", "10H", "2C"],
    }
    assert not verdict(CONTRACT, body)["valid"]
    data = verdict(CONTRACT, {**body, "order": "any"})
    assert data["valid"] is True, data["violations"]
    assert [meld["cards"] for meld in data["melds"]] == [
        ["7S", "7H", "7D"],
        ["10H", "JK", "QH", "KH"],
    ]
    assert data["melds"][1]["wilds"] == [{"index": 1, "stands_for": "JH"}]
    assert data["remaining"] == ["2C"] and data["goes_out"] is True


def test_the_layoff_check_takes_a_table_meld_in_any_order(verdict: Verdict) -> None:
    body = {
        "ruleset": "liverpool",
        "round": 3,
        "meld": ["QH", "10H", "KH", "JH"],
        "cards": ["JK", "9H"],
        "contract_down": "earlier_turn",
    }
    assert codes(verdict(LAYOFF, body)) == ["table_meld_invalid"]
    data = verdict(LAYOFF, {**body, "order": "any"})
    assert data["valid"] is True
    assert data["meld"]["cards"] == ["9H", "10H", "JH", "QH", "KH", "JK"]
    assert data["meld"]["wilds"] == [{"index": 5, "stands_for": "AH"}]


@pytest.mark.parametrize("cards", [["8H", "JK", "3H"], ["JK", "3H", "8H"], ["3H", "8H", "JK"]])
def test_lay_off_cards_may_always_come_in_any_order(verdict: Verdict, cards: list[str]) -> None:
    body = {
        "ruleset": "progressive",
        "round": 3,
        "meld": ["4H", "5H", "6H", "7H"],
        "cards": cards,
        "contract_down": "earlier_turn",
    }
    data = verdict(LAYOFF, body)
    assert data["valid"] is True
    assert data["meld"]["cards"] == ["3H", "4H", "5H", "6H", "7H", "8H", "JK"]


@pytest.mark.parametrize("path", [MELD, CONTRACT, LAYOFF])
@pytest.mark.parametrize("order", ["sorted", "ANY", 1, None, ["any"]])
def test_an_order_that_is_not_table_or_any_is_a_422(
    client: FlaskClient, problem: Problem, path: str, order: Any
) -> None:
    bodies: dict[str, dict[str, Any]] = {
        MELD: {"ruleset": "liverpool", "cards": TAPPED},
        CONTRACT: {"ruleset": "liverpool", "round": 1, "melds": [["7H", "7S", "7D"]]},
        LAYOFF: {
            "ruleset": "liverpool",
            "round": 3,
            "meld": ["4H", "5H", "6H", "7H"],
            "cards": ["8H"],
            "contract_down": "earlier_turn",
        },
    }
    body = problem(client.post(path, json={**bodies[path], "order": order}), 422)
    assert fields(body) == ["order"]


def test_the_swap_check_takes_no_order(client: FlaskClient, problem: Problem) -> None:
    body = {
        "ruleset": "liverpool",
        "round": 3,
        "meld": ["4H", "JK", "6H", "7H"],
        "card": "5H",
        "contract_down": "no",
        "order": "any",
    }
    assert fields(problem(client.post(SWAP, json=body), 422)) == ["order"]


# --- contract_down on the contract check ------------------------------------------------------

GOOD = {"ruleset": "liverpool", "round": 1, "melds": [["7H", "7S", "7D"], ["KH", "KS", "KD"]]}


@pytest.mark.parametrize("down", ["this_turn", "earlier_turn"])
def test_a_contract_already_down_is_refused(verdict: Verdict, down: str) -> None:
    data = verdict(CONTRACT, {**GOOD, "contract_down": down})
    assert data["valid"] is False
    (violation,) = data["violations"]
    assert violation["code"] == "contract_already_down"
    assert violation["meld"] is None and violation["card"] is None
    assert down in violation["message"]


def test_contract_down_no_is_the_default(verdict: Verdict) -> None:
    assert verdict(CONTRACT, GOOD)["valid"] is True
    assert verdict(CONTRACT, {**GOOD, "contract_down": "no"})["valid"] is True


@pytest.mark.parametrize("down", ["yes", "", None, True, 0])
def test_a_contract_down_that_is_no_moment_is_a_422(
    client: FlaskClient, problem: Problem, down: Any
) -> None:
    body = problem(client.post(CONTRACT, json={**GOOD, "contract_down": down}), 422)
    assert fields(body) == ["contract_down"]


# --- jokers -----------------------------------------------------------------------------------


def test_the_tables_jokers_limit_copies_of_the_joker(verdict: Verdict) -> None:
    body = {"ruleset": "progressive", "cards": ["7H", "7S", "JK", "JK", "JK"], "players": 4}
    assert verdict(MELD, body)["valid"] is True  # 4 jokers at a table of four
    data = verdict(MELD, {**body, "jokers": 2})
    assert [(v["code"], v["card"]) for v in data["violations"]] == [("too_many_copies", "JK")]
    assert "only 2 are in play" in data["violations"][0]["message"]
    data = verdict(PENALTY, {"ruleset": "liverpool", "cards": ["JK", "JK", "JK"], "jokers": 2})
    assert codes(data) == ["too_many_copies"] and data["total"] == 45


@pytest.mark.parametrize(
    ("path", "body"),
    [
        (MELD, {"ruleset": "liverpool", "cards": ["7H", "7S", "JK"]}),
        (CONTRACT, GOOD),
        (
            LAYOFF,
            {
                "ruleset": "liverpool",
                "round": 3,
                "meld": ["4H", "5H", "6H", "7H"],
                "cards": ["JK"],
                "contract_down": "earlier_turn",
            },
        ),
        (
            SWAP,
            {
                "ruleset": "liverpool",
                "round": 3,
                "meld": ["4H", "JK", "6H", "7H"],
                "card": "5H",
                "contract_down": "no",
            },
        ),
        (PENALTY, {"ruleset": "liverpool", "cards": ["JK"]}),
        (ANALYSIS, {"ruleset": "liverpool", "round": 1, "hand": ["7H", "7S", "JK", "KD"]}),
    ],
    ids=["meld", "contract", "layoff", "swap", "penalty", "analysis"],
)
def test_every_check_with_players_takes_jokers_within_the_range(
    client: FlaskClient, problem: Problem, path: str, body: dict[str, Any]
) -> None:
    # A Liverpool table of four may play with 2, 3 or 4 jokers.
    for jokers in (2, 3, 4):
        response = client.post(path, json={**body, "players": 4, "jokers": jokers})
        assert response.status_code == 200, response.get_json()
    for jokers in (0, 1, 5, 12):
        refused = problem(client.post(path, json={**body, "players": 4, "jokers": jokers}), 422)
        assert fields(refused) == ["jokers"]
        assert "2 to 4 jokers" in refused["detail"]
    # Without players: any table size's range (2 to 6 for Liverpool).
    assert client.post(path, json={**body, "jokers": 6}).status_code == 200
    assert fields(problem(client.post(path, json={**body, "jokers": 7}), 422)) == ["jokers"]
    # Not a count at all: the schema's 422.
    for not_a_count in (-1, 13, "3", 2.5, None, True):
        refused = problem(client.post(path, json={**body, "jokers": not_a_count}), 422)
        assert fields(refused) == ["jokers"]


def test_a_table_without_jokers_takes_only_zero(client: FlaskClient, problem: Problem) -> None:
    body = {"ruleset": "california", "cards": ["4H", "5H", "6H", "QH"], "players": 4}
    assert client.post(MELD, json={**body, "jokers": 0}).status_code == 200
    assert fields(problem(client.post(MELD, json={**body, "jokers": 1}), 422)) == ["jokers"]


def test_players_outside_the_ruleset_are_named_before_jokers(
    client: FlaskClient, problem: Problem
) -> None:
    body = {"ruleset": "contract-rummy", "cards": ["7H", "7S", "JK"], "players": 7, "jokers": 2}
    assert fields(problem(client.post(MELD, json=body), 422)) == ["players"]


# --- where a freed May I? joker goes ------------------------------------------------------------


def test_a_freed_may_i_joker_goes_to_the_hand(verdict: Verdict) -> None:
    data = verdict(
        SWAP,
        {
            "ruleset": "may-i",
            "round": 2,
            "meld": ["5H", "JK", "7H", "8H"],
            "card": "6H",
            "contract_down": "no",
        },
    )
    assert data["valid"] is True, data["violations"]
    assert (data["freed"], data["obligation"]) == ("JK", "hand")
    assert data["meld"]["cards"] == ["5H", "6H", "7H", "8H"]


# --- the ace bridge in a lay-off ----------------------------------------------------------------


def test_a_lay_off_past_the_ace_wraps_around_as_the_meld_check_says(verdict: Verdict) -> None:
    layoff = verdict(
        LAYOFF,
        {
            "ruleset": "liverpool",
            "round": 3,
            "meld": ["JH", "QH", "KH", "AH"],
            "cards": ["2H"],
            "contract_down": "earlier_turn",
        },
    )
    meld = verdict(MELD, {"ruleset": "liverpool", "cards": ["JH", "QH", "KH", "AH", "2H"]})
    assert codes(layoff) == codes(meld) == ["run_wraps_around"]
    assert layoff["violations"][0]["message"] == meld["violations"][0]["message"]
    assert layoff["violations"][0]["card"] == "2H"
