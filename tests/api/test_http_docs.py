"""The docs page and its OpenAPI document are served by the app itself, with nothing from a CDN."""

from __future__ import annotations

import json
import re
from typing import Any

from flask.testing import FlaskClient


def test_docs_page_loads_everything_from_the_app(client: FlaskClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert {a.rsplit("/", 1)[-1] for a in assets} == {
        "swagger-ui.css",
        "swagger-ui-standalone-preset.js",
        "swagger-ui-bundle.js",
        "swagger-ui-init.js",
    }
    for asset in assets:
        assert asset.startswith("/docs/"), asset
        with client.get(asset) as loaded:  # a file response: closed when read
            assert loaded.status_code == 200, asset
            assert loaded.mimetype in ("text/css", "text/javascript", "application/javascript")
            assert len(loaded.get_data()) > 100
    assert "http://" not in html and "https://" not in html
    # No validator badge: Swagger UI would fetch it from validator.swagger.io.
    assert _config(html)["validatorUrl"] is None


def _config(html: str) -> Any:
    """The settings the page hands to swagger-ui-init.js, in its JSON data block."""
    block = re.search(
        r'<script type="application/json" id="swagger-ui-config">(.*?)</script>', html
    )
    assert block is not None
    return json.loads(block[1])


def test_docs_page_reads_the_served_document(client: FlaskClient) -> None:
    html = client.get("/docs").get_data(as_text=True)
    assert _config(html)["url"] == "/openapi.json"
    document = client.get("/openapi.json")
    assert document.status_code == 200
    assert document.get_json()["info"]["title"] == "rummy-referee"


def test_only_swagger_ui_files_are_served(client: FlaskClient) -> None:
    assert client.get("/docs/assets/index.html").status_code == 404
    assert client.get("/docs/assets/../__init__.py").status_code == 404
    assert client.get("/docs/assets/nothing.js").status_code == 404


def test_the_docs_page_runs_no_inline_script(client: FlaskClient) -> None:
    """The Content-Security-Policy runs scripts from files only: every script element of the
    page loads a file, or is a JSON data block (never executed)."""
    response = client.get("/docs")
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    html = response.get_data(as_text=True)
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert len(scripts) == 4
    for attributes, content in scripts:
        assert 'src="' in attributes or 'type="application/json"' in attributes, attributes
        assert 'src="' not in attributes or not content.strip()
