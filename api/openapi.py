"""Everything the OpenAPI document holds that no view's decorators say: registered by hand.

flask-smorest writes the document from the blueprints' decorators and the schemas; what
apispec has no marshmallow spelling for is added here, in one place:

* ``HouseRuleset``, referenced by name from the ``oneOf`` of :class:`api.fields.RulesetField`;
* ``ResultEntry``'s ``oneOf``: exactly one of ``went_out``, ``points`` or ``cards``;
* ``editToken``, the bearer scheme the writes to a match sheet carry;
* the spreadsheet form (``text/csv``) of a match sheet, beside its JSON.
"""

from __future__ import annotations

from typing import Any

from .schemas import HouseRulesetSchema

#: JSON Schema's way of saying what ``ResultEntrySchema.one_outcome`` checks (apispec has no
#: marshmallow spelling for it).
ONE_OUTCOME = [
    {"required": ["went_out"], "properties": {"went_out": {"enum": [True]}}},
    {"required": ["points"]},
    {"required": ["cards"]},
]


def register_components(spec: Any) -> None:
    """The components the blueprints refer to: registered before them, under their names."""
    from .matches import ResultEntrySchema

    spec.components.schema("HouseRuleset", schema=HouseRulesetSchema)
    spec.components.schema("ResultEntry", schema=ResultEntrySchema)
    spec.components.schemas["ResultEntry"]["oneOf"] = ONE_OUTCOME
    # Writes to a match sheet carry its edit token as a bearer token.
    spec.components.security_scheme(
        "editToken",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "The `edit_token` answered when the sheet was created.",
        },
    )


def document_csv(spec: Any) -> None:
    """Add the spreadsheet form of a sheet beside its JSON (flask-smorest documents one)."""
    from .matches import blp

    answer = spec._paths[f"{blp.url_prefix}/{{match_id}}"]["get"]["responses"]["200"]
    answer["content"]["text/csv"] = {
        "schema": {"type": "string"},
        "example": "round,contract,dealer,Ann,Bob,Cleo\r\n1,2 sets,Ann,0,35,20\r\n",
    }
