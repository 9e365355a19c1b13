"""Reading request bodies: strict JSON, bounded in size and depth, and the blueprint that uses it.

webargs (under flask-smorest) treats a body of another media type as absent and an empty body
as ``{}``, and lets Python's ``json`` raise ``RecursionError`` on a deeply nested one. Here a
body must be declared JSON (else 415), be present and parse as strict JSON (else 400: no
``NaN``, no ``Infinity``), and nest no deeper than ``MAX_JSON_DEPTH`` (else 400) — so that only
well-formed bodies reach the schemas, and a hostile one costs one pass over at most
``MAX_CONTENT_LENGTH`` bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any, TypeVar

import flask
import flask_smorest
import marshmallow as ma
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import ClientDisconnected, HTTPException, RequestEntityTooLarge

from rules.i18n import N_, Phrase

from .errors import Problem
from .schemas.compiled import CompiledSchema

F = TypeVar("F", bound=Callable[..., Any])
SchemaArg = type[ma.Schema] | ma.Schema | None


def json_depth(value: Any, limit: int) -> int:
    """How deeply ``value`` nests arrays and objects, counting no further than ``limit + 1``.

    >>> json_depth({"melds": [["7H", "7S"]]}, 32)
    3
    """
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > limit:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def bad_request(template: str, **params: Any) -> Problem:
    return Problem(400, Phrase(template, params))


def bound_body_reading(environ: dict[str, Any], seconds: float) -> None:
    """Let reading this request's body wait at most ``seconds`` for each piece of it.

    gunicorn hands the connection to the app: without a timeout, a body shorter than its
    Content-Length would hold this thread until the client gave up. gunicorn takes the socket
    back to blocking mode (no timeout) before it reads the next request.
    """
    connection = environ.get("gunicorn.socket")
    if connection is not None:
        connection.settimeout(seconds)


def read_body(req: flask.Request) -> bytes:
    """The request body, read within ``REQUEST_READ_TIMEOUT`` seconds of silence, as at most
    ``MAX_CONTENT_LENGTH`` bytes: 413 past it, 400 for a body that stalls, ends before its
    ``Content-Length`` or is not well-formed chunked encoding — never a 500, never a hang."""
    config = flask.current_app.config
    bound_body_reading(req.environ, config["REQUEST_READ_TIMEOUT"])
    try:
        raw = req.get_data(cache=True)  # 413 when Content-Length is past MAX_CONTENT_LENGTH
        limit = config["MAX_CONTENT_LENGTH"]
        if req.content_length is None and len(raw) >= limit and req.environ["wsgi.input"].read(1):
            # A chunked body is cut at the limit (werkzeug's LimitedStream): more is too much.
            raise RequestEntityTooLarge()
    except ClientDisconnected:
        raise bad_request(
            N_("the request body ended before its Content-Length, or stalled for {seconds} s"),
            seconds=config["REQUEST_READ_TIMEOUT"],
        ) from None
    except HTTPException:
        raise
    except Exception as error:
        # What the server raises is its own (gunicorn's InvalidChunkSize for a malformed
        # chunked body): each is a body that cannot be read.
        raise bad_request(N_("the request body cannot be read: {error}"), error=error) from None
    return raw


class JSONBodyParser(FlaskParser):
    """webargs' Flask parser with strict rules for what counts as a JSON body."""

    def load_json(self, req: flask.Request, schema: ma.Schema) -> Any:
        if not core.is_json(req.mimetype):
            if not req.mimetype:
                raise Problem(
                    415,
                    Phrase(N_("the body must be JSON, sent with Content-Type: application/json")),
                )
            raise Problem(
                415,
                Phrase(
                    N_(
                        "the body must be JSON, sent with Content-Type: application/json, not {given}"
                    ),
                    {"given": req.mimetype},
                ),
            )
        raw = read_body(req)
        if not raw.strip():
            raise bad_request(N_("the request has no body; it must be a JSON object"))
        try:
            body = flask.current_app.json.loads(raw)
        except RecursionError:
            raise bad_request(N_("the JSON body is nested too deeply")) from None
        except ValueError as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            raise bad_request(N_("the body is not valid JSON: {error}"), error=error) from None
        limit = flask.current_app.config["MAX_JSON_DEPTH"]
        # A body opens an array or object for each level it nests: one that opens no more
        # than the limit cannot nest deeper, and need not be walked.
        if raw.count(b"[") + raw.count(b"{") > limit and json_depth(body, limit) > limit:
            raise bad_request(
                N_("the JSON body nests arrays and objects more than {limit} deep"), limit=limit
            )
        return body


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]
    """flask-smorest's blueprint, reading bodies with :class:`JSONBodyParser`.

    Its decorators are flask-smorest's own, re-declared with types so that views keep theirs
    under mypy, and with two that document the errors an operation can answer.
    """

    ARGUMENTS_PARSER = JSONBodyParser()

    def route(self, rule: str, **options: Any) -> Callable[[F], F]:
        return super().route(rule, **options)  # type: ignore[no-any-return]

    def get(self, rule: str, **options: Any) -> Callable[[F], F]:
        return self.route(rule, methods=["GET"], **options)

    def post(self, rule: str, **options: Any) -> Callable[[F], F]:
        return self.route(rule, methods=["POST"], **options)

    def arguments(self, schema: SchemaArg, **kwargs: Any) -> Callable[[F], F]:
        # webargs makes a new instance of a schema *class* on every request: one instance
        # serves every request instead, made once.
        if isinstance(schema, type):
            schema = schema()
        return super().arguments(schema, **kwargs)  # type: ignore[no-any-return]

    def response(
        self, status_code: int, schema: SchemaArg = None, **kwargs: Any
    ) -> Callable[[F], F]:
        """``@response``, for a schema whose dump is compiled (:mod:`api.schemas.compiled`):
        every body a view answers is written the one way."""
        if isinstance(schema, type):
            schema = schema()
        if schema is not None and not isinstance(schema, CompiledSchema):
            raise TypeError(f"{type(schema).__name__} answers a view: make it a CompiledSchema")
        return super().response(status_code, schema, **kwargs)  # type: ignore[no-any-return]

    def alt_response(self, status_code: int, **kwargs: Any) -> Callable[[F], F]:
        return super().alt_response(status_code, **kwargs)  # type: ignore[no-any-return]

    def after_request(self, func: F) -> F:
        return super().after_request(func)  # type: ignore[no-any-return]

    def before_request(self, func: F) -> F:
        return super().before_request(func)  # type: ignore[no-any-return]

    def doc(self, **kwargs: Any) -> Callable[[F], F]:
        return super().doc(**kwargs)  # type: ignore[no-any-return]

    def json_body(self, schema: SchemaArg, *, example: Any) -> Callable[[F], F]:
        """``@arguments`` for a JSON body (:mod:`api.openapi` documents the errors reading a
        body can answer, for every operation that takes one)."""
        return self.arguments(schema, example=example)

    def refusals(self, *statuses: int) -> Callable[[F], F]:
        """Document the problem documents an operation can answer, by status: each the
        response component flask-smorest registers for it (``CONFLICT``...). Said in the
        operation's document alone (``@doc``): an ``@alt_response`` for each would also wrap the
        view once more, and every request would pass through each wrapper."""
        return self.doc(responses={status: HTTPStatus(status).name for status in statuses})
