"""Floods: per-client rate limits on what makes the database grow (Flask-Limiter).

Starting sheets (``POST /v1/matches``, ``RATELIMIT_CREATE``) and changing them (``PUT`` and
``DELETE`` under ``/v1/matches``, ``RATELIMIT_WRITE``) are counted per client address; reads,
the stateless checks and the pages are not counted at all — they store nothing, and a check
must not pay for a limiter. Past a limit the answer is ``429`` with ``Retry-After`` (a problem
document, :mod:`api.errors`), and every counted answer says where the client stands in
``X-RateLimit-Limit``, ``X-RateLimit-Remaining`` and ``X-RateLimit-Reset``.

The client is :func:`api.clients.client_address`: the peer's address, or behind a reverse proxy
named by ``FORWARDED_ALLOW_IPS`` the address that proxy reported (never a header any client can
set). The counts live in ``RATELIMIT_STORAGE_URI``: each process's memory by default
(a worker's share of the limit, then), Redis when several workers or instances must share them.
"""

from __future__ import annotations

import functools
import math
import time
from typing import Any, cast

from flask import Blueprint, Flask, Response, current_app
from flask_limiter import Limiter

from api.clients import client_address

#: The methods of ``/v1/matches`` each limit counts.
CREATE_METHODS = ["POST"]
WRITE_METHODS = ["PUT", "DELETE"]


def _create_limit() -> str:
    limit: str = current_app.config["RATELIMIT_CREATE"]
    return limit


def _write_limit() -> str:
    limit: str = current_app.config["RATELIMIT_WRITE"]
    return limit


def retry_after(limiter: Limiter) -> int | None:
    """Seconds until the limit this request met lets the client in again (at least 1)."""
    limit = limiter.current_limit
    if limit is None:
        return None
    return max(1, math.ceil(limit.reset_at - time.time()))


def _only_on(app: Flask, limiter: Limiter, blueprint_name: str) -> None:
    """Move the hooks Flask-Limiter gave the whole app to the one blueprint it counts.

    Flask-Limiter checks every request of the app for limits that might apply, which costs a
    stateless check more than the rest of its framework does (measured: ~0.5 M instructions a
    request, half again a contract check); only this blueprint has limits, so only its
    requests need asking. The hooks are found as what they are bound to, the limiter itself.
    """

    def belongs(hook: Any) -> bool:
        bound = hook.args[0] if isinstance(hook, functools.partial) and hook.args else None
        return getattr(hook, "__self__", bound) is limiter

    for registry in (app.before_request_funcs, app.after_request_funcs):
        hooks: list[Any] = registry.get(None, [])
        mine = [hook for hook in hooks if belongs(hook)]
        registry[None] = [hook for hook in hooks if not belongs(hook)]
        registry.setdefault(blueprint_name, []).extend(mine)
    teardowns: list[Any] = app.teardown_request_funcs.get(None, [])
    moved = [hook for hook in teardowns if belongs(hook)]
    app.teardown_request_funcs[None] = [h for h in teardowns if not belongs(h)]
    app.teardown_request_funcs.setdefault(blueprint_name, []).extend(moved)


def init_app(app: Flask, blueprint_name: str = "matches") -> Limiter:
    """Count the sheet writes of ``app`` per client; a limiter of its own for each app, so two
    apps in one process (tests) never share counts."""
    limiter = Limiter(
        key_func=client_address,
        # The X-RateLimit headers are written below, on the counted answers alone, and
        # Retry-After only on a 429: Flask-Limiter's own would put it on every answer.
        headers_enabled=False,
        key_prefix=app.config["RATELIMIT_KEY_PREFIX"],
        # A Redis that stops answering must not stop the table recording its rounds: each
        # process counts in memory until it is back.
        in_memory_fallback_enabled=True,
        swallow_errors=True,
    )
    limiter.init_app(app)
    _only_on(app, limiter, blueprint_name)
    blueprint = cast(Blueprint, app.blueprints[blueprint_name])
    # Shared over the blueprint's endpoints: a script alternating PUT and DELETE, or
    # two sheets, counts against one limit.
    limiter.shared_limit(_create_limit, scope="create", methods=CREATE_METHODS)(blueprint)
    limiter.shared_limit(_write_limit, scope="write", methods=WRITE_METHODS)(blueprint)

    def limit_headers(response: Response) -> Response:
        limit = limiter.current_limit
        if limit is None:
            return response
        response.headers["X-RateLimit-Limit"] = str(limit.limit.amount)
        response.headers["X-RateLimit-Remaining"] = str(max(0, limit.remaining))
        response.headers["X-RateLimit-Reset"] = str(limit.reset_at)
        if response.status_code == 429:
            response.headers["Retry-After"] = str(retry_after(limiter))
        return response

    # On this blueprint's answers only: nothing else is counted, so nothing else pays.
    app.after_request_funcs.setdefault(blueprint_name, []).append(limit_headers)
    return limiter


__all__ = ["CREATE_METHODS", "WRITE_METHODS", "init_app", "retry_after"]
