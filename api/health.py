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
    """Report that the service is up

    A 200 means the process serves requests and the database is reachable; a 503 that it is
    not.
    """
    try:
        database.ping()
    except StorageUnavailable as error:
        current_app.logger.warning("health check: the database is unreachable: %s", error.cause)
        raise
    return {"status": "ok", "database": "ok"}
