"""Every error path answers an RFC 9457 problem document, never HTML and never a stack trace."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from api import create_app

#: The ``problem`` fixture (tests/api/conftest.py): the problem document, its members checked.
Problem = Callable[[TestResponse, int], dict[str, Any]]

CONTRACT = "/v1/checks/contract"
GOOD = {"ruleset": "liverpool", "round": 1, "melds": [["7H", "7S", "7D"], ["KH", "KS", "KD"]]}


def fields(body: dict[str, Any]) -> list[str]:
    return [error["field"] for error in body["errors"]]


# --- routing ------------------------------------------------------------------------------


def test_unknown_path(client: FlaskClient, problem: Problem) -> None:
    problem(client.get("/v1/nothing-here"), 404)


def test_unknown_ruleset_in_the_path(client: FlaskClient, problem: Problem) -> None:
    body = problem(client.get("/v1/rulesets/poker"), 404)
    assert "liverpool" in body["detail"]


def test_method_not_allowed(client: FlaskClient, problem: Problem) -> None:
    response = client.get(CONTRACT)
    problem(response, 405)
    assert "POST" in response.headers["Allow"]


# --- bodies that are not JSON --------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("ruleset=liverpool", "application/x-www-form-urlencoded"),
        ('{"ruleset": "liverpool"}', "text/plain"),
        ('{"ruleset": "liverpool"}', None),
    ],
    ids=["form", "text", "no-content-type"],
)
def test_not_declared_json(
    client: FlaskClient, data: str, content_type: str | None, problem: Problem
) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    problem(client.post(CONTRACT, data=data, headers=headers), 415)


@pytest.mark.parametrize(
    "data",
    [b'{"ruleset": "liverpool",', b"", b"   ", b'{"round": NaN}', b"\xff\xfe\xfa", b"[1] x"],
    ids=["truncated", "empty", "blank", "nan", "not-utf8", "trailing"],
)
def test_malformed_json(client: FlaskClient, data: bytes, problem: Problem) -> None:
    problem(client.post(CONTRACT, data=data, content_type="application/json"), 400)


def test_too_long(client: FlaskClient, problem: Problem) -> None:
    hand = ["7H"] * 60_000  # ~360 KiB of JSON
    body = problem(client.post(CONTRACT, json={**GOOD, "hand": hand}), 413)
    assert str(256 * 1024) in body["detail"]


def test_body_limit_is_a_setting(problem: Problem) -> None:
    client = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": 2048}).test_client()
    problem(client.post(CONTRACT, json={**GOOD, "hand": ["7H"] * 500}), 413)


def test_nested_past_python_recursion(client: FlaskClient, problem: Problem) -> None:
    """Python's json raises RecursionError here: it must be a 400, not a 500."""
    depth = 100_000
    data = "[" * depth + "]" * depth
    body = problem(client.post(CONTRACT, data=data, content_type="application/json"), 400)
    assert "nested" in body["detail"]


def test_nested_past_the_depth_limit(client: FlaskClient, problem: Problem) -> None:
    deep: Any = 1
    for _ in range(40):
        deep = {"x": deep}
    ruleset = {"base": "liverpool", "options": {"points": deep}}
    body = problem(client.post(CONTRACT, json={**GOOD, "ruleset": ruleset}), 400)
    assert "32" in body["detail"]


# --- well-formed bodies with wrong fields: 422, each field named ---------------------------


def test_body_not_an_object(client: FlaskClient, problem: Problem) -> None:
    body = problem(client.post(CONTRACT, json=[GOOD]), 422)
    assert fields(body) == [""]


def test_missing_fields(client: FlaskClient, problem: Problem) -> None:
    body = problem(client.post(CONTRACT, json={}), 422)
    assert sorted(fields(body)) == ["melds", "round", "ruleset"]


def test_unknown_field(client: FlaskClient, problem: Problem) -> None:
    body = problem(client.post(CONTRACT, json={**GOOD, "rounds": 2}), 422)
    assert fields(body) == ["rounds"]


def test_unknown_ruleset(client: FlaskClient, problem: Problem) -> None:
    body = problem(client.post(CONTRACT, json={**GOOD, "ruleset": "poker"}), 422)
    assert fields(body) == ["ruleset"]
    assert "liverpool" in body["errors"][0]["message"]


def test_bad_card(client: FlaskClient, problem: Problem) -> None:
    melds = [["7H", "7S", "7D"], ["KH", "ZZ", "KD"]]
    body = problem(client.post(CONTRACT, json={**GOOD, "melds": melds}), 422)
    assert body["errors"] == [{"field": "melds.1.1", "message": "not a card: 'ZZ'"}]
    assert body["detail"] == "invalid input: melds.1.1: not a card: 'ZZ'"


@pytest.mark.parametrize("card", ["7H\n", " 7H", "JOKER", "1H", "11H", "7X", "", 7])
def test_card_outside_the_notation(client: FlaskClient, card: object, problem: Problem) -> None:
    body = problem(
        client.post("/v1/hands/penalty", json={"ruleset": "liverpool", "cards": [card]}), 422
    )
    assert fields(body) == ["cards.0"]


def test_unknown_round(client: FlaskClient, problem: Problem) -> None:
    body = problem(client.post(CONTRACT, json={**GOOD, "round": 8}), 422)
    assert body["errors"] == [{"field": "round", "message": "'liverpool' has rounds 1 to 7, not 8"}]


def test_round_outside_every_ruleset(client: FlaskClient, problem: Problem) -> None:
    body = problem(client.post(CONTRACT, json={**GOOD, "round": 0}), 422)
    assert fields(body) == ["round"]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"buy_limit": "three"}, "ruleset.options.buy_limit"),
        ({"buy_limit": 0}, "ruleset.options.buy_limit"),
        ({"buying": 1}, "ruleset.options.buying"),
        ({"no_such_option": True}, "ruleset.options.no_such_option"),
        ({"buying": False, "buy_limit": 2}, "ruleset.options.buy_limit"),
        ({"min_players": 7, "max_players": 4}, "ruleset.options.min_players"),
        # The document's pattern for a contract text names the text itself.
        (
            {"rounds": [{"contract": "3 blobs", "hand_size": 10}]},
            "ruleset.options.rounds.0.contract",
        ),
        ({"rounds": [{"contract": "2 sets"}]}, "ruleset.options.rounds.0.hand_size"),
    ],
    ids=[
        "type",
        "range",
        "not-a-boolean",
        "unknown",
        "inconsistent",
        "players",
        "contract",
        "missing",
    ],
)
def test_bad_option(
    client: FlaskClient, options: dict[str, Any], field: str, problem: Problem
) -> None:
    ruleset = {"base": "liverpool", "options": options}
    body = problem(client.post(CONTRACT, json={**GOOD, "ruleset": ruleset}), 422)
    assert fields(body) == [field]


def test_house_ruleset_needs_a_base(client: FlaskClient, problem: Problem) -> None:
    body = problem(client.post(CONTRACT, json={**GOOD, "ruleset": {"options": {}}}), 422)
    assert fields(body) == ["ruleset.base"]


def test_every_invalid_field_is_named(client: FlaskClient, problem: Problem) -> None:
    request = {"ruleset": 5, "round": "two", "melds": [["7H", "QQ"]], "players": 40}
    body = problem(client.post(CONTRACT, json=request), 422)
    assert sorted(fields(body)) == ["melds.0.1", "players", "round", "ruleset"]
    assert "(and 3 more)" in body["detail"]


def test_list_bounds(client: FlaskClient, problem: Problem) -> None:
    melds = [["7H", "7S", "7D"]] * 13
    body = problem(client.post(CONTRACT, json={**GOOD, "melds": melds}), 422)
    assert fields(body) == ["melds"]
    body = problem(client.post(CONTRACT, json={**GOOD, "hand": ["7H"] * 201}), 422)
    assert fields(body) == ["hand"]


# --- questions the engine calls malformed: 422 with the engine's field ---------------------


def test_players_outside_the_ruleset(client: FlaskClient, problem: Problem) -> None:
    request = {**GOOD, "ruleset": "contract-rummy", "players": 7}
    body = problem(client.post(CONTRACT, json=request), 422)
    assert fields(body) == ["players"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seats": 9}, "seats"),
        ({"callers": [1]}, "callers"),
        ({"callers": [2, 2]}, "callers"),
        ({"callers": [5]}, "callers"),
        ({"buys_used": {"7": 1}}, "buys_used"),
        ({"buys_used": {"x": 1}}, "buys_used.x"),
        ({"previous_buyer": 4}, "previous_buyer"),
    ],
    ids=["seats", "on-turn-calls", "twice", "off-table", "buys-off-table", "not-a-seat", "prev"],
)
def test_bad_buy(client: FlaskClient, change: dict[str, Any], field: str, problem: Problem) -> None:
    request = {
        "ruleset": "contract-rummy",
        "round": 1,
        "seats": 4,
        "on_turn": 1,
        "callers": [2],
        "buys_used": {},
        **change,
    }
    body = problem(client.post("/v1/checks/buy", json=request), 422)
    assert fields(body) == [field]


def test_joker_position_outside_the_meld(client: FlaskClient, problem: Problem) -> None:
    request = {
        "ruleset": "liverpool",
        "round": 1,
        "meld": ["7H", "7S", "JK"],
        "joker": 5,
        "card": "7C",
        "contract_down": "no",
    }
    body = problem(client.post("/v1/checks/joker-swap", json=request), 422)
    assert fields(body) == ["joker"]


# --- bugs ----------------------------------------------------------------------------------


@pytest.fixture
def broken_app() -> Flask:
    app = create_app({"TESTING": True})

    @app.get("/broken")
    def broken() -> str:
        raise RuntimeError("the secret internals")

    return app


def test_unexpected_error(
    broken_app: Flask, caplog: pytest.LogCaptureFixture, problem: Problem
) -> None:
    with caplog.at_level(logging.ERROR):
        response = broken_app.test_client().get("/broken")
    body = problem(response, 500)
    assert "secret" not in response.get_data(as_text=True)
    assert body["instance"].startswith("urn:uuid:")
    (record,) = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert body["instance"] in record.getMessage()
    assert record.exc_info is not None and record.exc_info[0] is RuntimeError
