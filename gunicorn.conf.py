"""gunicorn's settings, read from the repository root, so that ``gunicorn wsgi:app`` is the
whole command.

HOST and PORT choose the address (default 127.0.0.1:8000: a deployment that must listen on
every interface says HOST=0.0.0.0), WEB_CONCURRENCY the number of worker processes (default 2),
LOG_LEVEL gunicorn's own logging.
"""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Checks take microseconds; a request still running after this long is stuck.
timeout = 30
graceful_timeout = 10
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
errorlog = "-"

# Storage: the database schema is created or migrated once, before the workers start, in an
# on_starting(server) hook here.
