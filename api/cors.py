"""CORS for ``/v1`` and ``/openapi.json`` (docs/api.md, "Browsers and other origins"), by flask-cors.

No cookies are used and every write is authorised by its bearer token, so any origin may call
the API by default; ``CORS_ORIGINS`` narrows it to a list. flask-cors adds the headers in an
``after_request`` hook, which every answer goes through — the problem documents of
:mod:`api.errors` included — and answers the preflight ``OPTIONS`` itself.
"""

from __future__ import annotations

import re

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
#: The addresses other origins may call: the API, and its description.
PATHS = r"/v1/.*|/openapi\.json"
#: How long a browser may keep a preflight's answer, in seconds.
MAX_AGE = 600


def init_app(app: Flask) -> None:
    origins = app.config["CORS_ORIGINS"]
    # The API's description is read by the same web apps, and code generators in a browser:
    # it answers as /v1 does.
    CORS(
        app,
        resources={
            rf"({PATHS})": {
                # "*" itself when any origin is allowed: the answer is then the same for every
                # origin, and caches need no Vary. A list is matched and the origin echoed, and
                # every answer varies with the Origin asked from (flask-cors says so only for
                # two origins or more, but one listed origin is answered differently too).
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

        @app.after_request
        def vary_on_origin(response: Response) -> Response:
            if re.fullmatch(PATHS, request.path):
                response.vary.add("Origin")
            return response
