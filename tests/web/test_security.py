"""The account security page in the web client: the signed-in devices (this one marked), signing another
one out — that browser is signed out at its next request —, a personal API token shown once (copied,
then listed without its secret, working against the API until it is revoked), a new password, and
signing out everywhere.

Like the other browser tests: Debian's chromium through Playwright against the real gunicorn of the suite
(real Redis and PostgreSQL); the token and the sessions are tried against the service with ``requests``.
The page is shot at 1280×800 and 390×844, where nothing may stick out sideways.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import requests
from playwright.sync_api import BrowserContext, ConsoleMessage, expect

from .pages import (
    PASSWORD,
    kept_session,
    play_url,
    shots_at_two_sizes,
    sign_in_form,
    signed_up,
    start_page,
    storage_dump,
    unique,
)

NEW_PASSWORD = "a much better passphrase"


def status_with(base: str, token: str) -> int:
    """What the service answers GET /v1/account with that bearer token."""
    return requests.get(
        f"{base}/v1/account", headers={"Authorization": f"Bearer {token}"}, timeout=10
    ).status_code


def sign_in_status(base: str, name: str, password: str) -> int:
    reply = requests.post(
        f"{base}/v1/account/sessions", json={"name": name, "password": password}, timeout=10
    )
    return reply.status_code


def test_sessions_api_tokens_and_the_password_on_the_security_page(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    name = unique("Gus")
    one = signed_up(new_context, live_service, name)
    one.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_service)
    logged: list[str] = []

    def keep(message: ConsoleMessage) -> None:
        logged.append(message.text)

    one.on("console", keep)
    two = start_page(new_context, play_url(live_service), "phone")
    sign_in_form(two, name, PASSWORD)
    expect(two.locator("#player-me")).to_have_text(name)
    two_session = kept_session(two, live_service)

    # The two devices, newest first; this one marked.
    one.click("[data-action=to-security]")
    expect(one.locator("#page-title")).to_have_text("Account security")
    devices = one.locator("#session-list li")
    expect(devices).to_have_count(2)
    expect(one.locator("#session-list li[data-current=yes]")).to_contain_text("this device")
    expect(one.locator("#session-list li[data-current=yes]")).to_contain_text("Chrome (headless) on Linux")
    other = one.locator(f"#session-list li[data-session='{two_session['session']}']")
    expect(other).to_have_attribute("data-current", "no")
    expect(other).to_contain_text("last used")

    # A token for a program: a name and scopes; shown once, with a warning and a Copy button.
    one.fill("#token-name", "ci bot")
    one.check("#scope-read")
    one.click("[data-action=create-token]")
    shown = one.locator("#new-token-value")
    expect(shown).to_be_focused()
    secret = shown.input_value()
    assert secret.startswith("gin_p_")
    expect(one.locator("#new-token-warning")).to_contain_text("Copy this token now: it is shown this once.")
    shots_at_two_sizes(one, tmp_path, "security-new-token")
    one.click("[data-action=copy-token]")
    expect(one.locator("#copy-status")).to_have_text("Copied.")
    assert one.evaluate("navigator.clipboard.readText()") == secret
    account = requests.get(
        f"{live_service}/v1/account", headers={"Authorization": f"Bearer {secret}"}, timeout=10
    ).json()
    assert account["name"] == name
    assert account["credential"] == {"kind": "token", "scopes": ["play", "read"]}

    # Done: the token leaves the page; it is listed by its name and scopes only, here and after a reload.
    one.click("[data-action=token-done]")
    expect(shown).to_have_count(0)
    listed = one.locator("#token-list li")
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text("ci bot")
    expect(listed.locator(".chip.scope")).to_have_text(["play", "read"])
    expect(listed).to_contain_text("never used")  # listed when it was made
    one.reload()
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text("last used")  # since then the API saw it
    assert secret not in one.content()
    assert not any(secret in value for value in storage_dump(one).values())

    # Revoked (after a second question): refused by the service at once.
    one.click("#token-list [data-action=revoke-token]")
    one.click("#token-list [data-action=confirm-revoke]")
    expect(one.locator("#token-list li")).to_have_count(0)
    assert status_with(live_service, secret) == 401

    # The other device signed out from here: that browser is signed out at its next request.
    shots_at_two_sizes(one, tmp_path, "security")
    one.locator(
        f"#session-list li[data-session='{two_session['session']}'] [data-action=end-session]"
    ).click()
    expect(devices).to_have_count(1)
    assert status_with(live_service, two_session["token"]) == 401
    two.reload()
    expect(two.locator("#alert")).to_contain_text("Your session has ended")
    expect(two.locator("#account-name")).to_be_visible()
    assert f"gin.session.{live_service}" not in storage_dump(two)

    # A new password: the current one is checked, the new one typed twice; then it is the one that works.
    one.fill("#current-password", "not my password")
    one.fill("#new-password", NEW_PASSWORD)
    one.fill("#new-password-again", NEW_PASSWORD)
    one.click("[data-action=change-password]")
    expect(one.locator("#password-error")).to_have_text("That is not your current password.")
    expect(one.locator("#current-password")).to_be_focused()
    one.fill("#current-password", PASSWORD)
    one.fill("#new-password-again", NEW_PASSWORD + "!")
    one.click("[data-action=change-password]")
    expect(one.locator("#password-error")).to_have_text("The two new passwords differ: type it again.")
    one.fill("#new-password-again", NEW_PASSWORD)
    one.click("[data-action=change-password]")
    expect(one.locator("#password-done")).to_have_text(
        "Your password is changed. No other device was signed in."
    )
    for field in ("#current-password", "#new-password", "#new-password-again"):
        expect(one.locator(field)).to_have_value("")
    assert sign_in_status(live_service, name, PASSWORD) == 401
    assert sign_in_status(live_service, name, NEW_PASSWORD) == 201

    # Sign out everywhere (after a second question): every session ends, this one too.
    mine = kept_session(one, live_service)["token"]
    sessions_before = requests.get(
        f"{live_service}/v1/account/sessions", headers={"Authorization": f"Bearer {mine}"}, timeout=10
    ).json()["sessions"]
    assert len(sessions_before) == 2  # this one and the sign-in just made over the API
    one.click("[data-action=sign-out-everywhere]")
    expect(one.locator("[data-action=confirm-sign-out-everywhere]")).to_be_focused()
    one.click("[data-action=confirm-sign-out-everywhere]")
    expect(one.locator("#account-name")).to_be_visible()
    assert status_with(live_service, mine) == 401
    assert sign_in_status(live_service, name, NEW_PASSWORD) == 201  # the account itself goes on

    # No password or token ever reached the console.
    assert not [line for line in logged if secret in line or PASSWORD in line or NEW_PASSWORD in line]


def test_the_security_page_asks_to_sign_in(
    new_context: Callable[..., BrowserContext], live_service: str
) -> None:
    page = start_page(new_context, f"{play_url(live_service)}#/security", "visitor")
    expect(page.locator("#security-sign-in")).to_contain_text(
        "Sign in to see where your account is signed in"
    )
    expect(page.locator("#session-list")).to_have_count(0)
