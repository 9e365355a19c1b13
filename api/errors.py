"""Every error the API answers, as an RFC 9457 problem document — the one place they are made.

Whatever goes wrong — a URL that names nothing (404), a method the path does not take (405), a
body that is not JSON (400), too long (413) or of another media type (415), a field that fails
validation (422, flask-smorest and marshmallow), a question the rules engine calls malformed
(422, :class:`rules.RulesError`), or a bug (500) — the client gets ``application/problem+json``
with ``type``, ``title``, ``status`` and ``detail``, and for invalid input ``errors``: a list of
``{"field": "melds.1.2", "message": "..."}`` naming each offending field. Never HTML, never a
stack trace; a 500 is logged with its traceback and an id the client is given.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator, Mapping
from http import HTTPStatus
from typing import Any

import marshmallow as ma
from flask import Flask, Response, current_app, request
from flask_smorest import Api  # type: ignore[import-untyped]
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from api.i18n import translated
from api.messages import TITLES
from api.storage import errors as storage
from rules import RulesError
from rules import i18n as words
from rules.i18n import N_, Nn_, Phrase

PROBLEM_JSON = "application/problem+json"


class FieldErrorSchema(ma.Schema):
    field = ma.fields.String(
        required=True,
        metadata={
            "description": "Dotted path of the offending field in the request body, list"
            " positions counted from 0 (`melds.1.2`, `ruleset.options.buy_limit`); empty when"
            " the body as a whole is at fault.",
            "example": "melds.1.2",
        },
    )
    message = ma.fields.String(required=True, metadata={"example": "not a card: 'ZZ'"})
    code = ma.fields.String(
        metadata={
            "description": "The rule broken, where one is (a round that cannot have happened:"
            " `several_went_out`, `points_impossible`...).",
            "example": "points_impossible",
        }
    )


class ProblemSchema(ma.Schema):
    """An RFC 9457 problem document."""

    type = ma.fields.String(
        required=True,
        metadata={
            "description": "`about:blank`: the status code says what kind of problem it is.",
            "example": "about:blank",
        },
    )
    title = ma.fields.String(
        required=True,
        metadata={"description": "The status code's phrase.", "example": "Unprocessable Entity"},
    )
    status = ma.fields.Integer(required=True, metadata={"example": 422})
    detail = ma.fields.String(
        required=True,
        metadata={
            "description": "What went wrong with this request, for a person to read.",
            "example": "invalid input: melds.1.2: not a card: 'ZZ'",
        },
    )
    errors = ma.fields.List(
        ma.fields.Nested(FieldErrorSchema),
        metadata={"description": "Every invalid field, when the input was invalid."},
    )
    instance = ma.fields.String(
        metadata={
            "description": "For a 500: the id under which the error was logged.",
            "example": "urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427",
        }
    )


class Problem(Exception):
    """A request that cannot be served, raised anywhere in a view: answered as a problem document."""

    def __init__(
        self,
        status: int,
        detail: str,
        errors: list[dict[str, str]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.errors = errors
        self.headers = headers or {}


def problem_body(status: int, title: str, detail: str) -> dict[str, Any]:
    """The members every problem document has (RFC 9457): ``about:blank`` and the status."""
    return {"type": "about:blank", "title": title, "status": status, "detail": detail}


def problem(
    status: int,
    detail: str,
    errors: list[dict[str, str]] | None = None,
    headers: Mapping[str, str] | None = None,
    instance: str | None = None,
    *,
    in_language: bool = False,
) -> Response:
    """A problem-document response, its texts in the reader's language (``in_language``: they
    are already)."""
    if not in_language:
        detail = translated(detail)
        if errors is not None:
            errors = [item | {"message": translated(item["message"])} for item in errors]
    body = problem_body(status, title(status), detail)
    if errors is not None:
        body["errors"] = errors
    if instance is not None:
        body["instance"] = instance
    response: Response = current_app.json.response(body)  # type: ignore[assignment]
    response.status_code = status
    response.mimetype = PROBLEM_JSON
    if headers:
        response.headers.update(headers)
    return response


def field_errors(messages: Any, path: tuple[str, ...] = ()) -> list[dict[str, str]]:
    """marshmallow's nested error messages as a flat list of ``{"field", "message"}``.

    ``{"melds": {1: {2: ["not a card"]}}}`` becomes ``[{"field": "melds.1.2", ...}]``; the
    ``_schema`` key (an error of an object as a whole) names the object itself.
    """
    found: list[dict[str, str]] = []
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            found.extend(field_errors(value, path if key == "_schema" else (*path, str(key))))
    elif isinstance(messages, list | tuple):
        for item in messages:
            if isinstance(item, Mapping | list | tuple):
                found.extend(field_errors(item, path))
            else:
                found.append({"field": ".".join(path), "message": str(item)})
    else:
        found.append({"field": ".".join(path), "message": str(messages)})
    return found


def title(status: int) -> str:
    """A status's reason phrase, in the reader's language."""
    phrase = HTTPStatus(status).phrase
    language = words.current()
    return phrase if language.code == "en" else language.text(TITLES.get(status, phrase))


def invalid_input(errors: list[dict[str, str]]) -> Response:
    """A 422 naming every field at fault; its detail names the first and counts the others."""
    errors = [item | {"message": translated(item["message"])} for item in errors]
    first = errors[0]
    language = words.current()
    if first["field"]:
        detail = language.fill(
            language.text(N_("invalid input: {field}: {message}")),
            {"field": first["field"], "message": first["message"]},
        )
    else:
        detail = language.fill(
            language.text(N_("invalid input: {message}")), {"message": first["message"]}
        )
    if len(errors) > 1:
        more = Phrase.counted(
            Nn_("{detail} (and {count} more)", "{detail} (and {count} more)"),
            {"detail": detail, "count": len(errors) - 1},
        )
        detail = language.phrase(more)
    return problem(422, detail, errors, in_language=True)


class ProblemApi(Api):  # type: ignore[misc]
    """flask-smorest's ``Api``, answering and documenting errors as problem documents."""

    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error: HTTPException) -> Response:
        status = error.code or 500
        data = getattr(error, "data", None) or {}
        headers = dict(data.get("headers") or {})
        if status == 405:
            # The Allow header is part of a 405 (RFC 9110 §15.5.6).
            headers.update((k, v) for k, v in error.get_headers() if k.lower() == "allow")
        messages = data.get("messages")
        if status == 422 and messages:
            # webargs keys the messages by location ("json"); the body is the only one here.
            if isinstance(messages, Mapping) and set(messages) == {"json"}:
                messages = messages["json"]
            response = invalid_input(field_errors(messages))
            response.headers.update(headers)
            return response
        if status >= 500:
            return _internal_error(getattr(error, "original_exception", None) or error)
        if isinstance(error, RequestEntityTooLarge):
            limit = current_app.config.get("MAX_CONTENT_LENGTH")
            detail = f"the request body is larger than {limit} bytes"
        elif status == 429:
            # api.limits describes the limit met ("20 per 1 minute") and adds Retry-After.
            detail = f"too many requests from this address: at most {error.description}"
        else:
            detail = error.description or HTTPStatus(status).description
        return problem(status, detail, headers=headers)


def _rules_error(error: RulesError) -> Response:
    """The engine refused the question itself (unknown round, seat off the table...): 422."""
    return invalid_input([{"field": error.field or "", "message": str(error)}])


def _problem(error: Problem) -> Response:
    """A view refused the request (an Idempotency-Key of the wrong length)."""
    return problem(error.status, error.detail, error.errors, error.headers)


# --- storage's refusals --------------------------------------------------------------------------

#: The status each refusal of :mod:`api.storage` answers with: the one place they are chosen.
STORAGE_STATUSES: dict[type[storage.StorageError], int] = {
    storage.TokenMissing: 401,
    storage.BadToken: 403,
    storage.SheetNotFound: 404,
    storage.NoSuchRound: 404,
    storage.RoundOutOfOrder: 409,
    storage.ConcurrentWrite: 409,
    storage.IdempotencyConflict: 409,
    storage.StaleSheet: 412,
    storage.PreconditionMissing: 428,
    storage.InvalidInput: 422,
    storage.StorageUnavailable: 503,
}


#: Seconds a client is asked to wait before retrying when the database is unavailable.
RETRY_AFTER = 5


def version_etag(version: int) -> str:
    """The ETag of a sheet's version: what ``If-Match`` names and a 412 answers."""
    return f'"{version}"'


def _storage_error(error: storage.StorageError) -> Response:
    """A sheet could not be read or changed as asked: its status, and the headers to act on."""
    status = next(
        (STORAGE_STATUSES[kind] for kind in type(error).__mro__ if kind in STORAGE_STATUSES),
        None,
    )
    if status is None:
        return _internal_error(error)
    headers = {}
    if isinstance(error, storage.TokenMissing):
        headers["WWW-Authenticate"] = 'Bearer realm="rummy-referee"'
    elif isinstance(error, storage.StaleSheet):
        headers["ETag"] = version_etag(error.version)
    elif isinstance(error, storage.StorageUnavailable):
        # A database that is back is usually back within seconds (a restart, a failover).
        headers["Retry-After"] = str(RETRY_AFTER)
        current_app.logger.warning(
            "%s on %s %s: %s", error, request.method, request.path, error.cause
        )
    errors = None
    if error.errors is not None:
        errors = [
            {"field": item.field, "message": item.message}
            | ({"code": item.code} if item.code is not None else {})
            for item in error.errors
        ]
    return problem(status, str(error), errors, headers)


def _internal_error(error: BaseException) -> Response:
    instance = f"urn:uuid:{uuid.uuid4()}"
    current_app.logger.error(
        "unexpected error %s on %s %s (request %s)",
        instance,
        request.method,
        request.path,
        request.environ.get("rummy_referee.request_id", "-"),
        exc_info=(type(error), error, error.__traceback__),
    )
    return problem(500, "an unexpected error occurred; it has been logged", instance=instance)


@contextlib.contextmanager
def renamed_fields(**names: str) -> Iterator[None]:
    """Report an engine error's field under the request's name for it.

    ``check_buy`` calls the table size ``players``; the buy request calls it ``seats``.
    """
    try:
        yield
    except RulesError as error:
        if error.field in names:
            error.field = names[error.field]
        raise


def init_app(app: Flask) -> None:
    """Route the errors that are not HTTP exceptions (flask-smorest routes those to ProblemApi)."""
    app.register_error_handler(RulesError, _rules_error)
    app.register_error_handler(Problem, _problem)
    app.register_error_handler(storage.StorageError, _storage_error)
    # Flask looks for the most specific handler, so this one only sees what nothing else takes:
    # HTTP exceptions go to ProblemApi.handle_http_exception, RulesError to _rules_error.
    app.register_error_handler(Exception, _internal_error)
