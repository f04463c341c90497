"""The master's review in the replay: a short match played over the API and archived, its replay opened, the
review asked for with the page's button and waited for (the suite's real bot worker computes it), then its
marks, popovers and figures compared with what the API says; a phone's tap; the page's waiting —
Retry-After honoured, no more requests once the page is left; and what cannot be read, said and tried again.

Like the other browser tests: Debian's chromium through Playwright against the real gunicorn of the suite
(real Redis and PostgreSQL, GIN_ALLOW_SEED=1) and its bot worker. The replay with its marks, and with a
popover open, is shot at 1280×800 and 390×844 (``<tmp_path>/shots``, or the folder ``GIN_WEB_SHOTS`` names),
where nothing may stick out sideways.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import BrowserContext, Locator, Page, Route, expect

from tests.support import choose

from .pages import LAPTOP, Seat, play_url, shots_at_two_sizes

SHORT = {"preset": "standard", "options": {"target": 30}}
# This seed's deals make a match of two short hands against the simple bot (the bot's choices between equal
# discards vary from game to game: the moves, and so the review, differ a little from run to run).
SEED = 2
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
GLYPHS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
REVIEW_TIMEOUT = 180.0  # seconds for the worker's review (some 5 s of CPU here; a loaded machine is slower)


def played_match(base: str) -> dict[str, Any]:
    """A match against the simple bot played to its end over the API (seed SEED), once archived: its
    export."""
    created = requests.post(
        f"{base}/v1/games",
        json={"opponent": {"type": "bot", "bot": "simple"}, "rules": SHORT, "seed": SEED, "name": "Ann"},
        timeout=10,
    )
    created.raise_for_status()
    ann = Seat(base, created.json()["game_id"], created.json()["token"], created.json()["view"])
    for _ in range(500):
        if ann.view["phase"] == "match_over":
            break
        ann.move({k: v for k, v in choose(ann.view).items() if k != "kind"})
    game_id = ann.game_id
    assert ann.view["phase"] == "match_over"
    deadline = time.monotonic() + 30  # the match's record reaches the archive a moment after its end
    while True:
        export = requests.get(f"{base}/v1/games/{game_id}/export", timeout=10)
        if export.status_code == 200:
            return dict(export.json())
        assert export.status_code == 404 and time.monotonic() < deadline, export.text
        time.sleep(0.1)


@pytest.fixture(scope="module")
def match(live_service: str) -> dict[str, Any]:
    """One short archived match for the module's stories (its review is asked for by the first)."""
    return played_match(live_service)


def review_of(base: str, game_id: str) -> dict[str, Any]:
    """The match's review as the API gives it, asked for if need be and waited for."""
    deadline = time.monotonic() + REVIEW_TIMEOUT
    reply = requests.post(f"{base}/v1/games/{game_id}/review", timeout=10)
    while reply.status_code == 202:
        assert time.monotonic() < deadline, "the bot worker did not review the match"
        time.sleep(0.5)
        reply = requests.get(f"{base}/v1/games/{game_id}/review", timeout=10)
    assert reply.status_code == 200 and reply.json()["status"] == "done", reply.text
    return dict(reply.json()["review"])


def glyphs(text: str) -> str:
    """A text of the service's as the page writes it: its card codes with suit glyphs ("9D" → "9♦")."""
    return re.sub(r"\b([A2-9TJQK])([CDHS])\b", lambda m: ("10" if m[1] == "T" else m[1]) + GLYPHS[m[2]], text)


def without_kind(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "kind"}


def open_replay(page: Page, base: str, game_id: str) -> Locator:
    page.goto(f"{play_url(base)}#/replay/{game_id}")
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-kind", "deal")
    return replay


def to_hand_result(page: Page, hand: int, hands: int) -> None:
    """Step to the result of hand ``hand`` (from 1): every move of it listed."""
    page.click(f".replay-hands [data-hand='{hand + 1 if hand < hands else 'end'}']")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay")).to_have_attribute("data-kind", "result")
    expect(page.locator("#replay")).to_have_attribute("data-hand", str(hand))


def marks_shown(page: Page) -> dict[int, str]:
    """The marks of the move list on screen: action index → verdict (and each mark's sign is its verdict's)."""
    shown: dict[int, str] = {}
    for row in page.locator("#replay-moves li[data-verdict]").all():
        verdict = str(row.get_attribute("data-verdict"))
        expect(row.locator("button.mark")).to_have_text(SIGNS[verdict])
        shown[int(str(row.get_attribute("data-index")))] = verdict
    return shown


@pytest.mark.slow
def test_the_review_is_asked_for_waited_for_and_its_marks_match_the_api(
    new_context: Callable[..., BrowserContext], live_service: str, match: dict[str, Any], tmp_path: Path
) -> None:
    game_id, hands = match["game_id"], match["hands"]
    page = new_context("laptop", viewport=LAPTOP).new_page()
    open_replay(page, live_service, game_id)
    box = page.locator("#review")

    # No review yet: the button asks the master; then a calm waiting state, until the worker is done.
    expect(box).to_have_attribute("data-status", "none")
    ask = box.locator("[data-action=review-ask]")
    expect(ask).to_have_text("Ask the master for a review")
    ask.click()
    expect(box).to_have_attribute("data-status", "pending")
    expect(box.locator(".review-waiting")).to_contain_text("The master is reviewing the match")
    expect(page.locator("#review-title")).to_be_focused()  # the button pressed is gone: the focus stays here
    shots_at_two_sizes(page, tmp_path, "review-pending")
    expect(box).to_have_attribute("data-status", "done", timeout=REVIEW_TIMEOUT * 1000)
    expect(page.locator("#replay-said")).to_contain_text("The master's review is ready")
    review = review_of(live_service, game_id)  # done: asking again costs nothing and gives the same

    # The figures per seat are the API's.
    figures = {
        "decisions": "decisions",
        "inaccuracy": "inaccuracies",
        "mistake": "mistakes",
        "blunder": "blunders",
    }
    for seat in review["seats"]:
        block = page.locator(f"#review-summary .review-seat[data-seat='{seat['seat']}']")
        value = "[data-figure='{}'] .value"
        expect(block.locator(value.format("accuracy"))).to_have_text(f"{seat['accuracy']:.1f} %")
        for figure, name in figures.items():
            expect(block.locator(value.format(figure))).to_have_text(str(seat[name]))
        expect(block.locator(value.format("points_lost"))).to_have_text(f"{seat['points_lost']:.1f}")
    marked = [m for m in review["moves"] if m["verdict"]]
    assert marked, "the seed's match has moves the master marks (the test needs some)"
    expect(page.locator(".review-marks summary")).to_have_text(f"The marked moves ({len(marked)})")

    # Each hand's moves carry exactly the API's marks, each its verdict's sign.
    for hand in range(1, len(hands) + 1):
        to_hand_result(page, hand, len(hands))
        expected = {m["index"]: m["verdict"] for m in marked if m["hand"] == hand}
        assert marks_shown(page) == expected, f"hand {hand}"

    # The worst marked move: its popover (the mouse's hover) says the better move, the points given up and the
    # master's words on each move it weighed.
    worst = max(marked, key=lambda m: m["loss"])
    to_hand_result(page, worst["hand"], len(hands))
    row = page.locator(f"#replay-moves li[data-index='{worst['index']}']")
    mark = row.locator("button.mark")
    expect(mark).to_have_attribute("aria-label", re.compile(rf"gave up {worst['loss']:.1f} points"))
    mark.hover()
    tip = page.locator("#review-tip")
    expect(tip).to_be_visible()
    expect(tip).to_have_attribute("data-for", f"{worst['hand']}:{worst['index']}")
    better = tip.locator(".tip-better")
    assert json.loads(str(better.get_attribute("data-best"))) == without_kind(worst["best"])
    expect(tip.locator(".tip-head")).to_contain_text(f"gave up {worst['loss']:.1f} points")
    words = [glyphs(e["explanation"]) for e in worst["estimates"]]
    expect(tip.locator(".estimates li")).to_have_count(len(worst["estimates"]))
    for item, said in zip(tip.locator(".estimates li").all(), words, strict=True):
        if said:
            expect(item.locator(".words")).to_have_text(said)
    expect(tip.locator(".estimates li[data-best=yes]")).to_have_count(1)
    expect(tip.locator(".estimates li[data-played=yes]")).to_have_count(1)
    page.mouse.move(5, 5)
    expect(tip).to_be_hidden()

    # The keyboard: Tab from the move onto its mark opens the popover; Esc closes it.
    row.locator("button.step").focus()
    page.keyboard.press("Tab")
    expect(mark).to_be_focused()
    expect(tip).to_be_visible()
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    shots_at_two_sizes(page, tmp_path, "review-marks")

    # A click keeps it open (through the shots at both sizes, placed again at each).
    mark.click()
    expect(mark).to_have_attribute("aria-expanded", "true")
    shots_at_two_sizes(page, tmp_path, "review-popover")
    expect(tip).to_be_visible()
    mark.click()
    expect(tip).to_be_hidden()

    # Stepping onto the marked move shows its verdict on the table, and a screen reader hears it.
    row.locator("button.step").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", str(worst["index"] + 1))
    callout = page.locator("#replay-verdict")
    expect(callout).to_have_attribute("data-verdict", worst["verdict"])
    expect(callout).to_contain_text(SIGNS[worst["verdict"]])
    expect(callout).to_contain_text(f"gave up {worst['loss']:.1f} points")
    expect(page.locator("#replay-said")).to_contain_text(worst["verdict"].capitalize())
    shots_at_two_sizes(page, tmp_path, "review-step")
    # A move with no verdict shows none.
    marked_here = {m["index"] for m in marked if m["hand"] == worst["hand"]}
    plain = next(i for i in range(len(hands[worst["hand"] - 1]["actions"])) if i not in marked_here)
    to_hand_result(page, worst["hand"], len(hands))
    page.locator(f"#replay-moves li[data-index='{plain}'] button.step").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", str(plain + 1))
    expect(page.locator("#replay-verdict")).to_have_count(0)

    # The list of marked moves leads to each.
    page.click(".review-marks summary")
    first = marked[0]
    page.locator(".review-marks li").first.locator("button").click()
    expect(page.locator("#replay")).to_have_attribute("data-hand", str(first["hand"]))
    expect(page.locator("#replay")).to_have_attribute("data-step", str(first["index"] + 1))
    expect(page.locator("#replay-verdict")).to_have_attribute("data-verdict", first["verdict"])

    # Opened again, the review is there at once (no button).
    open_replay(page, live_service, game_id)
    expect(box).to_have_attribute("data-status", "done")
    expect(box.locator("[data-action=review-ask]")).to_have_count(0)


def test_on_a_phone_a_tap_on_a_mark_shows_the_better_move(
    new_context: Callable[..., BrowserContext], live_service: str, match: dict[str, Any], tmp_path: Path
) -> None:
    game_id, hands = match["game_id"], match["hands"]
    review = review_of(live_service, game_id)
    marked = [m for m in review["moves"] if m["verdict"]]
    move = marked[-1]
    page = new_context(
        "phone", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    ).new_page()
    open_replay(page, live_service, game_id)
    expect(page.locator("#review")).to_have_attribute("data-status", "done")
    to_hand_result(page, move["hand"], len(hands))
    mark = page.locator(f"#replay-moves li[data-index='{move['index']}'] button.mark")
    mark.scroll_into_view_if_needed()
    mark.tap()
    tip = page.locator("#review-tip")
    expect(tip).to_be_visible()
    assert json.loads(str(tip.locator(".tip-better").get_attribute("data-best"))) == without_kind(
        move["best"]
    )
    box, screen = tip.bounding_box(), page.viewport_size
    assert box and screen and box["x"] >= 0 and box["x"] + box["width"] <= screen["width"], (
        "within the screen"
    )
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")
    shots_at_two_sizes(page, tmp_path, "review-phone-tap")
    page.locator("#replay-position").tap()  # a tap elsewhere closes it
    expect(tip).to_be_hidden()


def test_a_match_without_a_decision_shows_no_accuracy(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    """Resigned at once: the review judged nothing, and the page says so instead of "100.0 % accuracy"."""
    created = requests.post(
        f"{live_service}/v1/games",
        json={"opponent": {"type": "bot", "bot": "simple"}, "rules": SHORT, "seed": SEED, "name": "Ann"},
        timeout=10,
    )
    created.raise_for_status()
    game_id, token = created.json()["game_id"], created.json()["token"]
    version = created.json()["view"]["version"]
    resigned = requests.post(
        f"{live_service}/v1/games/{game_id}/resign",
        headers={"Authorization": f"Bearer {token}", "If-Match": f'"{version}"'},
        timeout=10,
    )
    assert resigned.status_code == 200, resigned.text
    deadline = time.monotonic() + 30  # the match's record reaches the archive a moment after its end
    while requests.get(f"{live_service}/v1/games/{game_id}/export", timeout=10).status_code != 200:
        assert time.monotonic() < deadline, "the resigned match never reached the archive"
        time.sleep(0.1)
    review = review_of(live_service, game_id)
    assert [(s["decisions"], s["accuracy"]) for s in review["seats"]] == [(0, None), (0, None)]
    page = new_context("laptop", viewport=LAPTOP).new_page()
    page.goto(f"{play_url(live_service)}#/replay/{game_id}")
    expect(page.locator("#review")).to_have_attribute("data-status", "done")
    for seat in (0, 1):
        figure = page.locator(f"#review-summary .review-seat[data-seat='{seat}'] [data-figure='accuracy']")
        expect(figure).to_have_text("no decisions to judge")
    expect(page.locator("#review-summary")).not_to_contain_text("100.0 %")
    shots_at_two_sizes(page, tmp_path, "review-no-decisions")


@pytest.mark.slow
def test_while_pending_the_page_honours_retry_after_and_stops_asking_once_left(
    new_context: Callable[..., BrowserContext], live_service: str, match: dict[str, Any]
) -> None:
    """The service's answers are stood in for (a review forever pending, with Retry-After: 2): the page
    asks at the pace it is told, and not at all once another page is shown."""
    game_id = match["game_id"]
    page = new_context("waiting", viewport=LAPTOP).new_page()
    asked: list[tuple[float, str]] = []
    pending = {
        "game_id": game_id,
        "status": "pending",
        "requested_at": "2026-11-25T00:00:00+00:00",
        "finished_at": None,
        "review": None,
    }

    def stand_in(route: Route) -> None:
        method = route.request.method
        asked.append((time.monotonic(), method))
        if method == "GET" and len(asked) == 1:  # the page's first look: none asked for yet
            problem = {
                "type": "about:blank",
                "title": "Not Found",
                "status": 404,
                "code": "review_not_found",
                "detail": "no review",
            }
            route.fulfill(status=404, content_type="application/problem+json", body=json.dumps(problem))
            return
        route.fulfill(
            status=202,
            content_type="application/json",
            headers={"Retry-After": "2"},
            body=json.dumps(pending),
        )

    page.route(re.compile(r".*/v1/games/[^/]+/review$"), stand_in)
    open_replay(page, live_service, game_id)
    box = page.locator("#review")
    expect(box).to_have_attribute("data-status", "none")
    box.locator("[data-action=review-ask]").click()
    expect(box).to_have_attribute("data-status", "pending")
    # Three looks: at the page's own pace (1 s, then 1.5 s, then 2.25 s) the first gap would be 1 s.
    deadline = time.monotonic() + 15
    while len([a for a in asked if a[1] == "GET"]) < 4 and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    looks = [t for t, _ in asked[1:]]  # the POST, then the looks
    assert len(looks) >= 4, asked
    gaps = [b - a for a, b in zip(looks, looks[1:], strict=False)]
    assert all(gap >= 1.8 for gap in gaps), f"Retry-After: 2 was not honoured: {gaps}"
    expect(box).to_have_attribute("data-status", "pending")

    page.click("a[data-nav=watch]")  # another page: the replay's waiting ends with it
    expect(page.locator("#page-title")).not_to_have_text(re.compile("Replay"))
    left = len(asked)
    page.wait_for_timeout(4500)
    assert len(asked) == left, "the page went on asking for the review after it was left"


def problem_reply(route: Route, status: int, code: str, retry_after: str | None = None) -> None:
    """Answer a stood-in request with the service's problem+json (and a Retry-After, if given)."""
    problem = {"type": "about:blank", "title": "Problem", "status": status, "code": code, "detail": code}
    headers = {"Retry-After": retry_after} if retry_after else {}
    route.fulfill(
        status=status,
        content_type="application/problem+json",
        headers=headers,
        body=json.dumps(problem),
    )


def test_what_cannot_be_read_is_said_in_words_and_tried_again(
    new_context: Callable[..., BrowserContext], live_service: str, match: dict[str, Any]
) -> None:
    """The service's answers are stood in for: the match's export fails once (said, tried again from its
    button), then the review's reading fails (said, tried again), a look while pending does not get through
    (said, looked at again), and the master fails (said, with a button to ask again)."""
    game_id = match["game_id"]
    page = new_context("troubles", viewport=LAPTOP).new_page()
    exports: list[str] = []

    def export_once_down(route: Route) -> None:
        exports.append(route.request.method)
        if len(exports) == 1:
            problem_reply(route, 503, "archive_unavailable")
        else:
            route.continue_()

    pending = {"game_id": game_id, "status": "pending", "review": None}
    answers: list[Callable[[Route], None]] = [
        lambda route: problem_reply(route, 500, "internal_error"),  # the first reading
        lambda route: problem_reply(route, 404, "review_not_found"),  # read again: none asked for
        lambda route: route.fulfill(  # asked for: pending, look again in 1 s
            status=202,
            content_type="application/json",
            headers={"Retry-After": "1"},
            body=json.dumps(pending),
        ),
    ]
    trouble_seen = False
    asked: list[str] = []

    def stand_in(route: Route) -> None:
        asked.append(route.request.method)
        if len(asked) <= len(answers):
            answers[len(asked) - 1](route)
        elif not trouble_seen:  # the looks fail until the test has read what the page says of it
            problem_reply(route, 503, "unavailable", retry_after="1")
        else:  # then the master has failed
            route.fulfill(
                status=200,
                content_type="application/json",
                body=json.dumps({**pending, "status": "failed"}),
            )

    page.route(re.compile(r".*/v1/games/[^/]+/export$"), export_once_down)
    page.route(re.compile(r".*/v1/games/[^/]+/review$"), stand_in)
    page.goto(f"{play_url(live_service)}#/replay/{game_id}")
    expect(page.locator("#replay-problem")).to_have_text(
        "The match cannot be read: The archive of past games cannot be read just now: try again in a moment."
    )
    page.click("[data-action=retry]")
    expect(page.locator("#replay")).to_have_attribute("data-kind", "deal")
    assert exports == ["GET", "GET"]

    box = page.locator("#review")
    expect(box).to_have_attribute("data-status", "error")
    expect(box.locator("#review-problem")).to_have_text(
        "The review cannot be read: The service has a problem just now: try again in a moment."
    )
    box.locator("[data-action=review-retry]").click()
    expect(box).to_have_attribute("data-status", "none")
    box.locator("[data-action=review-ask]").click()
    trouble = box.locator("[data-state=trouble]")
    expect(trouble).to_have_text(
        "The last look did not get through (The service has a problem just now: try again in a moment.);"
        " the page tries again."
    )
    expect(box).to_have_attribute("data-status", "pending")
    trouble_seen = True
    expect(box).to_have_attribute("data-status", "failed")
    expect(box).to_contain_text("The master could not review this match.")
    expect(box.locator("[data-action=review-ask]")).to_have_text("Ask again")
    expect(page.locator("#replay-said")).to_have_text("The master could not review this match.")
    assert asked[:4] == ["GET", "GET", "POST", "GET"] and set(asked[3:]) == {"GET"}
