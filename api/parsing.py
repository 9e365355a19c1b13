"""Reading request bodies: strict JSON, bounded in size and depth, and the blueprint that uses it.

webargs (under flask-smorest) treats a body of another media type as absent and an empty body
as ``{}``, and lets Python's ``json`` raise ``RecursionError`` on a deeply nested one. Here a
body must be declared JSON (else 415), be present and parse as strict JSON (else 400: no
``NaN``, no ``Infinity``), and nest no deeper than ``MAX_JSON_DEPTH`` (else 400) — so that only
well-formed bodies reach the schemas, and a hostile one costs one pass over at most
``MAX_CONTENT_LENGTH`` bytes.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from http import HTTPStatus
from typing import Any, TypeVar

import flask
import flask_smorest  # type: ignore[import-untyped]
import marshmallow as ma
import werkzeug
from flask_smorest.utils import (  # type: ignore[import-untyped]
    get_appcontext,
    resolve_schema_instance,
    set_status_and_headers_in_response,
    unpack_tuple_response,
)
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import BadRequest, UnsupportedMediaType

from .fastjson import jsonify_writes_encode_json

F = TypeVar("F", bound=Callable[..., Any])
SchemaArg = type[ma.Schema] | ma.Schema | None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_STRICT_JSON = json.JSONDecoder(parse_constant=_no_constant)


def json_depth(value: Any, limit: int) -> int:
    """How deeply ``value`` nests arrays and objects, counting no further than ``limit + 1``."""
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


class JSONBodyParser(FlaskParser):
    """webargs' Flask parser with strict rules for what counts as a JSON body."""

    def load_json(self, req: flask.Request, schema: ma.Schema) -> Any:
        if not core.is_json(req.mimetype):
            raise UnsupportedMediaType(
                "the body must be JSON, sent with Content-Type: application/json"
                + (f", not {req.mimetype}" if req.mimetype else "")
            )
        raw = req.get_data(cache=True)  # 413 past MAX_CONTENT_LENGTH
        if not raw.strip():
            raise BadRequest("the request has no body; it must be a JSON object")
        try:
            # json.loads(raw, parse_constant=_no_constant), less a new decoder per request.
            body = _STRICT_JSON.decode(raw.decode(json.detect_encoding(raw), "surrogatepass"))
        except RecursionError:
            raise BadRequest("the JSON body is nested too deeply") from None
        except ValueError as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            raise BadRequest(f"the body is not valid JSON: {error}") from None
        limit = flask.current_app.config["MAX_JSON_DEPTH"]
        # Only a body with more brackets than the limit can nest deeper: most have a handful,
        # and counting them runs in C.
        opened = raw.count(b"[") + raw.count(b"{")
        if opened > limit and json_depth(body, limit) > limit:
            raise BadRequest(f"the JSON body nests arrays and objects more than {limit} deep")
        return body

    def parse_body(self, schema: ma.Schema) -> Any:
        """``parse(schema, location="json")``, less the steps it takes for any location.

        The body is read by :meth:`load_json` and loaded by ``schema``, unknown fields refused,
        and a ``ValidationError`` goes to the error handler keyed by ``"json"`` — as webargs
        does it, in one call instead of nine per request.
        """
        # The request itself: through its proxy, every attribute is a context-variable look-up.
        request = flask.request._get_current_object()  # type: ignore[attr-defined]
        try:
            return schema.load(self.load_json(request, schema), unknown=ma.RAISE)
        except ma.ValidationError as error:
            error.messages = {"json": error.messages}
            handle_error = self.error_callback or self.handle_error
            handle_error(error, request, schema, error_status_code=None, error_headers=None)
            raise  # pragma: no cover - the handler aborts


def _documentation_only(decorator: Callable[[F], Any]) -> Callable[[F], F]:
    """A flask-smorest decorator that only documents, without its wrapper at run time.

    ``alt_response`` and ``doc`` wrap the view in a function that calls it, which costs a call
    and a coroutine test per request and per decorator; the view keeps the documentation the
    wrapper would have carried instead.
    """

    def apply(func: F) -> F:
        func._apidoc = decorator(func)._apidoc  # type: ignore[attr-defined]
        return func

    return apply


_NO_WRAPPING = flask_smorest.Blueprint._prepare_response_content


#: What ``arguments`` takes besides the schema that only documents the body.
_DOCUMENTATION = frozenset(
    {"location", "content_type", "required", "description", "example", "examples"}
)


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]
    """flask-smorest's blueprint, reading bodies with :class:`JSONBodyParser`.

    Its decorators document a view as flask-smorest's do (the OpenAPI document is theirs), but
    at run time a view with a JSON body and a response schema is wrapped in two functions —
    one reads the body, one writes the response — where flask-smorest and webargs would stack
    a function per decorator. The decorators are re-declared with types, so that views keep
    theirs under mypy.
    """

    ARGUMENTS_PARSER = JSONBodyParser()

    def route(self, rule: str, **options: Any) -> Callable[[F], F]:
        return super().route(rule, **options)  # type: ignore[no-any-return]

    def get(self, rule: str, **options: Any) -> Callable[[F], F]:
        return self.route(rule, methods=["GET"], **options)

    def post(self, rule: str, **options: Any) -> Callable[[F], F]:
        return self.route(rule, methods=["POST"], **options)

    def arguments(self, schema: SchemaArg, **kwargs: Any) -> Callable[[F], F]:
        # webargs makes a new instance of a schema *class* on every request, which costs more
        # than the check itself; one instance serves every request.
        if isinstance(schema, type):
            schema = schema()
        document = super().arguments(schema, **kwargs)
        if (
            not isinstance(schema, ma.Schema)
            or kwargs.get("location", "json") != "json"
            or not _DOCUMENTATION.issuperset(kwargs)
        ):
            return document  # type: ignore[no-any-return]
        # A JSON body, parsed as webargs' use_args would, less use_args' wrapper and
        # flask-smorest's around the view: one call instead of three.
        parse_body = self.ARGUMENTS_PARSER.parse_body

        def decorator(func: F) -> F:
            @functools.wraps(func)
            def view(*args: Any, **view_args: Any) -> Any:
                return func(*args, parse_body(schema), **view_args)

            view._apidoc = document(func)._apidoc  # type: ignore[attr-defined]
            return view  # type: ignore[return-value]

        return decorator

    def response(
        self, status_code: int, schema: SchemaArg = None, **kwargs: Any
    ) -> Callable[[F], F]:
        instance: ma.Schema | None = resolve_schema_instance(schema)
        document = super().response(status_code, instance, **kwargs)
        # A response schema that writes its JSON text directly (api.fastjson.ResponseSchema),
        # where nothing is to wrap the dumped data: flask.jsonify's text, less the dict.
        dump_json = getattr(instance, "dump_json", None)
        if type(self)._prepare_response_content is not _NO_WRAPPING:
            dump_json = None

        def decorator(func: F) -> F:
            # flask-smorest's wrapper, less a coroutine test per request (views here are
            # synchronous), and less the calls that would set nothing: no status or headers
            # returned, or the status code the response already has.
            @functools.wraps(func)
            def view(*args: Any, **view_args: Any) -> Any:
                result = func(*args, **view_args)
                status = headers = None
                if type(result) is tuple:
                    result, status, headers = unpack_tuple_response(result)
                elif dump_json is not None:
                    app = flask.current_app._get_current_object()  # type: ignore[attr-defined]
                    text = dump_json(result) if jsonify_writes_encode_json(app) else None
                    if text is not None:
                        response = app.response_class(text + "\n", mimetype=app.json.mimetype)
                        if response.status_code != status_code:
                            response.status_code = status_code
                        return response
                if isinstance(result, werkzeug.Response):
                    if status is not None or headers:
                        set_status_and_headers_in_response(result, status, headers)
                    return result
                dumped = result if instance is None else instance.dump(result)
                get_appcontext()["result_dump"] = dumped  # what flask-smorest's ETags read
                response = flask.jsonify(self._prepare_response_content(dumped))
                if status is not None or headers:
                    set_status_and_headers_in_response(response, status, headers)
                if status is None and response.status_code != status_code:
                    response.status_code = status_code
                return response

            view._apidoc = document(func)._apidoc  # type: ignore[attr-defined]
            return view  # type: ignore[return-value]

        return decorator

    def alt_response(self, status_code: int, **kwargs: Any) -> Callable[[F], F]:
        return _documentation_only(super().alt_response(status_code, **kwargs))

    def doc(self, **kwargs: Any) -> Callable[[F], F]:
        return _documentation_only(super().doc(**kwargs))

    def json_body(self, schema: SchemaArg, *, example: Any) -> Callable[[F], F]:
        """``@arguments`` for a JSON body, documenting the errors reading a body can answer."""

        def decorator(func: F) -> F:
            return self.refusals(400, 413, 415)(self.arguments(schema, example=example)(func))

        return decorator

    def refusals(self, *statuses: int) -> Callable[[F], F]:
        """Document the problem documents an operation can answer, by status."""

        def decorator(func: F) -> F:
            for status in statuses:
                func = self.alt_response(status, response=HTTPStatus(status).name)(func)
            return func

        return decorator
