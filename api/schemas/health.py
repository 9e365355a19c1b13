"""``GET /healthz``'s body."""

from __future__ import annotations

from marshmallow import fields

from .compiled import CompiledSchema


class HealthSchema(CompiledSchema):
    status = fields.String(required=True, metadata={"example": "ok"})
    database = fields.String(
        required=True, metadata={"description": "The database answered.", "example": "ok"}
    )
