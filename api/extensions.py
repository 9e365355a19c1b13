"""The Flask extensions, created unbound here and bound to an app in :func:`api.create_app`.

Module-level so that blueprints can import them without an app; one place so that the next
one (the database, for the match sheets) has an obvious home.
"""

from __future__ import annotations

from .db import Database, db
from .errors import ProblemApi

#: flask-smorest: request parsing, response dumping, the OpenAPI document and the docs page.
rest_api = ProblemApi()

#: SQLAlchemy and Alembic: the match sheets' storage (see :mod:`api.db`).
database: Database = db

__all__ = ["database", "rest_api"]
