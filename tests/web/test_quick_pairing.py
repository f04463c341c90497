"""Quick pairing on the start page: the pools' grid, two people who click the same pool playing each other,
a lone waiter offered a house bot (kept waiting, then taken: the bot's game opens), and the old form folded
under "More options".

Like the other browser tests: Debian's chromium through Playwright, here against a second real gunicorn of
the suite's Redis and PostgreSQL whose pools offer a bot after 2 seconds (GIN_POOL_BOT_AFTER). The two
stories use pools of their own, emptied first (a seek left by an interrupted run would pair). One runs at
a laptop's width, the other at a phone's; the grid, the wait and the offer are shot at both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests
from ginrummy.app.meeting.pools import pool_of
from ginrummy.store import Lobby, make_client
from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.fixtures.live_service import start_service
from tests.support import stop_gunicorn

from .pages import LAPTOP, Table, game_address, log_in, play_url, shots_at_two_sizes, unique, wait_for_game

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def patient_pools(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second real gunicorn whose pools offer a house bot after 2 seconds of waiting."""
    process, base = start_service(
        redis_url,
        tmp_path_factory.mktemp("gunicorn-pools"),
        workers=1,
        extra_env={"GIN_POOL_BOT_AFTER": "2", "GIN_GRACEFUL_TIMEOUT": "1"},
    )
    try:
        yield base
    finally:
        stop_gunicorn(process)


def empty_pool(redis_url: str, pool_id: str) -> None:
    client = make_client(redis_url)
    try:
        lobby = Lobby(client)
        for seek in lobby.open_seeks(500):
            if getattr(pool_of(seek), "id", None) == pool_id:
                lobby.cancel(seek["id"], seek["secret_hash"])
    finally:
        client.close()


def player_page(
    new_context: Callable[..., BrowserContext], base: str, who: str, size: dict[str, int]
) -> Page:
    page = new_context(who, viewport=size).new_page()
    log_in(page, play_url(base), unique(who))
    return page


def pool_button(page: Page, pool_id: str) -> Locator:
    return page.locator(f"#pools [data-pool='{pool_id}']")


def waiting_in(base: str, pool_id: str) -> int:
    pools = requests.get(f"{base}/v1/lobby/pools", timeout=10).json()["pools"]
    return int(next(p["waiting"] for p in pools if p["id"] == pool_id))


def test_two_people_clicking_one_pool_play_each_other_and_more_options_unfolds_the_form(
    new_context: Callable[..., BrowserContext], patient_pools: str, redis_url: str, tmp_path: Path
) -> None:
    pool = "hollywood-rapid"
    empty_pool(redis_url, pool)
    ann, bob = (player_page(new_context, patient_pools, who, LAPTOP) for who in ("Ann", "Bob"))
    grid = ann.locator("#pools [data-action=join-pool]")
    expect(grid).to_have_count(9)
    expect(pool_button(ann, pool)).to_contain_text("10+5")
    expect(pool_button(ann, pool)).to_have_attribute(
        "aria-label", "Hollywood, rapid: 10+5, rated — 0 waiting"
    )

    # Signed in, the old form is folded below the grid; "More options" unfolds it, whole.
    expect(ann.locator("#more-options")).not_to_have_attribute("open", "")
    expect(ann.locator("#bot")).to_be_hidden()
    ann.click("#more-options > summary")
    for field in (
        "#bot",
        "#preset",
        "#clock",
        "#rated",
        "[data-action=play-bot]",
        "[data-action=quick-match]",
    ):
        expect(ann.locator(field)).to_be_visible()
    shots_at_two_sizes(ann, tmp_path, "pools-more-options")
    ann.click("#more-options > summary")

    pool_button(ann, pool).click()
    expect(ann.locator("#seeking")).to_contain_text("Looking for an opponent")
    expect(pool_button(ann, pool)).to_have_attribute("aria-pressed", "true")
    expect(pool_button(ann, "standard-blitz")).to_be_disabled()
    expect(ann.locator("[data-action=cancel-seek]")).to_be_visible()
    expect(pool_button(bob, pool)).to_contain_text("1 waiting")  # Bob's grid looks again by itself
    shots_at_two_sizes(bob, tmp_path, "pools-grid")
    shots_at_two_sizes(ann, tmp_path, "pools-waiting")

    pool_button(bob, pool).click()
    wait_for_game(bob)
    wait_for_game(ann)
    assert game_address(ann)[0] == game_address(bob)[0]
    view = Table(bob).api_view()
    assert view["rated"] is True and view["clock"]["bank"] == 600 and view["rules"]["hollywood"] is True
    assert waiting_in(patient_pools, pool) == 0


def test_a_lone_waiter_is_offered_a_bot_may_keep_waiting_and_then_plays_it(
    new_context: Callable[..., BrowserContext], patient_pools: str, redis_url: str, tmp_path: Path
) -> None:
    pool = "oklahoma-classical"
    empty_pool(redis_url, pool)
    page = player_page(new_context, patient_pools, "Cy", PHONE)
    expect(page.locator("#pools [data-action=join-pool]")).to_have_count(9)
    pool_button(page, pool).click()
    offer = page.locator("#bot-offer")
    expect(offer).to_contain_text("instead?", timeout=20_000)  # 2 s in the pool, then the long poll ends
    expect(offer).to_contain_text("Nobody yet. Play ")
    shots_at_two_sizes(page, tmp_path, "pools-bot-offer")

    page.click("[data-action=keep-waiting]")  # the offer goes; the wait goes on
    expect(offer).to_have_count(0)
    expect(page.locator("#seeking")).to_contain_text("Looking for an opponent")
    assert waiting_in(patient_pools, pool) == 1

    page.click("[data-action=cancel-seek]")  # and again: this time the bot is taken
    expect(page.locator("#seeking")).to_be_hidden()
    pool_button(page, pool).click()
    expect(offer).to_contain_text("instead?", timeout=20_000)
    bot = offer.locator("b").inner_text()
    page.click("[data-action=play-offered-bot]")
    wait_for_game(page)
    view = Table(page).api_view()
    assert view["players"][1]["bot"] == bot
    assert view["rated"] is True and view["rules"]["oklahoma"] is True and view["clock"]["bank"] == 1800
    assert waiting_in(patient_pools, pool) == 0  # the seek was withdrawn
