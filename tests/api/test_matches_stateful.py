"""schemathesis's stateful phase: sequences of calls that follow the document's links.

``POST /v1/matches`` links its answer to reading, recording a round, taking it back and
deleting the sheet. Following them the way a phone would, every call is checked by all of
schemathesis's checks. The phone keeps what a phone keeps: the edit token of each sheet it
made (sent as its bearer token) and a round that could have happened (one player out, points
the ruleset's cards add up to), as the document says in words but JSON Schema cannot.
"""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from requests.structures import CaseInsensitiveDict
from schemathesis import GenerationMode

from api import create_app
from api.storage import migrate
from tests.api.api_testing import distinct_names, plain_title

#: A case schemathesis generated, for any of the document's operations.
Case = schemathesis.Case[Any]

_DATABASE = Path(tempfile.mkdtemp(prefix="rummy-stateful-")) / "sheets.sqlite3"
migrate(f"sqlite:///{_DATABASE}")
app = create_app(
    {"TESTING": True, "DATABASE_URL": f"sqlite:///{_DATABASE}", "RATELIMIT_ENABLED": False}
)
schema = schemathesis.openapi.from_wsgi(
    "/openapi.json",
    app,
    config=schemathesis.Config.from_dict(
        {
            "checks": {"enabled": True, "max_response_time": 5.0},
            "phases": {"stateful": {"enabled": True}},
            # ignored_auth repeats a successful call without (or with a wrong) token and
            # expects 401/403. After a successful DELETE the sheet is gone, so the repeat
            # rightly answers 404: the check cannot apply to deleting. (Writes without a
            # token are refused with 401 before the sheet is looked up, which the check
            # confirms on every other write, and test_matches_http pins for DELETE.)
            "operations": [
                {
                    "include-operation-id": "deleteMatch",
                    "checks": {"ignored_auth": {"enabled": False}},
                }
            ],
        }
    ),
)

#: What the phone remembers of each sheet it made: its token and how many players.
SHEETS: dict[str, tuple[str, int]] = {}


def a_round(players: int, number: int) -> dict[str, Any]:
    out = number % players
    return {
        "results": [
            {"seat": s, "went_out": True} if s == out else {"seat": s, "points": 5 * (s + 1)}
            for s in range(players)
        ]
    }


PLAYERS = {
    summary["id"]: (summary["players"]["min"], summary["players"]["max"])
    for summary in app.test_client().get("/v1/rulesets").get_json()["rulesets"]
}


def a_sheet(body: dict[str, Any]) -> None:
    """A sheet a table could start: as many names as the ruleset seats, a dealer among them."""
    ruleset = body.get("ruleset")
    if isinstance(ruleset, dict):
        ruleset.pop("options", None)  # house options must agree with each other: keep the base
        ruleset = ruleset["base"]
    low, high = PLAYERS[ruleset]
    names = body["players"] or ["P"]
    count = min(max(len(names), low), high)
    body["players"] = distinct_names(names, count)
    plain_title(body)
    body["first_dealer"] = body.get("first_dealer", 0) % count


def _known(case: Case) -> tuple[str, int] | None:
    match_id = (case.path_parameters or {}).get("match_id")
    return SHEETS.get(match_id) if isinstance(match_id, str) else None


@schema.auth(refresh_interval=None)
class EditToken:
    """The phone's credentials: the edit token of the sheet a call is about, if it made it.

    Given through schemathesis's auth, so that its ignored_auth check knows a call was
    authenticated and tries it again without the token, and with a wrong one.
    """

    def get(self, case: Case, context: schemathesis.AuthContext) -> str | None:
        known = _known(case)
        return known[0] if known else None

    def set(self, case: Case, data: str | None, context: schemathesis.AuthContext) -> None:
        if data is not None:
            headers = CaseInsensitiveDict(case.headers)
            headers["Authorization"] = f"Bearer {data}"
            case.headers = headers


class PhoneWorkflow(schema.as_state_machine()):  # type: ignore[misc]
    def before_call(self, case: Case) -> None:
        meta = case.meta
        if meta is not None and meta.generation.mode != GenerationMode.POSITIVE:
            return  # a request meant to be wrong goes out as generated
        if case.method == "POST" and case.path == "/v1/matches" and isinstance(case.body, dict):
            a_sheet(case.body)
            if case.headers and "Idempotency-Key" in case.headers:
                case.headers["Idempotency-Key"] = str(uuid.uuid4())
            return
        known = _known(case)
        if known is None:
            return
        # The phone writes on what it has just read: If-Match is the sheet's ETag now.
        headers = CaseInsensitiveDict(
            {k: v for k, v in (case.headers or {}).items() if k.lower() != "if-match"}
        )
        read = app.test_client().get(f"/v1/matches/{case.path_parameters['match_id']}")
        if "ETag" in read.headers:
            headers["If-Match"] = read.headers["ETag"]
        case.headers = headers
        if case.method == "PUT":
            case.body = a_round(known[1], int((case.path_parameters or {}).get("number", 1)))

    def after_call(self, response: schemathesis.Response, case: Case) -> None:
        super().after_call(response, case)
        if case.method == "POST" and case.path == "/v1/matches" and response.status_code == 201:
            sheet = response.json()
            SHEETS[sheet["id"]] = (sheet["edit_token"], len(sheet["players"]))


def test_a_phone_following_the_links() -> None:
    PhoneWorkflow.run(
        settings=settings(
            max_examples=100,
            stateful_step_count=6,
            suppress_health_check=list(HealthCheck),
        )
    )
    # The run must have made sheets and written to them, or it tested little.
    client = app.test_client()
    written = 0
    for match_id in SHEETS:
        answer = client.get(f"/v1/matches/{match_id}")
        if answer.status_code == 200 and answer.get_json()["version"] > 1:
            written += 1
    assert SHEETS, "no sheet was created by the stateful run"
    assert written, "no sheet was written to by the stateful run"
