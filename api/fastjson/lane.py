"""The checks' lane: a plain check answered beside Flask, not through it.

A check is a pure function of its body, and most requests are plain: a JSON body of a known
length, no query string, a preset ruleset. For those, Flask's request context, URL adapters,
hooks and response object cost more than loading the body, judging the melds and writing the
verdict together. :class:`Lane` sits directly around the Flask app, inside the WSGI middleware
that adds the language, request id, access log, metrics and security headers to every answer,
and serves such a request with the view's own plans (:class:`~api.fastjson.JSONView`): the
same strict JSON, the same loaded values, the same view, the same verdict text, and the headers
Flask and its hooks would add (``Content-Type``, ``Content-Length``, the CORS headers of an
API any origin may call).

Everything else goes to Flask, untouched or with the body it read put back: another method or
path, a query string (``?lang=``), a chunked or oversized body, another media type, a body that
does not parse or that the plans are not sure of, a verdict the writer gives up on, any error.
So every refusal, and every unusual answer, is the stock path's; the fast-path test sends its
corpus through the lane and through an app without it and compares status, headers and bytes.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rules import i18n as words

from .. import cors, i18n, observability, parsing
from . import FastJSONProvider, JSONView

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment
    from flask import Flask


class Replay(io.BytesIO):
    """A body as far as the lane read it, then what reading the rest met (an error, or the
    end): what Flask reads in its place, so that it answers the body as it came."""

    def __init__(self, raw: bytes, error: Exception | None = None) -> None:
        super().__init__(raw)
        self.error = error

    def readinto(self, buffer: Any) -> int:
        count = super().readinto(buffer)
        if count == 0 and self.error is not None:
            raise self.error
        return count

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        if not data and self.error is not None:
            raise self.error
        return data


class Lane:
    """WSGI app serving the plain requests of ``plans`` (URL rule → plan) and handing every
    other request to ``flask_app`` (the Flask app's own ``wsgi_app``).

    Only for an app any origin may call, whose every ``/v1`` answer carries the same two CORS
    headers: with a list of origins the answer depends on the request's ``Origin``, which is
    flask-cors's to work out (``create_app`` stacks no lane then)."""

    def __init__(self, app: Flask, flask_app: WSGIApplication, plans: dict[str, JSONView]) -> None:
        self.app = app
        self.config = app.config
        self.flask_app = flask_app
        self.plans = plans

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        plan = self.plans.get(environ.get("PATH_INFO", ""))
        length = self._plain_length(environ) if plan is not None else None
        if plan is None or length is None or not self._writes_as_flask(plan):
            return self.flask_app(environ, start_response)
        parsing.bound_body_reading(environ, self.config["REQUEST_READ_TIMEOUT"])
        try:
            raw = environ["wsgi.input"].read(length)
        except Exception as error:  # noqa: BLE001 - Flask answers it, as it answers it itself
            return self._to_flask(environ, start_response, b"", error)
        if len(raw) != length:
            return self._to_flask(environ, start_response, raw)
        # The language is said by the middleware around the lane when the answer starts.
        with words.speaking(i18n.language(i18n.choose(environ.get("HTTP_ACCEPT_LANGUAGE", "")))):
            try:
                text = plan.verdict(parsing.strict_json(raw))
            except Exception:  # noqa: BLE001 - not JSON, or an error: Flask says which
                text = None
            if text is not None:
                body = f"{text}\n".encode()
                environ[observability.ROUTE] = environ["PATH_INFO"]
                start_response(
                    plan.status_line,
                    [
                        ("Content-Type", "application/json"),
                        ("Content-Length", str(len(body))),
                        *cors.ANY_ORIGIN_HEADERS,
                    ],
                )
                return [body]
        return self._to_flask(environ, start_response, raw)

    def _writes_as_flask(self, plan: JSONView) -> bool:
        """Whether Flask would send the plan's written text as it is: a body the plan may
        load, and compact, ASCII, ordered JSON (pretty, sorted or unescaped is Flask's)."""
        provider = self.app.json
        return (
            plan.depth <= self.config["MAX_JSON_DEPTH"]
            and isinstance(provider, FastJSONProvider)
            and provider.sends_as_written(self.app.debug)
        )

    def _plain_length(self, environ: WSGIEnvironment) -> int | None:
        """The body's length, for a POST the lane can read as Flask would; else None."""
        length = environ.get("CONTENT_LENGTH", "")
        if (
            environ.get("REQUEST_METHOD") != "POST"
            or environ.get("QUERY_STRING")
            or "HTTP_TRANSFER_ENCODING" in environ
            or not (length.isascii() and length.isdigit())
            or environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
            != "application/json"
        ):
            return None
        size = int(length)
        return size if 0 < size <= self.config["MAX_CONTENT_LENGTH"] else None

    def _to_flask(
        self,
        environ: WSGIEnvironment,
        start_response: StartResponse,
        raw: bytes,
        error: Exception | None = None,
    ) -> Iterable[bytes]:
        environ["wsgi.input"] = Replay(raw, error)
        return self.flask_app(environ, start_response)
