"""Everything the OpenAPI document holds that no view's decorators say: added in one place.

flask-smorest writes the document from the blueprints' decorators and the schemas; what
apispec has no marshmallow spelling for is added here, through apispec's public extension
points (:meth:`spec.components.schema <apispec.core.Components.schema>` and a plugin):

* ``HouseRuleset``, referenced by name from the ``oneOf`` of :class:`api.fields.RulesetField`;
* ``ResultEntry``'s ``oneOf``: exactly one of ``went_out``, ``points`` or ``cards``;
* ``editToken``, the bearer scheme the writes to a match sheet carry;
* every error response as ``application/problem+json``, the media type it is answered with
  (flask-smorest documents its error responses as ``application/json``);
* the refusals every operation with a JSON body can answer, whatever it does with the body:
  400 (not JSON, or nested too deep), 413 (too long), 415 (of another media type) — said once
  here, instead of by a decorator on each view that would wrap it at run time as well;
* the spreadsheet form (``text/csv``) of a match sheet, beside its JSON.
"""

from __future__ import annotations

from typing import Any

from apispec import APISpec, BasePlugin

from .errors import PROBLEM_JSON
from .schemas import HouseRulesetSchema

#: JSON Schema's way of saying what ``ResultEntrySchema.one_outcome`` checks (apispec has no
#: marshmallow spelling for it).
#: Each branch says its type, so that client generators read it as a model of its own.
ONE_OUTCOME = [
    {
        "type": "object",
        "required": ["went_out"],
        "properties": {"went_out": {"type": "boolean", "enum": [True]}},
    },
    {"type": "object", "required": ["points"]},
    {"type": "object", "required": ["cards"]},
]

#: What reading a JSON body can answer (api.parsing.JSONBodyParser), by status.
BODY_REFUSALS = {
    "400": "BAD_REQUEST",
    "413": "REQUEST_ENTITY_TOO_LARGE",
    "415": "UNSUPPORTED_MEDIA_TYPE",
}

#: A match sheet as a spreadsheet: what ``GET /v1/matches/{match_id}`` answers to ``text/csv``.
SHEET_CSV = {
    "schema": {"type": "string"},
    "example": "round,contract,dealer,Ann,Ann total,Bob,Bob total\r\n"
    "1,2 sets,Ann,0,0,35,35\r\n2,1 set + 1 run,Bob,20,20,0,35\r\n",
}


class Documentation(BasePlugin):
    """The apispec plugin that gives error responses and the match sheet their media types."""

    def response_helper(self, response: dict[str, Any], **kwargs: Any) -> dict[str, Any] | None:
        # flask-smorest registers a response component for each error status, and only those.
        content = response.get("content", {})
        if "application/json" not in content:
            return None
        return {"content": {PROBLEM_JSON: content["application/json"]}}

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        from .sheets import blp as sheets

        for operation in (operations or {}).values():
            if "application/json" in operation.get("requestBody", {}).get("content", {}):
                responses = operation.setdefault("responses", {})
                documented = {str(status) for status in responses}
                for status, name in BODY_REFUSALS.items():
                    if status not in documented:
                        responses[status] = name  # apispec makes it a $ref
        if path == f"{sheets.url_prefix}/{{match_id}}" and operations and "get" in operations:
            responses = operations["get"]["responses"]
            answer = next(value for key, value in responses.items() if str(key) == "200")
            answer["content"]["text/csv"] = SHEET_CSV


def register_components(spec: APISpec) -> None:
    """The components the blueprints refer to: registered before them, under their names."""
    from .schemas.sheets import ResultEntrySchema

    spec.components.schema("HouseRuleset", schema=HouseRulesetSchema)
    spec.components.schema("ResultEntry", {"oneOf": ONE_OUTCOME}, schema=ResultEntrySchema)
    # Writes to a match sheet carry its edit token as a bearer token.
    spec.components.security_scheme(
        "editToken",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "The `edit_token` answered when the sheet was created.",
        },
    )
