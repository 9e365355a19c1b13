"""The baseline for bench/http_rounds.py: a bare Flask view that parses the same JSON body and
inserts one row through SQLAlchemy into the same database — the least any stored write over
HTTP must cost, under the same gunicorn.

    DATABASE_URL=... gunicorn -w 2 --pythonpath bench bare_rows:app
"""

from __future__ import annotations

import json
import os
from typing import Any

from flask import Flask, request
from sqlalchemy import Column, Integer, MetaData, Table, Text, create_engine, insert

engine = create_engine(os.environ["DATABASE_URL"])
rows = Table(
    "bench_rows",
    MetaData(),
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("body", Text, nullable=False),
)

app = Flask(__name__)


@app.put("/rows/<match_id>/<int:number>")
def put_row(match_id: str, number: int) -> dict[str, Any]:
    body = request.get_json()
    with engine.begin() as connection:
        connection.execute(insert(rows).values(body=json.dumps(body)))
    return {"stored": True}
