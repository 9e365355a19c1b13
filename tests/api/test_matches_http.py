"""Match sheets over HTTP (docs/api.md, "Match sheets"), on SQLite and on PostgreSQL."""

from __future__ import annotations

import csv
import hashlib
import io
import re
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text, update

from api.errors import STORAGE_STATUSES
from api.storage import idempotency
from api.storage.errors import StorageError
from api.storage.tables import idempotency_keys

PROBLEM = "application/problem+json"


def create(client: FlaskClient, **body: Any) -> Any:
    body = {"ruleset": "liverpool", "players": ["Ann", "Bob", "Cleo", "Dan"], **body}
    answer = client.post("/v1/matches", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer


def auth(sheet: dict[str, Any], **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {sheet['edit_token']}", **headers}


def writing(client: FlaskClient, sheet: dict[str, Any], **headers: str) -> dict[str, str]:
    """A write's headers as a phone sends them: the token, and If-Match with the ETag it has
    just read (a read-modify-write)."""
    etag = client.get(f"/v1/matches/{sheet['id']}").headers["ETag"]
    return auth(sheet, **{"If-Match": etag, **headers})


def put_round(
    client: FlaskClient, sheet: dict[str, Any], number: int, results: list[Any], **extra: Any
) -> Any:
    return client.put(
        f"/v1/matches/{sheet['id']}/rounds/{number}",
        json={"results": results, **extra},
        headers=writing(client, sheet),
    )


def ordinary_round(out: int = 0, points: tuple[int, ...] = (35, 20, 10)) -> list[Any]:
    others = iter(points)
    return [
        {"seat": seat, "went_out": True} if seat == out else {"seat": seat, "points": next(others)}
        for seat in range(4)
    ]


def codes(answer: Any) -> list[str]:
    return [error.get("code", "") for error in answer.get_json()["errors"]]


def fields(answer: Any) -> list[str]:
    return [error["field"] for error in answer.get_json()["errors"]]


# --- creating and reading ----------------------------------------------------------------------


def test_create_answers_201_with_location_etag_and_a_token_shown_once(
    backend_client: FlaskClient,
) -> None:
    answer = create(backend_client, first_dealer=2)
    sheet = answer.get_json()
    assert answer.headers["Location"] == f"/v1/matches/{sheet['id']}"
    assert answer.headers["ETag"] == '"1"'
    assert len(sheet["edit_token"]) >= 43  # token_urlsafe(32)
    assert len(sheet["id"]) >= 22  # 128 random bits
    assert sheet["version"] == 1 and sheet["status"] == "in_progress"
    assert sheet["players"] == [
        {"seat": 0, "name": "Ann"},
        {"seat": 1, "name": "Bob"},
        {"seat": 2, "name": "Cleo"},
        {"seat": 3, "name": "Dan"},
    ]
    read = backend_client.get(answer.headers["Location"])
    assert read.status_code == 200
    assert "edit_token" not in read.get_json()
    assert read.headers["ETag"] == '"1"'


def test_ids_and_tokens_are_random(backend_client: FlaskClient) -> None:
    sheets = [create(backend_client).get_json() for _ in range(5)]
    assert len({s["id"] for s in sheets}) == 5
    assert len({s["edit_token"] for s in sheets}) == 5


def test_the_schedule_of_dealer_cutter_and_first_player(backend_client: FlaskClient) -> None:
    # The German Liverpool sheet: "Der Spieler links vom Geber hebt ab." / "Der Spieler links
    # vom Geber macht den ersten Zug. Das Recht zum Geben wandert zwischen den Runden im
    # Uhrzeigersinn weiter."
    sheet = create(backend_client, first_dealer=2).get_json()
    dealers = [(r["dealer"], r["cutter"], r["first_player"]) for r in sheet["rounds"]]
    assert dealers == [(2, 3, 3), (3, 0, 0), (0, 1, 1), (1, 2, 2), (2, 3, 3), (3, 0, 0), (0, 1, 1)]
    assert [r["contract"]["text"] for r in sheet["rounds"]][:2] == ["2 sets", "1 set + 1 run"]
    assert [r["hand_size"] for r in sheet["rounds"]] == [10, 10, 10, 10, 12, 12, 12]
    assert {r["status"] for r in sheet["rounds"]} == {"pending"}


def test_contract_rummy_the_player_right_of_the_dealer_cuts(backend_client: FlaskClient) -> None:
    # The Norwegian sheet, docs/rules.md §3.2: "the player to the dealer's right cuts"
    sheet = create(backend_client, ruleset="contract-rummy", players=["A", "B", "C"]).get_json()
    assert (sheet["rounds"][0]["dealer"], sheet["rounds"][0]["cutter"]) == (0, 2)
    assert sheet["rounds"][0]["first_player"] == 1


def test_the_resolved_ruleset_is_stored_with_the_sheet(backend_client: FlaskClient) -> None:
    house = {"base": "liverpool", "options": {"buy_limit": 2, "round_count": 5}}
    sheet = create(backend_client, ruleset=house).get_json()
    assert sheet["ruleset"]["id"] == "liverpool"
    assert sheet["ruleset"]["buy_limit"] == 2
    assert sheet["ruleset"]["options"] == {"buy_limit": 2, "round_count": 5}
    assert len(sheet["rounds"]) == 5


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": ["A", "B"]}, "players"),  # Liverpool is for 3 to 8
        ({"players": list("ABCDEFGHI")}, "players"),
        ({"players": ["A", "B", "x" * 41]}, "players.2"),
        ({"players": ["A", "B", ""]}, "players.2"),
        ({"ruleset": "snap"}, "ruleset"),
        (
            {"ruleset": {"base": "liverpool", "options": {"buy_limit": "lots"}}},
            "ruleset.options.buy_limit",
        ),
        ({"first_dealer": 4}, "first_dealer"),
        ({"ruleset": "contract-rummy", "players": list("ABCDEF")}, "players"),
    ],
)
def test_a_bad_sheet_is_refused_and_nothing_is_stored(
    backend_client: FlaskClient, backend_app: Flask, body: dict[str, Any], field: str
) -> None:
    before = _count(backend_app, "sheets")
    answer = backend_client.post(
        "/v1/matches", json={"ruleset": "liverpool", "players": ["A", "B", "C"], **body}
    )
    assert answer.status_code == 422
    assert answer.mimetype == PROBLEM
    assert field in fields(answer)
    assert _count(backend_app, "sheets") == before


def test_an_unknown_sheet_is_404(backend_client: FlaskClient) -> None:
    answer = backend_client.get("/v1/matches/no-such-sheet")
    assert answer.status_code == 404 and answer.mimetype == PROBLEM


def test_if_none_match_answers_304(backend_client: FlaskClient) -> None:
    sheet = create(backend_client).get_json()
    answer = backend_client.get(f"/v1/matches/{sheet['id']}", headers={"If-None-Match": '"1"'})
    assert answer.status_code == 304


# --- writing rounds -----------------------------------------------------------------------------


def test_recording_a_round_scores_it_and_moves_the_version(backend_client: FlaskClient) -> None:
    sheet = create(backend_client).get_json()
    answer = put_round(backend_client, sheet, 1, ordinary_round(out=1, points=(35, 20, 10)))
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert answer.headers["ETag"] == '"2"' and body["version"] == 2
    played = body["rounds"][0]
    assert played["status"] == "played"
    assert [(r["seat"], r["points"], r["went_out"]) for r in played["results"]] == [
        (0, 35, False),
        (1, 0, True),
        (2, 20, False),
        (3, 10, False),
    ]
    assert body["totals"] == [
        {"seat": 0, "total": 35},
        {"seat": 1, "total": 0},
        {"seat": 2, "total": 20},
        {"seat": 3, "total": 10},
    ]
    assert [(s["rank"], s["seat"], s["name"]) for s in body["standings"]] == [
        (1, 1, "Bob"),
        (2, 3, "Dan"),
        (3, 2, "Cleo"),
        (4, 0, "Ann"),
    ]


def test_cards_left_in_hand_are_scored_by_the_ruleset(backend_client: FlaskClient) -> None:
    # The German Liverpool sheet: "Ass = 15, K/D/B/10 = 10 je, 9–2 = 5 je, Joker = 15."
    sheet = create(backend_client).get_json()
    results = ordinary_round()
    results[1] = {"seat": 1, "cards": ["AS", "KH", "JK", "9D"]}
    body = put_round(backend_client, sheet, 1, results).get_json()
    assert body["totals"][1]["total"] == 15 + 10 + 15 + 5
    assert body["rounds"][0]["results"][1]["cards"] == ["AS", "KH", "JK", "9D"]


def test_shared_ranks_for_equal_totals(backend_client: FlaskClient) -> None:
    sheet = create(backend_client).get_json()
    body = put_round(backend_client, sheet, 1, ordinary_round(out=0, points=(20, 20, 5))).get_json()
    assert [(s["rank"], s["seat"]) for s in body["standings"]] == [(1, 0), (2, 3), (3, 1), (3, 2)]


def test_writes_need_the_edit_token(backend_client: FlaskClient) -> None:
    sheet = create(backend_client).get_json()
    url = f"/v1/matches/{sheet['id']}/rounds/1"
    body = {"results": ordinary_round()}
    missing = backend_client.put(url, json=body)
    assert missing.status_code == 401 and missing.mimetype == PROBLEM
    assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    wrong = backend_client.put(url, json=body, headers={"Authorization": "Bearer not-the-token"})
    assert wrong.status_code == 403 and wrong.mimetype == PROBLEM
    assert backend_client.delete(f"/v1/matches/{sheet['id']}").status_code == 401
    assert backend_client.get(f"/v1/matches/{sheet['id']}").get_json()["version"] == 1


def test_if_match_makes_a_write_conditional(backend_client: FlaskClient) -> None:
    sheet = create(backend_client).get_json()
    url = f"/v1/matches/{sheet['id']}/rounds/1"
    first = backend_client.put(
        url, json={"results": ordinary_round()}, headers=auth(sheet, **{"If-Match": '"1"'})
    )
    assert first.status_code == 200
    stale = backend_client.put(
        url, json={"results": ordinary_round(out=2)}, headers=auth(sheet, **{"If-Match": '"1"'})
    )
    assert stale.status_code == 412 and stale.mimetype == PROBLEM
    assert backend_client.get(f"/v1/matches/{sheet['id']}").get_json()["rounds"][0]["results"][0][
        "went_out"
    ]


@pytest.mark.parametrize(
    ("if_match", "status"),
    [
        ('"1"', 200),
        ('W/"1"', 200),  # a weak tag names the same version
        ('"1-csv"', 200),  # the spreadsheet's tag: read as CSV, written as JSON
        ('"7", "1"', 200),  # any one of the listed versions
        ("*", 200),
        ('"2"', 412),
        ('"01"', 412),  # not a tag this API made
        ("1", 200),  # the version alone: the quotes forgotten, read as its ETag
        ("2", 412),
    ],
)
def test_if_match_names_the_versions_a_write_was_meant_for(
    backend_client: FlaskClient, if_match: str, status: int
) -> None:
    sheet = create(backend_client).get_json()
    answer = backend_client.put(
        f"/v1/matches/{sheet['id']}/rounds/1",
        json={"results": ordinary_round()},
        headers=auth(sheet, **{"If-Match": if_match}),
    )
    assert answer.status_code == status
    assert answer.headers["ETag"] == ('"2"' if status == 200 else '"1"')


def test_rounds_are_recorded_in_order_and_only_the_rulesets_own(
    backend_client: FlaskClient,
) -> None:
    sheet = create(backend_client).get_json()
    early = put_round(backend_client, sheet, 2, ordinary_round())
    assert early.status_code == 409 and early.mimetype == PROBLEM
    beyond = put_round(backend_client, sheet, 8, ordinary_round())
    assert beyond.status_code == 404 and beyond.mimetype == PROBLEM
    assert put_round(backend_client, sheet, 0, ordinary_round()).status_code == 404


def test_a_recorded_round_may_be_corrected(backend_client: FlaskClient) -> None:
    sheet = create(backend_client).get_json()
    put_round(backend_client, sheet, 1, ordinary_round(out=0))
    put_round(backend_client, sheet, 2, ordinary_round(out=1))
    body = put_round(backend_client, sheet, 1, ordinary_round(out=3, points=(5, 5, 5))).get_json()
    assert body["totals"][3]["total"] == 0 + 10
    assert body["version"] == 4
    assert len([r for r in body["rounds"] if r["status"] == "played"]) == 2


@pytest.mark.parametrize(
    ("results", "extra", "code", "field"),
    [
        # More than one player out.
        (
            [
                {"seat": 0, "went_out": True},
                {"seat": 1, "went_out": True},
                {"seat": 2, "points": 5},
                {"seat": 3, "points": 5},
            ],
            {},
            "several_went_out",
            "results",
        ),
        # A seat missing, repeated, or not at the table.
        (ordinary_round()[:3], {}, "seat_missing", "results"),
        ([*ordinary_round()[:3], {"seat": 2, "points": 5}], {}, "seat_repeated", "results"),
        ([*ordinary_round()[:3], {"seat": 7, "points": 5}], {}, "seat_unknown", "results.3"),
        # 37 is not a sum of Liverpool's 5s, 10s and 15s.
        (ordinary_round(points=(37, 5, 5)), {}, "points_impossible", "results.1"),
        # Ten cards dealt in round 1 and no buys: 150 (ten aces) at most, 11 cards never.
        (
            [{**r, "buys": 0} if r["seat"] == 1 else r for r in ordinary_round(points=(155, 5, 5))],
            {},
            "points_impossible",
            "results.1",
        ),
        (
            [
                {"seat": 0, "went_out": True},
                {
                    "seat": 1,
                    "buys": 0,
                    "cards": ["AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC", "QS", "QH", "QD"],
                },
                {"seat": 2, "points": 5},
                {"seat": 3, "points": 5},
            ],
            {},
            "too_many_cards",
            "results.1",
        ),
        # Nobody out without the stock running out, or somebody out when it did.
        ([{"seat": s, "points": 10} for s in range(4)], {}, "nobody_went_out", "stock_ran_out"),
        (ordinary_round(), {"stock_ran_out": True}, "out_when_stock_ran_out", "stock_ran_out"),
        # The German Liverpool sheet: "Jeder Spieler darf pro Runde bis zu DREIMAL kaufen."
        (
            [{**r, "buys": 4} if r["seat"] == 2 else r for r in ordinary_round()],
            {},
            "too_many_buys",
            "results.2",
        ),
        # Liverpool has no bonus.
        (
            [{**r, "bonus": 50} if r["seat"] == 1 else r for r in ordinary_round()],
            {},
            "bonus_not_allowed",
            "results.1",
        ),
    ],
)
def test_a_round_that_cannot_have_happened_is_refused_and_nothing_stored(
    backend_client: FlaskClient,
    results: list[Any],
    extra: dict[str, Any],
    code: str,
    field: str,
) -> None:
    sheet = create(backend_client).get_json()
    answer = put_round(backend_client, sheet, 1, results, **extra)
    assert answer.status_code == 422, answer.get_json()
    assert answer.mimetype == PROBLEM
    assert code in codes(answer)
    assert field in fields(answer)
    after = backend_client.get(f"/v1/matches/{sheet['id']}").get_json()
    assert after["version"] == 1 and after["rounds"][0]["status"] == "pending"


@pytest.mark.parametrize(
    ("result", "field"),
    [
        ({"seat": 1, "points": 0}, "results.1.points"),
        ({"seat": 1, "points": -5}, "results.1.points"),
        ({"seat": 1, "cards": []}, "results.1.cards"),
    ],
)
def test_no_penalty_for_a_player_not_out_is_out_of_the_schema(
    backend_client: FlaskClient, result: dict[str, Any], field: str
) -> None:
    # No table scores a hand at 0 or less (the engine's zero_points and points_negative): the
    # document says so, and the field is named like any other bound.
    sheet = create(backend_client).get_json()
    results = ordinary_round()
    results[1] = result
    answer = put_round(backend_client, sheet, 1, results)
    assert answer.status_code == 422, answer.get_json()
    assert answer.mimetype == PROBLEM
    assert fields(answer) == [field]
    after = backend_client.get(f"/v1/matches/{sheet['id']}").get_json()
    assert after["version"] == 1 and after["rounds"][0]["status"] == "pending"


def test_a_round_where_the_stock_ran_out_scores_every_hand(backend_client: FlaskClient) -> None:
    # The German Liverpool sheet: "andere beenden die Runde und rechnen alle nicht abgezahlten
    # Hände ab."
    sheet = create(backend_client).get_json()
    body = put_round(
        backend_client,
        sheet,
        1,
        [{"seat": s, "points": 10 * (s + 1)} for s in range(4)],
        stock_ran_out=True,
    ).get_json()
    assert [t["total"] for t in body["totals"]] == [10, 20, 30, 40]
    assert body["rounds"][0]["stock_ran_out"] is True


def test_the_cut_bonus_where_the_ruleset_has_one(backend_client: FlaskClient) -> None:
    # The Norwegian sheet: "Pagat beskriver også en Liverpool-variant med 50 poengs fratrekk
    # hvis spilleren til høyre for giver kutter nøyaktig antall utdelingskort pluss
    # startkortet."
    ruleset = {"base": "contract-rummy", "options": {"cut_bonus": 50}}
    sheet = create(backend_client, ruleset=ruleset, players=["A", "B", "C"]).get_json()
    cutter = sheet["rounds"][0]["cutter"]
    results = [
        {"seat": 0, "went_out": True},
        {"seat": 1, "points": 20},
        {"seat": 2, "points": 30},
    ]
    results[cutter] = {**results[cutter], "bonus": 50}
    body = put_round(backend_client, sheet, 1, results).get_json()
    expected = {0: 0, 1: 20, 2: 30}
    expected[cutter] -= 50
    assert [t["total"] for t in body["totals"]] == [expected[s] for s in range(3)]
    wrong_seat = (cutter + 1) % 3
    results = [dict(r) for r in results]
    results[cutter].pop("bonus")
    results[wrong_seat] = {**results[wrong_seat], "bonus": 50}
    refused = put_round(backend_client, sheet, 1, results)
    assert refused.status_code == 422 and "bonus_wrong" in codes(refused)


def test_taking_back_only_the_last_round(backend_client: FlaskClient) -> None:
    sheet = create(backend_client).get_json()
    put_round(backend_client, sheet, 1, ordinary_round())
    put_round(backend_client, sheet, 2, ordinary_round(out=1))
    url = f"/v1/matches/{sheet['id']}/rounds"
    not_last = backend_client.delete(f"{url}/1", headers=writing(backend_client, sheet))
    assert not_last.status_code == 409 and not_last.mimetype == PROBLEM
    taken = backend_client.delete(f"{url}/2", headers=writing(backend_client, sheet))
    assert taken.status_code == 200
    body = taken.get_json()
    assert [r["status"] for r in body["rounds"][:3]] == ["played", "pending", "pending"]
    assert body["version"] == 4
    assert (
        backend_client.delete(f"{url}/9", headers=writing(backend_client, sheet)).status_code == 404
    )


def test_deleting_a_sheet(backend_client: FlaskClient, backend_app: Flask) -> None:
    sheet = create(backend_client).get_json()
    put_round(backend_client, sheet, 1, ordinary_round())
    gone = backend_client.delete(
        f"/v1/matches/{sheet['id']}", headers=writing(backend_client, sheet)
    )
    assert gone.status_code == 204
    assert backend_client.get(f"/v1/matches/{sheet['id']}").status_code == 404
    late = backend_client.put(
        f"/v1/matches/{sheet['id']}/rounds/2",
        json={"results": ordinary_round()},
        headers=auth(sheet, **{"If-Match": '"2"'}),
    )
    assert late.status_code == 404
    with backend_app.extensions["database"].transaction() as connection:
        left = connection.execute(
            text("SELECT count(*) FROM sheets WHERE id = :id"), {"id": sheet["id"]}
        ).scalar_one()
    assert left == 0


def test_a_whole_match_finishes_with_a_winner(backend_client: FlaskClient) -> None:
    sheet = create(backend_client).get_json()
    for number in range(1, 8):
        body = put_round(backend_client, sheet, number, ordinary_round(out=number % 4)).get_json()
    assert body["status"] == "finished"
    totals = [t["total"] for t in body["totals"]]
    best = min(totals)
    assert body["winners"] == [s for s in range(4) if totals[s] == best]
    assert body["standings"][0]["rank"] == 1


def _play_to_a_level_total(client: FlaskClient, sheet: dict[str, Any]) -> dict[str, Any]:
    """Seats 0 and 1 end level on 60; seat 1 scored less in the last round."""
    plan = [(0, {1: 10, 2: 20})] * 6 + [(1, {0: 60, 2: 5})]
    body: dict[str, Any] = {}
    for number, (out, points) in enumerate(plan, start=1):
        results = [
            {"seat": s, "went_out": True} if s == out else {"seat": s, "points": points[s]}
            for s in range(3)
        ]
        body = put_round(client, sheet, number, results).get_json()
    assert [t["total"] for t in body["totals"]] == [60, 60, 125]
    assert body["status"] == "finished"
    return body


def test_a_level_total_goes_to_the_lower_last_round(backend_client: FlaskClient) -> None:
    # The German Liverpool sheet: "Bei Gleichstand wird die letzte Runde erneut gespielt oder
    # die Strafpunkte der siebten Runde werden verglichen." docs/rules.md §3.1: the lower
    # penalty in the last round wins.
    sheet = create(backend_client, players=["A", "B", "C"]).get_json()
    body = _play_to_a_level_total(backend_client, sheet)
    assert body["winners"] == [1]
    assert body["tie_break"] == {
        "method": "last_round",
        "seats": [0, 1],
        "round": 7,
        "decided": True,
    }
    assert [(s["rank"], s["seat"]) for s in body["standings"]] == [(1, 1), (2, 0), (3, 2)]


def test_a_level_total_is_shared_in_contract_rummy(backend_client: FlaskClient) -> None:
    # docs/rules.md §3.2, Decision: a tie is shared.
    sheet = create(backend_client, ruleset="contract-rummy", players=["A", "B", "C"]).get_json()
    body = _play_to_a_level_total(backend_client, sheet)
    assert body["winners"] == [0, 1]
    assert body["tie_break"] == {
        "method": "shared",
        "seats": [0, 1],
        "round": None,
        "decided": False,
    }
    assert [(s["rank"], s["seat"]) for s in body["standings"]] == [(1, 0), (1, 1), (3, 2)]


def _count(app: Flask, table: str) -> int:
    with app.extensions["database"].transaction() as connection:
        return int(connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())


# --- spreadsheets ------------------------------------------------------------------------------


def test_the_sheet_as_csv(backend_client: FlaskClient) -> None:
    sheet = create(backend_client, players=["Ann", "=cmd()", "Cleo"]).get_json()
    for number, points in ((1, (35, 20)), (2, (5, 40))):
        put_round(
            backend_client,
            sheet,
            number,
            [
                {"seat": 0, "went_out": True},
                {"seat": 1, "points": points[0]},
                {"seat": 2, "points": points[1]},
            ],
        )
    answer = backend_client.get(f"/v1/matches/{sheet['id']}", headers={"Accept": "text/csv"})
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True))))
    assert rows[0] == [
        "round",
        "contract",
        "dealer",
        "Ann",
        "Ann total",
        "'=cmd()",
        "'=cmd() total",
        "Cleo",
        "Cleo total",
    ]
    assert rows[1] == ["1", "2 sets", "Ann", "0", "0", "35", "35", "20", "20"]
    assert rows[2] == ["2", "1 set + 1 run", "'=cmd()", "0", "0", "5", "40", "40", "60"]
    assert rows[3] == ["3", "2 runs", "Cleo", "", "", "", "", "", ""]
    assert len(rows) == 1 + 7  # a row per round of the ruleset, pending ones empty


@pytest.mark.parametrize("trigger", ["=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20"])
def test_every_formula_trigger_is_escaped_in_the_csv(
    backend_client: FlaskClient, trigger: str
) -> None:
    name = f"{trigger}HYPERLINK(1)"
    sheet = create(backend_client, players=[name, "Bob", "Cleo"]).get_json()
    assert sheet["players"][0]["name"] == name  # the sheet keeps the name as it is
    answer = backend_client.get(f"/v1/matches/{sheet['id']}", headers={"Accept": "text/csv"})
    rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True))))
    assert rows[0][3:5] == [f"'{name}", f"'{name} total"]
    assert rows[1][2] == f"'{name}"  # the dealer of round 1


#: Names a spreadsheet would split into formulas: on ``;`` (the German, Dutch, Italian and
#: Norwegian separator), on ``,``, after spaces, in every trigger's form.
SPLIT_NAMES = [
    "x;=cmd|' /C calc'!A0;y",
    "a;@SUM(A1)",
    "b,=1+1",
    "c; +1",
    "d;-2+3;e",
    "f,\uff1d1",
]


def _formula_cells(text: str, delimiter: str) -> list[str]:
    """The cells of ``text`` read with ``delimiter`` that a spreadsheet would run: beginning
    with a trigger (after spaces), and not a plain number."""
    cells = [cell for row in csv.reader(io.StringIO(text), delimiter=delimiter) for cell in row]
    triggers = tuple("=+-@\t\r\uff1d\uff0b\uff0d\uff20")
    return [
        cell
        for cell in cells
        if cell.lstrip(" ").startswith(triggers) and re.fullmatch(r"-?[0-9]+", cell) is None
    ]


def test_no_cell_is_a_formula_whatever_the_csv_is_split_on(backend_client: FlaskClient) -> None:
    created = create(backend_client, players=SPLIT_NAMES, ruleset="shanghai").get_json()
    results = [{"seat": 0, "went_out": True}] + [
        {"seat": seat, "points": 5 * seat} for seat in range(1, len(SPLIT_NAMES))
    ]
    put_round(backend_client, created, 1, results)
    answer = backend_client.get(f"/v1/matches/{created['id']}", headers={"Accept": "text/csv"})
    text = answer.get_data(as_text=True)
    for delimiter in (",", ";"):
        assert _formula_cells(text, delimiter) == [], delimiter
    # Read as it was written, each name is its own with a ' where a cell could have begun.
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][3::2] == [
        "x;'=cmd|' /C calc'!A0;y",
        "a;'@SUM(A1)",
        "b,'=1+1",
        "c;' +1",
        "d;'-2+3;e",
        "f,'\uff1d1",
    ]


@pytest.mark.parametrize("trigger", ["\t", "\r"])
def test_tab_and_carriage_return_are_escaped_too(trigger: str) -> None:
    """A tab or CR cannot start a name (control characters are refused, and names are trimmed),
    but the spreadsheet writer escapes whatever it is given."""
    from api.sheets import _cell

    assert _cell(f"{trigger}=1+1") == f"'{trigger}=1+1"
    assert _cell("Ann") == "Ann"


# --- names and titles ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("  Ann  ", "Ann"),
        ("Rene\u0301", "Ren\u00e9"),  # decomposed é, stored composed (NFC)
        ("\u00a0Bj\u00f8rn\u3000", "Bj\u00f8rn"),  # no-break and ideographic spaces trimmed
        ("Zo\u00eb " + "x" * 35, "Zo\u00eb " + "x" * 35),  # 40 characters
        ("\U0001f0a1 Ace", "\U0001f0a1 Ace"),  # a playing card is a printable character
    ],
)
def test_names_are_trimmed_and_normalised(
    backend_client: FlaskClient, given: str, stored: str
) -> None:
    sheet = create(backend_client, players=[given, "Bob", "Cleo"]).get_json()
    assert sheet["players"][0]["name"] == stored
    read = backend_client.get(f"/v1/matches/{sheet['id']}").get_json()
    assert read["players"][0]["name"] == stored
    assert read["standings"][0]["name"] in (stored, "Bob", "Cleo")


@pytest.mark.parametrize(
    "name",
    [
        "",
        "   ",
        "\u3000",  # only an ideographic space
        "x" * 41,
        " " + "x" * 40,  # 41 as sent
        "Ann\x00",
        "Ann\nBob",
        "Ann\x7f",
        "Ann\u0085",  # NEL, a C1 control
        "Ann\u200b",  # zero-width space (format)
        "\u202eAnn",  # right-to-left override (format)
        "Ann\ufeff",  # byte-order mark (format)
        "Ann\U000e0041",  # a tag character (format, outside the BMP)
    ],
)
def test_a_name_that_cannot_be_told_is_refused(backend_client: FlaskClient, name: str) -> None:
    answer = backend_client.post(
        "/v1/matches", json={"ruleset": "liverpool", "players": ["Bob", name, "Cleo"]}
    )
    assert answer.status_code == 422 and answer.mimetype == PROBLEM
    assert fields(answer) == ["players.1"]


#: Emoji as phones write them, format characters and all (docs/api.md, Names).
EMOJI_NAMES = {
    "a family": "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "a family of four, in a name": "Die \U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466 Smiths",
    "a flag": "\U0001f1f3\U0001f1f4 Bj\u00f8rn",
    "Scotland's flag": "Ewan \U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "the rainbow flag": "\U0001f3f3\ufe0f\u200d\U0001f308",
    "skin tones joined": "\U0001f9d1\U0001f3fd\u200d\U0001f91d\u200d\U0001f9d1\U0001f3fb",
    "a skin tone": "\U0001f44d\U0001f3fd Kim",
    "a keycap": "1\ufe0f\u20e3 Ann",
    "a heart on fire": "\u2764\ufe0f\u200d\U0001f525",
}


@pytest.mark.parametrize("name", EMOJI_NAMES.values(), ids=EMOJI_NAMES.keys())
def test_a_name_may_be_written_with_emoji(backend_client: FlaskClient, name: str) -> None:
    sheet = create(backend_client, players=["Bob", name, "Cleo"], title=f"{name} night").get_json()
    assert sheet["players"][1]["name"] == name
    assert sheet["title"] == f"{name} night"
    read = backend_client.get(f"/v1/matches/{sheet['id']}").get_json()
    assert read["players"][1]["name"] == name


@pytest.mark.parametrize(
    "name",
    [
        "Ann\u200dBob",  # a joiner between letters
        "\u200d\U0001f468",  # a joiner with no pictograph before it
        "\U0001f468\u200d",  # ... or after it
        "\U0001f468\u200d Ann",  # ... a space is not a pictograph
        "\U0001f468\u200d\u200d\U0001f469",  # two joiners
        "\U0001f468\u202e\u200d\U0001f469",  # a direction override inside an emoji
        "\U0001f3f4\U000e0067\U000e0062\U000e0073",  # tags with no cancel tag
        "\U0001f3f3\U000e0067\U000e0062\U000e007f",  # tags after another flag
        "Ann\U000e0067\U000e007f",  # tags after a letter
        "\U0001f3f4\U000e007f",  # a cancel tag alone
        "\U0001f468\u200b\U0001f469",  # a zero-width space is no joiner
    ],
)
def test_a_joiner_or_a_tag_outside_an_emoji_is_refused(
    backend_client: FlaskClient, name: str
) -> None:
    answer = backend_client.post(
        "/v1/matches", json={"ruleset": "liverpool", "players": ["Bob", name, "Cleo"]}
    )
    assert answer.status_code == 422 and answer.mimetype == PROBLEM
    assert fields(answer) == ["players.1"]
    assert "cannot be part of a name" in answer.get_json()["errors"][0]["message"]


def test_emoji_names_are_told_apart_as_any_name(backend_client: FlaskClient) -> None:
    """The same family twice is one name; an emoji beside a name makes another name."""
    family = EMOJI_NAMES["a family"]
    answer = backend_client.post(
        "/v1/matches", json={"ruleset": "liverpool", "players": [family, "Bob", f" {family} "]}
    )
    assert answer.status_code == 422 and fields(answer) == ["players.2"]
    sheet = create(backend_client, players=[f"ann {family}", "Bob", "Ann \U0001f1f3\U0001f1f4"])
    assert sheet.status_code == 201
    answer = backend_client.post(
        "/v1/matches",
        json={"ruleset": "liverpool", "players": [f"ANN {family}", "Bob", f"ann {family}"]},
    )
    assert answer.status_code == 422 and fields(answer) == ["players.2"]


def test_a_lone_surrogate_never_reaches_storage(
    backend_client: FlaskClient, backend_app: Flask
) -> None:
    before = _count(backend_app, "sheets")
    body = '{"ruleset": "liverpool", "players": ["Ann", "B\\ud800b", "Cleo"]}'
    answer = backend_client.post(
        "/v1/matches", data=body, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 422 and fields(answer) == ["players.1"]
    assert "U+D800" in answer.get_json()["errors"][0]["message"]
    assert _count(backend_app, "sheets") == before


@pytest.mark.parametrize(
    ("players", "at"),
    [
        (["Ann", "Bob", "ann"], ["players.2"]),
        (["Ann", "Bob", " ANN "], ["players.2"]),
        (["Stra\u00dfe", "Bob", "STRASSE"], ["players.2"]),  # casefold: ß is ss
        (["Ren\u00e9", "Rene\u0301", "Bob"], ["players.1"]),  # one name once normalised
        (["A", "a", "B", "b"], ["players.1", "players.3"]),
    ],
)
def test_names_are_unique_ignoring_case(
    backend_client: FlaskClient, players: list[str], at: list[str]
) -> None:
    answer = backend_client.post("/v1/matches", json={"ruleset": "liverpool", "players": players})
    assert answer.status_code == 422 and answer.mimetype == PROBLEM
    assert fields(answer) == at


def test_a_sheet_may_have_a_title(backend_client: FlaskClient) -> None:
    sheet = create(backend_client, title="  Friday at Cleo\u2019s  ").get_json()
    assert sheet["title"] == "Friday at Cleo\u2019s"
    assert backend_client.get(f"/v1/matches/{sheet['id']}").get_json()["title"] == sheet["title"]
    assert create(backend_client).get_json()["title"] is None
    assert create(backend_client, title="   ").get_json()["title"] is None
    assert create(backend_client, title=None).get_json()["title"] is None
    assert create(backend_client, title="t" * 80).get_json()["title"] == "t" * 80
    for bad in ("t" * 81, "a\u0000b", "\u200b", 7):
        answer = backend_client.post(
            "/v1/matches", json={"ruleset": "liverpool", "players": ["A", "B", "C"], "title": bad}
        )
        assert answer.status_code == 422 and fields(answer) == ["title"], bad


STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def test_created_at_and_updated_at(backend_client: FlaskClient) -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    sheet = create(backend_client).get_json()
    assert STAMP.match(sheet["created_at"]) and sheet["created_at"] == sheet["updated_at"]
    created = datetime.fromisoformat(sheet["created_at"])
    assert created.tzinfo is not None and created.utcoffset() == timedelta(0)
    assert before <= created <= datetime.now(UTC)
    time.sleep(1.1)
    body = put_round(backend_client, sheet, 1, ordinary_round()).get_json()
    assert body["created_at"] == sheet["created_at"]
    assert STAMP.match(body["updated_at"]) and body["updated_at"] > sheet["updated_at"]


def test_each_played_round_carries_the_running_total(backend_client: FlaskClient) -> None:
    sheet = create(backend_client).get_json()
    put_round(backend_client, sheet, 1, ordinary_round(out=0, points=(35, 20, 10)))
    body = put_round(backend_client, sheet, 2, ordinary_round(out=1, points=(5, 10, 15))).get_json()
    running = [
        [(r["seat"], r["points"], r["total"]) for r in played["results"]]
        for played in body["rounds"][:2]
    ]
    assert running == [
        [(0, 0, 0), (1, 35, 35), (2, 20, 20), (3, 10, 10)],
        [(0, 5, 5), (1, 0, 35), (2, 10, 30), (3, 15, 25)],
    ]
    assert [t["total"] for t in body["totals"]] == [5, 35, 30, 25]
    assert "results" not in body["rounds"][2]


# --- no lost updates ----------------------------------------------------------------------------


def test_a_write_without_if_match_is_428(backend_client: FlaskClient) -> None:
    sheet = create(backend_client).get_json()
    path = f"/v1/matches/{sheet['id']}"
    attempts = [
        backend_client.put(
            f"{path}/rounds/1", json={"results": ordinary_round()}, headers=auth(sheet)
        ),
        backend_client.delete(f"{path}/rounds/1", headers=auth(sheet)),
        backend_client.delete(path, headers=auth(sheet)),
    ]
    for answer in attempts:
        assert answer.status_code == 428 and answer.mimetype == PROBLEM
        assert "If-Match" in answer.get_json()["detail"]
    # A blank If-Match names no version either.
    for blank in ("", "  "):
        answer = backend_client.delete(path, headers={**auth(sheet), "If-Match": blank})
        assert answer.status_code == 428 and answer.mimetype == PROBLEM
    read = backend_client.get(path)
    assert read.status_code == 200 and read.get_json()["version"] == 1
    # Without the token it is 401 first: a stranger learns nothing of the sheet.
    assert backend_client.delete(path).status_code == 401
    assert backend_client.delete(path, headers={"Authorization": "Bearer x"}).status_code == 403


def test_the_whole_read_modify_write(backend_client: FlaskClient) -> None:
    sheet = create(backend_client).get_json()
    path = f"/v1/matches/{sheet['id']}"
    etag = backend_client.get(path).headers["ETag"]
    mine = backend_client.put(
        f"{path}/rounds/1",
        json={"results": ordinary_round()},
        headers=auth(sheet, **{"If-Match": etag}),
    )
    assert mine.status_code == 200 and mine.headers["ETag"] == '"2"'
    theirs = backend_client.put(  # another phone, still at the ETag it read before
        f"{path}/rounds/1",
        json={"results": ordinary_round(out=3)},
        headers=auth(sheet, **{"If-Match": etag}),
    )
    assert theirs.status_code == 412 and theirs.headers["ETag"] == '"2"'
    again = backend_client.put(
        f"{path}/rounds/1",
        json={"results": ordinary_round(out=3)},
        headers=auth(sheet, **{"If-Match": theirs.headers["ETag"]}),
    )
    assert again.status_code == 200 and again.get_json()["version"] == 3


# --- idempotent creation -----------------------------------------------------------------------


def test_a_retry_with_the_same_key_answers_the_same_sheet(
    backend_client: FlaskClient, backend_app: Flask
) -> None:
    body = {"ruleset": "liverpool", "players": ["A", "B", "C"]}
    headers = {"Idempotency-Key": "6f1d2c8e-4a8b-4e0a-9f1c-2b7d5e3a9c10"}
    before = _count(backend_app, "sheets")
    first = backend_client.post("/v1/matches", json=body, headers=headers)
    again = backend_client.post("/v1/matches", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.get_json()["edit_token"] == first.get_json()["edit_token"]
    assert again.headers["Location"] == first.headers["Location"]
    assert _count(backend_app, "sheets") == before + 1
    other = backend_client.post(
        "/v1/matches", json={**body, "players": ["A", "B", "D"]}, headers=headers
    )
    assert other.status_code == 422 and other.mimetype == PROBLEM
    assert _count(backend_app, "sheets") == before + 1


def test_a_retry_says_the_language_the_first_answer_was_written_in(
    backend_client: FlaskClient,
) -> None:
    """The retry answers the first answer's words exactly, so it says their language, not
    the language the retry asked for."""
    body = {"ruleset": "shanghai", "players": ["Ann", "Bob", "Cy"]}
    key = "8c1e5a4f-3b2d-4c6e-9a7f-0d1e2f3a4b5c"
    first = backend_client.post(
        "/v1/matches", json=body, headers={"Idempotency-Key": key, "Accept-Language": "de"}
    )
    again = backend_client.post(
        "/v1/matches", json=body, headers={"Idempotency-Key": key, "Accept-Language": "nl"}
    )
    assert first.status_code == again.status_code == 201
    assert again.get_data() == first.get_data()
    assert first.headers["Content-Language"] == again.headers["Content-Language"] == "de"
    # The German Progressive sheet's words, which the retry repeats.
    assert again.get_json()["rounds"][0]["contract"]["text"] == "2 Sätze"


def test_a_key_still_being_served_answers_409(
    backend_client: FlaskClient, backend_app: Flask
) -> None:
    key = "d3b07384-d113-4ec6-a1b2-7c0e8f9a1b2c"
    body = {"ruleset": "liverpool", "players": ["A", "B", "C"]}
    with backend_app.extensions["database"].transaction(write=True) as connection:
        assert idempotency.reserve(connection, key, body) is None
    answer = backend_client.post("/v1/matches", json=body, headers={"Idempotency-Key": key})
    assert answer.status_code == 409 and answer.mimetype == PROBLEM


def test_keys_expire_after_24_hours(backend_client: FlaskClient, backend_app: Flask) -> None:
    key = "0c8f2e1a-7b3d-4f5e-8a9b-1c2d3e4f5a6b"
    body = {"ruleset": "liverpool", "players": ["A", "B", "C"]}
    first = backend_client.post(
        "/v1/matches", json=body, headers={"Idempotency-Key": key}
    ).get_json()
    with backend_app.extensions["database"].transaction(write=True) as connection:
        connection.execute(
            update(idempotency_keys).values(created_at=datetime.now(UTC) - timedelta(hours=25))
        )
    again = backend_client.post(
        "/v1/matches", json=body, headers={"Idempotency-Key": key}
    ).get_json()
    assert again["id"] != first["id"]


def test_the_edit_token_is_stored_only_as_a_hash(
    backend_client: FlaskClient, backend_app: Flask
) -> None:
    answer = backend_client.post(
        "/v1/matches",
        json={"ruleset": "liverpool", "players": ["A", "B", "C"]},
        headers={"Idempotency-Key": "5b9e0f1a-2c3d-4e5f-8a7b-9c0d1e2f3a4b"},
    ).get_json()
    token = answer["edit_token"]
    with backend_app.extensions["database"].transaction() as connection:
        stored = connection.execute(
            text("SELECT edit_token_hash FROM sheets WHERE id = :id"), {"id": answer["id"]}
        ).scalar_one()
        dump = " ".join(
            str(row)
            for table in ("sheets", "idempotency_keys")
            for row in connection.execute(text(f"SELECT * FROM {table}")).all()
        )
    assert stored == hashlib.sha256(token.encode()).hexdigest()
    assert token not in dump


# --- every refusal has its status ----------------------------------------------------------------


def _kinds(base: type[StorageError]) -> list[type[StorageError]]:
    return [base, *(kind for sub in base.__subclasses__() for kind in _kinds(sub))]


@pytest.mark.parametrize("kind", _kinds(StorageError)[1:], ids=lambda kind: kind.__name__)
def test_every_refusal_of_storage_is_answered_with_a_status(
    kind: type[StorageError],
) -> None:
    """No kind of refusal storage raises falls through to a 500 for want of a status."""
    assert any(issubclass(kind, mapped) for mapped in STORAGE_STATUSES), kind
