"""Challenges in the web client: two people in two browsers challenge each other — a decline with its
reason, a challenge withdrawn, one accepted and played by both in the same game —, a house bot that
starts the game at once, and a challenge that expires unanswered.

Like the other browser tests: Debian's chromium through Playwright against the real gunicorn of the suite
(real Redis and PostgreSQL). What the pages say is checked against what the service says (the challenge
and the game read over the API with each side's session). The challenge form, the incoming challenge and
the waiting state are shot at 1280×800 and 390×844, where nothing may stick out sideways.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import BrowserContext, Page, expect

from tests.fixtures.live_service import start_service
from tests.support import stop_gunicorn

from .pages import (
    PASSWORD,
    Table,
    game_address,
    kept_session,
    play_url,
    shots_at_two_sizes,
    signed_up,
    start_page,
    storage_dump,
    unique,
    wait_for_game,
)


def api_get(base: str, path: str, token: str) -> dict[str, Any]:
    reply = requests.get(f"{base}{path}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    reply.raise_for_status()
    return dict(reply.json())


def challenge_row(page: Page, direction: str) -> Any:
    """The page's one challenge received ("in") or sent ("out") in the box of challenges."""
    return page.locator(f"#challenges li.challenge[data-direction={direction}]")


def send_challenge(
    page: Page, *, preset: str | None = None, clock: str | None = None, rated: bool = False
) -> str:
    """Fill the challenge form and send it; the id of the challenge now waiting (the box's row)."""
    if preset is not None:
        page.select_option("#challenge-preset", preset)
    if clock is not None:
        page.select_option("#challenge-clock", clock)
    page.set_checked("#challenge-rated", rated)
    page.click("[data-action=send-challenge]")
    waiting = challenge_row(page, "out")
    expect(waiting).to_have_attribute("data-status", "open")
    return str(waiting.get_attribute("data-challenge"))


@pytest.mark.slow
def test_two_people_challenge_each_other_decline_withdraw_then_play_the_same_game(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    ann_name, bob_name = unique("Ann"), unique("Bob")
    ann = signed_up(new_context, live_service, ann_name)
    bob = signed_up(new_context, live_service, bob_name)
    ann_token, bob_token = kept_session(ann, live_service)["token"], kept_session(bob, live_service)["token"]

    # Ann finds Bob's profile and challenges him from it: Oklahoma, rapid, rated.
    ann.goto(f"{play_url(live_service)}#/players/{bob_name}")
    expect(ann.locator("[data-action=challenge-player]")).to_have_text(f"Challenge {bob_name}")
    shots_at_two_sizes(ann, tmp_path, "profile-challenge")
    ann.click("[data-action=challenge-player]")
    expect(ann.locator("#page-title")).to_have_text(f"Challenge {bob_name}")
    expect(ann.locator("#challenge-opponent")).to_have_value(bob_name)
    expect(ann.locator("#challenge-preset option")).not_to_have_count(0)
    ann.select_option("#challenge-preset", "oklahoma")
    ann.select_option("#challenge-clock", "rapid")
    ann.check("#challenge-rated")
    expect(ann.locator("[data-action=send-challenge]")).to_have_text(f"Challenge {bob_name}")
    shots_at_two_sizes(ann, tmp_path, "challenge-form")
    first = send_challenge(ann, rated=True)
    waiting = challenge_row(ann, "out")
    expect(waiting).to_contain_text(f"Waiting for {bob_name} to accept your challenge")
    expect(waiting).to_contain_text("oklahoma · Rapid: 10 min for the match + 5 s a move · rated")
    expect(waiting.locator("[data-action=cancel-challenge]")).to_be_visible()
    shots_at_two_sizes(ann, tmp_path, "challenge-waiting")
    sent = api_get(live_service, f"/v1/challenges/{first}", ann_token)
    assert sent["status"] == "open" and sent["rated"] is True
    assert sent["rules"]["preset"] == "oklahoma" and sent["clock"]["preset"] == "rapid"
    assert sent["opponent"]["name"] == bob_name

    # Bob, on his start page, sees it arrive: who, the rules, the clock, rated.
    incoming = challenge_row(bob, "in")
    expect(incoming).to_have_attribute("data-challenge", first)
    expect(incoming).to_contain_text(f"{ann_name} challenges you")
    expect(incoming).to_contain_text("oklahoma · Rapid: 10 min for the match + 5 s a move · rated")
    shots_at_two_sizes(bob, tmp_path, "challenge-incoming")

    # He declines it from the keyboard, with a reason; Ann reads the reason in words.
    bob.focus("[data-action=decline-challenge]")
    bob.keyboard.press("Enter")
    reason = bob.locator(f"#decline-reason-{first}")
    expect(reason).to_be_focused()
    reason.select_option("too_fast")
    # Meanwhile Cal challenges Bob too (over the API): the box is drawn again with both, and the reason
    # chosen and the focus stay where they were.
    cal = requests.post(
        f"{live_service}/v1/account", json={"name": unique("Cal"), "password": PASSWORD}, timeout=10
    ).json()["token"]
    cals = requests.post(
        f"{live_service}/v1/challenges",
        json={"opponent": bob_name},
        headers={"Authorization": f"Bearer {cal}"},
        timeout=10,
    ).json()["challenge"]["id"]
    expect(incoming).to_have_count(2)
    expect(reason).to_have_value("too_fast")
    expect(reason).to_be_focused()
    bob.keyboard.press("Tab")
    expect(bob.locator("[data-action=confirm-decline]")).to_be_focused()
    bob.keyboard.press("Enter")
    expect(incoming).to_have_count(1)
    expect(incoming).to_have_attribute("data-challenge", cals)
    requests.post(
        f"{live_service}/v1/challenges/{cals}/cancel", headers={"Authorization": f"Bearer {cal}"}, timeout=10
    ).raise_for_status()
    expect(incoming).to_have_count(0)  # withdrawn: gone from Bob's page
    declined = challenge_row(ann, "out")
    expect(declined).to_have_attribute("data-status", "declined")
    expect(declined).to_contain_text(f"{bob_name} declined your challenge: the clock is too fast")
    assert api_get(live_service, f"/v1/challenges/{first}", ann_token)["decline_reason"] == "too_fast"
    shots_at_two_sizes(ann, tmp_path, "challenge-declined")
    declined.locator("[data-action=dismiss-challenge]").click()
    expect(declined).to_have_count(0)

    # A second one, casual and without a clock, withdrawn before Bob answers: it leaves Bob's page.
    second = send_challenge(ann, clock="", rated=False)
    expect(incoming).to_have_attribute("data-challenge", second)
    expect(incoming).to_contain_text("oklahoma · no clock · casual")
    challenge_row(ann, "out").locator("[data-action=cancel-challenge]").click()
    expect(challenge_row(ann, "out")).to_have_count(0)
    expect(incoming).to_have_count(0)
    assert api_get(live_service, f"/v1/challenges/{second}", ann_token)["status"] == "canceled"

    # A third, rated again: Bob accepts, and both pages open the same game, Ann in seat 0, Bob in seat 1.
    third = send_challenge(ann, clock="rapid", rated=True)
    expect(incoming).to_have_attribute("data-challenge", third)
    incoming.locator("[data-action=accept-challenge]").click()
    wait_for_game(bob)
    wait_for_game(ann)
    game_id, seat = game_address(ann)
    assert (game_id, seat) == (game_address(bob)[0], 0)
    assert game_address(bob)[1] == 1
    accepted = api_get(live_service, f"/v1/challenges/{third}", bob_token)
    assert accepted["status"] == "accepted" and accepted["game_id"] == game_id
    for token, me in ((ann_token, 0), (bob_token, 1)):  # each session sees its own seat of that game
        view = api_get(live_service, f"/v1/games/{game_id}", token)
        assert view["seat"] == me and view["rated"] is True
        assert [p["name"] for p in view["players"]] == [ann_name, bob_name]
        assert view["clock"]["bank"] == 600
    assert Table(ann).version() == Table(bob).version()
    for page in (ann, bob):  # an account's seat keeps no token in the browser
        kept = storage_dump(page).get(f"gin.seat.{game_id}.{game_address(page)[1]}")
        assert kept is None or "token" not in json.loads(kept)
    expect(ann.locator("#challenges")).to_be_hidden()


def test_a_house_bot_challenged_from_the_list_starts_the_game_at_once(
    new_context: Callable[..., BrowserContext], live_service: str
) -> None:
    name = unique("Cyd")
    page = signed_up(new_context, live_service, name)
    page.click("[data-action=to-challenge]")
    expect(page.locator("#page-title")).to_have_text("Challenge")

    # The house bots, each with its rating in the rules chosen (the ratings of GET /v1/bots).
    bots = requests.get(f"{live_service}/v1/bots", timeout=10).json()["bots"]
    expert = next(b for b in bots if b["name"] == "expert")
    row = page.locator("#bot-list li[data-player=bot-expert]")
    expect(row.locator(".bot-rating")).to_have_text(str(expert["ratings"]["standard"]["rating"]))
    page.select_option("#challenge-preset", "hollywood")
    expect(row.locator(".bot-rating")).to_have_text(str(expert["ratings"]["hollywood"]["rating"]))
    expect(page.locator("#bot-note")).to_contain_text("Ratings in hollywood")
    row.locator("[data-action=choose-bot]").click()
    expect(page.locator("#challenge-opponent")).to_have_value("bot-expert")
    expect(row.locator("[data-action=choose-bot]")).to_have_attribute("aria-pressed", "true")
    send = page.locator("[data-action=send-challenge]")
    expect(send).to_be_focused()
    expect(send).to_have_text("Challenge expert (bot)")
    page.check("#challenge-rated")
    page.keyboard.press("Enter")

    # No waiting: the bot accepted, the game is on the screen.
    wait_for_game(page)
    game_id, seat = game_address(page)
    assert seat == 0
    view = api_get(live_service, f"/v1/games/{game_id}", kept_session(page, live_service)["token"])
    assert view["rated"] is True and view["rules"]["hollywood"] is True
    assert view["players"][1]["type"] == "bot" and view["players"][1]["bot"] == "expert"
    assert page.locator("#challenges li").count() == 0


def test_an_unknown_player_is_said_plainly_and_a_signed_out_visitor_is_asked_to_sign_in(
    new_context: Callable[..., BrowserContext], live_service: str
) -> None:
    visitor = start_page(new_context, f"{play_url(live_service)}#/challenge/Nobody", "visitor")
    expect(visitor.locator("#challenge-sign-in")).to_contain_text("Sign in to challenge someone")
    expect(visitor.locator("#challenge-form")).to_have_count(0)

    page = signed_up(new_context, live_service, unique("Dee"))
    missing = unique("Ghost")
    page.goto(f"{play_url(live_service)}#/challenge/{missing}")
    page.click("[data-action=send-challenge]")
    expect(page.locator("#challenge-error")).to_have_text(
        f'There is no player called "{missing}" on this service.'
    )
    expect(page.locator("#challenges li")).to_have_count(0)


@pytest.fixture(scope="module")
def brief_challenges(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second real gunicorn whose challenges expire after 2 seconds unanswered."""
    process, base = start_service(
        redis_url,
        tmp_path_factory.mktemp("gunicorn-challenges"),
        workers=1,
        extra_env={"GIN_CHALLENGE_TTL": "2", "GIN_GRACEFUL_TIMEOUT": "1"},
    )
    try:
        yield base
    finally:
        stop_gunicorn(process)


def test_a_challenge_nobody_answers_expires_and_the_page_says_so(
    new_context: Callable[..., BrowserContext], brief_challenges: str
) -> None:
    other = unique("Eli")
    requests.post(
        f"{brief_challenges}/v1/account", json={"name": other, "password": PASSWORD}, timeout=10
    ).raise_for_status()
    page = signed_up(new_context, brief_challenges, unique("Fay"))
    page.goto(f"{play_url(brief_challenges)}#/challenge/{other}")
    expect(page.locator("#challenge-preset option")).not_to_have_count(0)
    challenge_id = send_challenge(page)
    ended = page.locator(f"#challenges li[data-challenge='{challenge_id}']")
    expect(ended).to_have_attribute("data-status", "expired", timeout=15_000)  # 2 s, then the page looks
    expect(ended).to_contain_text(f"Your challenge to {other} expired: nobody answered")
    token = kept_session(page, brief_challenges)["token"]
    assert api_get(brief_challenges, f"/v1/challenges/{challenge_id}", token)["status"] == "expired"
