"""Stories of the web client in a real browser (Debian's chromium through Playwright) against a real gunicorn.

Each test is one thing a player does: a hand against a bot to its end, a hand between two people in two
browsers through an invitation link, a knock with an arrangement of one's own, lay-offs of one's own, a
reload in the middle of a hand, an illegal move the service refuses, and a page served from another
origin (CORS). Throughout, the page must hold no card its seat may not see. The deals are fixed with
``seed`` (the live service runs with GIN_ALLOW_SEED=1); a screenshot of every page is kept at the end.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .pages import Table, boxes_overlap, finish_hand_over_the_api, invite, play_url, start_game

PHONE = {
    "viewport": {"width": 375, "height": 740},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def test_a_game_against_a_bot_to_its_result_and_its_end(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    start_game(page, play_url(live_service), bot="simple", seed=3, target=1)  # the first hand won ends it
    table = Table(page)
    expect(page.locator("#opponent-hand")).to_be_visible()
    expect(page.locator("#stock")).to_contain_text("Stock")
    assert len(table.hand()) == 10
    table.shot(tmp_path, "bot-start")

    # Up to my first discard; then drag a card onto the pile, and take the move back.
    while not page.locator("#my-hand [data-after]").count():
        table.wait_for_turn()
        table.play_turn()
    hand = table.hand()
    card = table.best_discard()
    table.after_change(lambda: page.drag_and_drop(f"#my-hand [data-card='{card}']", "#pile"))
    assert card not in table.hand()
    assert {"seat": 0, "type": "discard", "card": card} in table.api_view()["history"]
    table.after_change(lambda: page.keyboard.press("u"))
    expect(page.locator("#my-hand [data-after]")).to_have_count(11)
    assert sorted(table.hand()) == sorted(hand)

    for _hand in range(4):  # a wall (cancelled hand) scores nothing: deal again
        table.play_hand()
        result = page.locator("#result")
        expect(result.locator(".arrangement")).to_have_count(2)  # both players' arrangements
        expect(page.locator("#shuffle-check")).to_have_attribute("data-verified", "ok")
        view = table.api_view()
        table.assert_holds_only_visible_cards()
        if view["result"]["outcome"].get("winner") is not None:
            break
        table.after_change(lambda: page.keyboard.press("Enter"))  # deal the next hand
    outcome = view["result"]["outcome"]
    expect(result.locator(".points")).to_contain_text(
        f"scores {outcome['points']}" if outcome["winner"] else f"score {outcome['points']}"
    )
    # The fair shuffle, checked by the page with Web Crypto against the commitment shown at the deal.
    expect(page.locator(".hands .verified.ok").last).to_have_text("✓")
    table.shot(tmp_path, "bot-result")

    # The end of the game: totals with every bonus, and each player's statistics.
    game = view["scores"]["games"][0]
    assert game["over"] and view["scores"]["match_over"]
    over = page.locator("#game-over")
    expect(over).to_contain_text("Game 1 over")
    totals = over.locator("#totals")
    expect(totals.locator("tr", has_text="Game bonus")).to_contain_text(str(max(game["bonuses"]["game"])))
    expect(totals.locator("tr", has_text="Box bonus")).to_contain_text(str(max(game["bonuses"]["box"])))
    expect(totals.locator("tr", has_text="Grand total")).to_contain_text(
        str(game["grand_totals"][outcome["winner"]])
    )
    stats = over.locator("#stats")
    expect(stats.locator("tr", has_text="Hands won")).to_contain_text("1")
    expect(stats.locator("tr", has_text="Hands played")).to_be_visible()
    expect(page.locator("[data-action=new-game]")).to_be_visible()
    table.shot(tmp_path, "bot-game-over")


@pytest.mark.slow
def test_two_people_play_a_hand_through_an_invitation_link(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    host_context = new_context("host", permissions=["clipboard-read", "clipboard-write"])
    host_page = host_context.new_page()
    start_game(host_page, play_url(live_service), bot=None, seed=11, name="Ann")
    host = Table(host_page)
    expect(host_page.locator(".invite")).to_contain_text("Waiting for your opponent to join")
    host_page.click("[data-action=copy-link]")
    link = host_page.evaluate("navigator.clipboard.readText()")
    assert link == host_page.locator("#invite-link").input_value()
    parts = urlsplit(link)
    assert parts.fragment.startswith("join=") and not parts.query, (
        "the invitation travels in the fragment only"
    )
    assert host.seat_entry()["token"] not in link

    guest_page = new_context("guest").new_page()
    guest_page.goto(link)
    guest_page.fill("#join-name", "Bob")
    guest_page.click("[data-action=join]")
    guest = Table(guest_page)
    expect(guest_page.locator("#game")).to_have_attribute("data-version", re.compile(r"\d+"))
    assert "join=" not in guest_page.url, "the used invitation is dropped from the address"
    # The host learns of the join through the event feed, without reloading.
    expect(host_page.locator(".invite")).to_have_count(0)
    expect(host_page.locator(".opponent .name")).to_have_text("Bob")
    expect(guest_page.locator(".opponent .name")).to_have_text("Ann")

    # Between two people there is no engine assistance: no hint, no undo, no per-card deadwood numbers.
    mover = host if host.my_turn() else guest
    for table in (host, guest):
        expect(table.page.locator("[data-action=hint]")).to_have_count(0)
        expect(table.page.locator("[data-action=undo]")).to_have_count(0)
    mover.page.keyboard.press("h")
    expect(mover.page.locator("#notice")).to_contain_text("only against a bot")

    # The waiting player's connection drops while the other moves; back online, the page catches up.
    waiter = guest if mover is host else host
    waiter.page.context.set_offline(True)
    expect(waiter.page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
    mover.play_turn()
    waiter.page.context.set_offline(False)
    expect(waiter.game).to_have_attribute("data-version", str(mover.version()))
    expect(waiter.page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(waiter.page.locator("#log li")).to_have_count(mover.page.locator("#log li").count())

    # The one to move plays; the other sees the move arrive live and gets the turn.
    for _ in range(8):
        if not mover.my_turn():
            mover = guest if mover is host else host
            mover.wait_for_turn()
        mover.play_turn()
    # The rest of the hand over the API (each seat with its own token, as any client), knocking as soon as
    # the deadwood allows: the pages follow it live to the result.
    finish_hand_over_the_api(host, guest)

    for table in (host, guest):
        expect(table.page.locator("#result .arrangement")).to_have_count(2)
        expect(table.page.locator("#shuffle-check")).to_have_attribute("data-verified", "ok")
        table.assert_holds_only_visible_cards()
    assert host.api_view()["result"] == guest.api_view()["result"]
    host.shot(tmp_path, "two-people-host")
    guest.shot(tmp_path, "two-people-guest")


def test_a_knock_with_an_arrangement_of_my_own(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    # Seed 27: the bot deals, I may take the upcard; then my hand holds the run 2♠ 3♠ 4♠ 5♠.
    start_game(page, play_url(live_service), bot="simple", seed=27, knock_limit=60)
    table = Table(page)
    table.click_action("draw-pile")  # take the upcard
    assert {"2S", "3S", "4S", "5S"} <= set(table.hand())

    page.keyboard.press("k")
    confirm = page.locator("[data-action=knock-confirm]")
    expect(confirm).to_be_enabled()
    expect(page.locator("#my-hand .group.meld", has=page.locator("[data-card='2S']"))).to_have_count(1)
    discard = page.locator(".knock-choices [aria-checked=true]").get_attribute("data-choice")
    # My own arrangement: the run without 2♠ (2♠ stays deadwood). Picking a card of a meld takes it apart.
    page.click("#my-hand [data-card='2S']")  # takes the run apart, 2♠ picked
    page.click("#my-hand [data-card='2S']")  # 2♠ unpicked
    for card in ("3S", "4S", "5S"):
        page.click(f"#my-hand [data-card='{card}']")
    expect(page.locator("#my-hand .card.selected")).to_have_count(3)
    page.keyboard.press("m")
    expect(page.locator("#my-hand .group.meld", has=page.locator("[data-card='3S']"))).to_contain_text("5")
    expect(page.locator("#my-hand .group.deadwood [data-card='2S']")).to_have_count(1)
    melds = page.locator("#my-hand .group.meld").evaluate_all(
        "gs => gs.map(g => [...g.querySelectorAll('[data-card]')].map(c => c.dataset.card))"
    )
    table.shot(tmp_path, "knock-editor")
    table.after_change(lambda: page.keyboard.press("Enter"))

    result = table.api_view()["result"]
    assert result["knocker"]["seat"] == 0 and result["knocker"]["discard"] == discard
    assert sorted(map(sorted, result["knocker"]["melds"])) == sorted(map(sorted, melds))
    assert ["3S", "4S", "5S"] in result["knocker"]["melds"] and "2S" in result["knocker"]["deadwood_cards"]
    knocker_row = page.locator("#result .arrangement").first
    expect(knocker_row).to_contain_text("(knocker)")
    expect(knocker_row.locator(".group.deadwood [data-card='2S']")).to_have_count(1)
    expect(page.locator("#shuffle-check")).to_have_attribute("data-verified", "ok")
    table.assert_holds_only_visible_cards()
    table.shot(tmp_path, "knock-result")


def test_lay_offs_of_my_own_as_defender(context: BrowserContext, live_service: str, tmp_path: Path) -> None:
    page = context.new_page()
    page.set_viewport_size({"width": 1280, "height": 800})  # a laptop: the editor must fit without scrolling
    # Seed 26: I deal; my opponent (a second client on the public API) takes the upcard and knocks at
    # once with 8♥ 9♥ 10♥ (deadwood 32). The best defence melds 7♣ 7♦ 7♥ (my deadwood 39); I lay 7♥ 6♥ 5♥
    # off onto the run instead (deadwood 42).
    opponent = invite(page, live_service, seed=26, knock_limit=40)
    table = Table(page)
    opponent.move({"type": "draw", "source": "discard"})
    opponent.knock()

    # The knock reaches my page live; the lay-off editor opens with the best defence.
    expect(page.locator("#game")).to_have_attribute("data-mode", "layoff")
    targets = page.locator(".knock-area .target")
    expect(targets).to_have_count(1)
    expect(targets.first).to_contain_text("8")
    expect(page.locator("#my-hand .group.meld [data-card='7H']")).to_have_count(1)
    # My own deadwood as the lay-offs leave it, beside the knocker's, and what that means.
    count = page.locator("#layoff-count")
    expect(count).to_have_attribute("data-deadwood", "39")
    expect(count).to_contain_text("Your deadwood: 39")
    expect(count).to_contain_text("Bob wins the hand")
    # Everything needed to decide, and the button to do it, without scrolling.
    confirm = page.locator("[data-action=layoff-confirm]")
    assert page.evaluate("scrollY") == 0
    for needed in (confirm, count, targets.first, page.locator("#my-hand")):
        box = needed.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800, box
    table.shot(tmp_path, "layoff-best")

    page.click("#my-hand .group.meld button.break")  # take 7♣ 7♦ 7♥ apart
    expect(count).to_have_attribute("data-deadwood", "60")  # nothing melded, nothing laid off
    for card in ("7H", "6H", "5H"):  # each builds on the one before
        page.click(f"#my-hand [data-card='{card}']")
        page.click("[data-action=layoff-onto-1]")
    expect(targets.first.locator(".laid-off")).to_have_count(3)
    expect(page.locator("#my-hand .group.meld")).to_have_count(0)
    expect(count).to_have_attribute("data-deadwood", "42")
    expect(count).to_contain_text("Your deadwood: 42")
    table.shot(tmp_path, "layoff-editor")
    table.click_action("layoff-confirm")

    result = table.api_view()["result"]
    assert result["defender"]["seat"] == 0
    assert result["defender"]["layoffs"] == [
        {"card": "7H", "meld": 0},
        {"card": "6H", "meld": 0},
        {"card": "5H", "meld": 0},
    ]
    assert result["defender"]["melds"] == []
    assert result["defender"]["deadwood"] == 42  # what the editor said
    expect(page.locator("#result .layoffs")).to_contain_text("laid off 7♥ 6♥ 5♥ on meld 1")
    expect(page.locator("#shuffle-check")).to_have_attribute("data-verified", "ok")
    table.assert_holds_only_visible_cards()
    table.shot(tmp_path, "layoff-result")


def test_an_undercut_is_counted_the_knockers_deadwood_minus_the_defenders(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    # Seed 26 again, with a knock limit of 60: Bob knocks discarding 2♥, which leaves him 40 deadwood;
    # my best defence leaves me 39: an undercut (1 point + the 25 bonus).
    opponent = invite(page, live_service, seed=26, knock_limit=60)
    table = Table(page)
    opponent.move({"type": "draw", "source": "discard"})
    opponent.knock(deadwood=40)
    expect(page.locator("#game")).to_have_attribute("data-mode", "layoff")
    count = page.locator("#layoff-count")
    expect(count).to_have_attribute("data-deadwood", "39")
    expect(count).to_contain_text("you undercut Bob")
    table.click_action("layoff-confirm")

    outcome = table.api_view()["result"]["outcome"]
    assert (outcome["end"], outcome["knocker_deadwood"], outcome["defender_deadwood"]) == ("undercut", 40, 39)
    points = page.locator("#result .points")
    expect(points).to_contain_text("40 − 39 = 1")  # the knocker's deadwood first
    expect(points).to_contain_text("+ 25 undercut bonus")
    expect(points).to_contain_text("You score 26")
    expect(points).not_to_contain_text("39 − 40")
    expect(page.locator("#result h2")).to_contain_text("You undercut Bob")
    table.shot(tmp_path, "undercut")


def test_a_reload_in_the_middle_of_a_hand_restores_the_game(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    page = new_context("phone", **PHONE).new_page()
    start_game(page, play_url(live_service), bot="simple", seed=5)
    table = Table(page)
    for _ in range(3):
        table.wait_for_turn()
        table.play_turn()
    table.wait_for_turn()
    before = {
        "url": page.url,
        "version": table.version(),
        "hand": table.hand(),
        "log": page.locator("#log li").count(),
    }
    assert "token" not in page.url and table.seat_entry()["token"] not in page.url

    page.reload()
    expect(page.locator("#game")).to_have_attribute("data-version", str(before["version"]))
    assert page.url == before["url"]
    assert table.hand() == before["hand"]
    expect(page.locator("#log li")).to_have_count(before["log"])
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    table.play_turn()  # and the game goes on
    table.wait_for_turn()
    table.assert_holds_only_visible_cards()
    # Readable on a phone: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    table.shot(tmp_path, "phone-after-reload")


def test_nothing_the_view_rules_out_is_offered(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    posted: list[str] = []
    page.on(
        "request", lambda r: posted.append(r.url) if r.method == "POST" and "/v1/games/" in r.url else None
    )
    start_game(
        page, play_url(live_service), bot="simple", seed=27
    )  # the bot deals: the upcard is offered to me
    table = Table(page)
    assert table.phase().startswith("upcard")
    legal = {(a["type"], a.get("source")) for a in table.api_view()["legal_actions"]}
    assert ("discard", None) not in legal and ("draw", "stock") not in legal
    hand = page.locator("#my-hand")
    # No card of the hand is a control (nor draggable) while no discard is legal; the stock is not either.
    expect(hand.locator("button")).to_have_count(0)
    expect(hand.locator("[draggable=true]")).to_have_count(0)
    expect(page.locator("#stock button")).to_have_count(0)
    expect(page.locator("#pile button#pile-top")).to_have_count(1)  # taking the upcard is legal
    expect(page.locator("[data-action=undo]")).to_be_disabled()  # no move of mine to take back yet
    page.click("#my-hand [data-card='2S']")  # clicking a card does nothing
    for key in ("1", "Enter", "d", "k", "b", "l"):
        page.keyboard.press(key)
    notice = page.locator("#notice")
    expect(notice).to_contain_text("take the upcard")  # what is on offer, in the game's words
    expect(notice).not_to_contain_text("upcard_")
    expect(notice).not_to_contain_text("phase")
    page.keyboard.press("u")
    expect(notice).to_contain_text("no move of yours to take back")
    assert posted == [] and table.version() == 1
    table.shot(tmp_path, "upcard-offer")

    table.click_action("draw-pile")  # take 8♠
    expect(page.locator("[data-action=undo]")).to_be_enabled()
    discardable = {a["card"] for a in table.api_view()["legal_actions"] if a["type"] == "discard"}
    assert "8S" not in discardable  # the card just taken from the pile
    clickable = set(hand.locator("button[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert clickable == discardable
    expect(hand.locator("[data-card='8S']")).not_to_have_attribute("draggable", "true")
    expect(page.locator("#stock button")).to_have_count(0)
    expect(page.locator("#pile button")).to_have_count(0)
    expect(page.locator("[data-action=knock]")).to_have_count(0)  # deadwood over the knock limit
    posted.clear()
    page.click("#my-hand [data-card='8S']")
    page.keyboard.press("k")  # knocking is not on offer: the page says why, without asking the service
    expect(notice).to_contain_text("knock limit is 10")
    page.keyboard.press("d")
    page.keyboard.press("p")
    assert posted == []
    table.shot(tmp_path, "discard-offer")


def test_a_refused_move_is_explained_in_the_games_words(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    start_game(page, play_url(live_service), bot="simple", seed=27, knock_limit=60)
    table = Table(page)
    table.click_action("draw-pile")
    page.keyboard.press("k")
    expect(page.locator("[data-action=knock-confirm]")).to_be_enabled()
    # An arrangement of my own with a "meld" that is none: 6♣ 8♣.
    page.click("#my-hand .group.meld button.break")
    for card in ("6C", "8C"):
        page.click(f"#my-hand [data-card='{card}']")
    page.keyboard.press("m")
    with page.expect_response(lambda r: r.url.endswith("/actions") and r.request.method == "POST") as answer:
        page.click("[data-action=knock-confirm]")
    assert answer.value.status == 422 and answer.value.json()["code"] == "invalid_meld"
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("6♣ 8♣ is not a meld")  # the service's reason, cards as cards
    expect(alert).not_to_contain_text("invalid_meld")
    expect(alert).not_to_contain_text("6C")
    expect(alert).not_to_contain_text("null")
    # The message sits above the table: it does not cover the score bar.
    assert not boxes_overlap(alert.bounding_box(), page.locator(".scoreboard").bounding_box())
    table.shot(tmp_path, "refused-meld")

    # Refusals in the service's own terms become sentences; an unknown one a generic sentence.
    for problem, said in (
        (
            {"code": "illegal_action", "detail": "discard is not allowed now (phase: upcard_dealer)"},
            "not allowed now",
        ),
        ({"code": "something_new", "detail": "knock is not allowed now (phase: layoff)"}, "refused"),
    ):
        body = json.dumps({"status": 409, **problem})
        page.route(
            "**/actions",
            lambda route, _request, body=body: route.fulfill(
                status=409, content_type="application/problem+json", body=body
            ),
            times=1,
        )
        page.keyboard.press("r")  # back to the best arrangement, which the (faked) service refuses
        page.click("[data-action=knock-confirm]")
        expect(alert).to_contain_text(said)
        for word in ("phase", "upcard_dealer", "layoff", problem["code"], "("):
            expect(alert).not_to_contain_text(word)
        assert not boxes_overlap(alert.bounding_box(), page.locator(".scoreboard").bounding_box())
    assert table.version() == 2  # nothing changed
    table.shot(tmp_path, "refused")


@pytest.mark.slow
def test_the_page_never_holds_a_card_the_seat_may_not_see(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    start_game(page, play_url(live_service), bot="knocker", seed=8)
    table = Table(page)
    seen: set[str] = set()
    for turn in range(40):
        table.wait_for_turn()
        seen |= table.assert_holds_only_visible_cards()
        if page.locator("#result").count():
            break
        if turn % 5 == 0:  # a hint names a card too: it must be one of mine (every fifth turn: a search each)
            page.keyboard.press("h")
            expect(page.locator("#hint")).to_be_visible()
        table.play_turn()
    assert page.locator("#result").count()
    seen |= table.assert_holds_only_visible_cards()
    assert len(seen) > 20
    table.shot(tmp_path, "visible-cards")


def test_a_page_from_another_origin_plays_when_allowed_and_is_refused_otherwise(
    new_context: Callable[..., BrowserContext],
    cors_service: str,
    static_origins: list[str],
    tmp_path: Path,
) -> None:
    allowed, refused = static_origins
    page = new_context("allowed-origin").new_page()
    start_game(page, f"{allowed}/index.html?server={cors_service}", bot="simple", seed=3)
    table = Table(page)
    assert page.evaluate("location.origin") == allowed
    assert table.seat_entry()["server"] == cors_service
    for _ in range(3):  # a few moves, each a cross-origin POST with If-Match and a bearer token
        table.wait_for_turn()
        table.play_turn()
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")  # the NDJSON feed too
    table.shot(tmp_path, "cors-allowed")

    other: Page = new_context("refused-origin").new_page()
    other.goto(f"{refused}/index.html?server={cors_service}")
    alert = other.get_by_role("alert")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("does not allow this page's origin")
    other.click("[data-action=play-bot]")
    expect(alert).to_contain_text("could not be started")
    table.shot(tmp_path, "cors-refused")


def test_a_wrong_server_is_not_remembered_and_the_page_offers_its_own(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        nowhere = f"http://127.0.0.1:{probe.getsockname()[1]}"
    page = context.new_page()
    page.goto(f"{play_url(live_service)}?server={nowhere}")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text(f"The service at {nowhere} does not answer")
    expect(page.locator("details.server")).to_have_attribute("open", "")
    table = Table(page)
    table.shot(tmp_path, "wrong-server")
    assert page.evaluate("localStorage.getItem('gin.server')") is None  # a mistyped ?server= does not stick

    page.goto(play_url(live_service))  # the plain address works again at once
    expect(page.locator("#bot option")).not_to_have_count(0)
    expect(alert).to_be_hidden()

    page.goto(f"{play_url(live_service)}?server={nowhere}")
    page.click("[data-action=own-server]")  # one click back to the service the page came from
    expect(page.locator("#bot option")).not_to_have_count(0)
    assert "server=" not in page.url and page.evaluate("localStorage.getItem('gin.server')") is None

    page.goto(f"{play_url(live_service)}?server=not-a-url")
    expect(alert).to_contain_text("is not a service URL")
    expect(page.locator("#bot option")).not_to_have_count(0)


def test_a_screen_reader_hears_the_moves_and_the_focus_stays_at_the_table(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    page = context.new_page()
    start_game(page, play_url(live_service), bot="simple", seed=3, target=1)
    table = Table(page)
    # The announcements go to one live region that stays in the page (the table is redrawn at each move).
    page.evaluate("document.getElementById('announce').dataset.kept = 'yes'")
    # "live" as soon as the game is on screen (not after the event stream's first keep-alive, seconds later)
    expect(page.locator("#connection")).to_have_attribute("data-state", "live", timeout=3000)
    heard = page.locator("#announce")
    while not page.locator("#my-hand [data-after]").count():
        table.wait_for_turn()
        table.play_turn()
    drawn = page.locator("#my-hand .card.drawn")
    expect(drawn).to_have_count(1)  # the card just drawn is marked, over the ring of the playable cards
    assert "127, 211, 255" in drawn.evaluate("e => getComputedStyle(e).boxShadow")
    expect(heard).to_contain_text(f"You drew {(drawn.get_attribute('aria-label') or '').split(',')[0]}")
    card = table.best_discard()
    page.keyboard.press(page.locator(f"#my-hand [data-card='{card}']").get_attribute("data-key") or "")
    table.after_change(lambda: page.keyboard.press("Enter"))
    # The discarded card is gone, but the focus is not back at the top of the page.
    assert page.evaluate("document.activeElement.id") == "prompt"
    table.wait_for_turn()
    expect(heard).to_contain_text("simple (bot)")  # the bot's moves, in words
    if not page.locator("#result").count():
        expect(heard.locator("p").last).to_contain_text("Your turn")
    table.play_hand()
    expect(heard).to_contain_text("Hand 1:")
    assert page.evaluate("document.getElementById('announce').dataset.kept") == "yes"
    assert not re.search(r"[♣♦♥♠]", heard.inner_text())  # cards are said as words
    table.shot(tmp_path, "screen-reader")
