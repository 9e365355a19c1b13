"""``GET /healthz``'s body."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields


class HealthSchema(ma.Schema):
    status = fields.String(required=True, metadata={"example": "ok"})
    database = fields.String(
        required=True, metadata={"description": "The database answered.", "example": "ok"}
    )
