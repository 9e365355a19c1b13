"""Every error the API answers, as an RFC 9457 problem document — the one place they are made.

Whatever goes wrong — a URL that names nothing (404), a method the path does not take (405), a
body that is not JSON (400), too long (413) or of another media type (415), a field that fails
validation (422, flask-smorest and marshmallow), a question the rules engine calls malformed
(422, :class:`rules.RulesError`), a sheet that cannot be changed as asked (storage's refusals),
or a bug (500) — the client gets ``application/problem+json`` with ``type``, ``title``,
``status`` and ``detail``, and for invalid input ``errors``: a list of
``{"field": "melds.1.2", "message": "..."}`` naming each offending field. Never HTML, never a
stack trace; a 500 is logged with its traceback and an id the client is given.

Every text is written here in the reader's language: what the engine and storage refuse with
is a :class:`~rules.i18n.Phrase` (:mod:`api.i18n` writes it), marshmallow's messages arrive
translated already (:mod:`api.fields`), and a status's title and werkzeug's own details are
texts of the catalogs (:mod:`api.messages`).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator, Mapping, Sequence
from http import HTTPStatus
from typing import Any

import marshmallow as ma
from flask import Flask, Response, current_app, g, request
from flask_smorest import Api
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, TooManyRequests

from api import i18n
from api.messages import HTTP_DETAILS, TITLES
from api.storage import errors as storage
from rules import RulesError
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


#: One field at fault, as storage and the views name it: its path, what is wrong, the rule.
FieldError = storage.FieldError


class Problem(Exception):
    """A request that cannot be served, raised anywhere in a view or a hook: answered as a
    problem document, its texts in the reader's language."""

    def __init__(
        self,
        status: int,
        words: Phrase,
        errors: Sequence[FieldError] = (),
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(str(words))
        self.status = status
        self.words = words
        self.errors = tuple(errors)
        self.headers = dict(headers or {})


def problem_body(status: int, title: str, detail: str) -> dict[str, Any]:
    """The members every problem document has (RFC 9457): ``about:blank`` and the status."""
    return {"type": "about:blank", "title": title, "status": status, "detail": detail}


def title(status: int, language_code: str | None = None) -> str:
    """A status's reason phrase, in the reader's language."""
    phrase = TITLES.get(status, HTTPStatus(status).phrase)
    return i18n.language(language_code=language_code).text(phrase)


def problem(
    status: int,
    detail: str,
    errors: Sequence[Mapping[str, str]] | None = None,
    headers: Mapping[str, str] | None = None,
    instance: str | None = None,
) -> Response:
    """A problem-document response, its texts already in the reader's language."""
    body = problem_body(status, title(status), detail)
    if errors is not None:
        body["errors"] = list(errors)
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


def said(errors: Sequence[FieldError]) -> list[dict[str, str]]:
    """Fields at fault as a problem document lists them, in the reader's language."""
    return [
        {"field": item.field, "message": i18n.say(item.words)}
        | ({"code": item.code} if item.code is not None else {})
        for item in errors
    ]


def invalid_input(
    errors: list[dict[str, str]], headers: Mapping[str, str] | None = None
) -> Response:
    """A 422 naming every field at fault; its detail names the first and counts the others."""
    first = errors[0]
    if first["field"]:
        detail = Phrase(N_("invalid input: {field}: {message}"), first)
    else:
        detail = Phrase(N_("invalid input: {message}"), first)
    if len(errors) > 1:
        detail = Phrase.counted(
            Nn_("{detail} (and {count} more)", "{detail} (and {count} more)"),
            {"detail": detail, "count": len(errors) - 1},
        )
    return problem(422, i18n.say(detail), errors, headers)


def _http_detail(error: HTTPException) -> str:
    """What an HTTP error of werkzeug's says: the API's own words for the two it raises with
    facts, its catalog's words for its default descriptions, or the description given."""
    if isinstance(error, RequestEntityTooLarge):
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        return i18n.say(
            Phrase(N_("the request body is larger than {limit} bytes"), {"limit": limit})
        )
    if isinstance(error, TooManyRequests):
        # api.limits raises it with the limit met ("20 per 1 minute").
        return i18n.say(
            Phrase(
                N_("too many requests from this address: at most {limit}"),
                {"limit": error.description},
            )
        )
    status = error.code or 500
    description = error.description
    if description is None or description == type(error).description:
        default = HTTP_DETAILS.get(status)
        if default is not None:
            return i18n.words().text(default)
        return description or HTTPStatus(status).description
    return str(description)


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
            return invalid_input(field_errors(messages), headers)
        if status >= 500:
            return _internal_error(getattr(error, "original_exception", None) or error)
        return problem(status, _http_detail(error), headers=headers)


def _rules_error(error: RulesError) -> Response:
    """The engine refused the question itself (unknown round, seat off the table...): 422."""
    return invalid_input([{"field": error.field or "", "message": i18n.say(error.words)}])


def _problem(error: Problem) -> Response:
    """A view or a hook refused the request (an Idempotency-Key of the wrong length, a body
    that is not JSON)."""
    errors = said(error.errors) if error.errors else None
    return problem(error.status, i18n.say(error.words), errors, error.headers)


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
        # The route's template, never the path: a path holds the sheet's id.
        current_app.logger.warning(
            "%s on %s %s: %s", error, request.method, _route(), error.cause_text()
        )
    errors = said(error.errors) if error.errors is not None else None
    return problem(status, i18n.say(error.words), errors, headers)


def _route() -> str:
    """The request's route template, as the access log names it (imported when needed:
    gunicorn's master imports this module before the metrics' folder exists)."""
    from api.observability import route

    return route()


def _internal_error(error: BaseException) -> Response:
    instance = f"urn:uuid:{uuid.uuid4()}"
    current_app.logger.error(
        "unexpected error %s on %s %s (request %s)",
        instance,
        request.method,
        _route(),
        g.get("request_id", "-"),
        exc_info=(type(error), error, error.__traceback__),
    )
    detail = i18n.say(Phrase(N_("an unexpected error occurred; it has been logged")))
    return problem(500, detail, instance=instance)


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
