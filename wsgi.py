"""The WSGI entry point: ``gunicorn wsgi:app`` (settings in gunicorn.conf.py), ``flask --app wsgi``."""

from api import create_app

app = create_app()
