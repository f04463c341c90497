"""A ``/play/?server=<another service>`` link, as a stranger may send it: the page names that service at the
top of every page, never keeps it for a later visit, sends it no password before the person confirms it by
name (in this tab only), and never sends it what this browser keeps for the page's own service.

Real parts only: Debian's chromium through Playwright, the suite's gunicorn (the page's own service) and a
second gunicorn that lets that page call it (``other_service``); what the browser sends is read from
Playwright's request events.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Page, Request, expect

from .pages import (
    PASSWORD,
    kept_session,
    play_url,
    shots_at_two_sizes,
    sign_in_form,
    signed_up,
    storage_dump,
    unique,
)


def recorded(page: Page) -> list[Request]:
    """Every request the page makes from now on."""
    sent: list[Request] = []
    page.on("request", lambda request: sent.append(request))
    return sent


def to(service: str, requests: list[Request]) -> list[Request]:
    return [r for r in requests if r.url.startswith(service + "/")]


def carries(request: Request, secret: str) -> bool:
    """Whether ``secret`` is anywhere in the request: its address, its headers or its body."""
    headers = " ".join(request.all_headers().values())
    return secret in request.url or secret in headers or secret in (request.post_data or "")


def test_another_service_is_named_never_kept_and_gets_no_password_before_it_is_confirmed(
    new_context: Callable[..., BrowserContext], live_service: str, other_service: str, tmp_path: Path
) -> None:
    host = urlsplit(other_service).netloc
    name = unique("Olga")
    # Signed in on the page's own service: that session's token is this browser's to keep.
    page = signed_up(new_context, live_service, name)
    own_token = kept_session(page, live_service)["token"]
    expect(page.locator("#server-banner")).to_be_hidden()

    sent = recorded(page)
    page.goto(f"{play_url(live_service)}?server={other_service}")
    banner = page.locator("#server-banner")
    expect(banner).to_be_visible()
    expect(banner.locator("#server-banner-host")).to_have_text(host)
    expect(page.locator("#bot option")).not_to_have_count(0)  # the other service answers (CORS allowed)
    # Not signed in there: the own service's session stays with the own service.
    expect(page.locator("#account-form")).to_be_visible()
    confirm = page.locator("#trust-server")
    expect(confirm).not_to_be_checked()
    expect(page.locator(".trust-server")).to_contain_text(f"I trust {host} with my password")
    shots_at_two_sizes(page, tmp_path, "other-service-sign-in")

    # Signing in without confirming sends nothing: the form says why.
    sign_in_form(page, name, PASSWORD)
    expect(page.locator("#account-error")).to_contain_text(f"Not sent: {host} is not this page's own service")
    assert not [r for r in to(other_service, sent) if "/v1/account" in r.url]
    assert not [r for r in sent if carries(r, PASSWORD)], "no password left the page"

    # Confirmed by name: the password goes there, and the session it gives is kept for that service only.
    confirm.check()
    sign_in_form(page, name, PASSWORD)
    expect(page.locator("#player-me")).to_have_text(name)
    signed_in = [
        r for r in to(other_service, sent) if r.url.endswith("/v1/account/sessions") and r.method == "POST"
    ]
    assert len(signed_in) == 1 and carries(signed_in[0], PASSWORD)
    assert not [r for r in to(other_service, sent) if carries(r, own_token)], (
        "the own session never goes there"
    )
    assert "gin.server" not in storage_dump(page)
    shots_at_two_sizes(page, tmp_path, "other-service-signed-in")

    # The banner is on every page, the table's too.
    page.goto(f"{play_url(live_service)}?server={other_service}#/watch")
    expect(banner.locator("#server-banner-host")).to_have_text(host)

    # A later visit without ?server= is on the own service again: nothing was kept.
    later = recorded(page)
    page.goto(play_url(live_service))
    expect(page.locator("#bot option")).not_to_have_count(0)
    expect(banner).to_be_hidden()
    expect(page.locator("#player-me")).to_have_text(name)  # the own session, as before
    assert later and not to(other_service, later)
    assert "gin.server" not in storage_dump(page)

    # A new tab asks again before a password goes there (the confirmation is for one tab): the password form.
    tab = page.context.new_page()
    tab_sent = recorded(tab)
    tab.goto(f"{play_url(live_service)}?server={other_service}#/security")
    expect(tab.locator("#server-banner-host")).to_have_text(host)
    expect(tab.locator("#password-trust-server")).not_to_be_checked()
    tab.fill("#current-password", PASSWORD)
    tab.fill("#new-password", PASSWORD + "!")
    tab.fill("#new-password-again", PASSWORD + "!")
    tab.click("[data-action=change-password]")
    expect(tab.locator("#password-error")).to_contain_text(f"Not sent: {host}")
    assert not [r for r in tab_sent if carries(r, PASSWORD)]
    shots_at_two_sizes(tab, tmp_path, "other-service-password")

    # Leaving it is one click, to the address without ?server=.
    tab.click("[data-action=leave-server]")
    expect(tab.locator("#bot option")).not_to_have_count(0)
    assert "server=" not in tab.url
    expect(tab.locator("#server-banner")).to_be_hidden()


def test_a_service_an_earlier_version_remembered_is_dropped(
    context: BrowserContext, live_service: str, other_service: str
) -> None:
    page = context.new_page()
    page.goto(play_url(live_service))
    expect(page.locator("#bot option")).not_to_have_count(0)
    # What an earlier version kept after a ?server= link had been opened once.
    page.evaluate("other => localStorage.setItem('gin.server', other)", other_service)
    sent = recorded(page)
    page.reload()
    expect(page.locator("#bot option")).not_to_have_count(0)
    expect(page.locator("#server-banner")).to_be_hidden()
    assert sent and not to(other_service, sent)
    assert page.evaluate("localStorage.getItem('gin.server')") is None
