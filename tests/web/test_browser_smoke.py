"""The browser set-up itself: Debian's chromium, headless, opens the service's /play page."""

from __future__ import annotations

from playwright.sync_api import BrowserContext


def test_the_system_chromium_opens_the_play_page(context: BrowserContext, live_service: str) -> None:
    page = context.new_page()
    response = page.goto(f"{live_service}/play")
    assert response is not None and response.status == 200
    assert page.url.endswith("/play/")
    assert page.title() == "Gin Rummy"
