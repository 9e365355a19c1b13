"""The sheets' fast path (``FAST_JSON``, api.fastjson) answers exactly what marshmallow answers.

With the switch on, a sheet is dumped by a plan of api.fastjson's own instead of by
marshmallow's walk of ``SheetSchema`` (``test_matches_answers`` plays its scenarios both ways
against the kept bytes). Here score sheets of every shape — pending and played rounds, cards
and points, a tie decided and one shared, a created sheet with its token, values of unexpected
types — are dumped both ways and must give the same JSON text. A round's body is loaded by a plan too: a corpus of good and
broken bodies loads, or is refused, the same both ways.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from marshmallow import fields

from api import create_app, i18n
from api.matches import CREATED_SHEET, SHEET, SheetSchema
from api.storage import sheets
from api.storage.scoresheet import ScoreSheet, score_sheet
from rules import PRESETS, Ruleset, parse_cards
from rules import i18n as words
from rules.match import Entry, TieBreak


@pytest.fixture(scope="module")
def fast_app(database_file: str) -> Flask:
    return create_app({"TESTING": True, "DATABASE_URL": database_file, "RATELIMIT_ENABLED": False})


@pytest.fixture(scope="module")
def stock_app(database_file: str) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "DATABASE_URL": database_file,
            "FAST_JSON": False,
            "RATELIMIT_ENABLED": False,
        }
    )


def test_the_sheet_schemas_are_planned() -> None:
    """Both sheet schemas take the fast path; a schema with a field the plan does not know
    (here one more) is left to marshmallow."""
    assert SHEET.one_pass is not None
    assert CREATED_SHEET.one_pass is not None

    class Annotated(SheetSchema):
        note = fields.String()

    class Renamed(SheetSchema):
        version = fields.Integer(data_key="revision")

    assert Annotated().one_pass is None
    assert Renamed().one_pass is None


def _sheet(ruleset: Ruleset, players: list[str], first_dealer: int = 0) -> sheets.Sheet:
    moment = datetime(2026, 12, 1, 10, 0, 0, 123456, tzinfo=UTC)
    return sheets.Sheet(
        id="a-sheet",
        ruleset_text=json.dumps(ruleset.as_dict()),
        players=players,
        first_dealer=first_dealer,
        edit_token_hash="0" * 64,
        version=1,
        rounds=[],
        created_at=moment,
        updated_at=moment.replace(tzinfo=None),  # as SQLite hands it back
    )


def _record(sheet: sheets.Sheet, number: int, entries: list[Entry], ran_out: bool = False) -> None:
    sheets.record_round(sheet, number, sheets.RoundInput(tuple(entries), ran_out))


def score_sheets() -> Iterator[tuple[str, ScoreSheet]]:
    """Score sheets of every shape a table can leave."""
    liverpool = PRESETS["liverpool"]
    sheet = _sheet(liverpool, ["Ann", "Bob", "Cléo"], first_dealer=2)
    yield "new", score_sheet(sheet)
    yield "created", score_sheet(sheet, edit_token="a-token")
    _record(
        sheet,
        1,
        [
            Entry(0, went_out=True),
            Entry(1, points=35, buys=1),
            Entry(2, cards=tuple(parse_cards(["AS", "KH", "JK"]))),
        ],
    )
    yield "one round, cards and points", score_sheet(sheet)
    _record(sheet, 2, [Entry(seat, points=10 * (seat + 1)) for seat in range(3)], ran_out=True)
    yield "the stock ran out", score_sheet(sheet)
    for ruleset_id in ("liverpool", "contract-rummy"):
        level = _sheet(PRESETS[ruleset_id], ["Ann", "Bob", "Cleo"])
        for number in range(1, level.ruleset.round_count):
            _record(
                level, number, [Entry(0, went_out=True), Entry(1, points=10), Entry(2, points=20)]
            )
        last = [Entry(1, went_out=True), Entry(0, points=60), Entry(2, points=5)]
        _record(level, level.ruleset.round_count, last)
        yield f"a level finish in {ruleset_id}", score_sheet(level)
    titled = _sheet(liverpool, ["Ann", "=Bob", "Ren\u00e9"])
    titled.title = "Friday at Cl\u00e9o's"
    _record(titled, 1, [Entry(0, went_out=True), Entry(1, points=35), Entry(2, points=5)])
    _record(titled, 2, [Entry(1, went_out=True), Entry(0, points=15), Entry(2, points=40)])
    yield "a title and running totals", score_sheet(titled)
    played = score_sheet(sheet)
    yield "an integer given as a bool", dataclasses.replace(played, first_dealer=True)
    yield "a title as another type", dataclasses.replace(played, title=7)  # type: ignore[arg-type]
    yield (
        "a tie break as another type",
        dataclasses.replace(played, tie_break=TieBreak("replay", (0, 1), 7, False), winners=[0, 1]),
    )
    yield "no tie break attributes", dataclasses.replace(played, tie_break=object())  # type: ignore[arg-type]


SHAPES = dict(score_sheets())


@pytest.mark.parametrize("language", ["en", "de", "it"])
@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("schema", [SHEET, CREATED_SHEET], ids=["sheet", "created"])
def test_a_sheet_dumps_the_same_both_ways(
    fast_app: Flask, stock_app: Flask, schema: SheetSchema, shape: str, language: str
) -> None:
    """Byte for byte, in every language (a contract's words are written in it)."""
    score = SHAPES[shape]
    if schema is CREATED_SHEET and score.edit_token is None:
        score = dataclasses.replace(score, edit_token="a-token")
    written: list[str] = []
    for app in (stock_app, fast_app):
        with app.app_context(), words.speaking(i18n.language(language)):
            try:
                written.append(app.json.dumps(schema.dump(score)))
            except Exception as error:  # noqa: BLE001 — the two paths must fail alike too
                written.append(repr(error))
    assert written[0] == written[1]
    assert written[0].startswith('{"id": "a-sheet"'), written[0]


#: The shapes a stored sheet reads back as: the fast path's own, never left to marshmallow.
STORED_SHAPES = [
    shape for shape in SHAPES if not shape.startswith(("an ", "a tie", "a title as", "no "))
]


@pytest.mark.parametrize("shape", STORED_SHAPES)
def test_the_plan_itself_builds_the_stock_dict(stock_app: Flask, shape: str) -> None:
    """Not only the same text, and not by falling back: the plan's own dict is marshmallow's,
    values, keys and their order."""
    score = dataclasses.replace(SHAPES[shape], edit_token="a-token")
    for schema in (SHEET, CREATED_SHEET):
        with stock_app.app_context():
            stock: dict[str, Any] = schema.dump(score)
        assert schema.one_pass is not None
        fast = schema.one_pass(score)
        assert fast == stock
        assert stock_app.json.dumps(fast) == stock_app.json.dumps(stock)


def test_keys_are_left_out_as_the_schemas_leave_them_out(fast_app: Flask) -> None:
    score = SHAPES["one round, cards and points"]
    with fast_app.app_context():
        dumped: dict[str, Any] = SHEET.dump(score)
    first, second = dumped["rounds"][:2]
    assert first["status"] == "played" and "cards" in first["results"][2]
    assert "cards" not in first["results"][1]
    assert second["status"] == "pending"
    assert "results" not in second and "stock_ran_out" not in second


# --- a round's results, loaded ----------------------------------------------------------------

GOOD_ROUND: dict[str, Any] = {
    "results": [
        {"seat": 0, "went_out": True},
        {"seat": 1, "points": 35, "buys": 1},
        {"seat": 2, "cards": ["AS", "KH", "JK"], "bonus": 20},
    ],
    "stock_ran_out": False,
}
#: Values put in place of each entry field: right, wrong, and wrong in type.
ENTRY_VALUES: dict[str, list[Any]] = {
    "seat": [0, 7, 8, -1, True, 1.0, "1", None],
    "went_out": [True, False, 1, "true", None],
    "points": [35, 0, -1000, -1001, 5000, 5001, 3.5, True, "35", None],
    "cards": [["AS"], [], ["AS"] * 60, ["AS"] * 61, ["1H"], ["as"], "AS", [5], [None], None],
    "buys": [0, 50, 51, -1, False, None],
    "bonus": [0, 500, 501, -1, 1.5, None],
    "extra": [1],
}


def round_bodies() -> Iterator[Any]:
    """The good body, then each of its fields and each entry's in turn replaced or left out."""
    yield GOOD_ROUND
    yield {"results": GOOD_ROUND["results"]}
    for value in (True, 0, 1, "false", None):
        yield {**GOOD_ROUND, "stock_ran_out": value}
    for results in ([], [{"seat": 0, "went_out": True}] * 9, {}, "x", [1], [[]], None):
        yield {"results": results}
    yield {"stock_ran_out": True}
    yield {**GOOD_ROUND, "extra": 1}
    for index in range(len(GOOD_ROUND["results"])):
        for name, values in ENTRY_VALUES.items():
            for value in [*values, "left out"]:
                entry = dict(GOOD_ROUND["results"][index])
                if value == "left out":
                    entry.pop(name, None)
                else:
                    entry[name] = value
                results = list(GOOD_ROUND["results"])
                results[index] = entry
                yield {**GOOD_ROUND, "results": results}


def _loaded(load: Any, body: Any) -> Any:
    try:
        return ("loaded", load(body))
    except Exception as error:  # noqa: BLE001 — the refusals are compared too
        return ("refused", type(error).__name__, getattr(error, "messages", None))


def test_the_round_schema_is_planned() -> None:
    from api.matches import RoundWriteSchema

    assert RoundWriteSchema().one_pass is not None


@pytest.mark.parametrize("body", list(round_bodies()), ids=repr)
def test_a_round_loads_the_same_both_ways(fast_app: Flask, stock_app: Flask, body: Any) -> None:
    from api.matches import RoundWriteSchema

    schema = RoundWriteSchema()
    with stock_app.app_context():
        stock = _loaded(schema.load, body)
    with fast_app.app_context():
        fast = _loaded(schema.load, body)
    assert fast == stock
    plan = schema.one_pass
    assert plan is not None
    planned = _loaded(plan, body)
    if planned[0] == "loaded":  # what the plan loads itself, it loads as marshmallow does
        assert planned == stock
    else:  # and what it is not sure of, it leaves to marshmallow
        assert planned[1] in ("GiveUp", "ValidationError")


# --- a round recorded over HTTP -------------------------------------------------------------------


def _put_round(app: Flask, body: Any) -> tuple[int, Any, int]:
    """A new three-seat sheet, round 1 put to it: the answer's status, its JSON with the
    sheet's own values (id, times) left out, and the version the sheet is stored at after."""
    client = app.test_client()
    made = client.post("/v1/matches", json={"ruleset": "liverpool", "players": ["A", "B", "C"]})
    sheet = made.get_json()
    answer = client.put(
        f"/v1/matches/{sheet['id']}/rounds/1",
        json=body,
        headers={"Authorization": f"Bearer {sheet['edit_token']}", "If-Match": "*"},
    )
    shown = answer.get_json()
    if answer.status_code == 200:
        shown = {
            key: value
            for key, value in shown.items()
            if key not in ("id", "created_at", "updated_at")
        }
    stored = client.get(f"/v1/matches/{sheet['id']}").get_json()["version"]
    return answer.status_code, shown, stored


@pytest.mark.parametrize("body", list(round_bodies()), ids=repr)
def test_a_round_is_recorded_or_refused_the_same_both_ways(
    fast_app: Flask, stock_app: Flask, body: Any
) -> None:
    """Over HTTP, the fast app's own view for recording a round (api.fastjson.body_view)
    answers every body as the stock path does, and stores a round exactly when it does."""
    fast, stock = _put_round(fast_app, body), _put_round(stock_app, body)
    assert fast == stock
    assert fast[2] == (2 if fast[0] == 200 else 1)


def test_a_round_the_plan_loads_skips_webargs(
    fast_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The body view reads and loads a body its plan is sure of itself; any other body is
    webargs' to read, and its refusal is webargs' and marshmallow's own."""
    from api.matches import RoundWriteSchema
    from api.parsing import JSONBodyParser

    read_by_webargs: list[Any] = []
    load_json = JSONBodyParser.load_json

    def counted(self: JSONBodyParser, req: Any, schema: Any) -> Any:
        if isinstance(schema, RoundWriteSchema):  # not the sheet's creation
            read_by_webargs.append(schema)
        return load_json(self, req, schema)

    monkeypatch.setattr(JSONBodyParser, "load_json", counted)
    played = {
        "results": [
            {"seat": 0, "went_out": True},
            {"seat": 1, "points": 35},
            {"seat": 2, "cards": ["AS", "KH"]},
        ]
    }
    assert _put_round(fast_app, played)[0] == 200
    assert read_by_webargs == []
    assert _put_round(fast_app, {**played, "extra": 1})[0] == 422
    assert len(read_by_webargs) == 1
