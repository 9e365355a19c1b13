"""The Flask extensions, created unbound here and bound to an app in :func:`api.create_app`.

Module-level so that blueprints can import them without an app; one place so that the next
one has an obvious home.
"""

from __future__ import annotations

from flask_babel import Babel

from .database import Database
from .errors import ProblemApi

#: Flask-Babel: the reader's language, chosen for each request (api.i18n), and the catalogs.
babel = Babel()

#: flask-smorest: request parsing, response dumping, the OpenAPI document and the docs page.
rest_api = ProblemApi()

#: The match sheets' storage (:mod:`api.storage`), bound to the app (see :mod:`api.database`).
database = Database()

__all__ = ["babel", "database", "rest_api"]
