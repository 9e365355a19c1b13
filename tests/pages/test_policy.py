"""The pages and /docs load in Chromium under the Content-Security-Policy the service sends,
with no violation: no inline script anywhere (Swagger UI's start-up script is a file too)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from api.security import CONTENT_SECURITY_POLICY

pytestmark = [pytest.mark.browser, pytest.mark.server]


def new_sheet(server: str) -> str:
    request = urllib.request.Request(
        f"{server}/v1/matches",
        data=json.dumps({"ruleset": "liverpool", "players": ["Ann", "Bob", "Cleo"]}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return str(json.load(answer)["id"])


@pytest.mark.parametrize(
    "path",
    ["/docs", "/", "/rulesets/liverpool/sheet", "/m/{sheet}", "/check", "/rulesets/liverpool"],
)
def test_the_page_loads_under_the_policy(phones: Any, server: str, output: Path, path: str) -> None:
    phone = phones(1024, 800)
    page = phone.page()
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    answer = page.goto(server + path.format(sheet=new_sheet(server)))
    assert answer.status == 200
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    if path == "/docs":
        # Swagger UI ran: it drew the operations of the served document.
        page.locator(".opblock").first.wait_for(timeout=15000)
        assert page.locator(".opblock").count() > 10
    else:
        page.wait_for_load_state("networkidle")
        # The service worker, registered by every page, is allowed by the policy too (a
        # refusal would be a console error) and takes the page over.
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.screenshot(
        path=str(output / f"policy{path.replace('/', '-').replace('{sheet}', 'sheet')}.png")
    )
    assert violations == []
    assert phone.problems == []
    assert phone.foreign_requests() == []


def test_the_worker_and_the_manifest_carry_the_policy(server: str) -> None:
    for path in ("/sw.js", "/manifest/en.webmanifest"):
        with urllib.request.urlopen(server + path, timeout=10) as answer:
            assert answer.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
