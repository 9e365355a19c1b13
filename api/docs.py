"""Swagger UI's scripts and styles, served from the installed ``swagger-ui-bundle`` package.

flask-smorest renders the page at ``/docs`` and loads Swagger UI from ``OPENAPI_SWAGGER_UI_URL``;
pointing that here keeps the docs working offline and off every CDN. The page itself is
``api/templates/swagger_ui.html`` (it replaces flask-smorest's, whose inline script the
Content-Security-Policy forbids), started by ``docs_files/swagger-ui-init.js``.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory
from swagger_ui_bundle import swagger_ui_path
from werkzeug.exceptions import NotFound

#: The files the page loads (and their source maps, which browsers' developer tools ask for).
_SERVED = (".js", ".css", ".png", ".map")

assets = Blueprint("docs_assets", __name__)

OWN_FILES = Path(__file__).resolve().parent / "docs_files"


@assets.get("/docs/assets/<path:filename>")
def swagger_ui_asset(filename: str) -> Response:
    if not filename.endswith(_SERVED):
        raise NotFound()
    return send_from_directory(str(swagger_ui_path), filename, max_age=24 * 3600)


@assets.get("/docs/swagger-ui-init.js")
def swagger_ui_init() -> Response:
    # Not cached for long: unlike the bundle's files, its name does not change with it.
    return send_from_directory(OWN_FILES, "swagger-ui-init.js", max_age=600)
