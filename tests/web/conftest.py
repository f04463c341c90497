"""A real browser for the web client: Debian's chromium, driven by Playwright through its executable path.

Nothing downloads a browser: ``CHROMIUM`` (default ``/usr/bin/chromium``; .ci/run installs it with apt) is
launched headless. Each test gets a fresh browser context (its own storage), and a screenshot of every
page it opened is kept under the test's temporary directory at the end (``<tmp_path>/shots``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright

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


@pytest.fixture
def context(browser: Browser, tmp_path: Path) -> Iterator[BrowserContext]:
    """A fresh browser profile (storage included); screenshots of its pages are saved when the test ends."""
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    context.set_default_timeout(15_000)
    yield context
    shots = tmp_path / "shots"
    shots.mkdir(exist_ok=True)
    for n, page in enumerate(context.pages):
        if not page.is_closed():
            page.screenshot(path=str(shots / f"page{n}.png"), full_page=True)
    context.close()
