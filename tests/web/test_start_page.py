"""The start page: one list of the player's games, and what it says about games being public (Watch).

Real parts only: Debian's chromium through Playwright against the suite's gunicorn (real Redis and
PostgreSQL).
"""

from __future__ import annotations

import time
from pathlib import Path

import requests
from playwright.sync_api import BrowserContext, expect

from .pages import Table, game_address, log_in, play_url, shots_at_two_sizes, sign_in_form, start_game, unique


def live_ids(base: str) -> set[str]:
    """The games the service lists as in play (GET /v1/games?status=live: what Watch shows)."""
    reply = requests.get(f"{base}/v1/games", params={"status": "live", "limit": 100}, timeout=10)
    reply.raise_for_status()
    return {g["game_id"] for g in reply.json()["games"]}


def test_the_start_page_lists_each_game_once_in_one_list(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    url = play_url(live_service)
    page = context.new_page()
    # Before any game: one list, saying where the games will be.
    page.goto(url)
    expect(page.locator("ul.saved-list")).to_have_count(1)
    expect(page.locator("#in-play-title")).to_have_text("Your games")

    # A player by a name alone: its game is the player's (listed by the service on any device) and this
    # browser keeps its seat token too — it is listed once.
    log_in(page, url, unique("Gus"))
    start_game(page, url, bot="simple", seed=3, name=None)
    game_id, _ = game_address(page)
    page.goto(url)
    mine = page.locator(f"#in-play-list li[data-game='{game_id}']")
    expect(mine).to_have_attribute("data-kept", "account")  # the service's list has answered
    expect(mine).to_have_count(1)
    expect(page.locator("ul.saved-list")).to_have_count(1)
    expect(page.get_by_role("heading", name="Your games in play")).to_have_count(0)

    # A game kept only by this browser (started by nobody in particular) joins the same list.
    page.click("[data-action=logout]")
    page.click("[data-action=logout-confirm]")
    start_game(page, url, bot="simple", seed=4, name="Anon")
    other_id, _ = game_address(page)
    page.goto(url)
    kept = page.locator(f"#in-play-list li[data-game='{other_id}']")
    expect(kept).to_have_attribute("data-kept", "browser")
    expect(kept.locator("[data-action=resume]")).to_be_visible()
    expect(page.locator("ul.saved-list")).to_have_count(1)
    shots_at_two_sizes(page, tmp_path, "start-one-list")
    kept.locator("[data-action=resume]").click()
    Table(page).wait_for_turn()
    assert game_address(page)[0] == other_id


def test_the_start_page_says_games_are_public_and_makes_a_private_one(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    url = play_url(live_service)
    page = context.new_page()
    page.goto(url)
    note = page.locator("#public-note")
    expect(note).to_contain_text("Games are public")
    expect(note.get_by_role("link", name="Watch")).to_have_attribute("href", "#/watch")
    expect(page.locator("#private")).not_to_be_checked()
    shots_at_two_sizes(page, tmp_path, "start-public-note")

    start_game(page, url, bot="simple", seed=3, name="Pia")  # public, as the note says
    public_id, _ = game_address(page)
    assert public_id in live_ids(live_service)

    page.goto(url)
    expect(page.locator("#bot option")).not_to_have_count(0)
    page.check("#private")
    page.click("[data-action=play-bot]")
    page.wait_for_url(lambda address: "game=" in address and public_id not in address)
    private_id, _ = game_address(page)
    Table(page).wait_for_turn()
    assert Table(page).api_view()["private"] is True
    assert private_id not in live_ids(live_service)


def test_my_games_lists_my_private_games(context: BrowserContext, live_service: str) -> None:
    """A finished private game is left out of a player's public list, but "My games" asks with the
    player's own session and shows it."""
    page = context.new_page()
    name, password = unique("Priv"), "a long enough password 9"
    page.goto(play_url(live_service))
    sign_in_form(page, name, password, sign_up=True)
    expect(page.locator("#player-me")).to_have_text(name)
    session = requests.post(
        f"{live_service}/v1/account/sessions", json={"name": name, "password": password}, timeout=10
    ).json()["token"]
    auth = {"Authorization": f"Bearer {session}"}
    made = requests.post(
        f"{live_service}/v1/games",
        json={"opponent": {"type": "bot"}, "private": True},
        headers=auth,
        timeout=10,
    ).json()
    etag = requests.get(f"{live_service}/v1/games/{made['game_id']}", headers=auth, timeout=10).headers[
        "ETag"
    ]
    resigned = requests.post(
        f"{live_service}/v1/games/{made['game_id']}/resign", headers={**auth, "If-Match": etag}, timeout=10
    )
    assert resigned.status_code == 200, resigned.text
    deadline = time.monotonic() + 60  # the archive has it a moment after the end (a guard, not a timing)
    while requests.get(f"{live_service}/v1/games/{made['game_id']}/export", timeout=10).status_code != 200:
        assert time.monotonic() < deadline, "the game was not archived"
        time.sleep(0.1)
    assert requests.get(f"{live_service}/v1/players/{name}/games", timeout=10).json()["games"] == []
    page.goto(play_url(live_service) + "#/games")
    expect(page.locator(f"#game-list a[href*='{made['game_id']}']").first).to_be_visible(timeout=30_000)
