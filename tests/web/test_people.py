"""Stories of the web client with people and time: resigning and a rematch, clocks that tick, players who
log in, meet in the lobby or by a quick match, abort a game, offer and accept a rematch.

Like test_play.py: Debian's chromium through Playwright against a real gunicorn (GIN_ALLOW_SEED=1); a
screenshot of every page is kept under the test's temporary directory. Player names are unique per test
(the service keeps players for the session), and each lobby story seeks with its own time control, so that
no seek of one story can pair with another's.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .pages import Table, game_address, log_in, more_options, play_url, start_game, wait_for_game


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def game_of(page: Page) -> str:
    return game_address(page)[0]


def two_players(new_context: Callable[..., BrowserContext], base: str) -> tuple[Page, Page, str, str]:
    """Ann and Bob, each logged in as a new player in a browser profile of their own, on the start page."""
    pages, names = [], []
    for who in ("Ann", "Bob"):
        name = unique(who)
        page = new_context(who.lower()).new_page()
        log_in(page, play_url(base), name)
        more_options(page)  # the form's quick match: its own terms, no pool's
        pages.append(page)
        names.append(name)
    return pages[0], pages[1], names[0], names[1]


def clock_seconds(text: str) -> float:
    """A clock's text as seconds: "0:28" or "9.4"."""
    if ":" in text:
        minutes, seconds = text.split(":")
        return int(minutes) * 60 + int(seconds)
    return float(text)


def test_resigning_against_a_bot_says_why_and_a_rematch_starts_a_new_game(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    start_game(page, play_url(live_service), bot="simple", seed=3)
    table = Table(page)
    first = game_of(page)
    # Abort is offered before the first card is drawn, resign all along; neither is a move of the play.
    expect(page.locator("#felt [data-action=abort]")).to_be_visible()
    expect(page.locator("#felt [data-action=resign]")).to_be_visible()
    assert table.my_turn()

    # Resigning asks first; "Keep playing" changes nothing.
    page.click("[data-action=resign]")
    dialog = page.locator("#confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("simple (bot) wins the match")
    expect(page.locator("[data-action=confirm-cancel]")).to_be_focused()
    page.keyboard.press("d")  # no move from behind the question
    page.click("[data-action=confirm-cancel]")
    expect(dialog).to_be_hidden()
    assert table.phase().startswith("upcard") and table.version() == 1

    page.click("[data-action=resign]")
    table.after_change(lambda: page.click("[data-action=confirm-resign]"))
    end = page.locator("#match-end")
    expect(end).to_have_text("You resigned · simple (bot) wins the match")
    expect(page.locator("#game")).to_have_attribute("data-over", "yes")
    view = table.api_view()
    assert (view["end_reason"], view["forfeited_by"], view["your_move"]) == ("resigned", 0, False)
    expect(page.locator("#game-over #totals tr", has_text="Game bonus")).to_contain_text("100")
    expect(page.locator("#felt [data-action=resign]")).to_have_count(0)
    table.shot(tmp_path, "resigned")

    # The rematch: against a bot it starts at once, and the page moves to it with the same seat token.
    old_entry = table.seat_entry()
    page.click("[data-action=rematch]")
    page.wait_for_function("old => !location.hash.includes(old)", arg=first)
    wait_for_game(page)
    expect(page.locator("#game")).to_have_attribute("data-over", "no")
    entry = table.seat_entry()
    assert entry["gameId"] != first and entry["token"] == old_entry["token"] and entry["seat"] == 0
    assert table.api_view()["hand_number"] == 1 and table.phase() != "match_over"
    assert page.evaluate(f"localStorage.getItem('gin.seat.{first}.0')") is not None  # the old game is kept
    page.go_back()  # the finished game is one step back, its rematch ready to open
    expect(page.locator("[data-action=open-rematch]")).to_be_visible()
    table.shot(tmp_path, "rematch")


def test_a_clocked_game_shows_both_clocks_and_the_running_one_ticks_down(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    start_game(page, play_url(live_service), bot="simple", seed=3, clock="eaai")  # 30 s each for the match
    table = Table(page)
    clocks = page.locator("header.topbar #clocks .clock")
    expect(clocks).to_have_count(2)
    mine, theirs = clocks.nth(0), clocks.nth(1)
    expect(mine).to_have_attribute("data-running", "yes")  # my move (the bot passed the upcard)
    expect(theirs).to_have_attribute("data-running", "no")
    for clock in (mine, theirs):  # a timer that does not speak each tick, with a name saying whose it is
        assert clock.get_attribute("role") == "timer" and clock.get_attribute("aria-live") == "off"
    expect(mine).to_have_attribute("aria-label", re.compile(r"^Your clock: \d+ s left, running$"))
    expect(theirs).to_have_attribute("aria-label", "simple (bot)'s clock: 30 s left")

    before = clock_seconds(mine.locator(".time").inner_text())
    page.wait_for_timeout(1300)
    after = clock_seconds(mine.locator(".time").inner_text())
    assert 0 < before - after <= 3, (before, after)
    expect(theirs.locator(".time")).to_have_text("0:30")  # a bot's clock never runs
    table.shot(tmp_path, "clocks")

    # Each view re-syncs the clocks: after a move the page shows what the service counted.
    table.play_turn()
    table.wait_for_turn()
    left = table.api_view()["clock"]["remaining"][0]
    assert abs(clock_seconds(mine.locator(".time").inner_text()) - left) <= 1.5


def test_a_player_logs_in_stays_logged_in_and_logs_out(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    name = unique("Carol")
    page = new_context("carol").new_page()
    log_in(page, play_url(live_service), name)
    # Logged in: the game is the player's, which may be rated; the name at the table is the player's.
    expect(page.locator("#name")).to_have_count(0)
    more_options(page)
    expect(page.locator("#rated")).to_be_visible()
    expect(page.locator("[data-action=quick-match]")).to_be_visible()
    page.reload()
    expect(page.locator("#player-me")).to_have_text(name)
    assert name not in page.url

    other = new_context("someone-else").new_page()
    other.goto(play_url(live_service))
    other.click("#name-only > summary")
    other.fill("#player-name", name.upper())  # names ignore case
    other.click("[data-action=login]")
    expect(other.get_by_role("alert")).to_contain_text("is taken")

    page.click("[data-action=logout]")
    page.click("[data-action=logout-confirm]")
    expect(page.locator("#account-name")).to_be_visible()  # signed out: the sign-in form again
    expect(page.locator("[data-action=quick-match]")).to_have_count(0)
    assert not page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('gin.player.'))")
    table = Table(page)
    table.shot(tmp_path, "logged-out")


def test_two_players_log_in_and_quick_match_each_other(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    ann, bob, ann_name, bob_name = two_players(new_context, live_service)
    ann.click("[data-action=quick-match]")  # nobody waits: Ann waits in the lobby
    seeking = ann.locator("#seeking")
    expect(seeking).to_contain_text("Looking for an opponent")
    expect(ann.locator("[data-action=cancel-seek]")).to_be_visible()
    expect(ann.locator("[data-action=quick-match]")).to_be_disabled()
    Table(ann).shot(tmp_path, "ann-waiting")

    expect(bob.locator("#seeks li", has_text=ann_name)).to_be_visible()  # Bob's lobby lists Ann's seek
    bob.click("[data-action=quick-match]")  # pairs with Ann's seek at once
    wait_for_game(bob)
    wait_for_game(ann)  # Ann's page learns of the game by itself and opens it
    assert game_of(ann) == game_of(bob)
    expect(ann.locator(".opponent .name")).to_have_text(bob_name)
    expect(bob.locator(".opponent .name")).to_have_text(ann_name)
    tables = {"ann": Table(ann), "bob": Table(bob)}
    assert (tables["ann"].seat_entry()["seat"], tables["bob"].seat_entry()["seat"]) == (0, 1)
    view = tables["bob"].api_view()
    assert [p["player"] for p in view["players"]] == [ann_name, bob_name]
    assert tables["ann"].my_turn() != tables["bob"].my_turn()  # one moves; resign/abort are no move
    for table in tables.values():
        table.shot(tmp_path, f"matched-{table.seat_entry()['seat']}")

    # Bob calls the game off before any card is drawn: both pages say so.
    bob.click("[data-action=abort]")
    bob.click("[data-action=confirm-abort]")
    for page in (ann, bob):
        expect(page.locator("#match-end")).to_have_text("The game was aborted: no result")
    assert tables["ann"].api_view()["end_reason"] == "aborted"


@pytest.mark.slow
def test_the_lobby_lists_a_waiting_seek_and_play_takes_it_then_a_rematch_is_offered_and_accepted(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    ann, bob, ann_name, bob_name = two_players(new_context, live_service)
    ann.select_option("#clock", "move60")
    ann.click("[data-action=quick-match]")
    expect(ann.locator("#seeking")).to_contain_text("1 min a move")
    listed = bob.locator("#seeks li", has_text=ann_name)
    expect(listed).to_contain_text("1 min a move")  # Bob's page looks at the lobby again by itself
    expect(listed.locator("[data-action=accept-seek]")).to_be_enabled()
    expect(ann.locator("#seeks li", has_text=ann_name)).to_contain_text("yours")
    Table(bob).shot(tmp_path, "lobby")

    ann.click("[data-action=cancel-seek]")  # withdrawn: gone from Bob's lobby
    expect(ann.locator("#seeking")).to_be_hidden()
    expect(listed).to_have_count(0)

    ann.click("[data-action=quick-match]")
    expect(listed).to_have_count(1)
    listed.locator("[data-action=accept-seek]").click()
    wait_for_game(bob)
    wait_for_game(ann)
    assert game_of(ann) == game_of(bob)
    for page in (ann, bob):
        expect(page.locator("#clocks .clock")).to_have_count(2)
    ann_table, bob_table = Table(ann), Table(bob)

    # Bob resigns; Ann offers a rematch, Bob accepts; both pages move to the new game.
    first = game_of(ann)
    bob.click("[data-action=resign]")
    bob.click("[data-action=confirm-resign]")
    expect(ann.locator("#match-end")).to_have_text(f"{bob_name} resigned · You win the match")
    expect(bob.locator("#match-end")).to_have_text(f"You resigned · {ann_name} wins the match")
    ann.click("[data-action=rematch]")
    expect(ann.locator("#rematch")).to_contain_text(f"Rematch offered — waiting for {bob_name}")
    expect(bob.locator("#rematch")).to_contain_text(f"{ann_name} offers a rematch")
    ann_table.shot(tmp_path, "rematch-offered")
    bob_table.shot(tmp_path, "rematch-offer")
    bob.click("[data-action=rematch]")
    for page in (ann, bob):
        page.wait_for_function("old => !location.hash.includes(old)", arg=first)
        wait_for_game(page)
        expect(page.locator("#game")).to_have_attribute("data-over", "no")
        expect(page.locator("#clocks .clock")).to_have_count(2)  # the same time control
    assert game_of(ann) == game_of(bob) != first
    assert ann_table.api_view()["players"][1]["player"] == bob_name
