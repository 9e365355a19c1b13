"""CORS for ``/v1`` (docs/api.md, "Browsers and other origins"), by flask-cors.

No cookies are used and every write is authorised by its bearer token, so any origin may call
the API by default; ``CORS_ORIGINS`` narrows it to a list. flask-cors adds the headers in an
``after_request`` hook, which every answer goes through — the problem documents of
:mod:`api.errors` included — and answers the preflight ``OPTIONS`` itself.
"""

from __future__ import annotations

from flask import Flask, Response, request
from flask_cors import CORS

#: What a web app may send: the token, the preconditions, the creation's key, a JSON body and
#: the language it wants.
ALLOWED_HEADERS = [
    "Authorization",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    "Content-Type",
    "Accept-Language",
]
#: What a web app may read beyond the CORS-safelisted headers: the version to write on, where a
#: new sheet lives, the language answered, how long to wait, and whether a creation was replayed.
EXPOSED_HEADERS = ["ETag", "Location", "Content-Language", "Retry-After", "Idempotent-Replayed"]
METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"]
#: How long a browser may keep a preflight's answer, in seconds.
MAX_AGE = 600


def init_app(app: Flask) -> None:
    origins = app.config["CORS_ORIGINS"]
    CORS(
        app,
        resources={
            r"/v1/*": {
                # "*" itself when any origin is allowed: the answer is then the same for every
                # origin, and caches need no Vary. A list is matched and the origin echoed.
                "origins": origins or "*",
                "send_wildcard": not origins,
                "allow_headers": ALLOWED_HEADERS,
                "expose_headers": EXPOSED_HEADERS,
                "methods": METHODS,
                "max_age": MAX_AGE,
                "supports_credentials": False,
                "vary_header": True,
            }
        },
    )
    if origins:
        app.after_request(_vary_on_origin)
    else:
        # Registered after flask-cors's hook, so run before it (Flask runs them last first):
        # flask-cors leaves alone an answer that already says its origin.
        app.after_request(_any_origin)


#: What flask-cors writes on an ordinary (not preflight) ``/v1`` answer when every origin is
#: allowed: the same two headers whatever was asked. flask-cors works them out afresh for each
#: answer (matching its resources, reading its options), which cost a contract check about a
#: seventh of its time; they are written here once. tests/api/test_cors.py compares the two.
ANY_ORIGIN_HEADERS = (
    ("Access-Control-Allow-Origin", "*"),
    ("Access-Control-Expose-Headers", ", ".join(sorted(EXPOSED_HEADERS))),
)


def _any_origin(response: Response) -> Response:
    # An error's answer has had flask-cors's headers already (it wraps the error handlers).
    headers = response.headers
    if (
        request.method != "OPTIONS"
        and request.path.startswith("/v1/")
        and "Access-Control-Allow-Origin" not in headers
    ):
        headers.extend(ANY_ORIGIN_HEADERS)
    return response


def _vary_on_origin(response: Response) -> Response:
    """Narrowed, an answer depends on the asking origin (echoed, or no CORS header at all):
    a shared cache must keep one per origin. flask-cors says so only for two origins or more."""
    if request.path.startswith("/v1/"):
        response.vary.add("Origin")
    return response
