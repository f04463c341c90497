"""/docs in Chromium: the interactive API documents render under a strict Content-Security-Policy (their
one inline script allowed by its hash), refuse to be framed, and break no rule of their policy."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import BrowserContext, expect


def test_the_docs_page_renders_under_its_policy_and_refuses_frames(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    violations: list[str] = []
    page.on(
        "console",
        lambda message: violations.append(message.text) if "Security Policy" in message.text else None,
    )
    answer = page.goto(f"{live_service}/docs")
    assert answer is not None
    policy = answer.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "'unsafe-inline'" not in policy and "'sha256-" in policy
    assert (
        answer.headers["x-frame-options"] == "DENY" and answer.headers["x-content-type-options"] == "nosniff"
    )
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Gin Rummy", timeout=30_000)
    expect(page.locator(".opblock").first).to_be_visible()
    page.locator(".opblock-summary").first.click()  # an operation opens (its scripts and styles work)
    expect(page.locator(".opblock-body").first).to_be_visible()
    page.screenshot(path=str(tmp_path / "docs.png"))
    assert violations == []
