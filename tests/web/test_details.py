"""Small things a player meets around the table: the hand analysis, an invitation link (fresh, used, or
joined without a name), a message that outlives the lost connection it was about, claiming a game from an
idle opponent, the numbering of a long hand's moves, the help, the leaderboard's columns and the question
before resigning.

Like test_play.py: Debian's chromium through Playwright against a real gunicorn (GIN_ALLOW_SEED=1).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
import requests
from playwright.sync_api import BrowserContext, expect

from .pages import Table, invite, log_in, play_url, start_game


def test_analyzing_ten_cards_shows_no_stray_text(context: BrowserContext, live_service: str) -> None:
    page = context.new_page()
    page.goto(play_url(live_service))
    page.click("details.analyze > summary")
    page.fill("#analyze-cards", "7h 8h 9h 10s js qs ks 2c 2d 5h")
    page.click("[data-action=analyze]")
    analysis = page.locator("#analysis")
    expect(analysis).to_contain_text("Deadwood 9")
    expect(analysis).not_to_contain_text("null")
    expect(analysis).not_to_contain_text("undefined")


def test_an_invitation_says_who_invites_and_whether_the_seat_is_still_free(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    host = new_context("host").new_page()
    start_game(host, play_url(live_service), bot=None, seed=11, name="Ann")
    link = host.locator("#invite-link").input_value()

    guest = new_context("guest").new_page()
    guest.goto(link)
    panel = guest.locator(".join")
    expect(panel).to_contain_text("Ann invites you")
    expect(panel).to_contain_text("knock at ≤ 10")  # the rules of the game on offer
    expect(panel).not_to_contain_text("null")
    expect(guest.locator("[data-action=join]")).to_be_enabled()
    Table(guest).shot(tmp_path, "invited")

    # Somebody else takes the seat (here: a client of the API). The link now says so before any click.
    requests.post(
        f"{live_service}/v1/games/{link.split('#join=')[1].split('.')[0]}/join",
        json={"invitation": link.split("#join=")[1].split(".", 1)[1], "name": "Cyd"},
        timeout=10,
    ).raise_for_status()
    guest.reload()
    expect(panel).to_contain_text("Ann's game")
    expect(panel).to_contain_text("taken")
    expect(panel).not_to_contain_text("is waiting")
    expect(guest.locator("[data-action=join]")).to_have_count(0)
    Table(guest).shot(tmp_path, "invitation-used")


def test_joining_asks_for_a_name_and_a_player_joins_under_their_own(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    host = new_context("host").new_page()
    start_game(host, play_url(live_service), bot=None, seed=11, name="Ann")
    link = host.locator("#invite-link").input_value()

    guest = new_context("guest").new_page()
    joins: list[str] = []
    guest.on("request", lambda r: joins.append(r.url) if r.url.endswith("/join") else None)
    guest.goto(link)
    guest.fill("#join-name", "")
    guest.click("[data-action=join]")
    expect(guest.locator("#join-name-error")).to_contain_text("name")
    expect(guest.locator("#join-name")).to_be_focused()
    assert joins == []
    Table(guest).shot(tmp_path, "join-no-name")
    guest.fill("#join-name", "Bob")
    guest.click("[data-action=join]")
    expect(host.locator(".opponent .name")).to_have_text("Bob")  # not "Player 2"

    # Logged in, the name is the player's, already filled in.
    other = new_context("player").new_page()
    name = f"Dee{uuid.uuid4().hex[:6]}"
    log_in(other, play_url(live_service), name)
    start_game(host, play_url(live_service), bot=None, seed=12, name="Ann")
    other.goto(host.locator("#invite-link").input_value())
    expect(other.locator("#join-name")).to_have_value(name)


def test_a_lost_connection_message_goes_once_the_service_answers_and_blames_no_cors(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    start_game(page, play_url(live_service), bot="simple", seed=27)
    table = Table(page)
    page.context.set_offline(True)
    page.click("[data-action=pass]")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("offline")
    expect(alert).not_to_contain_text("CORS")  # the page and the service share one origin: not the cause
    expect(alert).not_to_contain_text("null")
    table.shot(tmp_path, "offline")
    page.context.set_offline(False)
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(alert).to_be_hidden()
    table.click_action("pass")  # and the game goes on


def test_claim_victory_counts_down_quietly_until_the_service_allows_it(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    opponent = invite(page, live_service, seed=26)  # seed 26: Bob has the upcard's choice first
    table = Table(page)
    assert not table.my_turn()
    claim = page.locator("[data-action=claim-victory]")
    # The view says when the claim opens (claim_after: GIN_ABANDON_AFTER, 5 minutes, after Bob's last
    # change): not the big button from the first second, but a quiet, disabled countdown.
    expect(claim).to_be_disabled()
    expect(claim).to_have_text(re.compile(r"^Claim victory in [45]:\d\d$"))
    expect(claim).not_to_have_class(re.compile(r"\bprimary\b"))
    first = claim.inner_text()
    expect(claim).not_to_have_text(first)  # it counts down
    table.shot(tmp_path, "claim-countdown")

    opponent.move({"type": "pass"})  # Bob moves: my move, nothing to claim
    expect(claim).to_have_count(0)
    table.click_action("pass")  # Bob's move again: a new wait, counted from his move
    expect(claim).to_have_text(re.compile(r"^Claim victory in [45]:\d\d$"))
    expect(claim).to_be_disabled()


@pytest.mark.slow
def test_a_long_hands_moves_keep_their_numbers(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    # Gin only (knock limit 0): the hand goes on long, past 40 moves.
    start_game(page, play_url(live_service), bot="simple", seed=3, knock_limit=0)
    table = Table(page)
    table.play_hand(limit=120)
    history = table.api_view()["history"]
    assert len(history) > 40
    log = page.locator("#log")
    expect(log.locator("li")).to_have_count(len(history))  # every move, the first numbered 1
    assert log.evaluate("ol => ol.start") == 1
    expect(log.locator("li").first).to_contain_text("simple (bot) passed")
    table.shot(tmp_path, "long-hand")


def test_the_help_opens_at_its_top(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    for name, options in (
        ("desktop", {"viewport": {"width": 1100, "height": 640}}),
        ("phone", {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}),
    ):
        page = new_context(name, **options).new_page()
        start_game(page, play_url(live_service), bot="simple", seed=3)
        page.click("[data-action=help]")
        dialog = page.locator("#help")
        expect(dialog).to_be_visible()
        assert dialog.evaluate("d => d.scrollHeight > d.clientHeight"), "the help is taller than the screen"
        assert dialog.evaluate("d => d.scrollTop") == 0
        title, box = page.locator("#help-title").bounding_box(), dialog.bounding_box()
        assert title is not None and box is not None and title["y"] >= box["y"]
        Table(page).shot(tmp_path, f"help-{name}")


def test_the_leaderboards_headers_line_up_with_their_columns(
    context: BrowserContext, live_service: str
) -> None:
    # A rated game that ends (a resignation) puts its player and the bot on the leaderboard.
    player = requests.post(
        f"{live_service}/v1/players", json={"name": f"Eve{uuid.uuid4().hex[:6]}"}, timeout=10
    )
    player.raise_for_status()
    game = requests.post(
        f"{live_service}/v1/games",
        json={"rules": {"preset": "standard"}, "opponent": {"type": "bot", "bot": "simple"}, "rated": True},
        headers={"Authorization": f"Bearer {player.json()['token']}"},
        timeout=10,
    ).json()
    requests.post(
        f"{live_service}/v1/games/{game['game_id']}/actions",
        json={"type": "resign"},
        headers={"Authorization": f"Bearer {game['token']}", "If-Match": "*"},
        timeout=10,
    ).raise_for_status()

    page = context.new_page()
    page.goto(play_url(live_service))
    expect(page.locator("#leaderboard-family option")).not_to_have_count(0)
    page.click("details.leaderboard > summary")
    rows = page.locator("#leaderboard tbody tr")
    expect(rows).not_to_have_count(0)
    aligned = page.evaluate(
        """() => { const t = document.querySelector('#leaderboard table');
                   const align = (e) => getComputedStyle(e).textAlign;
                   return [...t.tHead.rows[0].cells].map((head, i) =>
                     [head.textContent, align(head), [...t.tBodies[0].rows].map(r => align(r.cells[i]))]); }"""
    )
    for header, head_align, cells in aligned:
        assert set(cells) == {head_align}, f"column {header!r}: header {head_align}, cells {cells}"


def test_the_question_before_resigning_makes_keep_playing_the_default(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    start_game(page, play_url(live_service), bot="simple", seed=3)
    table = Table(page)
    for ask, yes in (("resign", "confirm-resign"), ("abort", "confirm-abort")):
        page.click(f"[data-action={ask}]")
        keep = page.locator("[data-action=confirm-cancel]")
        expect(keep).to_be_focused()
        expect(keep).to_have_class(re.compile(r"\bprimary\b"))
        expect(page.locator(f"[data-action={yes}]")).not_to_have_class(re.compile(r"\bprimary\b"))
        table.shot(tmp_path, f"ask-{ask}")
        page.keyboard.press("Enter")  # the default answer: keep playing
        expect(page.locator("#confirm")).to_have_count(0)
    assert table.version() == 1 and table.phase().startswith("upcard")
