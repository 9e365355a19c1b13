"""``GET /healthz``: whether this process can serve requests, for load balancers and probes."""

from __future__ import annotations

from typing import Any

from flask import current_app

from .extensions import database
from .parsing import Blueprint
from .schemas import HealthSchema
from .storage import StorageUnavailable

blp = Blueprint("health", __name__, description="Whether the service is up.")


@blp.get("/healthz")
@blp.response(200, HealthSchema, example={"status": "ok", "database": "ok"})
@blp.alt_response(503, response="SERVICE_UNAVAILABLE")
def health() -> dict[str, Any]:
    """Report whether match sheets can be served

    A 200 means the process serves requests, the database answers within a short timeout and
    its schema is at the code's revision (an SQLite file also present, writable and with room
    on its disk); otherwise a 503 whose `detail` is the reason, with `Retry-After`.
    """
    try:
        database.check_serving()
    except StorageUnavailable as error:
        current_app.logger.warning("health check: %s: %s", error, error.cause_text())
        raise
    return {"status": "ok", "database": "ok"}
