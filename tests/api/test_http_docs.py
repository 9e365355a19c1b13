"""The docs page and its OpenAPI document are served by the app itself, with nothing from a CDN."""

from __future__ import annotations

import re

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
    }
    for asset in assets:
        assert asset.startswith("/docs/assets/"), asset
        with client.get(asset) as loaded:  # a file response: closed when read
            assert loaded.status_code == 200, asset
            assert loaded.mimetype in ("text/css", "text/javascript", "application/javascript")
            assert len(loaded.get_data()) > 1000
    assert "http://" not in html and "https://" not in html
    # No validator badge: Swagger UI would fetch it from validator.swagger.io.
    assert '"validatorUrl": null' in html


def test_docs_page_reads_the_served_document(client: FlaskClient) -> None:
    html = client.get("/docs").get_data(as_text=True)
    assert 'url: "/openapi.json"' in html
    document = client.get("/openapi.json")
    assert document.status_code == 200
    assert document.get_json()["info"]["title"] == "rummy-referee"


def test_only_swagger_ui_files_are_served(client: FlaskClient) -> None:
    assert client.get("/docs/assets/index.html").status_code == 404
    assert client.get("/docs/assets/../__init__.py").status_code == 404
    assert client.get("/docs/assets/nothing.js").status_code == 404
