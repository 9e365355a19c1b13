"""What the HTTP tests of the API check of every answer: a verdict is a 200 JSON object, and
every error is an RFC 9457 problem document (never HTML, never a traceback)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

PROBLEM_JSON = "application/problem+json"

Verdict = Callable[[str, dict[str, Any]], dict[str, Any]]
Problem = Callable[[TestResponse, int], dict[str, Any]]


def problem_document(response: TestResponse, status: int) -> dict[str, Any]:
    """The response's problem document, checked for the RFC 9457 members."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM_JSON
    text = response.get_data(as_text=True)
    assert "<html" not in text.lower()
    assert "Traceback" not in text
    body = response.get_json()
    assert body["type"] == "about:blank"
    assert body["status"] == status
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    return body  # type: ignore[no-any-return]


@pytest.fixture
def problem() -> Problem:
    """``problem(response, status)``: the response's problem document, its members checked."""
    return problem_document


@pytest.fixture
def verdict(client: FlaskClient) -> Verdict:
    """``verdict(path, body)``: the JSON object a check answers a well-formed question with."""

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = client.post(path, json=body)
        assert response.status_code == 200, response.get_json()
        assert response.mimetype == "application/json"
        data = response.get_json()
        assert isinstance(data, dict)
        return data

    return post
