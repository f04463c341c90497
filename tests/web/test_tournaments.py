"""Tournaments in the web client: a person joins an arena whose other entrants are house bots, plays two
paired games at the table that opens by itself, and sees the standings move; an organiser makes a private
Swiss with the form, joins it with its entry code and cancels it.

Against the suite's real gunicorn, Redis and PostgreSQL, with a real tournament director beside it
(``tournament_director``: on ``live_service``'s Redis and database). The tournament page, the table of a
tournament game and the form are shot at 1280×800 and 390×844, where nothing may stick out sideways.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import BrowserContext, Page, expect

from .pages import (
    PASSWORD,
    Table,
    game_address,
    kept_session,
    play_url,
    shots_at_two_sizes,
    signed_up,
    unique,
    wait_for_game,
)


def post(base: str, path: str, token: str | None, body: dict[str, Any] | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    reply = requests.post(f"{base}{path}", json=body, headers=headers, timeout=10)
    assert reply.status_code in (200, 201), reply.text
    return dict(reply.json())


@pytest.fixture
def arena(live_service: str) -> Iterator[tuple[str, str]]:
    """An arena of 10 minutes (rapid clock, berserk, a match is its first hand won), not started, with the
    house bots simple and novice entered by its organiser over the API: (its id, the organiser's token).
    Terminated at the end, so that the director pairs no more games of it."""
    organiser = post(live_service, "/v1/account", None, {"name": unique("org"), "password": PASSWORD})[
        "token"
    ]
    made = post(
        live_service,
        "/v1/tournaments",
        organiser,
        {
            "name": "Rapid arena",
            "format": "arena",
            "minutes": 10,
            "clock": {"preset": "rapid"},
            "rules": {"preset": "standard", "options": {"target": 1}},
            "starts_in": 3600,
        },
    )
    tournament_id = made["tournament"]["id"]
    for bot in ("simple", "novice"):
        post(live_service, f"/v1/tournaments/{tournament_id}/join", organiser, {"bot": bot})
    yield tournament_id, organiser
    requests.post(
        f"{live_service}/v1/tournaments/{tournament_id}/terminate",
        headers={"Authorization": f"Bearer {organiser}"},
        timeout=10,
    )


def my_row(page: Page, name: str) -> Any:
    return page.locator(f"#standings-table tr[data-player='{name}']")


def play_match(table: Table) -> None:
    """Play the table's match to its end from what the page offers (a wall is dealt again)."""
    page = table.page
    for _ in range(400):
        table.wait_for_turn()
        if table.game.get_attribute("data-over") == "yes":
            return
        if page.locator("#result").count():
            if page.locator("#result [data-action=deal]").count():
                table.click_action("deal")
            else:  # the bot deals
                table.after_change(lambda: None)
            continue
        table.play_turn()
    raise AssertionError("the match did not end")


def test_a_person_plays_an_arena_against_house_bots_and_sees_the_standings_move(
    new_context: Callable[..., BrowserContext],
    live_service: str,
    tournament_director: Any,
    arena: tuple[str, str],
    tmp_path: Path,
) -> None:
    tournament_id, organiser = arena
    name = unique("ann")
    page = signed_up(new_context, live_service, name)

    # From the start page to the tournament, by the links; joining it.
    page.click("a[data-nav=tournaments]")
    upcoming = page.locator(f"#tournaments-created [data-tournament='{tournament_id}']")
    expect(upcoming).to_contain_text("Rapid arena")
    upcoming.locator("[data-action=open-tournament]").click()
    expect(page.locator("#page-title")).to_have_text("Rapid arena")
    expect(page.locator("#tournament-countdown")).to_contain_text("Starts in")
    page.click("#my-entry [data-action=join]")
    expect(page.locator("#my-entry")).to_contain_text("You are in")
    expect(my_row(page, name)).to_be_visible()
    expect(page.locator("#standings-table .badge.bot")).to_have_count(2)  # the house bots, labelled
    shots_at_two_sizes(page, tmp_path, "tournament-joined")

    # Someone follows the tournament on a phone, signed in as nobody: its standings come live.
    watcher = new_context("watcher", viewport={"width": 390, "height": 844}).new_page()
    watcher.goto(f"{play_url(live_service)}#/tournaments/{tournament_id}")
    expect(my_row(watcher, name).locator(".games")).to_have_text("0")

    post(live_service, f"/v1/tournaments/{tournament_id}/start", organiser)
    played: list[str] = []
    for number in (1, 2):
        # The paired game opens by itself, at the table, played with the account's session.
        wait_for_game(page)
        game_id, seat = game_address(page)
        assert game_id not in played
        played.append(game_id)
        # The watcher's standings have moved with each match played (none of this one yet), and the game is
        # among those to watch.
        expect(my_row(watcher, name).locator(".games")).to_have_text(str(number - 1))
        expect(watcher.locator(f"#watch-list [data-game='{game_id}'] [data-action=watch]")).to_be_visible()
        table = Table(page)
        if number == 1:
            berserk = page.locator("[data-action=berserk]")
            expect(berserk).to_be_visible()  # an arena's game, before my first move
            shots_at_two_sizes(page, tmp_path, "tournament-table")
            table.after_change(berserk.click)
            expect(berserk).to_have_count(0)
            clock = requests.get(
                f"{live_service}/v1/games/{game_id}",
                headers={"Authorization": f"Bearer {kept_session(page, live_service)['token']}"},
                timeout=10,
            ).json()["clock"]
            assert clock["remaining"][seat] <= 300  # berserked: half of rapid's 10 minutes
        play_match(table)
        back = page.locator("#rematch [data-action=back-to-tournament]")
        expect(back).to_be_visible()
        if number == 1:
            shots_at_two_sizes(page, tmp_path, "tournament-game-over")
            back.click()  # the next game opens from there
    expect(my_row(watcher, name).locator(".games")).to_have_text("2")
    shots_at_two_sizes(watcher, tmp_path, "tournament-watched")

    # The organiser ends it; back at the tournament, the person finds the final standings.
    post(live_service, f"/v1/tournaments/{tournament_id}/terminate", organiser)
    expect(watcher.locator("#tournament-countdown")).to_contain_text("Finished", timeout=30_000)
    back.click()
    expect(page.locator("#tournament-countdown")).to_contain_text("Finished")
    expect(my_row(page, name).locator(".games")).to_have_text("2")
    results = requests.get(
        f"{live_service}/v1/tournaments/{tournament_id}/results",
        headers={"Accept": "application/x-ndjson"},
        timeout=10,
    ).text
    assert any(f'"player":"{name}"' in line and '"games":2' in line for line in results.splitlines())
    shots_at_two_sizes(page, tmp_path, "tournament-finished")


def test_an_organiser_makes_a_private_swiss_joins_it_with_its_code_and_cancels_it(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    name = unique("org")
    page = signed_up(new_context, live_service, name)
    page.click("a[data-nav=tournaments]")
    expect(page.locator("#tournament-preset option")).not_to_have_count(0)

    # The format's own fields come with it.
    page.select_option("#tournament-format", "swiss")
    expect(page.locator("#tournament-rounds")).to_be_visible()
    expect(page.locator("#tournament-minutes")).to_be_hidden()
    page.fill("#tournament-name", "Friday Swiss")
    page.fill("#tournament-rounds", "3")
    page.select_option("#tournament-clock", "blitz")
    page.check("#tournament-bots")
    page.check("#tournament-private")
    page.fill("#tournament-starts-in", "30")
    shots_at_two_sizes(page, tmp_path, "tournament-form")
    page.click("[data-action=create-tournament]")

    # Its page: the entry code shown this once, the organiser's buttons, the countdown.
    expect(page.locator("#page-title")).to_have_text("Friday Swiss")
    tournament_id = page.evaluate("location.hash").rsplit("/", 1)[1]
    made = requests.get(f"{live_service}/v1/tournaments/{tournament_id}", timeout=10).json()
    assert (made["format"], made["settings"]["rounds"], made["private"]) == ("swiss", 3, True)
    assert made["settings"]["bots"] and made["settings"]["clock"]["preset"] == "blitz"
    code = page.locator("#entry-code-shown code").inner_text()
    expect(page.locator("#tournament-countdown")).to_contain_text("Starts in 29:")
    expect(page.locator("#tournament-facts")).to_contain_text("Swiss · 3 rounds")
    expect(page.locator("[data-action=start]")).to_be_visible()

    # A wrong code is refused; the right one lets the organiser in.
    page.fill("#entry-code", "wrong")
    page.click("#my-entry [data-action=join]")
    expect(page.locator("#alert")).to_contain_text("the entry code is wrong")
    page.fill("#entry-code", code)
    page.click("#my-entry [data-action=join]")
    expect(page.locator("#my-entry")).to_contain_text("You are in")
    expect(page.locator("#my-entry [data-action=withdraw]")).to_have_text("Leave")
    shots_at_two_sizes(page, tmp_path, "tournament-private")

    page.click("[data-action=terminate]")
    page.click("[data-action=confirm-terminate]")
    expect(page.locator("#tournament-countdown")).to_have_text("Cancelled")
    assert requests.get(f"{live_service}/v1/tournaments/{tournament_id}", timeout=10).json()["status"] == (
        "canceled"
    )
