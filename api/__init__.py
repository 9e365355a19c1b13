"""rummy-referee's web layer: the HTTP API of docs/api.md over the rules engine in :mod:`rules`.

:func:`create_app` builds the Flask app and shows everything it does, in the order it does it:
the settings (from the environment, :mod:`api.config`, then whatever the caller gives), the
extensions, what every answer carries, one blueprint per resource, and the pages. The app's
modules are imported there, when an app is made: gunicorn's master imports this package for its
worker class (:mod:`api.serving`) before it has set up the metrics' folder.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["create_app"]


def create_app(config: Mapping[str, Any] | object | None = None) -> Flask:
    """The application; ``config`` (a mapping, or an object with upper-case attributes)
    overrides the settings read from the environment."""
    import logging

    from flask import Flask

    from . import (
        cors,
        docs,
        errors,
        i18n,
        limits,
        observability,
        openapi,
        pages,
        retention,
        security,
    )
    from .analysis import blp as analysis
    from .checks import blp as checks
    from .config import Config
    from .extensions import babel, database, rest_api
    from .health import blp as health
    from .json_provider import JSONProvider
    from .rulesets import blp as rulesets
    from .sheets import blp as sheets

    app = Flask(__name__, instance_relative_config=True)
    app.config.from_object(Config())
    if isinstance(config, Mapping):
        app.config.from_mapping(config)
    elif config is not None:
        app.config.from_object(config)
    app.logger.setLevel(logging.getLevelName(app.config["LOG_LEVEL"]))
    app.json = JSONProvider(app)

    # The extensions: the reader's language (Flask-Babel), the API and its document
    # (flask-smorest), its errors as problem documents, the sheets' database, CORS.
    babel.init_app(
        app,
        locale_selector=i18n.select_locale,
        default_translation_directories=str(i18n.CATALOGS),
    )
    rest_api.init_app(app, spec_kwargs={"extra_plugins": [openapi.Documentation()]})
    errors.init_app(app)
    database.init_app(app)
    cors.init_app(app)

    # What every answer carries, an error's too: its request id, access-log line and metrics,
    # its language, and the security headers (Flask runs after_request hooks last first).
    observability.init_app(app)
    i18n.init_app(app)
    security.init_app(app)

    # The limits on floods and the daily purge, which the sheets' writes ask for (their
    # blueprint's hooks); then one blueprint per resource, their components named first.
    limits.init_app(app)
    retention.init_app(app)
    openapi.register_components(rest_api.spec)
    for blueprint in (health, rulesets, checks, analysis, sheets):
        rest_api.register_blueprint(blueprint)

    # The pages for the table, and Swagger UI's files.
    app.register_blueprint(docs.assets)
    app.register_blueprint(pages.blp)
    return app
