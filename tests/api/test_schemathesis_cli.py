"""The schemathesis CLI, as another app's developer would run it: the checked-in ``openapi.yaml``
against gunicorn serving the project, every check, every phase (examples, coverage, fuzzing,
stateful), ``schemathesis.toml`` and the edit-token hooks (tests/api/schemathesis_hooks.py).

Issue 13 is done when such a run reports no failure but one kind: a request valid by the
document and refused only because one field must agree with another or with the ruleset (a
round the ruleset lacks, a table size outside its range). JSON Schema cannot say that, so the
run does report those, as ``positive_data_acceptance`` failures; :func:`allowed` tells them
apart by the problem document's field, message and code, each rule checking that the refusal's
own numbers show the disagreement. Any other failure of any check, any error, a phase that did
not run or a check that never ran fails this test, with the cases listed.

Deterministic (``--generation-deterministic``) and bounded (``--max-examples``): the coverage
phase, which walks every bound of every schema, takes most of the time.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rules.parameters import MOST_ROUNDS
from tests.servers import ROOT, sqlite_server

pytestmark = pytest.mark.server

PHASES = ("examples", "coverage", "fuzzing", "stateful")
#: Every check schemathesis 4 has; ``max_response_time`` runs once it is given a limit.
CHECKS = {
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
    "negative_data_rejection",
    "positive_data_acceptance",
    "missing_required_header",
    "unsupported_method",
    "allow_header_conformance",
    "use_after_free",
    "ensure_resource_availability",
    "ignored_auth",
    "object_level_authorization",
    "max_response_time",
}


def _outside(low: str, high: str, given: str) -> bool:
    return not int(low) <= int(given) <= int(high)


def _beyond(high: str, given: str) -> bool:
    return int(given) > int(high)


#: The refusals of the allowed kind: (field, message, what the message's numbers must show).
#: Each names a field that must agree with another field, the table or the ruleset.
RULES: list[tuple[str, str, Callable[..., bool]]] = [
    # A table size outside the ruleset's range.
    (r"players|seats", r"'[^']+' is for (\d+) to (\d+) players, not (\d+)", _outside),
    # Jokers outside the ruleset's range for the table's size.
    (
        r"jokers",
        r"'[^']+' plays with (\d+) to (\d+) jokers at (?:a table of \d+|its tables), not (\d+)",
        _outside,
    ),
    # A round the ruleset lacks.
    (r"round", r"'[^']+' has rounds 1 to (\d+), not (\d+)", _beyond),
    # Only the first rounds of the base, which has fewer than a ruleset may.
    (
        r"ruleset\.options\.round_count",
        r"round_count must be a whole number from 1 to (\d+), not (\d+)",
        lambda high, given: int(high) < MOST_ROUNDS and _beyond(high, given),
    ),
    # House options that disagree with each other or with their base.
    (r"ruleset\.options\.\w+", r"inconsistent ruleset: .+", lambda: True),
    # A seat not at a table of ``seats``; the seat on turn among those buying.
    (
        r"on_turn|callers|down|buys_used|previous_buyer",
        r"seat (\d+) is not at a table of (\d+)",
        lambda seat, seats: int(seat) >= int(seats),
    ),
    (r"callers", r"seat \d+ is on turn: taking the discard is its draw, not a buy", lambda: True),
    # A first dealer beyond the players named.
    (r"first_dealer", r"seats are 0 to (\d+), not (\d+)", _beyond),
    # A joker position beyond the meld given.
    (r"joker", r"the meld has positions 0 to (\d+), not (\d+)", _beyond),
    # More copies of a card than the table's decks (or jokers) hold.
    (
        r"hand|cards",
        r"the hand holds (\d+) of \S+, but only (\d+) are in play",
        lambda count, limit: int(count) > int(limit),
    ),
    # An Idempotency-Key names the body it was first sent with (API.md: a 422).
    (r"Idempotency-Key", r"already used with a different body", lambda: True),
]

#: A round's results that cannot agree with the table, with each other or with the ruleset.
ROUND_CODES = {
    "seat_missing",
    "seat_unknown",
    "seat_repeated",
    "several_went_out",
    "nobody_went_out",
    "out_when_stock_ran_out",
    "too_many_buys",
    "buying_not_allowed",
    "bonus_not_allowed",
    "bonus_wrong",
    "too_many_cards",
    "points_impossible",
}


def allowed_error(error: dict[str, Any]) -> bool:
    """One entry of a problem's ``errors``: a field disagreeing with another or the ruleset."""
    field, message, code = error.get("field", ""), error.get("message", ""), error.get("code")
    if code is not None:
        return code in ROUND_CODES and bool(re.fullmatch(r"results(\.\d+)?|stock_ran_out", field))
    for field_rule, message_rule, shows in RULES:
        found = re.fullmatch(message_rule, message)
        if re.fullmatch(field_rule, field) and found and shows(*found.groups()):
            return True
    return False


def allowed(check: str, status: int | None, body: str) -> bool:
    """A failure of the one allowed kind: a valid request refused only for disagreeing."""
    if check != "positive_data_acceptance" or status != 422:
        return False
    try:
        errors = json.loads(body)["errors"]
    except (ValueError, KeyError, TypeError):
        return False
    return bool(errors) and all(allowed_error(error) for error in errors)


def _problem(*errors: dict[str, Any]) -> str:
    return json.dumps({"status": 422, "errors": list(errors)})


@pytest.mark.parametrize(
    ("check", "status", "body", "verdict"),
    [
        (
            "positive_data_acceptance",
            422,
            _problem({"field": "players", "message": "'liverpool' is for 3 to 8 players, not 2"}),
            True,
        ),
        # The same words, but numbers that do not disagree: not the allowed kind.
        (
            "positive_data_acceptance",
            422,
            _problem({"field": "players", "message": "'liverpool' is for 3 to 8 players, not 4"}),
            False,
        ),
        (
            "positive_data_acceptance",
            422,
            _problem({"field": "round", "message": "'may-i' has rounds 1 to 6, not 14"}),
            True,
        ),
        # The house contract text schemathesis found: a syntax the schema did not state.
        (
            "positive_data_acceptance",
            422,
            _problem({"field": "ruleset.options.rounds", "message": "not a contract: '0'"}),
            False,
        ),
        # A bound of every ruleset (round_count is at most MOST_ROUNDS by the schema itself).
        (
            "positive_data_acceptance",
            422,
            _problem(
                {
                    "field": "ruleset.options.round_count",
                    "message": f"round_count must be a whole number from 1 to {MOST_ROUNDS},"
                    f" not {MOST_ROUNDS + 1}",
                }
            ),
            False,
        ),
        (
            "positive_data_acceptance",
            422,
            _problem({"field": "results.1", "message": "-5 points", "code": "points_negative"}),
            False,
        ),
        (
            "positive_data_acceptance",
            422,
            _problem({"field": "results.0", "message": "no seat 5", "code": "seat_unknown"}),
            True,
        ),
        # One allowed entry does not excuse another beside it.
        (
            "positive_data_acceptance",
            422,
            _problem(
                {"field": "seats", "message": "'liverpool' is for 3 to 8 players, not 2"},
                {"field": "callers.0", "message": "Not a valid integer."},
            ),
            False,
        ),
        ("positive_data_acceptance", 422, "not json", False),
        ("positive_data_acceptance", 412, _problem(), False),
        (
            "negative_data_rejection",
            422,
            _problem({"field": "players", "message": "'liverpool' is for 3 to 8 players, not 2"}),
            False,
        ),
        ("not_a_server_error", 500, "", False),
    ],
)
def test_only_a_refusal_for_disagreeing_is_allowed(
    check: str, status: int, body: str, verdict: bool
) -> None:
    assert allowed(check, status, body) is verdict


def _text(content: Any) -> str:
    if isinstance(content, dict) and "$base64" in content:
        return base64.b64decode(content["$base64"]).decode("utf-8", "replace")
    return "" if content is None else str(content)


def events(report: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    for line in report.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        [(kind, value)] = event.items()
        yield kind, value


def run_cli(folder: Path, url: str) -> Path:
    """One bounded, deterministic run of every check and phase; its NDJSON report."""
    command = [
        *(sys.executable, "-m", "schemathesis.cli"),
        *("--config-file", str(ROOT / "schemathesis.toml")),
        *("run", str(ROOT / "openapi.yaml"), "--url", url),
        # Every check runs by default; naming them (--checks all) would also turn back on the
        # one schemathesis.toml turns off for one operation (ignored_auth after a DELETE).
        *("--phases", ",".join(PHASES), "--max-response-time", "5"),
        *("--max-examples", "10", "--generation-deterministic", "--workers", "1"),
        *("--report", "ndjson", "--report-ndjson-path", str(folder / "run.ndjson"), "--no-color"),
    ]
    hooks = {"SCHEMATHESIS_HOOKS": str(ROOT / "tests" / "api" / "schemathesis_hooks.py")}
    # Run in the scratch folder: the CLI keeps its cache (.schemathesis/) in the working one.
    done = subprocess.run(
        command, cwd=folder, env={**os.environ, **hooks}, capture_output=True, timeout=170
    )
    (folder / "run.txt").write_bytes(done.stdout + done.stderr)
    assert done.returncode in (0, 1), (done.returncode, (folder / "run.txt").read_text())
    return folder / "run.ndjson"


def test_the_schemathesis_cli_finds_nothing_but_disagreeing_fields(tmp_path: Path) -> None:
    with sqlite_server(tmp_path) as server:
        report = run_cli(tmp_path, server.url)
    phases: dict[str, str] = {}
    checks_run: set[str] = set()
    refused: list[str] = []
    errors: list[str] = []
    deleted = 0
    for kind, value in events(report):
        if kind == "PhaseFinished":
            phases[value["phase"]["name"]] = value["status"]
        elif kind == "NonFatalError":
            errors.append(json.dumps(value)[:500])
        elif kind == "ScenarioFinished":
            recorder = value["recorder"]
            interactions = recorder.get("interactions", {})
            for case_id, results in recorder.get("checks", {}).items():
                response = interactions.get(case_id, {}).get("response") or {}
                request = interactions.get(case_id, {}).get("request", {})
                status = response.get("status_code")
                deleted += request.get("method") == "DELETE" and status == 204
                for result in results:
                    checks_run.add(result["name"])
                    if result["status"] == "success":
                        continue
                    body = _text(response.get("content"))
                    if not allowed(result["name"], status, body):
                        where = f"{request.get('method')} {request.get('uri')}"
                        refused.append(f"{value['phase']} {where}: {result} -> {status} {body}")
    assert not errors, errors
    assert not refused, "\n".join(refused[:20])
    # Each phase ran to its end ("failure" when it met only refusals of the allowed kind).
    assert all(phases.get(phase) in ("success", "failure") for phase in PHASES), phases
    assert checks_run == CHECKS, CHECKS ^ checks_run
    # The stateful phase wrote with the sheet's own token and ETag: sheets were deleted.
    assert deleted > 0
