"""The baseline for bench/http_checks.py: a bare Flask view that parses the same JSON body and
answers a constant — the least any check over HTTP must cost, under the same gunicorn.

    gunicorn -w 2 --pythonpath bench bare_app:app
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request

app = Flask(__name__)


@app.post("/v1/checks/contract")
def contract() -> dict[str, Any]:
    request.get_json()
    return {"valid": True}
