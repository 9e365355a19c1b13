"""Swagger UI's scripts and styles, served from the installed ``swagger-ui-bundle`` package.

flask-smorest renders the page at ``/docs`` and loads Swagger UI from ``OPENAPI_SWAGGER_UI_URL``;
pointing that here keeps the docs working offline and off every CDN.
"""

from __future__ import annotations

from flask import Blueprint, Response, send_from_directory
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]
from werkzeug.exceptions import NotFound

#: The files the page loads (and their source maps, which browsers' developer tools ask for).
_SERVED = (".js", ".css", ".png", ".map")

assets = Blueprint("docs_assets", __name__)


@assets.get("/docs/assets/<path:filename>")
def swagger_ui_asset(filename: str) -> Response:
    if not filename.endswith(_SERVED):
        raise NotFound()
    return send_from_directory(str(swagger_ui_path), filename, max_age=24 * 3600)
