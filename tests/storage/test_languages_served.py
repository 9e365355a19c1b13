"""The languages as gunicorn serves them: real answers over HTTP, word for word.

tests/api/test_languages.py checks every language through Flask's test client; here the
project runs as bin/serve runs it, and a table's phone asks in its own language.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

import pytest

pytestmark = pytest.mark.server

CONTRACT = {"ruleset": "progressive", "round": 2, "melds": [["7H", "7S"], ["4H", "5H", "6H"]]}

#: Per language: the contract, the first violation, a problem's detail, the start page's heading.
SAYS = {
    "de": (
        "ein Satz und eine Sequenz",
        "ein Satz braucht mindestens 3 Karten; dieser hat 2",
        "ungültige Eingabe: ruleset: unbekanntes Regelwerk 'rommé'; die Voreinstellungen sind: ",
        "Spiel beginnen",
    ),
    "nl": (
        "een drieling en een reeks",
        "een drieling heeft minstens 3 kaarten nodig; deze heeft er 2",
        "ongeldige invoer: ruleset: onbekende spelregels 'rommé'; de voorinstellingen zijn: ",
        "Wedstrijd beginnen",
    ),
    "it": (
        "un tris e una scala",
        "un tris richiede almeno 3 carte; questo ne ha 2",
        "input non valido: ruleset: regole sconosciute 'rommé'; le preimpostazioni sono: ",
        "Inizia una partita",
    ),
    "nb": (
        "ett sett og en rekke",
        "et sett trenger minst 3 kort; dette har 2",
        "ugyldig inndata: ruleset: ukjent regelsett 'rommé'; forhåndsvalgene er: ",
        "Start et spill",
    ),
}


def _ask(url: str, body: Any, language: str) -> tuple[int, dict[str, str], Any]:
    request = urllib.request.Request(
        url,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Accept-Language": language},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.mark.parametrize("language", list(SAYS))
def test_a_table_asks_in_its_own_language(sqlite_server: Any, language: str) -> None:
    contract, violation, detail, heading = SAYS[language]
    # "nn" and regions read as ours; the answer says which language it is written in.
    asked = {"nb": "nn-NO, en;q=0.5", "de": "de-AT"}.get(language, language)
    status, headers, body = _ask(f"{sqlite_server.url}/v1/checks/contract", CONTRACT, asked)
    assert status == 200 and headers["Content-Language"] == language
    assert "Accept-Language" in headers["Vary"]
    verdict = json.loads(body)
    assert verdict["contract"]["text"] == contract
    assert verdict["violations"][0]["code"] == "set_too_short"
    assert verdict["violations"][0]["message"] == violation

    wrong = {**CONTRACT, "ruleset": "rommé"}
    status, headers, body = _ask(f"{sqlite_server.url}/v1/checks/contract", wrong, asked)
    assert status == 422 and headers["Content-Language"] == language
    assert json.loads(body)["detail"].startswith(detail)

    status, headers, body = _ask(f"{sqlite_server.url}/", None, asked)
    assert status == 200 and headers["Content-Language"] == language
    assert re.findall(r"<h1>(.*?)</h1>", body.decode()) == [heading]
