"""A client generated from the checked-in openapi.yaml by openapi-python-client works.

The generator refuses a document it cannot read (a response without a description did), and
leaves out an operation whose schemas it cannot parse; then the generated package is imported
from a scratch folder and makes one real call of each operation against gunicorn, each answer
parsed into the generated models (which fail on a missing required field).
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.servers import ROOT, Server

PACKAGE = "rummy_referee_client"
OPERATIONS = {
    "analysis": ["post_v1_hands_analysis"],
    "checks": [
        "post_v1_checks_buy",
        "post_v1_checks_contract",
        "post_v1_checks_joker_swap",
        "post_v1_checks_layoff",
        "post_v1_checks_meld",
        "post_v1_hands_penalty",
    ],
    "health": ["get_healthz"],
    "matches": ["create_match", "delete_match", "get_match", "record_round", "take_back_round"],
    "rulesets": ["get_v1_rulesets", "get_v1_rulesets_ruleset_id"],
}

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    folder = tmp_path_factory.mktemp("generated")
    command = [
        str(Path(sys.executable).with_name("openapi-python-client")),
        "generate",
        "--path",
        str(ROOT / "openapi.yaml"),
        "--meta",
        "none",  # the package alone: nothing to install
        "--output-path",
        str(folder / PACKAGE),
    ]
    # The generator formats with ruff when it finds it: the virtualenv's.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=180)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "Warning" not in output and "Unable" not in output, output
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def operation(tag: str, name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.api.{tag}.{name}")


def model(name: str) -> Any:
    return getattr(importlib.import_module(f"{PACKAGE}.models"), name)


def test_every_operation_is_generated(generated: ModuleType) -> None:
    api = Path(generated.__file__ or "").parent / "api"
    found = {
        tag.name: sorted(path.stem for path in tag.glob("*.py") if path.stem != "__init__")
        for tag in api.iterdir()
        if tag.is_dir() and not tag.name.startswith("_")
    }
    assert found == OPERATIONS


def _call(tag: str, name: str, status: int, **arguments: Any) -> Any:
    answer = operation(tag, name).sync_detailed(**arguments)
    assert answer.status_code == status, answer.content
    return answer


def test_one_real_call_of_each_operation(generated: ModuleType, api_server: Server) -> None:
    # Both clients are closed at the end: their connections must not outlive the test.
    with generated.Client(base_url=api_server.url, raise_on_unexpected_status=True) as client:
        _play(generated, client, api_server)


def _play(generated: ModuleType, client: Any, api_server: Server) -> None:
    assert _call("health", "get_healthz", 200, client=client).parsed.status == "ok"
    listed = _call("rulesets", "get_v1_rulesets", 200, client=client).parsed
    assert "liverpool" in [ruleset.id for ruleset in listed.rulesets]
    detail = _call("rulesets", "get_v1_rulesets_ruleset_id", 200, ruleset_id="may-i", client=client)
    assert len(detail.parsed.rounds) == detail.parsed.round_count

    def check(name: str, schema: str, body: dict[str, Any]) -> Any:
        return _call("checks", name, 200, client=client, body=model(schema).from_dict(body)).parsed

    meld = check(
        "post_v1_checks_meld",
        "MeldCheck",
        {"ruleset": "liverpool", "cards": ["4H", "5H", "JK", "7H"]},
    )
    assert meld.valid and meld.meld.wilds[0].stands_for == "6H"
    contract = check(
        "post_v1_checks_contract",
        "ContractCheck",
        {"ruleset": "liverpool", "round": 1, "melds": [["7H", "7S", "7D"], ["9C", "9D", "JK"]]},
    )
    assert contract.valid
    layoff = check(
        "post_v1_checks_layoff",
        "LayoffCheck",
        {
            "ruleset": "liverpool",
            "round": 2,
            "meld": ["4H", "5H", "6H", "7H"],
            "cards": ["8H"],
            "contract_down": "earlier_turn",
        },
    )
    assert layoff.valid and layoff.meld.cards[-1] == "8H"
    swap = check(
        "post_v1_checks_joker_swap",
        "JokerSwapCheck",
        {
            "ruleset": "liverpool",
            "round": 2,
            "meld": ["4H", "JK", "6H", "7H"],
            "card": "5H",
            "contract_down": "earlier_turn",
        },
    )
    assert swap.valid and swap.freed == "JK"
    buy = check(
        "post_v1_checks_buy",
        "BuyCheck",
        {
            "ruleset": "liverpool",
            "round": 1,
            "seats": 4,
            "on_turn": 0,
            "callers": [2],
            "buys_used": {},
        },
    )
    assert buy.winner == 2
    penalty = check(
        "post_v1_hands_penalty", "HandPenalty", {"ruleset": "liverpool", "cards": ["QD", "JK"]}
    )
    assert penalty.total == 25
    analysis = _call(
        "analysis",
        "post_v1_hands_analysis",
        200,
        client=client,
        body=model("AnalysisRequest").from_dict(
            {
                "ruleset": "liverpool",
                "round": 1,
                "hand": ["7H", "7S", "7D", "9C", "9D", "9S", "KD", "2C", "3C", "4C"],
            }
        ),
    ).parsed
    assert analysis.can_lay

    created = _call(
        "matches",
        "create_match",
        201,
        client=client,
        body=model("MatchCreate").from_dict(
            {"ruleset": "liverpool", "players": ["Ann", "Bob", "Cleo"], "title": "Friday"}
        ),
        idempotency_key=str(uuid.uuid4()),
    )
    sheet = created.parsed
    assert created.headers["ETag"] == '"1"' and sheet.title == "Friday"
    with generated.AuthenticatedClient(
        base_url=api_server.url, token=sheet.edit_token, raise_on_unexpected_status=True
    ) as writer:
        _write(client, writer, sheet)


def _write(client: Any, writer: Any, sheet: Any) -> None:
    read = _call("matches", "get_match", 200, match_id=sheet.id, client=client)
    results = [{"seat": 0, "went_out": True}, {"seat": 1, "points": 35}, {"seat": 2, "points": 5}]
    recorded = _call(
        "matches",
        "record_round",
        200,
        match_id=sheet.id,
        number=1,
        client=writer,
        body=model("RoundWrite").from_dict({"results": results}),
        if_match=read.headers["ETag"],
    )
    assert [r.total for r in recorded.parsed.rounds[0].results] == [0, 35, 5]
    stale = _call(
        "matches",
        "record_round",
        412,
        match_id=sheet.id,
        number=1,
        client=writer,
        body=model("RoundWrite").from_dict({"results": results}),
        if_match=read.headers["ETag"],
    )
    assert stale.parsed.status == 412
    taken = _call(
        "matches",
        "take_back_round",
        200,
        match_id=sheet.id,
        number=1,
        client=writer,
        if_match=recorded.headers["ETag"],
    )
    assert taken.parsed.rounds[0].status == "pending"
    _call(
        "matches",
        "delete_match",
        204,
        match_id=sheet.id,
        client=writer,
        if_match=taken.headers["ETag"],
    )
    assert _call("matches", "get_match", 404, match_id=sheet.id, client=client).parsed.status == 404
