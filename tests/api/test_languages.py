"""The referee in the tables' languages (docs/api.md, "Languages").

Real answers, word for word, in every language: a violation, a contract, a problem document
with marshmallow's field message, a ruleset, a page, a spreadsheet. The language is chosen by
``lang`` over ``Accept-Language`` (quality values honoured), said in ``Content-Language`` on
every kind of answer, and changes no code, card, key or verdict.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import marshmallow as ma
import pytest
from flask.testing import FlaskClient

import api.fields
import rules
from api import i18n
from api.schemas import analysis, checks, rulesets, sheets

SHORT_SET = {
    "ruleset": "liverpool",
    "round": 2,
    "melds": [["7H", "7S"], ["4H", "5H", "6H", "7H"]],
}
TWO_RUNS_TOUCHING = {
    "ruleset": "contract-rummy",
    "round": 3,
    "melds": [["4H", "5H", "6H", "7H"], ["8H", "9H", "10H", "JH"]],
}

#: What each language says, word for word, in the answers below.
SAYS: dict[str, dict[str, str]] = {
    "en": {
        "contract": "1 set + 1 run",
        "violation": "a set needs at least 3 cards; this one has 2",
        "progressive": "1 set + 1 run",
        "progressive_violation": "a set needs at least 3 cards; this one has 2",
        "touching": "two runs of hearts may not be two halves of one longer run (4H-7H and"
        " 8H-JH): leave a gap or overlap them",
        "title": "Unprocessable Entity",
        "detail": "invalid input: round: Not a valid integer.",
        "card_detail": "invalid input: melds.0.1: not a card: 'ZZ'",
        "ruleset": "Progressive Rummy (Vertragsrommé)",
        "heading": "Start a match",
        "csv": "round,contract,dealer,Ann,Ann total,Bob,Bob total,Cleo,Cleo total",
        "not_found": "Not Found",
        "option": "fewest cards in a set",
        "progressive_option": "fewest cards in a set",
        "round_hand_size": "cards dealt to each player",
        "sheet_ruleset": "Liverpool Rummy, fixed hand",
        "sheet_description": "Liverpool with 10 cards dealt in every round.",
    },
    "de": {
        "contract": "ein Buch und eine Sequenz",
        "violation": "ein Buch braucht mindestens 3 Karten; dieses hat 2",
        "progressive": "ein Satz und eine Sequenz",
        "progressive_violation": "ein Satz braucht mindestens 3 Karten; dieser hat 2",
        "touching": "zwei Sequenzen in Herz dürfen nicht zwei Hälften einer längeren Sequenz"
        " sein (4H-7H und 8H-JH): lassen Sie eine Lücke oder lassen Sie sie überlappen",
        "title": "Nicht verarbeitbarer Inhalt",
        "detail": "ungültige Eingabe: round: Keine gültige ganze Zahl.",
        "card_detail": "ungültige Eingabe: melds.0.1: keine Karte: 'ZZ'",
        "ruleset": "Vertragsrommé (Progressive Rummy)",
        "heading": "Spiel beginnen",
        "csv": "Runde,Kontrakt,Geber,Ann,Ann Summe,Bob,Bob Summe,Cleo,Cleo Summe",
        "not_found": "Nicht gefunden",
        "option": "Mindestzahl der Karten eines Buchs",
        "progressive_option": "Mindestzahl der Karten eines Satzes",
        "round_hand_size": "Karten, die jeder Spieler bekommt",
        "sheet_ruleset": "Liverpool Rummy, feste Handgröße",
        "sheet_description": "Liverpool mit 10 Karten in jeder Runde.",
    },
    "nl": {
        "contract": "een drieling en een reeks",
        "violation": "een drieling heeft minstens 3 kaarten nodig; deze heeft er 2",
        "progressive": "een drieling en een reeks",
        "progressive_violation": "een drieling heeft minstens 3 kaarten nodig; deze heeft er 2",
        "touching": "twee reeksen in harten mogen geen twee helften van één langere reeks zijn"
        " (4H-7H en 8H-JH): laat een gat of laat ze overlappen",
        "title": "Onverwerkbare inhoud",
        "detail": "ongeldige invoer: round: Geen geldig geheel getal.",
        "card_detail": "ongeldige invoer: melds.0.1: geen kaart: 'ZZ'",
        "ruleset": "Progressive Rummy (Vertragsrommé)",
        "heading": "Wedstrijd beginnen",
        "csv": "ronde,contract,gever,Ann,Ann totaal,Bob,Bob totaal,Cleo,Cleo totaal",
        "not_found": "Niet gevonden",
        "option": "minste aantal kaarten in een drieling",
        "progressive_option": "minste aantal kaarten in een drieling",
        "round_hand_size": "kaarten die elke speler krijgt",
        "sheet_ruleset": "Liverpool Rummy, vaste handgrootte",
        "sheet_description": "Liverpool met 10 kaarten per ronde.",
    },
    "it": {
        "contract": "un tris e una scala",
        "violation": "un tris richiede almeno 3 carte; questo ne ha 2",
        "progressive": "un tris e una scala",
        "progressive_violation": "un tris richiede almeno 3 carte; questo ne ha 2",
        "touching": "due scale di cuori non possono essere due metà di una scala più lunga"
        " (4H-7H e 8H-JH): lascia un buco o falle sovrapporre",
        "title": "Contenuto non elaborabile",
        "detail": "input non valido: round: Non è un intero valido.",
        "card_detail": "input non valido: melds.0.1: non è una carta: 'ZZ'",
        "ruleset": "Progressive Rummy (Vertragsrommé)",
        "heading": "Inizia una partita",
        "csv": "mano,contratto,mazziere,Ann,Ann totale,Bob,Bob totale,Cleo,Cleo totale",
        "not_found": "Non trovato",
        "option": "numero minimo di carte di un tris",
        "progressive_option": "numero minimo di carte di un tris",
        "round_hand_size": "carte distribuite a ogni giocatore",
        "sheet_ruleset": "Liverpool Rummy, mano fissa",
        "sheet_description": "Liverpool con 10 carte distribuite in ogni mano.",
    },
    "nb": {
        "contract": "ett sett og en rekke",
        "violation": "et sett trenger minst 3 kort; dette har 2",
        "progressive": "ett sett og en rekke",
        "progressive_violation": "et sett trenger minst 3 kort; dette har 2",
        "touching": "to rekker i hjerter kan ikke være to halvdeler av én lengre rekke (4H-7H og"
        " 8H-JH): la det være et mellomrom eller la dem overlappe",
        "title": "Innhold som ikke kan behandles",
        "detail": "ugyldig inndata: round: Ikke et gyldig heltall.",
        "card_detail": "ugyldig inndata: melds.0.1: ikke et kort: 'ZZ'",
        "ruleset": "Progressive Rummy (Vertragsrommé)",
        "heading": "Start et spill",
        "csv": "runde,kontrakt,giver,Ann,Ann sum,Bob,Bob sum,Cleo,Cleo sum",
        "not_found": "Ikke funnet",
        "option": "færrest kort i et sett",
        "progressive_option": "færrest kort i et sett",
        "round_hand_size": "kort som deles ut til hver spiller",
        "sheet_ruleset": "Liverpool Rummy, fast håndstørrelse",
        "sheet_description": "Liverpool med 10 kort i hver runde.",
    },
}


def _in(code: str) -> dict[str, str]:
    return {"Accept-Language": code}


@pytest.mark.parametrize("code", list(SAYS))
def test_a_contract_and_its_violation(client: FlaskClient, code: str) -> None:
    answer = client.post("/v1/checks/contract", json=SHORT_SET, headers=_in(code))
    assert answer.headers["Content-Language"] == code
    verdict = answer.get_json()
    assert verdict["contract"]["text"] == SAYS[code]["contract"]
    assert verdict["violations"][0] == {
        "code": "set_too_short",
        "message": SAYS[code]["violation"],
        "meld": 0,
        "card": None,
    }
    touching = client.post("/v1/checks/contract", json=TWO_RUNS_TOUCHING, headers=_in(code))
    assert [v["message"] for v in touching.get_json()["violations"]] == [SAYS[code]["touching"]]


@pytest.mark.parametrize("code", list(SAYS))
def test_the_progressive_family_speaks_its_own_sheets_words(client: FlaskClient, code: str) -> None:
    body = {**SHORT_SET, "ruleset": "progressive"}
    verdict = client.post("/v1/checks/contract", json=body, headers=_in(code)).get_json()
    assert verdict["contract"]["text"] == SAYS[code]["progressive"]
    assert verdict["violations"][0]["message"] == SAYS[code]["progressive_violation"]
    shown = client.get("/v1/rulesets/progressive", headers=_in(code)).get_json()
    assert shown["rounds"][1]["contract"]["text"] == SAYS[code]["progressive"]
    assert shown["name"] == SAYS[code]["ruleset"]


@pytest.mark.parametrize("code", list(SAYS))
def test_a_problem_document_and_marshmallows_message(client: FlaskClient, code: str) -> None:
    body = {**SHORT_SET, "round": "x"}
    problem = client.post("/v1/checks/contract", json=body, headers=_in(code)).get_json()
    assert problem["title"] == SAYS[code]["title"]
    assert problem["detail"] == SAYS[code]["detail"]
    assert problem["errors"][0]["field"] == "round"
    card = {**SHORT_SET, "melds": [["7H", "ZZ", "7D"]]}
    problem = client.post("/v1/checks/contract", json=card, headers=_in(code)).get_json()
    assert problem["detail"] == SAYS[code]["card_detail"]
    missing = client.get("/v1/nothing-here", headers=_in(code))
    assert missing.status_code == 404
    assert missing.get_json()["title"] == SAYS[code]["not_found"]


@pytest.mark.parametrize("code", list(SAYS))
def test_a_page_heading(client: FlaskClient, code: str) -> None:
    page = client.get("/", headers=_in(code))
    text = page.get_data(as_text=True)
    assert f'<html lang="{code}">' in text
    assert re.findall(r"<h1>(.*?)</h1>", text) == [SAYS[code]["heading"]]


@pytest.mark.parametrize("code", list(SAYS))
def test_a_spreadsheets_header(client: FlaskClient, code: str) -> None:
    created = client.post(
        "/v1/matches", json={"ruleset": "liverpool", "players": ["Ann", "Bob", "Cleo"]}
    )
    sheet = client.get(created.headers["Location"], headers={"Accept": "text/csv", **_in(code)})
    assert sheet.headers["Content-Language"] == code
    assert "Accept-Language" in sheet.headers["Vary"]
    assert sheet.get_data(as_text=True).splitlines()[0] == SAYS[code]["csv"]


def _options(client: FlaskClient, ruleset: str, code: str) -> dict[str, dict[str, Any]]:
    shown = client.get(f"/v1/rulesets/{ruleset}", headers=_in(code)).get_json()
    return {entry["name"]: entry for entry in shown["house_options"]}


@pytest.mark.parametrize("code", list(SAYS))
def test_a_house_options_description(client: FlaskClient, code: str) -> None:
    options = _options(client, "liverpool", code)
    assert options["set_min"] == {
        "name": "set_min",
        "schema": {"type": "integer", "minimum": 2, "maximum": 8},
        "value": 3,
        "description": SAYS[code]["option"],
    }
    # A round's fields are described inside the rounds option's schema, in the same words.
    round_fields = options["rounds"]["schema"]["items"]["properties"]
    assert round_fields["hand_size"]["description"] == SAYS[code]["round_hand_size"]
    progressive = _options(client, "progressive", code)
    assert progressive["set_min"]["description"] == SAYS[code]["progressive_option"]


def _without_descriptions(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_descriptions(v) for k, v in value.items() if k != "description"}
    if isinstance(value, list):
        return [_without_descriptions(item) for item in value]
    return value


def test_house_options_differ_by_language_in_their_words_only(client: FlaskClient) -> None:
    english = _options(client, "may-i", "en")
    for code in i18n.LANGUAGES[1:]:
        options = _options(client, "may-i", code)
        assert list(options) == list(english)
        assert _without_descriptions(options) == _without_descriptions(english)
        assert all(options[name]["description"] != english[name]["description"] for name in english)


#: A house ruleset keeps its preset's name and description, which a sheet stores in English.
HOUSE = {"base": "liverpool-fixed-hand", "options": {"buy_limit": 2}}
ROUND_ONE = {
    "results": [{"seat": 0, "went_out": True}, {"seat": 1, "points": 35}, {"seat": 2, "points": 5}]
}


@pytest.mark.parametrize("code", list(SAYS))
def test_a_stored_sheets_ruleset_in_the_readers_language(client: FlaskClient, code: str) -> None:
    created = client.post(
        "/v1/matches", json={"ruleset": HOUSE, "players": ["Ann", "Bob", "Cleo"]}, headers=_in(code)
    )
    token, where = created.get_json()["edit_token"], created.headers["Location"]
    assert created.get_json()["ruleset"]["name"] == SAYS[code]["sheet_ruleset"]
    english = client.get(where).get_json()["ruleset"]
    read = client.get(where, headers=_in(code))
    ruleset = read.get_json()["ruleset"]
    assert ruleset["name"] == SAYS[code]["sheet_ruleset"]
    assert ruleset["description"] == SAYS[code]["sheet_description"]
    assert {**ruleset, "name": None, "description": None} == {
        **english,
        "name": None,
        "description": None,
    }
    # The ETag is the version in every language: the sheet read in this one is written with it.
    assert read.headers["ETag"] == created.headers["ETag"] == '"1"'
    written = client.put(
        f"{where}/rounds/1",
        json=ROUND_ONE,
        headers={"Authorization": f"Bearer {token}", "If-Match": read.headers["ETag"], **_in(code)},
    )
    assert written.status_code == 200, written.get_json()
    assert written.get_json()["ruleset"]["name"] == SAYS[code]["sheet_ruleset"]
    # What is stored is what the sheet was made with, whatever language wrote to it.
    stored = client.get(where).get_json()["ruleset"]
    assert (stored["name"], stored["description"]) == (
        "Liverpool Rummy, fixed hand",
        "Liverpool with 10 cards dealt in every round.",
    )


@pytest.mark.parametrize(
    ("header", "query", "chosen"),
    [
        ("de", None, "de"),
        ("de-AT", None, "de"),
        ("nl-BE,nl;q=0.9", None, "nl"),
        ("no", None, "nb"),
        ("nn-NO", None, "nb"),
        ("fr-FR, fr;q=0.9, it;q=0.8, de;q=0.7", None, "it"),
        ("de;q=0.5, nl;q=0.8", None, "nl"),
        ("de;q=0, it;q=0.1", None, "it"),
        ("de-AT, en;q=0.5", None, "de"),
        ("en-GB, de;q=0.9", None, "en"),
        ("fr, es", None, "en"),
        ("*", None, "en"),
        (None, None, "en"),
        ("de", "nl", "nl"),
        ("de", "nb-NO", "nb"),
        ("de", "fr", "de"),  # a lang that is not ours does not match
        (None, "xx", "en"),
        ("nl", "EN", "en"),
    ],
)
def test_lang_overrides_and_quality_values_are_honoured(
    client: FlaskClient, header: str | None, query: str | None, chosen: str
) -> None:
    headers = {} if header is None else {"Accept-Language": header}
    path = "/v1/checks/contract" + ("" if query is None else f"?lang={query}")
    answer = client.post(path, json=SHORT_SET, headers=headers)
    assert answer.status_code == 200
    assert answer.headers["Content-Language"] == chosen
    assert answer.get_json()["contract"]["text"] == SAYS[chosen]["contract"]


ANSWERS: list[tuple[str, str, dict[str, Any]]] = [
    ("GET", "/v1/rulesets", {}),
    ("GET", "/v1/rulesets/liverpool", {}),
    ("GET", "/v1/rulesets/nope", {}),
    ("POST", "/v1/checks/contract", {"json": SHORT_SET}),
    ("POST", "/v1/checks/contract", {"json": {"round": 1}}),
    ("POST", "/v1/checks/contract", {"data": "{", "content_type": "application/json"}),
    ("POST", "/v1/checks/contract", {"data": "x", "content_type": "text/plain"}),
    ("DELETE", "/v1/checks/contract", {}),
    ("GET", "/v1/matches/nope", {}),
    ("GET", "/nowhere", {}),
    ("GET", "/", {}),
    ("GET", "/m/abc", {}),
    ("GET", "/rulesets/liverpool/sheet", {}),
    ("GET", "/rulesets/nope/sheet", {}),
    ("GET", "/healthz", {}),
    ("GET", "/openapi.json", {}),
]


@pytest.mark.parametrize(("method", "path", "options"), ANSWERS)
@pytest.mark.parametrize("code", ["en", "it"])
def test_every_answer_says_its_language(
    client: FlaskClient, method: str, path: str, options: dict[str, Any], code: str
) -> None:
    answer = client.open(path, method=method, headers=_in(code), **options)
    assert answer.headers["Content-Language"] == code
    assert "Accept-Language" in answer.headers.get_all("Vary")[0]


def test_a_page_asked_for_in_a_language_keeps_it(client: FlaskClient) -> None:
    first = client.get("/?lang=nl")
    assert first.headers["Content-Language"] == "nl"
    assert "lang=nl" in first.headers["Set-Cookie"]
    assert "Cookie" in first.headers["Vary"]
    # The cookie the switch set is read by the next page, before the browser's languages.
    later = client.get("/rulesets/liverpool/sheet", headers=_in("de"))
    assert later.headers["Content-Language"] == "nl"
    assert '<html lang="nl">' in later.get_data(as_text=True)
    # The API answers by its own request's languages, not the pages' cookie.
    assert client.get("/v1/rulesets", headers=_in("de")).headers["Content-Language"] == "de"
    # Each language is its own page, with its own ETag.
    etags = {client.get(f"/?lang={code}").headers["ETag"] for code in i18n.LANGUAGES}
    assert len(etags) == len(i18n.LANGUAGES)


def test_the_language_cookie_is_secure_under_https(client: FlaskClient) -> None:
    plain = client.get("/?lang=de")
    assert "Secure" not in plain.headers["Set-Cookie"]  # a table's own network, plain HTTP
    secure = client.get("/?lang=de", base_url="https://rummy.example")
    cookie = secure.headers["Set-Cookie"]
    assert "lang=de" in cookie and "Secure" in cookie and "HttpOnly" in cookie


def _without_messages(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: _without_messages(v)
            for k, v in value.items()
            if k not in ("message", "text", "title", "detail")
        }
    if isinstance(value, list):
        return [_without_messages(item) for item in value]
    return value


BODIES: list[tuple[str, dict[str, Any]]] = [
    ("/v1/checks/contract", SHORT_SET),
    ("/v1/checks/contract", TWO_RUNS_TOUCHING),
    ("/v1/checks/contract", {**SHORT_SET, "ruleset": "progressive", "hand": ["7H"]}),
    ("/v1/checks/meld", {"ruleset": "liverpool", "cards": ["QH", "KH", "AH", "2H"]}),
    (
        "/v1/checks/layoff",
        {"ruleset": "liverpool", "round": 3, "meld": ["4H", "5H", "6H", "7H"], "cards": ["9S"]},
    ),
    (
        "/v1/checks/buy",
        {"ruleset": "liverpool", "round": 1, "seats": 4, "on_turn": 1, "callers": [3, 2, 0]},
    ),
    ("/v1/hands/penalty", {"ruleset": "contract-rummy", "cards": ["4H", "JK", "JK", "JK"] * 2}),
    ("/v1/checks/contract", {**SHORT_SET, "melds": [["7H", "ZZ"]], "round": 0}),
]


@pytest.mark.parametrize(("path", "body"), BODIES)
def test_codes_cards_keys_and_verdicts_never_change_with_the_language(
    client: FlaskClient, path: str, body: dict[str, Any]
) -> None:
    english = client.post(path, json=body)
    messages = set()
    for code in i18n.LANGUAGES:
        answer = client.post(path, json=body, headers=_in(code))
        assert answer.status_code == english.status_code
        assert _without_messages(answer.get_json()) == _without_messages(english.get_json())
        messages.add(repr(answer.get_json()))
    assert len(messages) == len(i18n.LANGUAGES)  # and the words did change


@pytest.mark.parametrize(
    ("path", "body", "german"),
    [
        (  # a validator of marshmallow's, its message given in the catalog's words
            "/v1/checks/meld",
            {"ruleset": "liverpool", "cards": ["7H", "7S", "7D"], "type": "book"},
            "Muss eines von diesen sein: set, run.",
        ),
        (
            "/v1/checks/meld",
            {"ruleset": "liverpool", "cards": ["7H", "7S", "7D"], "players": 1},
            "Muss mindestens 2 und höchstens 12 sein.",
        ),
        (
            "/v1/checks/meld",
            {"ruleset": {"base": "liverpool", "options": {"buy_limit": 0}}, "cards": ["7H"]},
            "Muss mindestens 1 und höchstens 20 sein.",
        ),
        (  # the engine's refusals: a template and its facts
            "/v1/checks/contract",
            {"ruleset": "liverpool", "round": 9, "melds": [["7H", "7S", "7D"]]},
            "'liverpool' hat die Runden 1 bis 7, nicht 9",
        ),
        (
            "/v1/checks/meld",
            {"ruleset": "rummikub", "cards": ["7H", "7S", "7D"]},
            "unbekanntes Regelwerk 'rummikub'; die Voreinstellungen sind: liverpool,",
        ),
        (  # a field no request has, and one that is not a list
            "/v1/checks/meld",
            {"ruleset": "liverpool", "cards": ["7H", "7S", "7D"], "colour": "red"},
            "Unbekanntes Feld.",
        ),
        ("/v1/checks/meld", {"ruleset": "liverpool", "cards": "7H"}, "Keine gültige Liste."),
    ],
)
def test_a_refusal_is_written_in_the_readers_language(
    client: FlaskClient, path: str, body: dict[str, Any], german: str
) -> None:
    answer = client.post(path, json=body, headers=_in("de"))
    assert answer.status_code == 422
    messages = [error["message"] for error in answer.get_json()["errors"]]
    assert any(message.startswith(german) for message in messages), messages


def test_an_engine_value_reads_the_same_whatever_request_came_before(client: FlaskClient) -> None:
    """The engine writes no language of its own: a violation, a contract and an error read in
    English in a shell, before and after a German request."""
    ruleset = rules.find_ruleset("progressive")
    verdict = rules.check_contract(ruleset, 1, [rules.parse_cards(["7H", "7S"])])
    error = pytest.raises(rules.RulesError, rules.Card.parse, "ZZ").value
    before = [v.message for v in verdict.violations], verdict.round.contract.text, str(error)
    german = client.post(
        "/v1/checks/contract",
        json={"ruleset": "progressive", "round": 1, "melds": [["7H", "7S"]]},
        headers=_in("de"),
    )
    assert "Satz" in german.get_data(as_text=True)
    after = [v.message for v in verdict.violations], verdict.round.contract.text, str(error)
    assert before == after
    assert before[0][0] == "a set needs at least 3 cards; this one has 2"
    assert before[1:] == ("2 sets", "not a card: 'ZZ'")


def _fields(schema: ma.Schema) -> Iterator[tuple[str, ma.fields.Field[Any]]]:
    for name, field in schema.load_fields.items():
        yield f"{type(schema).__name__}.{name}", field
        inner = getattr(field, "inner", None)
        if inner is not None:
            yield f"{type(schema).__name__}.{name}[]", inner
            field = inner
        if isinstance(field, ma.fields.Nested):
            yield from _fields(field.schema)


REQUESTS = [
    checks.MeldCheckSchema,
    checks.ContractCheckSchema,
    checks.LayoffCheckSchema,
    checks.JokerSwapCheckSchema,
    checks.BuyCheckSchema,
    checks.HandPenaltySchema,
    analysis.AnalysisRequestSchema,
    sheets.MatchCreateSchema,
    sheets.RoundWriteSchema,
    rulesets.HouseRulesetSchema,
]


@pytest.mark.parametrize("schema", REQUESTS, ids=lambda schema: schema.__name__)
def test_every_request_field_refuses_in_the_readers_language(schema: type[ma.Schema]) -> None:
    """A request is read only by fields and validators whose messages are the catalog's: no
    English of marshmallow's can reach a reader of another language."""
    for name, field in _fields(schema()):
        assert type(field).__module__ == "api.fields", name
        for validator in field.validators:
            if isinstance(validator, ma.validate.Validator):
                assert validator.error is not None, (name, validator)
    for nested in (schema(), rulesets.HouseOptionsSchema()):
        assert isinstance(nested, api.fields.RequestSchema)
