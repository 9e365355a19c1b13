"""The match-sheet answers byte for byte: status, the headers a client acts on, and the body.

A phone keeps what it was answered (the idempotent replay repeats a first answer exactly), so a
change of layout, key order or message is a change of the API even where the JSON means the
same. Each scenario below is played on SQLite and on PostgreSQL and compared with the answers
kept in ``test_matches_answers.json``. What differs from run to run — the sheet's id, its edit
token, its timestamps — is replaced by a placeholder before comparing, and so is the stored
ruleset (its texts are the presets', pinned by the rules' own tests); the ruleset is checked
here to be exactly what ``GET /v1/rulesets/{id}`` would resolve it to.

Run this file as a script to write the kept answers anew, after a change that is meant.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

KEPT = Path(__file__).with_suffix(".json")
#: The headers whose values are part of the contract (Location, ETag, the 401's challenge...),
#: kept in the order they are sent.
HEADERS = (
    "Content-Type",
    "Location",
    "ETag",
    "WWW-Authenticate",
    "Content-Disposition",
    "Idempotent-Replayed",
)
PLAYERS = ["Ann", "Bob", "Cleo"]
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def rounds_of(plan: list[tuple[int, dict[int, Any]]]) -> Iterator[list[dict[str, Any]]]:
    for out, others in plan:
        yield [
            {"seat": seat, "went_out": True} if seat == out else {"seat": seat, **others[seat]}
            for seat in range(len(PLAYERS))
        ]


class Table:
    """A client that records every answer of a scenario, as the text a phone would get."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.answers: list[dict[str, Any]] = []
        self.secrets: dict[str, str] = {}

    def send(self, method: str, path: str, **options: Any) -> Any:
        answer = self.client.open(path, method=method, **options)
        text = answer.get_data(as_text=True)
        if answer.mimetype == "application/json" and text:
            body = json.loads(text)
            for name in ("id", "edit_token"):
                if name in body:
                    self.secrets.setdefault(body[name], f"<{name} {len(self.secrets)}>")
            if "ruleset" in body:
                ruleset = json.dumps(body["ruleset"], separators=(",", ":"), ensure_ascii=False)
                assert ruleset in text
                text = text.replace(ruleset, '"<ruleset>"')
        for secret, placeholder in self.secrets.items():
            text = text.replace(secret, placeholder)
        headers = [
            [name, self.hide(value)] for name, value in answer.headers.items() if name in HEADERS
        ]
        self.answers.append(
            {
                "request": f"{method} {self.hide(path)}",
                "status": answer.status_code,
                "headers": headers,
                "body": STAMP.sub("<time>", text),
            }
        )
        return answer

    def hide(self, text: str) -> str:
        for secret, placeholder in self.secrets.items():
            text = text.replace(secret, placeholder)
        return text

    def create(self, **body: Any) -> dict[str, Any]:
        answer = self.send("POST", "/v1/matches", json={"players": PLAYERS, **body})
        assert answer.status_code == 201
        return answer.get_json()  # type: ignore[no-any-return]

    def put(self, sheet: dict[str, Any], number: int, body: Any, **headers: str) -> Any:
        """A round written as a phone writes it: with the token and, unless told otherwise,
        ``If-Match: *`` (the scenarios are about the answers, not about staleness)."""
        return self.send(
            "PUT",
            f"/v1/matches/{sheet['id']}/rounds/{number}",
            json=body,
            headers={"Authorization": f"Bearer {sheet['edit_token']}", "If-Match": "*", **headers},
        )

    def write(self, method: str, sheet: dict[str, Any], path: str = "", **headers: str) -> Any:
        return self.send(
            method,
            f"/v1/matches/{sheet['id']}{path}",
            headers={"Authorization": f"Bearer {sheet['edit_token']}", **headers},
        )


def a_liverpool_evening(table: Table) -> None:
    sheet = table.create(ruleset="liverpool", first_dealer=1)
    table.send("GET", f"/v1/matches/{sheet['id']}")
    table.put(
        sheet,
        1,
        {
            "results": [
                {"seat": 0, "went_out": True},
                {"seat": 1, "points": 35, "buys": 1},
                {"seat": 2, "cards": ["AS", "KH", "JK"]},
            ]
        },
    )
    table.put(
        sheet,
        2,
        {"results": [{"seat": s, "points": 10 * (s + 1)} for s in range(3)], "stock_ran_out": True},
        **{"If-Match": '"2"'},
    )
    table.send("GET", f"/v1/matches/{sheet['id']}", headers={"Accept": "text/csv"})
    table.send("GET", f"/v1/matches/{sheet['id']}", headers={"If-None-Match": '"3"'})
    table.write("DELETE", sheet, "/rounds/2", **{"If-Match": '"3"'})


def a_level_finish(table: Table) -> None:
    """Two seats end level: decided by the last round in Liverpool, shared in Contract Rummy."""
    plan = [(0, {1: {"points": 10}, 2: {"points": 20}})] * 6
    plan.append((1, {0: {"points": 60}, 2: {"points": 5}}))
    for ruleset in ("liverpool", {"base": "contract-rummy", "options": {"cut_bonus": 50}}):
        sheet = table.create(ruleset=ruleset)
        for number, results in enumerate(rounds_of(plan), start=1):
            table.put(sheet, number, {"results": results})


def refusals(table: Table) -> None:
    sheet = table.create(ruleset="liverpool", title="  Friday   ")
    path = f"/v1/matches/{sheet['id']}"
    good = {"results": next(rounds_of([(0, {1: {"points": 5}, 2: {"points": 5}})]))}
    table.send("PUT", f"{path}/rounds/1", json=good)  # 401
    table.send("PUT", f"{path}/rounds/1", json=good, headers={"Authorization": "Bearer wrong"})
    table.send("GET", "/v1/matches/no-such-sheet")
    table.put(sheet, 8, good)  # liverpool has 7 rounds
    table.put(sheet, 2, good)  # before round 1
    table.put(sheet, 1, good, **{"If-Match": '"7"'})
    table.send(  # 428: no If-Match
        "PUT",
        f"{path}/rounds/1",
        json=good,
        headers={"Authorization": f"Bearer {sheet['edit_token']}"},
    )
    table.put(
        sheet,
        1,
        {"results": [{"seat": 0, "went_out": True}, {"seat": 1, "went_out": True}]},
    )
    table.put(sheet, 1, good)
    table.write("DELETE", sheet, "/rounds/0", **{"If-Match": "*"})
    table.put(sheet, 2, good)
    table.write("DELETE", sheet, "/rounds/1")  # 428
    table.write("DELETE", sheet, "/rounds/1", **{"If-Match": '"3"'})
    table.send("POST", "/v1/matches", json={"ruleset": "liverpool", "players": ["A", "B"]})
    table.send(
        "POST", "/v1/matches", json={"ruleset": "liverpool", "players": PLAYERS, "first_dealer": 5}
    )
    table.send("POST", "/v1/matches", json={"ruleset": "liverpool", "players": ["A", "B", "a"]})
    table.write("DELETE", sheet)  # 428
    table.write("DELETE", sheet, **{"If-Match": '"3"'})
    table.send("GET", path)


def a_retried_creation(table: Table) -> None:
    key = {"Idempotency-Key": "a2b7c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"}
    body = {"ruleset": "liverpool", "players": PLAYERS}
    table.send("POST", "/v1/matches", json=body, headers=key)
    table.send("POST", "/v1/matches", json=body, headers=key)
    table.send("POST", "/v1/matches", json={**body, "players": ["A", "B", "C"]}, headers=key)
    table.send("POST", "/v1/matches", json=body, headers={"Idempotency-Key": ""})


SCENARIOS: dict[str, Callable[[Table], None]] = {
    "a liverpool evening": a_liverpool_evening,
    "a level finish": a_level_finish,
    "refusals": refusals,
    "a retried creation": a_retried_creation,
}


def play(client: FlaskClient, scenario: str) -> list[dict[str, Any]]:
    table = Table(client)
    SCENARIOS[scenario](table)
    return table.answers


def kept() -> dict[str, Any]:
    return json.loads(KEPT.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_the_answers_are_the_kept_ones(backend_client: FlaskClient, scenario: str) -> None:
    answers = play(backend_client, scenario)
    expected = kept()[scenario]
    assert [a["request"] for a in answers] == [e["request"] for e in expected]
    for answer, wanted in zip(answers, expected, strict=True):
        assert answer == wanted, answer["request"]


def test_the_stored_ruleset_is_the_resolved_one(backend_client: FlaskClient) -> None:
    house = {"base": "contract-rummy", "options": {"cut_bonus": 50}}
    sheet = Table(backend_client).create(ruleset=house)
    resolved = backend_client.get("/v1/rulesets/contract-rummy").get_json()
    assert sheet["ruleset"]["options"] == {"cut_bonus": 50}
    assert sheet["ruleset"]["cut_bonus"] == 50
    # house_options is what a preset offers to change, not part of a ruleset: no sheet has it.
    skipped = ("options", "cut_bonus", "rounds", "tables", "house_options")
    unchanged = {k for k in resolved if k not in skipped}
    assert {k: sheet["ruleset"][k] for k in unchanged} == {k: resolved[k] for k in unchanged}


def write_kept_answers(app: Flask) -> None:
    answers = {name: play(app.test_client(), name) for name in SCENARIOS}
    KEPT.write_text(json.dumps(answers, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from api import create_app
    from api.storage import migrate

    url = f"sqlite:///{tempfile.mkdtemp()}/answers.sqlite3"
    migrate(url)
    write_kept_answers(
        create_app({"TESTING": True, "DATABASE_URL": url, "RATELIMIT_ENABLED": False})
    )
