"""rummy-referee's web layer: the HTTP API of docs/api.md over the rules engine in :mod:`rules`.

:func:`create_app` builds the Flask app: settings from the environment (:mod:`api.config`),
then whatever the caller gives, the extensions, one blueprint per resource, and the error
handling of :mod:`api.errors` that makes every error a problem document.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from flask import Flask

from . import (
    cors,
    docs,
    errors,
    fastjson,
    i18n,
    limits,
    observability,
    openapi,
    pages,
    retention,
    security,
)
from .config import Config
from .extensions import database, rest_api
from .fastjson.lane import Lane

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIApplication

__all__ = ["create_app"]


def create_app(config: Mapping[str, Any] | object | None = None) -> Flask:
    """The application; ``config`` (a mapping, or an object with upper-case attributes)
    overrides the settings read from the environment."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_object(Config())
    if isinstance(config, Mapping):
        app.config.from_mapping(config)
    elif config is not None:
        app.config.from_object(config)
    app.logger.setLevel(logging.getLevelName(app.config["LOG_LEVEL"]))
    # Responses keep the order the schemas give their fields (valid, then the reading...).
    app.json.sort_keys = False  # type: ignore[attr-defined]

    # The reader's language first: every answer, an error's too, is written in it.
    i18n.init_app(app)
    observability.init_app(app)
    rest_api.init_app(app, spec_kwargs={"extra_plugins": [openapi.Documentation()]})
    errors.init_app(app)
    database.init_app(app)
    cors.init_app(app)

    # The components the blueprints refer to by name, before the blueprints.
    openapi.register_components(rest_api.spec)

    # Blueprints, one per resource.
    from .analysis import blp as analysis
    from .checks import blp as checks
    from .health import blp as health
    from .matches import blp as matches
    from .rulesets import blp as rulesets

    for blueprint in (health, rulesets, checks, analysis, matches):
        rest_api.register_blueprint(blueprint)
    app.register_blueprint(docs.assets)
    app.register_blueprint(pages.blp)
    # Floods and retention: on the sheets' writes alone, never on the checks.
    limits.init_app(app)
    retention.init_app(app)
    # Last: the fast path serves views as the blueprints have registered them.
    plans = fastjson.init_app(app) if app.config["FAST_JSON"] else {}
    app.wsgi_app = _layers(app, plans)  # type: ignore[method-assign,assignment]
    return app


def _layers(app: Flask, plans: dict[str, fastjson.JSONView]) -> WSGIApplication:
    """The WSGI layers around Flask, innermost first: the checks' lane (plain checks answered
    beside Flask, on the fast path), then what every answer carries, made where the server's
    list of headers is at hand (through werkzeug's ``Headers`` in hooks they cost a check a
    quarter of its time): its language, then its request id, access-log line and metrics (so
    that they see every answer, a refusal made in a hook included), then the security
    headers."""
    wsgi_app: WSGIApplication = app.wsgi_app
    if plans and not app.config["CORS_ORIGINS"]:  # the lane says any origin may call
        wsgi_app = Lane(app, wsgi_app, plans)
    wsgi_app = i18n.SayLanguage(wsgi_app)
    wsgi_app = observability.middleware(app, wsgi_app)
    return security.SecurityHeaders(wsgi_app)
