"""JSON as the API reads and writes it: Flask's JSON provider, strict on the way in, orjson on
the way out.

Every body the API answers is written by :class:`JSONProvider` — flask-smorest's dumped
schemas (through ``jsonify``), the problem documents, the pages' data — as compact UTF-8 with
the keys in the order the schema gives them, and a final newline.

Requests are read by the standard library's parser, made strict: ``NaN`` and ``Infinity`` are
not JSON. It is kept for reading, not orjson's, because it reads what a client may send that
orjson refuses outright — a lone surrogate escaped in a player's name (``"B\\ud800b"``), which
the schema then refuses by naming the field, and UTF-16 or UTF-32 bodies.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import orjson
from flask import Response, current_app
from flask.json.provider import JSONProvider as FlaskJSONProvider


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


#: The standard library's decoder, refusing the constants Python's JSON allows.
STRICT_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def strict_loads(raw: str | bytes) -> Any:
    """Parse a JSON text, bytes decoded as ``json.loads`` decodes them (UTF-8, -16 or -32)."""
    if isinstance(raw, bytes | bytearray):
        raw = bytes(raw).decode(json.detect_encoding(raw), "surrogatepass")
    return STRICT_DECODER.decode(raw)


def _default(value: Any) -> Any:
    """What orjson cannot write itself: a mapping that is not a dict (a stored ruleset is
    read-only), and a lazily translated text (a message of Flask-Babel's ``lazy_gettext``)."""
    if isinstance(value, Mapping):
        return dict(value)
    if hasattr(value, "__html__"):  # flask_babel's LazyString, markupsafe's Markup
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def dumps_bytes(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON.

    orjson writes no text it could not write as UTF-8: a string holding a lone surrogate (an
    unknown field named ``"\\ud800"``, echoed in a problem document) is written by the standard
    library instead, with the surrogate escaped.
    """
    try:
        return orjson.dumps(value, default=_default)
    except orjson.JSONEncodeError:
        return json.dumps(value, default=_default, separators=(",", ":")).encode()


class JSONProvider(FlaskJSONProvider):
    """Flask's seam for JSON: every ``jsonify``, ``request.get_json`` and ``app.json`` of the
    app goes through here."""

    mimetype = "application/json"

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return dumps_bytes(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return strict_loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """``jsonify``: one value, several as a list, or keyword arguments as an object."""
        if args and kwargs:
            raise TypeError("jsonify() takes positional or keyword arguments, not both")
        value: Any = kwargs if not args else args[0] if len(args) == 1 else list(args)
        return current_app.response_class(dumps_bytes(value) + b"\n", mimetype=self.mimetype)
