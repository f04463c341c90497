"""Stories of accounts in the web client, and of what lasts: a person signs up on one device, plays on
another, replays the match and sees a rating graph; sign-in refusals said plainly.

Like the other browser tests: Debian's chromium through Playwright against the real gunicorn of the suite
(real Redis and PostgreSQL, GIN_ALLOW_SEED=1). Every page of the story is shot at 1280×800 and 390×844
(``<tmp_path>/shots``, or the folder ``GIN_WEB_SHOTS`` names), and at each size nothing sticks out sideways.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import requests
from playwright.sync_api import BrowserContext, expect

from .pages import (
    PASSWORD,
    Table,
    game_address,
    play_url,
    resign,
    shots_at_two_sizes,
    sign_in_form,
    start_game,
    start_page,
    storage_dump,
    unique,
    wait_for_game,
)


@pytest.mark.slow
def test_an_account_plays_on_two_devices_then_replays_the_match_and_sees_its_rating_graph(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    url, name = play_url(live_service), unique("Dana")
    # Device one: the sign-in form, then a new account, signed in at once.
    one = start_page(new_context, url, "device-one")
    expect(one.locator("#account-password")).to_have_attribute("type", "password")
    shots_at_two_sizes(one, tmp_path, "sign-in")
    sign_in_form(one, name, PASSWORD, sign_up=True)
    expect(one.locator("#player-me")).to_have_text(name)
    stored = storage_dump(one)
    assert not any(PASSWORD in value for value in stored.values()), "the password is never kept"
    session = json.loads(stored[f"gin.session.{live_service}"])
    assert session["name"] == name and session["token"].startswith("gin_s_")

    # A rated game against a bot, started as the account; a few real moves on this device.
    start_game(one, url, bot="simple", seed=11, name=None, rated=True)
    game_id, seat = game_address(one)
    first = Table(one)
    for _ in range(3):
        first.wait_for_turn()
        first.play_turn()
    first.wait_for_turn()
    kept = json.loads(storage_dump(one)[f"gin.seat.{game_id}.{seat}"])
    assert "token" not in kept and kept["account"] == name  # the session opens the seat: no seat token kept

    # Device two: sign in; the game is listed under the games in play, and opens with the session.
    two = start_page(new_context, url, "device-two")
    sign_in_form(two, name, PASSWORD)
    expect(two.locator("#player-me")).to_have_text(name)
    listed = two.locator(f"#in-play-list button[data-game='{game_id}']")
    expect(listed).to_be_visible()
    expect(two.locator(f"#in-play-list li[data-game='{game_id}']")).to_contain_text("simple (bot)")
    shots_at_two_sizes(two, tmp_path, "games-in-play")
    listed.click()
    wait_for_game(two)
    second = Table(two)
    assert game_address(two) == (game_id, seat)
    assert second.version() >= first.version()
    assert not any(
        k.startswith(f"gin.seat.{game_id}") and "token" in json.loads(v) for k, v in storage_dump(two).items()
    )
    moves = second.play_hand()  # the rest of the hand, on this device
    assert moves
    expect(two.locator("#result")).to_be_visible()
    if two.locator("#felt [data-action=resign]").count():  # (unless the hand itself ended the match)
        resign(two)  # between two hands: the match ends, the hand played stays in the record

    # A second rated game, resigned at once: two rated games, two points on the graph.
    start_game(two, url, bot="simple", seed=12, name=None, rated=True)
    second_game = game_address(two)[0]
    resign(two)

    # My games: both matches, newest first; the first one opens the replay.
    two.goto(f"{url}#/games")
    rows = two.locator("#game-list li.game-row")
    for _ in range(20):  # each match reaches the archive as it ends; a reload shows one a moment late
        if rows.count() >= 2:
            break
        two.wait_for_timeout(250)
        two.reload()
    expect(rows).to_have_count(2)
    assert rows.nth(0).get_attribute("data-game") == second_game
    expect(two.locator("#page-title")).to_have_text("My games")
    expect(two.locator(f"#game-list li[data-game='{game_id}']")).to_contain_text("Lost")
    shots_at_two_sizes(two, tmp_path, "my-games")
    two.click(f"#game-list li[data-game='{game_id}'] [data-action=replay]")

    # The replay: the deal, then move by move with the keyboard and the buttons; the other hand stays face
    # down (as this player saw it) until the hand is over.
    replay = two.locator("#replay")
    expect(replay).to_have_attribute("data-kind", "deal")
    expect(replay).to_have_attribute("data-show", str(seat))
    expect(two.locator(f"#replay .replay-seat[data-seat='{1 - seat}']")).to_have_attribute(
        "data-face", "down"
    )
    expect(two.locator(f"#replay .replay-seat[data-seat='{seat}'] .card.face")).to_have_count(10)
    expect(two.locator("#replay-score")).to_contain_text(f"Score before this hand: {name} 0")
    two.keyboard.press("ArrowRight")
    two.keyboard.press("ArrowRight")
    expect(replay).to_have_attribute("data-step", "2")
    expect(two.locator("#replay-move")).to_contain_text(re.compile(r"Move 2 of \d+: "))
    two.click("[data-action=replay-next]")
    expect(replay).to_have_attribute("data-step", "3")
    expect(two.locator("#replay-moves li[aria-current=step]")).to_have_count(1)
    two.keyboard.press("ArrowLeft")
    expect(replay).to_have_attribute("data-step", "2")
    assert "hand=1" in two.url and "move=2" in two.url  # the step is in the address: a link to it
    shots_at_two_sizes(two, tmp_path, "replay")
    two.keyboard.press("End")
    expect(replay).to_have_attribute("data-kind", "end")
    expect(two.locator("#replay-end #match-end")).to_be_visible()
    two.keyboard.press("ArrowLeft")  # the hand's result: both hands face up, the score after it
    expect(replay).to_have_attribute("data-kind", "result")
    for s in (0, 1):
        expect(two.locator(f"#replay .replay-seat[data-seat='{s}']")).to_have_attribute("data-face", "up")
    expect(two.locator("#replay-result h2")).to_contain_text("Hand 1:")
    expect(two.locator("#replay-score")).to_have_attribute("data-when", "after")
    shots_at_two_sizes(two, tmp_path, "replay-result")
    two.keyboard.press("Home")
    expect(replay).to_have_attribute("data-frame", "0")
    two.select_option("#replay-show", "review")  # both hands face up all along, said to be a review
    expect(two.locator(f"#replay .replay-seat[data-seat='{1 - seat}']")).to_have_attribute("data-face", "up")
    expect(two.locator("#replay-show-note")).to_contain_text("Review")

    # The profile: a rating graph of the two rated games (an SVG line through two points, axes labelled).
    two.click("a[data-nav=profile]")
    expect(two.locator("#page-title")).to_have_text(name)
    graph = two.locator("#profile-ratings svg.rating-graph[data-family=standard]")
    expect(graph).to_be_visible()
    line = graph.locator("path.line")
    expect(line).to_have_attribute("data-points", "2")
    assert len(re.findall(r"[ML][\d.]+ [\d.]+", line.get_attribute("d") or "")) >= 2
    expect(graph.locator("text.axis-label")).to_have_text(["Rated games, oldest to newest", "Rating"])
    expect(two.locator("#profile-summary")).to_contain_text("Played2")
    shots_at_two_sizes(two, tmp_path, "profile")

    # Signing out ends the session for the service too, and this browser forgets the account's seats.
    two.goto(url)
    gone = json.loads(storage_dump(two)[f"gin.session.{live_service}"])["token"]
    two.click("[data-action=sign-out]")
    expect(two.locator("#account-name")).to_be_visible()
    left = storage_dump(two)
    assert not [k for k in left if k.startswith("gin.session.")]
    assert not [k for k, v in left.items() if k.startswith("gin.seat.") and json.loads(v).get("account")]

    def account(token: str) -> int:
        return requests.get(
            f"{live_service}/v1/account", headers={"Authorization": f"Bearer {token}"}, timeout=10
        ).status_code

    assert account(gone) == 401  # device two's session is over for the service
    assert account(session["token"]) == 200  # device one's goes on


def test_sign_in_refusals_are_said_plainly(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    name = unique("Eve")
    page = start_page(new_context, play_url(live_service), "eve")
    # A short password is refused before it is sent; a taken name by the service.
    sign_in_form(page, name, "short", sign_up=True)
    expect(page.locator("#account-error")).to_contain_text("at least 10 characters")
    requests.post(
        f"{live_service}/v1/account", json={"name": name, "password": PASSWORD}, timeout=10
    ).raise_for_status()
    # A common password: the service says why it refuses it.
    sign_in_form(page, unique("Eva"), "password12", sign_up=True)
    expect(page.locator("#account-error")).to_have_text(
        "Choose another password: it is one of the most common passwords."
    )
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("[data-action=sign-up]")
    expect(page.locator("#account-error")).to_contain_text("That name is taken")
    expect(page.locator("#account-name")).to_have_attribute("aria-invalid", "")

    # A wrong password: said as such, the password field emptied and focused.
    page.click("[data-action=mode-sign-in]")
    sign_in_form(page, name, "not the password at all")
    error = page.locator("#account-error")
    expect(error).to_have_text("Wrong name or password. Names ignore case; passwords do not.")
    expect(page.locator("#account-password")).to_have_value("")
    expect(page.locator("#account-password")).to_be_focused()

    # Past the service's limit of failed sign-ins for a name: 429, and how long to wait (Retry-After).
    for attempt in range(9):  # the page's one, then nine more: ten failures for this name
        refused = requests.post(
            f"{live_service}/v1/account/sessions",
            json={"name": name, "password": f"guess {attempt}"},
            timeout=10,
        )
        assert refused.status_code == 401
    sign_in_form(page, name, PASSWORD)  # the right password, too late
    expect(error).to_contain_text("Too many failed sign-ins")
    expect(error).to_contain_text(re.compile(r"Try again in \d+ min( \d+ s)?\."))
    expect(page.locator("#player-me")).to_have_count(0)
    shots_at_two_sizes(page, tmp_path, "sign-in-refused")
