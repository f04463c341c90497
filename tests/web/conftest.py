"""A real browser for the web client: Debian's chromium, driven by Playwright through its executable path.

Nothing downloads a browser: ``CHROMIUM`` (default ``/usr/bin/chromium``; .ci/run installs it with apt) is
launched headless. Each test gets a fresh browser context (its own storage), and when a test fails a
screenshot of every page it opened is kept under its temporary directory (``<tmp_path>/shots``); tests that
need more profiles (two players, a phone) take them from ``new_context``. For the CORS story,
``static_origins`` serves clients/web from two other origins and ``cors_service`` is a second gunicorn that
allows only the first of them; ``other_service`` is a second gunicorn that allows ``live_service``'s page.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright

from tests.fixtures.live_service import start_service
from tests.support import stop_gunicorn

WEB_DIR = Path(__file__).resolve().parents[2] / "clients" / "web"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# The flags of a headless run on a machine without a network or a sandbox-capable kernel setup.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"no chromium at {CHROMIUM}: install Debian's chromium (see .ci/run)")
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Keeps each phase's report on the test (``item.failed_call``), for the fixtures' teardown."""
    report = yield
    if report.when == "call" and report.failed:
        item.failed_call = True  # type: ignore[attr-defined]
    return report


def save_pages(request: pytest.FixtureRequest, context: BrowserContext, folder: Path, prefix: str) -> None:
    """Full-page screenshots of the context's open pages, when the test failed (what it saw last)."""
    if not getattr(request.node, "failed_call", False):
        return
    folder.mkdir(exist_ok=True)
    for n, page in enumerate(context.pages):
        if not page.is_closed():
            page.screenshot(path=str(folder / f"{prefix}page{n}.png"), full_page=True)


@pytest.fixture
def context(browser: Browser, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    """A fresh browser profile (storage included); screenshots of its pages are saved if the test fails."""
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    context.set_default_timeout(15_000)
    yield context
    save_pages(request, context, tmp_path / "shots", "")
    context.close()


@pytest.fixture
def new_context(
    browser: Browser, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Callable[..., BrowserContext]]:
    """More browser profiles for one test (two players, a phone): ``new_context(name, **options)``.

    Each has its own storage, the same default timeout as ``context``, and its pages' screenshots are
    saved if the test fails (``<tmp_path>/shots/<name>-page<n>.png``).
    """
    made: list[tuple[str, BrowserContext]] = []

    def make(name: str, **options: Any) -> BrowserContext:
        options.setdefault("viewport", {"width": 1100, "height": 800})
        made_context = browser.new_context(**options)
        made_context.set_default_timeout(15_000)
        made.append((name, made_context))
        return made_context

    yield make
    for name, made_context in made:
        save_pages(request, made_context, tmp_path / "shots", f"{name}-")
        made_context.close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="session")
def static_origins() -> Iterator[list[str]]:
    """Two other origins serving clients/web as a static host would (plain files, no service behind).

    ``[allowed, refused]``: two loopback ports, i.e. two origins; the CORS test lets only the first call
    its service.
    """
    handler = functools.partial(_QuietHandler, directory=str(WEB_DIR))
    servers = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) for _ in range(2)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield [f"http://127.0.0.1:{server.server_address[1]}" for server in servers]
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


@pytest.fixture(scope="session")
def cors_service(
    redis_url: str, static_origins: list[str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A second real gunicorn whose GIN_CORS_ORIGINS allows only the first static origin."""
    process, base = start_service(
        redis_url,
        tmp_path_factory.mktemp("gunicorn-cors"),
        workers=1,
        extra_env={"GIN_CORS_ORIGINS": static_origins[0], "GIN_GRACEFUL_TIMEOUT": "1"},
    )
    try:
        yield base
    finally:
        stop_gunicorn(process)


@pytest.fixture(scope="session")
def other_service(
    redis_url: str, live_service: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A second real gunicorn that lets pages of ``live_service``'s origin call it: the "other service" a
    ``/play/?server=…`` link may name (same Redis and database, so an account of one signs in on both)."""
    process, base = start_service(
        redis_url,
        tmp_path_factory.mktemp("gunicorn-other"),
        workers=1,
        extra_env={"GIN_CORS_ORIGINS": live_service, "GIN_GRACEFUL_TIMEOUT": "1"},
    )
    try:
        yield base
    finally:
        stop_gunicorn(process)
