"""Every answer carries the security headers; sheets are private and never kept stale.

docs/api.md, Security headers: Content-Security-Policy (scripts and styles from the service
only, never framed), X-Content-Type-Options: nosniff, Referrer-Policy: no-referrer, on every
answer — JSON, problem documents, CSV, pages, assets, the docs and gunicorn's own refusals —
and Cache-Control: private, no-cache on the sheets, while pages and assets keep their caching.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.security import CONTENT_SECURITY_POLICY
from api.serving import problem_bytes

PLAYERS = ["Ann", "Bob", "Cleo"]


def secured(headers: object) -> None:
    get = headers.get  # type: ignore[attr-defined]
    policy = get("Content-Security-Policy")
    assert policy == CONTENT_SECURITY_POLICY
    for directive in ("script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"):
        assert directive in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert get("X-Content-Type-Options") == "nosniff"
    assert get("Referrer-Policy") == "no-referrer"


@pytest.fixture
def sheet(client: FlaskClient) -> dict[str, str]:
    created = client.post("/v1/matches", json={"ruleset": "liverpool", "players": PLAYERS})
    return created.get_json()  # type: ignore[no-any-return]


ANSWERS = {
    "health": ("GET", "/healthz", None, 200),
    "ruleset": ("GET", "/v1/rulesets/liverpool", None, 200),
    "check": ("POST", "/v1/checks/meld", {"ruleset": "liverpool", "cards": ["7H", "7S"]}, 200),
    "invalid input": ("POST", "/v1/checks/meld", {"ruleset": "nope"}, 422),
    "not JSON": ("POST", "/v1/checks/meld", "[", 400),
    "unknown path": ("GET", "/v1/nothing", None, 404),
    "wrong method": ("DELETE", "/v1/rulesets", None, 405),
    "openapi": ("GET", "/openapi.json", None, 200),
    "docs": ("GET", "/docs", None, 200),
    "docs script": ("GET", "/docs/swagger-ui-init.js", None, 200),
    "docs asset": ("GET", "/docs/assets/swagger-ui.css", None, 200),
    "start page": ("GET", "/", None, 200),
    "blank sheet": ("GET", "/rulesets/liverpool/sheet", None, 200),
    "page asset": ("GET", "/static/pages.css", None, None),
}


@pytest.mark.parametrize("kind", list(ANSWERS))
def test_every_kind_of_answer_is_secured(client: FlaskClient, kind: str) -> None:
    method, path, body, status = ANSWERS[kind]
    if kind == "page asset":
        page = client.get("/").get_data(as_text=True)
        path = page.split('rel="stylesheet" href="', 1)[1].split('"', 1)[0]
    if isinstance(body, str):
        answer = client.open(path, method=method, data=body, content_type="application/json")
    else:
        answer = client.open(path, method=method, json=body)
    with answer:
        assert answer.status_code == (status or 200), answer.get_data()[:200]
        secured(answer.headers)


def test_the_sheets_are_private_and_revalidated(client: FlaskClient, sheet: dict[str, str]) -> None:
    path = f"/v1/matches/{sheet['id']}"
    auth = {"Authorization": f"Bearer {sheet['edit_token']}"}
    answers = {
        "created": client.post("/v1/matches", json={"ruleset": "liverpool", "players": PLAYERS}),
        "json": client.get(path),
        "csv": client.get(path, headers={"Accept": "text/csv"}),
        "not modified": client.get(path, headers={"If-None-Match": '"1"'}),
        "not found": client.get("/v1/matches/abcdefghijklmnopqrstuv"),
        "refused": client.delete(path),
        "deleted": client.delete(path, headers={**auth, "If-Match": '"1"'}),
    }
    assert [a.status_code for a in answers.values()] == [201, 200, 200, 304, 404, 401, 204]
    for kind, answer in answers.items():
        assert answer.headers["Cache-Control"] == "private, no-cache", kind
        secured(answer.headers)


def test_pages_and_assets_keep_their_caching(client: FlaskClient, sheet: dict[str, str]) -> None:
    page = client.get(f"/m/{sheet['id']}")
    assert page.headers["Cache-Control"] == "no-cache"
    secured(page.headers)
    script = re.search(r'src="(/assets/sheet\.js\?v=\w+)"', page.get_data(as_text=True))
    assert script is not None
    with client.get(script[1]) as asset:
        assert "immutable" in asset.headers["Cache-Control"]
        secured(asset.headers)
    with client.get("/docs/assets/swagger-ui-bundle.js") as asset:
        assert "max-age=86400" in asset.headers["Cache-Control"]


def test_an_unavailable_database_is_secured_too() -> None:
    from api import create_app

    app: Flask = create_app(
        {"TESTING": True, "DATABASE_URL": "postgresql+psycopg://nobody@127.0.0.1:9/none"}
    )
    answer = app.test_client().get("/v1/matches/abcdefghijklmnopqrstuv")
    assert answer.status_code == 503
    secured(answer.headers)
    app.extensions["database"].dispose()


def test_gunicorns_own_refusals_are_secured_too() -> None:
    head = problem_bytes(431, "too big").split(b"\r\n\r\n")[0]
    lines = head.decode("latin-1").split("\r\n")[1:]
    secured(dict(line.split(": ", 1) for line in lines))
