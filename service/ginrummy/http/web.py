"""What browsers need: CORS for any third-party frontend, and the web client's files at ``/play``.

CORS (flask-cors) is configured by ``GIN_CORS_ORIGINS``: a comma-separated list of origins
(``https://example.org,http://localhost:5173``) or ``*``; unset, only the service's own origin may call it
(no CORS headers are sent, so browsers refuse other origins). Preflights allow the methods and headers
the API uses; ``ETag``, ``Idempotent-Replayed``, ``Retry-After``, ``Location`` and ``X-Request-ID`` are
exposed to scripts. Credentials are never needed (the API takes bearer tokens, not cookies), so none
are allowed.

The web client (``clients/web/``: static HTML, CSS and JavaScript modules, no build step) is served at
``/play`` from ``GIN_WEB_DIR`` (default: ``clients/web`` of the source checkout). It talks to the service
only over the public API, so the same files work from any other origin or static host.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, redirect, request, send_from_directory
from flask_cors import CORS
from werkzeug.wrappers import Response as WerkzeugResponse

from ginrummy.app.config import Config

from .errors import RequestRefused

ALLOWED_HEADERS = [
    "Authorization",
    "Content-Type",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    "Last-Event-ID",
    "X-Request-ID",
]
EXPOSED_HEADERS = ["ETag", "Idempotent-Replayed", "Retry-After", "Location", "X-Request-ID"]
CORS_PATHS = (r"/v1/*", r"/openapi.json")
PREFLIGHT_MAX_AGE = 600  # seconds a browser may keep a preflight's answer

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' http: https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

# The API's interactive documents (/docs, Swagger UI 5 from http/swagger-ui/): its files, the
# page's one inline script (allowed by its hash, computed from the page as served) and calls to this origin.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' {scripts}; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
DOCS_ENDPOINT = "api-docs.openapi_swagger_ui"
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)

play = Blueprint("play", __name__)


def cors_origins(setting: str) -> list[str] | str | None:
    """``GIN_CORS_ORIGINS`` as flask-cors takes it; None: no cross-origin access at all.

    >>> cors_origins(""), cors_origins("*"), cors_origins(" https://a.example , http://b:8080 ")
    (None, '*', ['https://a.example', 'http://b:8080'])
    """
    text = setting.strip()
    if not text:
        return None
    if text == "*":
        return "*"
    return [origin.strip().rstrip("/") for origin in text.split(",") if origin.strip()]


def default_web_dir() -> Path:
    """``clients/web`` of the source checkout this package runs from (service/ginrummy/http/web.py)."""
    return Path(__file__).resolve().parents[3] / "clients" / "web"


def init_app(app: Flask, settings: Config) -> None:
    origins = cors_origins(settings.cors_origins)
    if origins is not None:
        CORS(
            app,
            resources={path: {"origins": origins} for path in CORS_PATHS},
            methods=["GET", "POST", "OPTIONS"],
            allow_headers=ALLOWED_HEADERS,
            expose_headers=EXPOSED_HEADERS,
            supports_credentials=False,
            send_wildcard=origins == "*",  # any origin: "*" rather than an echo of each one
            max_age=PREFLIGHT_MAX_AGE,
        )
    app.config["GIN_WEB_DIR"] = Path(settings.web_dir) if settings.web_dir else default_web_dir()
    app.register_blueprint(play)
    app.after_request(_docs_page_policy)


def _page_headers(response: Response, policy: str) -> None:
    """A page of the service's own: never framed by another site, no Referer, no sniffing, ``policy``."""
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = policy


def _docs_page_policy(response: Response) -> Response:
    """/docs gets a page's protections too (it had none): its inline script runs by its SHA-256 only."""
    if request.endpoint != DOCS_ENDPOINT or response.direct_passthrough:
        return response
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode() + "'"
        for script in _INLINE_SCRIPT.findall(response.get_data())
    )
    _page_headers(response, DOCS_POLICY.format(scripts=hashes))
    return response


@play.get("/")
def root() -> WerkzeugResponse:
    """The service's root leads a browser to the web client (the API is under /v1, its document at
    /openapi.json and /docs)."""
    return redirect("/play/", code=302)


@play.get("/play")
def play_index() -> WerkzeugResponse:
    """The web client (its index page; the other files are under /play/)."""
    return redirect("/play/", code=308)  # relative URLs of the page resolve under /play/


@play.get("/play/")
@play.get("/play/<path:filename>")
def play_file(filename: str = "index.html") -> Response:
    folder: Path = current_app.config["GIN_WEB_DIR"]
    if not (folder / "index.html").is_file():
        raise RequestRefused("web_client_missing", f"the web client is not installed here ({folder})")
    response = send_from_directory(folder, filename, max_age=0)
    # The page holds seat tokens: it must not be framed by another site, nor leak them in a Referer. Only
    # the page's own scripts and styles run; it may call any service (?server=), nothing else.
    _page_headers(response, CONTENT_SECURITY_POLICY)
    return response
