"""gunicorn's settings, read from the repository root, so that ``gunicorn wsgi:app`` is the
whole command.

HOST and PORT choose the address (default 127.0.0.1:8000: a deployment that must listen on
every interface says HOST=0.0.0.0), WEB_CONCURRENCY the number of worker processes (default 2),
LOG_LEVEL gunicorn's own logging.

Workers are threaded (``gthread``, WEB_THREADS threads each, default 32): a sync worker is held
for as long as one client takes to send its request, so two clients trickling their headers a
byte a second stopped the service. A thread is committed to a connection only once its first
bytes arrive (gunicorn's gthread worker waits for them on its poller), so idle connections cost
nothing and a few dozen tricklers leave threads free for everyone else. On the open internet a
buffering reverse proxy in front (README, "Behind a reverse proxy") takes the tricklers instead.

FORWARDED_ALLOW_IPS names the proxies whose X-Forwarded-* headers are believed; unlike gunicorn's
own default (loopback) it is empty here, so nobody's are unless a proxy is configured
(``api.clients`` reads the same variable for the client's address).
"""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "32"))
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "")
# Checks take microseconds; a request still running after this long is stuck.
timeout = 30
graceful_timeout = 10
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
errorlog = "-"


def on_starting(server: object) -> None:
    """Create or migrate the database schema once, in the master, before any worker starts.

    Several instances starting against one database at once queue on a lock in
    ``api.storage.migrate``; workers never migrate, so no request meets a half-made schema.
    """
    from api import create_app
    from api.storage import migrate

    app = create_app()
    try:
        migrated = migrate(app.config["DATABASE_URL"])
    finally:
        app.extensions["database"].dispose()  # no connection may cross the fork
    log = server.log  # type: ignore[attr-defined]
    if migrated is None:
        log.info("the database schema is up to date")
    else:
        log.info("migrated the database schema from %s to %s", *migrated)


def post_fork(server: object, worker: object) -> None:
    """Errors gunicorn answers itself (a request line or headers too long, a request it cannot
    parse) are problem documents too, like every other error of the API."""
    from api.serving import answer_errors_as_problems

    answer_errors_as_problems()
