"""CORS on /v1 (docs/api.md, "Browsers and other origins"): what a browser on another origin is
told, plainly over HTTP. tests/pages/test_cross_origin.py makes the same calls from Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from api import create_app
from api.config import Config

ORIGIN = "https://scores.example"
ALLOWED = {"authorization", "if-match", "if-none-match", "idempotency-key", "content-type"}
EXPOSED = {"etag", "location", "content-language", "retry-after", "idempotent-replayed"}


def client(**config: Any) -> FlaskClient:
    return create_app({"TESTING": True, **config}).test_client()


def names(value: str | None) -> set[str]:
    return {item.strip().lower() for item in (value or "").split(",") if item.strip()}


def preflight(test_client: FlaskClient, path: str, method: str, origin: str = ORIGIN) -> Any:
    return test_client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": ", ".join(sorted(ALLOWED | {"accept-language"})),
        },
    )


@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("/v1/matches", "POST"),
        ("/v1/matches/some-id/rounds/1", "PUT"),
        ("/v1/matches/some-id/rounds/1", "DELETE"),
        ("/v1/matches/some-id", "DELETE"),
        ("/v1/checks/meld", "POST"),
    ],
)
def test_a_preflight_is_answered_for_any_origin(path: str, method: str) -> None:
    answer = preflight(client(), path, method)
    assert answer.status_code in (200, 204)
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert names(answer.headers["Access-Control-Allow-Headers"]) == ALLOWED | {"accept-language"}
    assert method in names(answer.headers["Access-Control-Allow-Methods"]) | {
        m.upper() for m in names(answer.headers["Access-Control-Allow-Methods"])
    }
    assert int(answer.headers["Access-Control-Max-Age"]) > 0
    assert "Access-Control-Allow-Credentials" not in answer.headers


def test_every_v1_answer_carries_cors_headers_errors_included() -> None:
    test_client = client()
    answers = [
        test_client.get("/v1/rulesets", headers={"Origin": ORIGIN}),
        test_client.get("/v1/rulesets/snap", headers={"Origin": ORIGIN}),  # 404
        test_client.post(  # 400, not JSON
            "/v1/checks/meld",
            data="{",
            headers={"Origin": ORIGIN, "Content-Type": "application/json"},
        ),
        test_client.post("/v1/checks/meld", json={"cards": []}, headers={"Origin": ORIGIN}),  # 422
        test_client.delete("/v1/matches/x", headers={"Origin": ORIGIN}),  # 401
        test_client.patch("/v1/rulesets", headers={"Origin": ORIGIN}),  # 405
    ]
    assert [a.status_code for a in answers] == [200, 404, 400, 422, 401, 405]
    for answer in answers:
        assert answer.headers["Access-Control-Allow-Origin"] == "*"
        assert names(answer.headers["Access-Control-Expose-Headers"]) == EXPOSED
        assert "Access-Control-Allow-Credentials" not in answer.headers
        assert "Origin" not in answer.vary  # the same answer for every origin


def test_cors_origins_narrows_it() -> None:
    test_client = client(CORS_ORIGINS=[ORIGIN, "http://127.0.0.1:5173"])
    allowed = test_client.get("/v1/rulesets", headers={"Origin": ORIGIN})
    assert allowed.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "Origin" in allowed.vary
    assert names(allowed.headers["Access-Control-Expose-Headers"]) == EXPOSED
    refused = test_client.get("/v1/rulesets", headers={"Origin": "https://evil.example"})
    assert refused.status_code == 200  # served, but the browser keeps it from the page
    assert "Access-Control-Allow-Origin" not in refused.headers
    assert "Origin" in refused.vary
    refused_preflight = preflight(test_client, "/v1/matches", "POST", "https://evil.example")
    assert "Access-Control-Allow-Origin" not in refused_preflight.headers
    assert (
        preflight(test_client, "/v1/matches", "POST").headers["Access-Control-Allow-Origin"]
        == ORIGIN
    )


def test_one_narrowed_origin_still_varies() -> None:
    answer = client(CORS_ORIGINS=[ORIGIN]).get("/v1/rulesets", headers={"Origin": ORIGIN})
    assert answer.headers["Access-Control-Allow-Origin"] == ORIGIN and "Origin" in answer.vary


def test_the_api_description_answers_cors_like_v1() -> None:
    test_client = client()
    answer = test_client.get("/openapi.json", headers={"Origin": ORIGIN})
    assert answer.status_code == 200
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert names(answer.headers["Access-Control-Expose-Headers"]) == EXPOSED
    asked = preflight(test_client, "/openapi.json", "GET")
    assert asked.headers["Access-Control-Allow-Origin"] == "*"
    narrowed = client(CORS_ORIGINS=[ORIGIN]).get("/openapi.json", headers={"Origin": ORIGIN})
    assert narrowed.headers["Access-Control-Allow-Origin"] == ORIGIN and "Origin" in narrowed.vary


def test_pages_are_not_cross_origin() -> None:
    answer = client().get("/", headers={"Origin": ORIGIN})
    assert "Access-Control-Allow-Origin" not in answer.headers


@pytest.mark.parametrize(
    ("raw", "origins"),
    [
        ("", []),
        ("*", []),
        (" https://a.example , https://b.example,", ["https://a.example", "https://b.example"]),
    ],
)
def test_cors_origins_is_read_from_the_environment(raw: str, origins: list[str]) -> None:
    assert Config({"CORS_ORIGINS": raw}).CORS_ORIGINS == origins


def test_every_v1_answer_says_any_origin_may_read_it() -> None:
    """With every origin allowed, each /v1 answer — an error's too, and one made before any
    view — carries the same two headers of flask-cors, whatever was asked; pages carry none."""
    asked: list[tuple[str, str, dict[str, Any]]] = [
        (
            "post",
            "/v1/checks/meld",
            {"json": {"ruleset": "liverpool", "cards": ["7H", "7S", "7D"]}},
        ),
        ("post", "/v1/checks/meld", {"json": {"ruleset": "nope", "cards": []}}),
        ("post", "/v1/checks/contract", {"data": "{", "content_type": "application/json"}),
        ("get", "/v1/rulesets", {}),
        ("get", "/v1/rulesets/nope", {}),
        ("get", "/v1/matches/unknown", {}),
        ("delete", "/v1/checks/meld", {}),
        ("get", "/", {}),
        ("get", "/healthz", {}),
    ]
    app = client()
    expected = [
        ("Access-Control-Allow-Origin", "*"),
        (
            "Access-Control-Expose-Headers",
            "Content-Language, ETag, Idempotent-Replayed, Location, Retry-After",
        ),
    ]
    for method, path, options in asked:
        for headers in ({}, {"Origin": ORIGIN}, {"Origin": "null"}):
            answer = getattr(app, method)(path, headers=headers, **options)
            cors_headers = [
                (k, v) for k, v in answer.headers if k.lower().startswith("access-control")
            ]
            assert cors_headers == (expected if path.startswith("/v1/") else []), (method, path)
