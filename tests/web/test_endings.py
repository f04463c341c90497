"""The end of a match as the table shows it: a rated match's rating change, as the service's archive
recorded it (GET /v1/players/{name}/games).

Real parts only: Debian's chromium through Playwright against the suite's gunicorn (real Redis and
PostgreSQL; the archive writes each finished match and its rating changes).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import BrowserContext, expect

from .pages import (
    Table,
    game_address,
    play_url,
    resign,
    shots_at_two_sizes,
    signed_up,
    start_game,
    unique,
    wait_for_game,
)


def archived_rating(base: str, name: str, game_id: str) -> dict[str, Any]:
    """The rating change of ``game_id`` as the service lists it among the player's games."""
    reply = requests.get(f"{base}/v1/players/{name}/games", params={"rated": "true"}, timeout=10)
    reply.raise_for_status()
    (game,) = [g for g in reply.json()["games"] if g["game_id"] == game_id]
    return dict(game["rating"])


def test_a_rated_match_ends_with_the_rating_change(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    name = unique("Rita")
    page = signed_up(new_context, live_service, name)
    start_game(page, play_url(live_service), bot="simple", seed=5, name=None, rated=True)
    first = game_address(page)[0]
    resign(page)
    change = page.locator("#rating-change")
    expect(change).to_have_attribute("data-state", "done", timeout=60_000)  # once the archive wrote it
    rating = archived_rating(live_service, name, first)
    assert rating["before"] is None  # the first rated game: no rating before it
    expect(change).to_contain_text(f"Your standard rating: {rating['after']['rating']}")
    expect(change).to_contain_text("your first rated game")

    # The rematch (the bot accepts at once), resigned too: the rating moves from the one before.
    page.click("[data-action=rematch]")
    page.wait_for_url(lambda url: f"game={first}" not in url)
    wait_for_game(page)
    second = game_address(page)[0]
    resign(page)
    expect(change).to_have_attribute("data-state", "done", timeout=60_000)
    rating = archived_rating(live_service, name, second)
    before, after = rating["before"]["rating"], rating["after"]["rating"]
    assert after < before  # a loss
    expect(change).to_have_attribute("data-delta", str(after - before))
    shown = [f"{r['rating']}{'?' if r['provisional'] else ''}" for r in (rating["before"], rating["after"])]
    expect(change).to_contain_text(f"{shown[0]} → {shown[1]}")
    expect(change).to_contain_text(f"(−{before - after})")
    shots_at_two_sizes(page, tmp_path, "rating-change")


def test_the_replay_of_a_match_resigned_mid_hand_shows_that_hands_moves(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    start_game(page, play_url(live_service), bot="simple", seed=5, name="Cutter")
    table = Table(page)
    if table.has_action("pass"):
        table.click_action("pass")
    table.click_action("draw-stock")  # a move or two of the hand, then resign in the middle of it
    resign(page)
    game_id = game_address(page)[0]
    deadline = time.monotonic() + 60  # the archive has it a moment after the end (a guard)
    while requests.get(f"{live_service}/v1/games/{game_id}/export", timeout=10).status_code != 200:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    page.goto(f"{play_url(live_service)}#/replay/{game_id}")
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-kind", "deal")
    page.keyboard.press("End")
    expect(replay).to_have_attribute("data-kind", "end")
    page.keyboard.press("ArrowLeft")  # the hand the resignation cut short: its last frame says so
    expect(replay).to_have_attribute("data-kind", "result")
    expect(page.locator("#replay-result")).to_have_attribute("data-ended", "resigned")
    expect(page.locator("#replay-result h2")).to_have_text("Hand 1: the match ended here: Cutter resigned")
    page.keyboard.press("ArrowLeft")  # and its moves are there, one by one
    expect(replay).to_have_attribute("data-kind", "move")
    expect(page.locator("#replay-moves li")).not_to_have_count(0)
    shots_at_two_sizes(page, tmp_path, "replay-cut-short")
