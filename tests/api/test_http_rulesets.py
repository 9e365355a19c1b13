"""``/v1/rulesets``: the presets, each with every parameter the engine has."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from api.schemas import RoundSchema, RulesetDetailSchema
from rules import PARAMETERS, PRESETS


def test_list(client: FlaskClient) -> None:
    response = client.get("/v1/rulesets")
    assert response.status_code == 200
    rulesets = response.get_json()["rulesets"]
    assert [r["id"] for r in rulesets] == list(PRESETS)
    assert rulesets[0] == {
        "id": "liverpool",
        "name": "Liverpool Rummy",
        "family": "liverpool",
        "players": {"min": 3, "max": 8},
        "round_count": 7,
    }


@pytest.mark.parametrize("ruleset_id", list(PRESETS))
def test_detail_is_every_parameter(client: FlaskClient, ruleset_id: str) -> None:
    """Nothing the engine describes is dropped on the way out."""
    response = client.get(f"/v1/rulesets/{ruleset_id}")
    assert response.status_code == 200
    shown = response.get_json()
    assert [entry["name"] for entry in shown.pop("house_options")] == list(PARAMETERS)
    assert shown == PRESETS[ruleset_id].as_dict()


def test_detail_schema_declares_every_parameter() -> None:
    """A parameter the engine adds must be declared, or the response would drop it."""
    described = PRESETS["liverpool"].as_dict()
    assert set(RulesetDetailSchema().fields) == {*described, "house_options"}
    assert set(RoundSchema().fields) == set(described["rounds"][0])


def test_rounds(client: FlaskClient) -> None:
    rounds = client.get("/v1/rulesets/contract-rummy").get_json()["rounds"]
    assert rounds[1]["contract"] == {
        "melds": [{"type": "set", "min": 3}, {"type": "run", "min": 4}],
        "text": "1 set + 1 run",
    }
    last = rounds[-1]
    assert (last["number"], last["whole_hand"], last["discard_to_go_out"]) == (7, True, False)
    assert last["hand_size"] == 12
