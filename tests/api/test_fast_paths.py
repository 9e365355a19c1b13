"""The fast path (``FAST_JSON``, api.fastjson) answers exactly what marshmallow answers.

Request bodies are loaded, and verdicts written as JSON text, in one pass planned from the
schemas. Here every request of a corpus — valid bodies and broken ones — is answered twice,
by an app on the fast path and by one with ``FAST_JSON`` off (marshmallow and flask.jsonify
alone), and the two answers must be the same status, headers and bytes.
"""

from __future__ import annotations

import copy
import io
import itertools
import json
import re
from collections.abc import Iterator
from typing import Any

import marshmallow as ma
import pytest
from flask import Flask, request, request_started
from werkzeug.test import EnvironBuilder, TestResponse
from werkzeug.wrappers import Response

from api import create_app
from api.fastjson import FastJSONProvider
from api.fields import CARD_PATTERN, CardField
from rules import Card

EXAMPLES: dict[str, dict[str, Any]] = {
    "/v1/checks/meld": {"ruleset": "liverpool", "cards": ["4H", "5H", "JK", "7H"]},
    "/v1/checks/contract": {
        "ruleset": "liverpool",
        "round": 2,
        "melds": [["7H", "7S", "7D"], ["4H", "5H", "JK", "7H"]],
        "hand": ["7H", "7S", "7D", "4H", "5H", "JK", "7H", "KD", "2C", "9S", "QH"],
    },
    "/v1/checks/layoff": {
        "ruleset": "liverpool",
        "round": 3,
        "meld": ["4H", "5H", "6H", "7H"],
        "cards": ["8H", "JK"],
        "contract_down": "earlier_turn",
    },
    "/v1/checks/joker-swap": {
        "ruleset": "liverpool",
        "round": 3,
        "meld": ["4H", "JK", "6H", "7H"],
        "card": "5H",
        "contract_down": "no",
    },
    "/v1/checks/buy": {
        "ruleset": "liverpool",
        "round": 1,
        "seats": 4,
        "on_turn": 1,
        "callers": [2, 3, 0],
        "buys_used": {"2": 3},
    },
    "/v1/hands/penalty": {"ruleset": "liverpool", "cards": ["QD", "JK", "4S"]},
}


class BrokenStream(io.BytesIO):
    """A request body whose reading fails, as a dropped connection's does."""

    def readinto(self, buffer: Any) -> int:
        raise ConnectionResetError("the client went away")

    def read(self, size: int | None = -1) -> bytes:
        raise ConnectionResetError("the client went away")


#: Values put in place of each field, and of each card: right, wrong, and wrong in type.
ODD: list[Any] = [
    None, True, 0, 2, 7, 12, 21, 10**20, 1.0, "", "7h", "7H\n", "T♥", "jk", "ZZ", "run",
    "low", "earlier_turn", "this_turn", "no", "any", "table", "may-i", "poker", [], {}, [[]], ["7H"], [["7H", "7S", "7D"]], [1],
    [None], ["set", None], {"base": "liverpool", "options": {"buy_limit": 2}},
    {"base": "liverpool", "options": {"nope": 1}}, {"2": 1},
]  # fmt: skip
CARD_VALUES: list[Any] = ["KD", "10c", "A♠", "2♡", "JK", "ZZ", "1H", "7H ", 7, None, ["7H"]]
OPTIONAL = (
    "hand", "players", "types", "type", "end", "joker", "previous_buyer", "down", "order",
    "jokers", "contract_down", "x",
)  # fmt: skip


def _bodies(example: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield example
    for key, value in example.items():
        yield {k: v for k, v in example.items() if k != key}
        for odd in ODD:
            yield {**example, key: copy.deepcopy(odd)}
        if isinstance(value, list):
            for index, item in enumerate(value):
                for card in CARD_VALUES:
                    body = copy.deepcopy(example)
                    body[key][index] = card
                    yield body
                if isinstance(item, list):
                    for card in CARD_VALUES:
                        body = copy.deepcopy(example)
                        body[key][index][0] = card
                        yield body
            yield {**example, key: value * 25}
    for key, odd in itertools.product(OPTIONAL, ODD):
        yield {**example, key: copy.deepcopy(odd)}


def _contract_bodies() -> Iterator[dict[str, Any]]:
    melds = [
        [["7H", "7S", "7D"], ["KH", "KS", "KD"]],
        [["7H", "7S", "JK"], ["4H", "5H", "JK", "7H"]],
        [["4H", "5H", "6H", "7H"], ["8C", "9C", "10C", "JC"], ["2S", "2D", "2C"]],
        [["QH", "KH", "AH", "2H"]],
        [["JK", "JK", "JK"], ["7H", "7S", "7D"]],
        [["7S", "JK", "7H"], ["QH", "10H", "JK", "JH"]],  # a run in any order
    ]
    rulesets = ["liverpool", "shanghai", "may-i", {"base": "liverpool", "options": {}}]
    for ruleset, round_number, laid in itertools.product(rulesets, (1, 2, 3, 6), melds):
        body = {"ruleset": ruleset, "round": round_number, "melds": laid}
        yield body
        yield {**body, "hand": [card for meld in laid for card in meld] + ["KD"], "players": 3}
        yield {**body, "types": ["set"] + [None] * (len(laid) - 1)}
        # The card order, the jokers at the table, a contract already down.
        yield {**body, "order": "any", "players": 4, "jokers": 2}
        yield {**body, "order": "any", "types": ["run"] * len(laid), "jokers": 5}
        yield {**body, "contract_down": "this_turn", "order": "table"}


def _order_and_jokers_bodies() -> Iterator[tuple[str, dict[str, Any]]]:
    """Runs given in any order, tables with fewer jokers, and what each refuses."""
    shuffled = ["QH", "10H", "KH", "JK", "JH"]
    for order, jokers, players in itertools.product(
        ("any", "table"), (None, 1, 2, 4, 7), (None, 4)
    ):
        extra = {"order": order, "jokers": jokers, "players": players}
        extra = {key: value for key, value in extra.items() if value is not None}
        for cards in (shuffled, ["AH", "3H", "JK", "2H"], ["KH", "2H", "AH", "3H"], ["7H", "JK"]):
            yield "/v1/checks/meld", {"ruleset": "liverpool", "cards": cards, **extra}
        for meld, cards in (
            (shuffled, ["9H", "JK"]),
            (["JH", "QH", "KH", "AH"], ["2H"]),
            (["7S", "7H", "JK"], ["JK", "7D"]),
        ):
            body = {"ruleset": "liverpool", "round": 3, "meld": meld, "cards": cards}
            yield "/v1/checks/layoff", {**body, "contract_down": "earlier_turn", **extra}
        extra.pop("order", None)
        swap = {**EXAMPLES["/v1/checks/joker-swap"], **extra}
        yield "/v1/checks/joker-swap", swap
        yield "/v1/hands/penalty", {"ruleset": "may-i", "cards": ["JK", "JK", "2C"], **extra}


def _corpus() -> Iterator[tuple[str, dict[str, Any]]]:
    for path, example in EXAMPLES.items():
        for body in _bodies(example):
            yield path, body
    yield from _order_and_jokers_bodies()
    for body in _contract_bodies():
        yield "/v1/checks/contract", body


@pytest.fixture
def stock_app(database_file: str) -> Iterator[Flask]:
    """The app with the fast path switched off."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_file, "FAST_JSON": False})
    yield app
    app.extensions["database"].dispose()


def _endpoint(app: Flask, path: str) -> str:
    endpoint, _ = app.url_map.bind("localhost").match(path, method="POST")
    return str(endpoint)


def test_the_switch(app: Flask, stock_app: Flask) -> None:
    assert app.config["FAST_JSON"] is True  # the default
    assert isinstance(app.json, FastJSONProvider)
    assert not isinstance(stock_app.json, FastJSONProvider)
    # The fast app serves the checks whose bodies a plan loads by views of its own (the buy
    # check's schema is marshmallow's), every one of them in the corpus, and recording a round
    # (test_matches_fast has its corpus); only those.
    replaced = {
        endpoint
        for endpoint, view in app.view_functions.items()
        if getattr(view, "__wrapped__", None) is stock_app.view_functions[endpoint]
    }
    checks = {_endpoint(app, path) for path in EXAMPLES if path != "/v1/checks/buy"}
    assert replaced == checks | {"matches.record_round"}


def test_answers_are_marshmallows(
    app: Flask, stock_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = app.test_client()
    corpus = list(_corpus())
    fast = [client.post(path, json=body) for path, body in corpus]
    assert {response.status_code for response in fast} == {200, 422}

    # The fast path is taken for every body of the contract check that loads (a house
    # ruleset's options are loaded by marshmallow), and every verdict.
    slow_calls: list[str] = []
    load, dump = ma.Schema.load, ma.Schema.dump

    def spy_load(schema: ma.Schema, *args: Any, **kwargs: Any) -> Any:
        slow_calls.append(f"load {type(schema).__name__}")
        return load(schema, *args, **kwargs)

    def spy_dump(schema: ma.Schema, *args: Any, **kwargs: Any) -> Any:
        slow_calls.append(f"dump {type(schema).__name__}")
        return dump(schema, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(ma.Schema, "load", spy_load)
        patch.setattr(ma.Schema, "dump", spy_dump)
        for body in _contract_bodies():
            if isinstance(body["ruleset"], str):
                assert client.post("/v1/checks/contract", json=body).status_code == 200
        assert slow_calls == []

    stock = stock_app.test_client()
    for (path, body), answer in zip(corpus, fast, strict=True):
        assert _same(answer, stock.post(path, json=body)), (path, body)


@pytest.mark.parametrize("language", ["de", "nl", "it", "nb"])
def test_answers_are_marshmallows_in_every_language(
    app: Flask, stock_app: Flask, language: str
) -> None:
    """The messages the fast path writes are the translated ones, byte for byte the stock
    path's, in each language (the German Progressive family's words too: shanghai is one)."""
    fast, stock = app.test_client(), stock_app.test_client()
    headers = {"Accept-Language": language}
    corpus = list(_corpus())
    fast_answers = [fast.post(path, json=body, headers=headers) for path, body in corpus]
    assert {answer.headers["Content-Language"] for answer in fast_answers} == {language}
    for (path, body), answer in zip(corpus, fast_answers, strict=True):
        assert _same(answer, stock.post(path, json=body, headers=headers)), (path, body)


#: Bodies the strict JSON rules refuse before any schema sees them, as (content type, bytes).
RAW_BODIES: list[tuple[str | None, bytes]] = [
    ("text/plain", b'{"ruleset": "liverpool"}'),
    (None, b'{"ruleset": "liverpool"}'),
    ("application/json", b""),
    ("application/json", b"  \n"),
    ("application/json", b'{"ruleset": "liverpool",'),
    ("application/json", b'{"round": NaN}'),
    ("application/json", b'{"round": Infinity}'),
    ("application/json", b"\xff\xfe"),
    ("application/json", b"[]"),
    ("application/json", b'"liverpool"'),
    ("application/json", b"null"),
    ("application/json", b'{"ruleset": ' + b"[" * 40 + b"]" * 40 + b"}"),
    ("application/json", b"[" * 5000 + b"]" * 5000),
    ("application/json", b'{"ruleset": "' + b"x" * 300 * 1024 + b'"}'),
    ("application/vnd.api+json", b'{"ruleset": "liverpool", "cards": ["7H"]}'),
]


def test_refused_bodies_are_refused_alike(app: Flask, stock_app: Flask) -> None:
    """Every body the strict JSON rules refuse (415, 400, 413) gets the stock path's answer,
    and a JSON media type other than application/json is read as JSON on both."""
    fast, stock = app.test_client(), stock_app.test_client()
    statuses = set()
    for path, (content_type, data) in itertools.product(EXAMPLES, RAW_BODIES):
        headers = {} if content_type is None else {"Content-Type": content_type}
        answer = fast.post(path, data=data, headers=headers)
        statuses.add(answer.status_code)
        assert _same(answer, stock.post(path, data=data, headers=headers)), (path, data[:40])
    assert statuses == {200, 400, 413, 415, 422}


def test_a_shallow_depth_limit_is_the_stock_paths(app: Flask, stock_app: Flask) -> None:
    """Below the deepest body a plan loads, the limit is checked as the stock path checks it."""
    for each in (app, stock_app):
        each.config["MAX_JSON_DEPTH"] = 2
    fast, stock = app.test_client(), stock_app.test_client()
    statuses = set()
    for path, body in EXAMPLES.items():
        answer = fast.post(path, json=body)
        statuses.add(answer.status_code)
        assert _same(answer, stock.post(path, json=body)), path
    assert statuses == {400, 200}  # the penalty and meld bodies nest two deep


def _headers(answer: Response) -> list[tuple[str, str]]:
    """Every header but the request id, which is made afresh for each request."""
    return [(name, value) for name, value in answer.headers.items() if name != "X-Request-Id"]


def _same(answer: TestResponse, expected: TestResponse) -> bool:
    return (answer.status_code, _headers(answer), answer.get_data()) == (
        expected.status_code,
        _headers(expected),
        expected.get_data(),
    )


@pytest.mark.parametrize(
    "setting",
    [{"compact": False}, {"sort_keys": True}, {"ensure_ascii": False}, {"debug": True}],
    ids=lambda setting: next(iter(setting)),
)
def test_json_is_written_directly_only_as_flask_writes_it(
    app: Flask, stock_app: Flask, monkeypatch: pytest.MonkeyPatch, setting: dict[str, bool]
) -> None:
    """Pretty, sorted or unescaped JSON is Flask's: the written text is written its way."""
    for name, value in setting.items():
        for each in (app, stock_app):
            monkeypatch.setattr(each if name == "debug" else each.json, name, value)
    corpus = [(path, body) for path, body in _corpus()][::40]
    fast, stock = app.test_client(), stock_app.test_client()
    for path, body in corpus:
        assert _same(fast.post(path, json=body), stock.post(path, json=body)), (path, body)


def test_a_card_is_exactly_what_the_pattern_admits() -> None:
    """CardField loads every string CARD_PATTERN admits, as Card.parse reads it, and refuses
    every other — the document's pattern and the API agree, both ways."""
    field = CardField()
    pattern = re.compile(CARD_PATTERN)
    alphabet = sorted(set("23456789AaTtJjQqKkSsHhDdCc♠♥♦♣♤♡♢♧01BXxOoRr \n\t🃏"))
    for length in (1, 2, 3):
        for letters in itertools.product(alphabet, repeat=length):
            text = "".join(letters)
            if pattern.fullmatch(text):
                assert field.deserialize(text) == Card.parse(text), repr(text)
            else:
                with pytest.raises(ma.ValidationError):
                    field.deserialize(text)
    for spelling in ("joker", "JOKER", " 7H", "7H\n", "10 H"):  # the engine reads some of these
        with pytest.raises(ma.ValidationError, match="not a card"):
            field.deserialize(spelling)


def test_contracts_written_once_are_the_schemas_own_text() -> None:
    """A contract's text is remembered by the object's identity: every preset's contracts, and
    fresh house contracts made and dropped one after another (so that a dropped one's identity
    passes to the next), past the memory's bound, still read exactly as marshmallow and Flask
    write them."""
    import json

    from api.fastjson import WRITTEN_ONCE, schema_writer
    from api.schemas.common import ContractSchema
    from rules import PRESETS, Contract

    schema = ContractSchema()
    write = schema_writer(schema)
    assert write is not None

    def flask_text(contract: Contract) -> str:
        return json.dumps(schema.dump(contract), separators=(",", ":"))

    presets = [spec.contract for ruleset in PRESETS.values() for spec in ruleset.rounds]
    for contract in presets:
        assert write(contract) == flask_text(contract)
    for n in range(2 * WRITTEN_ONCE + 7):
        fresh = Contract.parse(f"{n % 5 + 1} sets + {n % 3 + 1} runs of {n % 7 + 4}")
        assert write(fresh) == flask_text(fresh)
    for contract in presets:
        assert write(contract) == flask_text(contract)


# --- the checks' lane ----------------------------------------------------------------------


def _dispatched(app: Flask, send: Any) -> list[str]:
    """The paths Flask itself dispatched while ``send()`` ran (the lane dispatches none)."""
    seen: list[str] = []

    def started(sender: Flask, **extra: Any) -> None:
        seen.append(request.path)

    with request_started.connected_to(started, app):
        send()
    return seen


def test_plain_checks_take_the_lane(app: Flask, stock_app: Flask) -> None:
    """A plain check (a JSON body of known length, a preset, no query string) is answered
    beside Flask, by the same plans, with the same status, headers and bytes; every other
    request goes through Flask."""
    fast, stock = app.test_client(), stock_app.test_client()
    plain = [(path, body) for path, body in EXAMPLES.items() if path != "/v1/checks/buy"]
    answers: list[TestResponse] = []
    headers = {"Accept-Language": "de", "Origin": "https://app.example"}
    assert _dispatched(app, lambda: answers.extend(
        fast.post(path, json=body, headers=headers) for path, body in plain
    )) == []  # fmt: skip
    for (path, body), answer in zip(plain, answers, strict=True):
        assert _same(answer, stock.post(path, json=body, headers=headers)), path
        assert answer.headers["Content-Language"] == "de"

    contract = EXAMPLES["/v1/checks/contract"]
    through_flask = [
        lambda: fast.post("/v1/checks/contract?lang=nl", json=contract),  # the query's language
        lambda: fast.post("/v1/checks/contract", json={**contract, "round": 99}),  # refused
        lambda: fast.post("/v1/checks/contract", data=b"{", content_type="application/json"),
        lambda: fast.post("/v1/checks/contract", json=[]),
        lambda: fast.post("/v1/checks/contract", data=b"{}", content_type="text/plain"),
        lambda: fast.get("/v1/checks/contract"),
        lambda: fast.post("/v1/checks/buy", json=EXAMPLES["/v1/checks/buy"]),  # no plan
    ]
    for send in through_flask:
        assert len(_dispatched(app, send)) == 1


@pytest.mark.parametrize(
    "stream",
    [io.BytesIO(b'{"ruleset": "liv'), BrokenStream()],
    ids=["short", "broken"],
)
def test_a_body_the_lane_cannot_read_is_flasks(
    app: Flask, stock_app: Flask, stream: io.BytesIO
) -> None:
    """A body shorter than its Content-Length, or whose reading fails, is answered by Flask
    as if the lane had never read a byte of it: the same 400 problem."""
    body = json.dumps(EXAMPLES["/v1/checks/contract"]).encode()
    answers = []
    for each in (app, stock_app):
        stream.seek(0)
        environ = EnvironBuilder(
            path="/v1/checks/contract",
            method="POST",
            input_stream=stream,
            content_type="application/json",
            content_length=len(body),
        ).get_environ()
        answers.append(Response.from_app(each, environ))
    lane, flask_answer = answers
    assert lane.status_code == 400
    assert lane.mimetype == "application/problem+json"
    assert (lane.status_code, _headers(lane), lane.get_data()) == (
        flask_answer.status_code,
        _headers(flask_answer),
        flask_answer.get_data(),
    )
