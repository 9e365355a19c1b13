"""schemathesis against the WSGI app: every operation, every check, in the examples, coverage
and fuzzing phases.

All of schemathesis's checks run, ``positive_data_acceptance`` and ``negative_data_rejection``
included, and ``max_response_time`` with a limit: a request the document calls valid must get
a ``2xx``, one it calls invalid a ``4xx``, and none may be slow.

One kind of rule JSON Schema cannot state: a field valid only *relative to another* — round 9
exists in ``liverpool-9`` but not in ``liverpool``, ``players`` must be within the ruleset's
range, ``jokers`` within the ruleset's range for that table size, a seat must be below
``seats``, ``joker`` must be a position of ``meld``, and house options must agree with each
other. The document says so in words; :func:`consistent` makes
the *positive* cases obey those rules before they are sent, using only what the API itself
publishes (``GET /v1/rulesets/{id}``). Negative cases go out as generated.

(``schemathesis.pytest.from_fixture`` is not used: with pytest 9 it fails before running,
reading ``Function._nodeid``, which pytest no longer has. The schema is loaded at import from
an app of its own instead.)
"""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path
from typing import Any

import schemathesis
from schemathesis import GenerationMode

from api import create_app
from api.storage import migrate
from rules import Card
from tests.api.api_testing import distinct_names, plain_title

#: A case schemathesis generated, for any of the document's operations.
Case = schemathesis.Case[Any]

CONFIG = {
    "checks": {"enabled": True, "max_response_time": 5.0},
    "phases": {
        "examples": {"enabled": True},
        "coverage": {"enabled": True},
        "fuzzing": {"enabled": True},
        # Nothing is stored, so there are no links between operations to follow.
        "stateful": {"enabled": False},
    },
    "generation": {"max-examples": 200, "mode": "all"},
}

_DATABASE = Path(tempfile.mkdtemp(prefix="rummy-schemathesis-")) / "sheets.sqlite3"
migrate(f"sqlite:///{_DATABASE}")
app = create_app(
    {"TESTING": True, "DATABASE_URL": f"sqlite:///{_DATABASE}", "RATELIMIT_ENABLED": False}
)
schema = schemathesis.openapi.from_wsgi(
    "/openapi.json", app, config=schemathesis.Config.from_dict(CONFIG)
)

_client = app.test_client()
RULESETS: dict[str, dict[str, Any]] = {
    summary["id"]: _client.get(f"/v1/rulesets/{summary['id']}").get_json()
    for summary in _client.get("/v1/rulesets").get_json()["rulesets"]
}


def _within(value: int, low: int, high: int) -> int:
    return low + (value - low) % (high - low + 1)


def consistent(body: dict[str, Any], path: str) -> None:
    """Make a schema-valid body obey the rules that relate one field to another."""
    ruleset = body["ruleset"]
    if isinstance(ruleset, dict):
        # House options must agree with each other and with their base (min_players below
        # max_players, no buy_limit without buying...): the positive cases use the base.
        ruleset.pop("options", None)
        ruleset = ruleset["base"]
    preset = RULESETS[ruleset]
    low, high = preset["players"]["min"], preset["players"]["max"]
    if path == "/v1/matches":
        # As many names as the ruleset seats, and a first dealer among them.
        names = body["players"]
        count = _within(len(names), low, high)
        body["players"] = distinct_names(names, count)
        plain_title(body)
        if "first_dealer" in body:
            body["first_dealer"] %= count
        return
    if "round" in body:
        body["round"] = _within(body["round"], 1, preset["round_count"])
    if "players" in body:
        body["players"] = _within(body["players"], low, high)
    if "jokers" in body:
        sizes = _table_sizes(preset, body.get("players"))
        fewest = min(min(size["decks"], size["jokers"]) for size in sizes)
        body["jokers"] = _within(body["jokers"], fewest, max(size["jokers"] for size in sizes))
    if path == "/v1/hands/analysis":
        hand = _possible_hand(body["hand"], preset, body.get("players"), body.get("jokers"))
        body["hand"] = hand or ["2C"]
    if path == "/v1/checks/joker-swap":
        meld = body["meld"]
        wild = [i for i, card in enumerate(meld) if _is_wild(card, preset)]
        if "joker" in body:
            body["joker"] %= len(meld)
        elif len(wild) > 1:
            body["joker"] = wild[0]
    if path == "/v1/checks/buy":
        seats = body["seats"] = _within(body["seats"], low, high)
        on_turn = body["on_turn"] = body["on_turn"] % seats
        body["callers"] = list(
            dict.fromkeys(s % seats for s in body["callers"] if s % seats != on_turn)
        )
        body["buys_used"] = {
            str(int(seat) % seats): count for seat, count in body["buys_used"].items()
        }
        if body.get("previous_buyer") is not None:
            body["previous_buyer"] %= seats
        if "down" in body:
            body["down"] = list(dict.fromkeys(s % seats for s in body["down"]))


def _table_sizes(preset: dict[str, Any], players: int | None) -> list[dict[str, Any]]:
    """The table size ``players`` play at, or every size the ruleset has."""
    sizes: list[dict[str, Any]] = preset["tables"]
    table = next((t for t in sizes if players is not None and players <= t["max_players"]), None)
    return [table] if table else sizes


def _possible_hand(
    cards: list[str], preset: dict[str, Any], players: int | None, jokers: int | None
) -> list[str]:
    """The cards, less copies beyond what the table's decks (or jokers) hold: a hand no table
    could deal is rightly refused."""
    sizes = _table_sizes(preset, players)
    decks = max(t["decks"] for t in sizes)
    if jokers is None:
        jokers = max(t["jokers"] for t in sizes)
    kept: list[str] = []
    counts: dict[str, int] = {}
    for card in cards:
        key = _canonical(card)
        counts[key] = counts.get(key, 0) + 1
        if counts[key] <= (jokers if key == "JK" else decks):
            kept.append(card)
    return kept


def _canonical(card: str) -> str:
    return str(Card.parse(card))


def _is_wild(card: str, preset: dict[str, Any]) -> bool:
    rank = card[:-1].upper().replace("T", "10")
    return card.upper() == "JK" or rank in preset["wild_ranks"]


def _make_consistent(case: Case) -> None:
    meta = case.meta
    positive = meta is None or meta.generation.mode == GenerationMode.POSITIVE
    if positive and case.headers and "Idempotency-Key" in case.headers:
        # A key names one request: reused with another body it is rightly a 422. Each
        # positive case is a request of its own, so it gets a key of its own.
        case.headers["Idempotency-Key"] = str(uuid.uuid4())
    if positive and isinstance(case.body, dict) and "ruleset" in case.body:
        consistent(case.body, case.operation.path)


@schema.hook
def map_case(context: schemathesis.HookContext, case: Case) -> Case:
    """Coverage and fuzzing cases."""
    _make_consistent(case)
    return case


@schema.hook
def before_add_examples(context: schemathesis.HookContext, examples: list[Case]) -> None:
    """Examples-phase cases (built from the document's examples, which are all positive)."""
    for case in examples:
        _make_consistent(case)


@schema.parametrize()
def test_api(case: Case) -> None:
    case.call_and_validate()
