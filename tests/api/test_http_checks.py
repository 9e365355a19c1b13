"""The checks over HTTP: each endpoint's verdict, and every violation code docs/api.md lists.

Each code is produced by a real request and pinned with the meld index and the card the
violation names; the engine's own tests pin the rules, these pin what reaches the client.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

#: The ``verdict`` fixture (tests/api/conftest.py): POST a body, get the 200 verdict.
Verdict = Callable[[str, dict[str, Any]], dict[str, Any]]

CONTRACT = "/v1/checks/contract"
MELD = "/v1/checks/meld"
LAYOFF = "/v1/checks/layoff"
SWAP = "/v1/checks/joker-swap"
BUY = "/v1/checks/buy"
PENALTY = "/v1/hands/penalty"

SET_7 = ["7H", "7S", "7D"]
SET_K = ["KH", "KS", "KD"]
RUN_4_7 = ["4H", "5H", "6H", "7H"]


# (code, path, body, meld index, card): one request that breaks exactly that rule.
VIOLATIONS = [
    (
        "contract_mismatch",
        CONTRACT,
        {"ruleset": "liverpool", "round": 1, "melds": [SET_7, RUN_4_7]},
        None,
        None,
    ),
    (
        "set_too_short",
        CONTRACT,
        {"ruleset": "liverpool", "round": 1, "melds": [SET_7, ["KH", "KS"]]},
        1,
        None,
    ),
    (
        "run_too_short",
        CONTRACT,
        {"ruleset": "liverpool", "round": 2, "melds": [SET_7, ["4H", "5H", "6H"]]},
        1,
        None,
    ),
    (
        "set_mixed_ranks",
        CONTRACT,
        {"ruleset": "liverpool", "round": 1, "melds": [SET_7, ["KH", "KS", "QD"]]},
        1,
        "QD",
    ),
    (
        "run_mixed_suits",
        CONTRACT,
        {"ruleset": "liverpool", "round": 2, "melds": [SET_7, ["4H", "5H", "6S", "7H"]]},
        1,
        "6S",
    ),
    (
        "run_not_consecutive",
        CONTRACT,
        {"ruleset": "liverpool", "round": 2, "melds": [SET_7, ["4H", "5H", "6H", "9H"]]},
        1,
        None,
    ),
    (
        "run_wraps_around",
        CONTRACT,
        {"ruleset": "liverpool", "round": 2, "melds": [SET_7, ["QH", "KH", "AH", "2H"]]},
        1,
        None,
    ),
    (
        "too_many_wilds",
        CONTRACT,
        {"ruleset": "liverpool", "round": 1, "melds": [SET_7, ["KH", "JK", "JK"]]},
        1,
        None,
    ),
    (
        "exceeds_contract_minimum",
        CONTRACT,
        {"ruleset": "contract-rummy", "round": 1, "melds": [SET_7, ["KH", "KS", "KD", "KC"]]},
        1,
        None,
    ),
    (
        "runs_touch",
        CONTRACT,
        {"ruleset": "contract-rummy", "round": 3, "melds": [RUN_4_7, ["8H", "9H", "10H", "JH"]]},
        1,
        None,
    ),
    (
        "cards_not_in_hand",
        CONTRACT,
        {
            "ruleset": "liverpool",
            "round": 1,
            "melds": [SET_7, SET_K],
            "hand": ["7H", "7S", "7D", "KH", "KS", "2C", "3C"],
        },
        None,
        "KD",
    ),
    (
        "hand_not_used",
        CONTRACT,
        {
            "ruleset": "contract-rummy",
            "round": 7,
            "melds": [RUN_4_7, ["9S", "10S", "JS", "QS"], ["2C", "3C", "4C", "5C", "6C"]],
            "hand": [*RUN_4_7, "9S", "10S", "JS", "QS", "2C", "3C", "4C", "5C", "6C", "KD"],
        },
        None,
        None,
    ),
    (
        "no_discard_left",
        CONTRACT,
        {"ruleset": "liverpool", "round": 1, "melds": [SET_7, SET_K], "hand": SET_7 + SET_K},
        None,
        None,
    ),
    (
        "too_many_copies",
        CONTRACT,
        {"ruleset": "liverpool", "round": 1, "players": 3, "melds": [["7H"] * 3, SET_K]},
        None,
        "7H",
    ),
    (
        "contract_not_down",
        LAYOFF,
        {
            "ruleset": "liverpool",
            "round": 2,
            "meld": RUN_4_7,
            "cards": ["8H"],
            "contract_down": "no",
        },
        None,
        None,
    ),
    (
        "layoff_same_turn",
        LAYOFF,
        {
            "ruleset": "contract-rummy",
            "round": 2,
            "meld": RUN_4_7,
            "cards": ["8H"],
            "contract_down": "this_turn",
        },
        None,
        None,
    ),
    (
        "joker_locked",
        SWAP,
        {
            "ruleset": "contract-rummy",
            "round": 2,
            "meld": ["7H", "JK", "7D"],
            "card": "7S",
            "contract_down": "earlier_turn",
        },
        None,
        "JK",
    ),
    (
        "swap_card_mismatch",
        SWAP,
        {
            "ruleset": "liverpool",
            "round": 2,
            "meld": ["4H", "JK", "6H", "7H"],
            "card": "5S",
            "contract_down": "earlier_turn",
        },
        None,
        "5S",
    ),
    (
        "no_wild_there",
        SWAP,
        {
            "ruleset": "liverpool",
            "round": 2,
            "meld": ["4H", "JK", "6H", "7H"],
            "joker": 2,
            "card": "5H",
            "contract_down": "earlier_turn",
        },
        None,
        "6H",
    ),
    (
        "swaps_not_allowed",
        SWAP,
        {
            "ruleset": "progressive",
            "round": 2,
            "meld": ["4H", "JK", "6H", "7H"],
            "card": "5H",
            "contract_down": "earlier_turn",
        },
        None,
        None,
    ),
    (
        "contract_already_down",
        CONTRACT,
        {"ruleset": "liverpool", "round": 1, "melds": [SET_7, SET_K], "contract_down": "this_turn"},
        None,
        None,
    ),
]

REFUSALS = [
    ("buying_not_allowed", {"ruleset": "liverpool-no-buy", "callers": [2], "buys_used": {}}, 2),
    ("buy_limit_reached", {"ruleset": "liverpool", "callers": [2], "buys_used": {"2": 3}}, 2),
    (
        "consecutive_buy",
        {"ruleset": "contract-rummy", "callers": [2], "buys_used": {}, "previous_buyer": 2},
        2,
    ),
    ("own_discard", {"ruleset": "liverpool", "callers": [0], "buys_used": {}}, 0),
]


@pytest.mark.parametrize(
    ("code", "path", "body", "meld", "card"), VIOLATIONS, ids=[v[0] for v in VIOLATIONS]
)
def test_violation(
    client: FlaskClient,
    code: str,
    path: str,
    body: dict[str, Any],
    meld: int | None,
    card: str | None,
    verdict: Verdict,
) -> None:
    data = verdict(path, body)
    assert data["valid"] is False
    assert [v["code"] for v in data["violations"]] == [code]
    (violation,) = data["violations"]
    assert violation["meld"] == meld
    assert violation["card"] == card
    assert violation["message"]


def test_contract_not_down_for_a_swap(client: FlaskClient, verdict: Verdict) -> None:
    """Pagat's rule: a joker leaves a run only for a contract laid on an earlier turn."""
    data = verdict(
        SWAP,
        {
            "ruleset": "contract-rummy",
            "round": 2,
            "meld": ["4H", "JK", "6H", "7H"],
            "card": "5H",
            "contract_down": "this_turn",
        },
    )
    assert [v["code"] for v in data["violations"]] == ["contract_not_down"]
    assert data["obligation"] == "table_this_turn"


@pytest.mark.parametrize(("code", "body", "seat"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_buy_refusal(
    client: FlaskClient, code: str, body: dict[str, Any], seat: int, verdict: Verdict
) -> None:
    data = verdict(BUY, {"round": 1, "seats": 4, "on_turn": 1, **body})
    assert data == {
        "winner": None,
        "penalty_cards": 0,
        "refused": [{"seat": seat, "code": code, "message": data["refused"][0]["message"]}],
    }
    assert data["refused"][0]["message"]


def test_several_violations_are_reported_together(client: FlaskClient, verdict: Verdict) -> None:
    data = verdict(
        CONTRACT,
        {
            "ruleset": "liverpool",
            "round": 2,
            "melds": [["7H", "7S", "8D"], ["4H", "5H", "6S", "7H"]],
        },
    )
    assert [(v["code"], v["meld"], v["card"]) for v in data["violations"]] == [
        ("set_mixed_ranks", 0, "8D"),
        ("run_mixed_suits", 1, "6S"),
    ]


def test_contract_verdict(client: FlaskClient, verdict: Verdict) -> None:
    data = verdict(
        CONTRACT,
        {
            "ruleset": "liverpool",
            "round": 2,
            # Any case, T for ten, suit symbols: answered in the canonical notation.
            "melds": [["7h", "7♠", "7D"], ["4H", "5H", "jk", "7H"]],
            "hand": ["7H", "7S", "7D", "4H", "5H", "JK", "7H", "KD", "th"],
        },
    )
    assert data == {
        "valid": True,
        "round": 2,
        "contract": {
            "melds": [{"type": "set", "min": 3}, {"type": "run", "min": 4}],
            "text": "1 set + 1 run",
        },
        "melds": [
            {"type": "set", "suit": None, "rank": "7", "cards": SET_7, "wilds": []},
            {
                "type": "run",
                "suit": "H",
                "rank": None,
                "cards": ["4H", "5H", "JK", "7H"],
                "wilds": [{"index": 2, "stands_for": "6H"}],
            },
        ],
        "remaining": ["KD", "10H"],
        "goes_out": False,
        "violations": [],
    }


def test_contract_without_hand_leaves_going_out_open(client: FlaskClient, verdict: Verdict) -> None:
    data = verdict(CONTRACT, {"ruleset": "liverpool", "round": 1, "melds": [SET_7, SET_K]})
    assert data["valid"] is True
    assert data["remaining"] is None
    assert data["goes_out"] is None


def test_contract_goes_out_in_a_round_without_discard(
    client: FlaskClient, verdict: Verdict
) -> None:
    run = ["4H", "5H", "6H", "7H", "8H", "9H", "10H"]
    data = verdict(CONTRACT, {"ruleset": "liverpool", "round": 7, "melds": [run], "hand": run})
    assert (data["valid"], data["goes_out"], data["remaining"]) == (True, True, [])


def test_contract_with_declared_types(client: FlaskClient, verdict: Verdict) -> None:
    """One natural and a wild card read either way; ``types`` settles it."""
    data = verdict(
        CONTRACT,
        {
            "ruleset": "progressive",
            "round": 2,
            "melds": [["9S", "JK", "JK"], ["5C", "JK", "JK", "JK"]],
            "types": ["set", "run"],
        },
    )
    assert [m["type"] for m in data["melds"]] == ["set", "run"]


def test_house_ruleset(client: FlaskClient, verdict: Verdict) -> None:
    """Only three rounds are played: round 3 exists, round 4 does not."""
    house = {"base": "liverpool", "options": {"round_count": 3}}
    melds = [RUN_4_7, ["9S", "10S", "JS", "QS"]]
    data = verdict(CONTRACT, {"ruleset": house, "round": 3, "melds": melds})
    assert data["valid"] is True
    response = client.post(CONTRACT, json={"ruleset": house, "round": 4, "melds": melds})
    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == ["round"]


def test_meld(client: FlaskClient, verdict: Verdict) -> None:
    data = verdict(MELD, {"ruleset": "liverpool", "cards": ["7H", "6H", "JK", "4H"]})
    assert data == {
        "valid": True,
        "meld": {
            "type": "run",
            "suit": "H",
            "rank": None,
            "cards": ["7H", "6H", "JK", "4H"],
            "wilds": [{"index": 2, "stands_for": "5H"}],
        },
        "violations": [],
    }


def test_meld_of_a_declared_type(client: FlaskClient, verdict: Verdict) -> None:
    data = verdict(MELD, {"ruleset": "liverpool", "cards": ["7H", "7S", "8D"], "type": "set"})
    assert data["meld"]["type"] == "set"
    assert [(v["code"], v["card"]) for v in data["violations"]] == [("set_mixed_ranks", "8D")]


def test_meld_copies_depend_on_players(client: FlaskClient, verdict: Verdict) -> None:
    """Unknown table: the most decks; three players play with two."""
    body = {"ruleset": "liverpool", "cards": ["7H", "7H", "7H"]}
    assert verdict(MELD, body)["valid"] is True
    data = verdict(MELD, {**body, "players": 3})
    assert [(v["code"], v["card"]) for v in data["violations"]] == [("too_many_copies", "7H")]


def test_layoff(client: FlaskClient, verdict: Verdict) -> None:
    data = verdict(
        LAYOFF,
        {
            "ruleset": "liverpool",
            "round": 2,
            "meld": RUN_4_7,
            "cards": ["JK"],
            "contract_down": "this_turn",
            "end": "low",
        },
    )
    assert data == {
        "valid": True,
        "meld": {
            "type": "run",
            "suit": "H",
            "rank": None,
            "cards": ["JK", *RUN_4_7],
            "wilds": [{"index": 0, "stands_for": "3H"}],
        },
        "violations": [],
    }


def test_joker_swap(client: FlaskClient, verdict: Verdict) -> None:
    data = verdict(
        SWAP,
        {
            "ruleset": "liverpool",
            "round": 1,
            "meld": ["7H", "7S", "JK"],
            "card": "7C",
            "contract_down": "no",
        },
    )
    assert data == {
        "valid": True,
        "meld": {
            "type": "set",
            "suit": None,
            "rank": "7",
            "cards": ["7H", "7S", "7C"],
            "wilds": [],
        },
        "freed": "JK",
        "obligation": "own_meld_now",
        "violations": [],
    }


def test_joker_swap_names_the_joker_among_several(client: FlaskClient, verdict: Verdict) -> None:
    body = {
        "ruleset": "liverpool",
        "round": 2,
        "meld": ["4H", "JK", "JK", "7H"],
        "card": "6H",
        "contract_down": "no",
    }
    response = client.post(SWAP, json=body)
    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == ["joker"]
    data = verdict(SWAP, {**body, "joker": 2})
    assert data["valid"] is True
    assert data["meld"]["cards"] == ["4H", "JK", "6H", "7H"]


def test_joker_swap_counts_copies_by_the_table(client: FlaskClient, verdict: Verdict) -> None:
    # docs/rules.md §2: at most 2 copies of a card with two decks (liverpool, 3-4 players), 3 with three.
    body = {
        "ruleset": "liverpool",
        "round": 2,
        "meld": ["7H", "7H", "JK"],
        "card": "7H",
        "contract_down": "earlier_turn",
    }
    assert verdict(SWAP, body)["valid"] is True
    data = verdict(SWAP, {**body, "players": 4})
    assert data["valid"] is False
    assert [(v["code"], v["card"]) for v in data["violations"]] == [("too_many_copies", "7H")]
    response = client.post(SWAP, json={**body, "players": 9})
    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == ["players"]


def test_buy_goes_to_the_nearest_caller(client: FlaskClient, verdict: Verdict) -> None:
    data = verdict(
        BUY,
        {
            "ruleset": "liverpool",
            "round": 1,
            "seats": 5,
            "on_turn": 2,
            "callers": [0, 4, 3],
            "buys_used": {"3": 2},
        },
    )
    assert data["winner"] == 3
    assert data["penalty_cards"] == 1
    assert [(r["seat"], r["code"]) for r in data["refused"]] == [
        (4, "nearer_caller"),
        (0, "nearer_caller"),
    ]


def test_buy_with_seats_down(client: FlaskClient, verdict: Verdict) -> None:
    """May I?: a player whose contract is down no longer buys."""
    data = verdict(
        BUY,
        {
            "ruleset": "may-i",
            "round": 1,
            "seats": 4,
            "on_turn": 1,
            "callers": [2, 3],
            "buys_used": {},
            "down": [2],
        },
    )
    assert data["winner"] == 3
    assert [(r["seat"], r["code"]) for r in data["refused"]] == [(2, "caller_down")]


def test_penalty(client: FlaskClient, verdict: Verdict) -> None:
    # docs/rules.md §3.2's worked example: 4 + 8 + Q + joker = 37.
    data = verdict(PENALTY, {"ruleset": "contract-rummy", "cards": ["4s", "8♥", "QD", "jk"]})
    assert data == {
        "total": 37,
        "cards": [
            {"card": "4S", "points": 4},
            {"card": "8H", "points": 8},
            {"card": "QD", "points": 10},
            {"card": "JK", "points": 15},
        ],
        "violations": [],
    }


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"ruleset": "california", "cards": ["JK"]}, "only 0 are in play"),
        ({"ruleset": "contract-rummy", "cards": ["AS", "AS", "AS"]}, "only 2 are in play"),
        ({"ruleset": "liverpool", "cards": ["AS", "AS", "AS"], "players": 3}, "only 2 are"),
    ],
)
def test_penalty_of_a_hand_no_table_could_deal(
    client: FlaskClient, body: dict[str, Any], message: str, verdict: Verdict
) -> None:
    data = verdict(PENALTY, body)
    assert data["total"] == sum(card["points"] for card in data["cards"])
    [violation] = data["violations"]
    assert violation["code"] == "too_many_copies" and message in violation["message"]


def test_penalty_of_an_empty_hand(client: FlaskClient, verdict: Verdict) -> None:
    assert verdict(PENALTY, {"ruleset": "progressive", "cards": []}) == {
        "total": 0,
        "cards": [],
        "violations": [],
    }
