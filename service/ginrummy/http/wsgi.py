"""The WSGI entry point for gunicorn: ``gunicorn ginrummy.http.wsgi:app`` (settings from the environment)."""

from __future__ import annotations

from . import create_app

app = create_app()
