"""``GET /healthz``: whether this process can serve requests, for load balancers and probes."""

from __future__ import annotations

from typing import Any

from .parsing import Blueprint
from .schemas import HealthSchema

blp = Blueprint("health", __name__, description="Whether the service is up.")


@blp.get("/healthz")
@blp.response(200, HealthSchema, example={"status": "ok"})
def health() -> dict[str, Any]:
    """Report that the service is up

    A 200 means the process serves requests. (Once match sheets are stored, it also means
    the database is reachable.)
    """
    return {"status": "ok"}
