"""The headers every answer carries so that a browser holds the pages and the API to their
word: scripts and styles only from this origin (no inline script anywhere, ``/docs``
included), never framed, never sniffed into another type, no address sent on to other sites.

The pages and Swagger UI load everything from the service itself, so one policy serves them
all; ``tests/pages`` drives them in Chromium under it and fails on any violation. Sheets are
private to whoever holds their address and change with every round: they are answered
``Cache-Control: private, no-cache`` (see :mod:`api.matches`), so a shared cache never keeps
one and a phone always asks again (cheaply: ``If-None-Match`` answers 304).
"""

from __future__ import annotations

from flask import Flask, Response

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        # Swagger UI draws its icons from data: URLs.
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

#: What a sheet's answers (JSON, CSV, and their refusals) say to caches.
SHEET_CACHE_CONTROL = "private, no-cache"


def secure(response: Response) -> Response:
    """Every answer carries :data:`HEADERS`, unless it sets its own (Swagger UI's page)."""
    headers = response.headers
    present = {name.lower() for name in headers.keys()}
    for name, value in HEADERS.items():
        if name.lower() not in present:
            headers.add(name, value)
    return response


def init_app(app: Flask) -> None:
    app.after_request(secure)


__all__ = ["CONTENT_SECURITY_POLICY", "HEADERS", "SHEET_CACHE_CONTROL", "init_app", "secure"]
