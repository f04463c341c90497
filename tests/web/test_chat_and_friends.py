"""Table chat and friends in the web client: two people chat at their table (a preset phrase, free text shown
as text), one mutes the other and reads no more of the other's lines, a spectator chats on the watch page, the
players read the spectators' room once the match is over, and the replay shows the chat, read only; on a
phone the chat folds under the table with a count of the lines not read. And the friends page: a player
followed from a profile is listed online and playing (with Watch), and Challenge sends a challenge the friend
receives; Block and Unblock, and a report, from the profile.

Like the other browser tests: Debian's chromium through Playwright against the suite's real gunicorn. The
accounts and the game are made over the API (for speed); what the pages show is checked against what the
service says. The pages are shot at 1280×800 and 390×844 (GIN_WEB_SHOTS=<folder> gathers the shots).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import BrowserContext, Locator, Page, expect

from .pages import LAPTOP, PASSWORD, boxes_overlap, play_url, shots_at_two_sizes, unique


def call(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    """One request to the service (an action "*": whatever the version), its JSON answer."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if path.endswith("/actions"):
        headers["If-Match"] = "*"
    reply = requests.request(method, f"{base}{path}", json=body, headers=headers, timeout=10)
    reply.raise_for_status()
    return reply.json()


def account(base: str, prefix: str) -> dict[str, Any]:
    """A new account (its name, session token and session id), made over the API."""
    made = call(base, "POST", "/v1/account", body={"name": unique(prefix), "password": PASSWORD})
    return {"name": made["name"], "token": made["token"], "session": made["session"]}


def signed_in(
    new_context: Callable[..., BrowserContext],
    base: str,
    who: dict[str, Any],
    viewport: dict[str, int] = LAPTOP,
) -> Page:
    """A browser of `who`'s own, signed in (the session kept as the page keeps it), on the start page."""
    page = new_context(who["name"], viewport=viewport).new_page()
    page.goto(play_url(base))
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)", [f"gin.session.{base}", json.dumps(who)]
    )
    page.goto(play_url(base))
    expect(page.locator("#player-me")).to_have_text(who["name"])
    return page


def shot_folder(tmp_path: Path) -> Path:
    """Where the shots go (as shots_at_two_sizes keeps them)."""
    folder = Path(os.environ.get("GIN_WEB_SHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def chat_line(page: Page, text: str) -> Locator:
    """The page's chat line that says `text`."""
    return page.locator("#chat-lines li.chat-line", has_text=text)


def test_two_players_chat_mute_a_spectator_chats_and_the_replay_shows_it(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    ann, bob, cal = (account(live_service, who) for who in ("Ann", "Bob", "Cal"))
    created = call(live_service, "POST", "/v1/games", ann["token"], {"opponent": {"type": "human"}})
    game = created["game_id"]
    call(live_service, "POST", f"/v1/games/{game}/join", bob["token"], {"invitation": created["invitation"]})
    pages = []
    for who, seat in ((ann, 0), (bob, 1)):
        page = signed_in(new_context, live_service, who)
        page.goto(f"{play_url(live_service)}#game={game}&seat={seat}")
        expect(page.locator("#chat")).to_be_visible()
        pages.append(page)
    ann_page, bob_page = pages

    # Ann says a preset phrase, Bob free text with markup and a link: each reads the other's line, as text.
    ann_page.click("#chat [data-preset=good_luck]")
    expect(chat_line(bob_page, "Good luck!").locator(".chat-author")).to_have_text(ann["name"])
    said = "<b>hi</b> see https://example.com"
    bob_page.fill("#chat-input", said)
    bob_page.press("#chat-input", "Enter")
    expect(bob_page.locator("#chat-input")).to_have_value("")
    expect(chat_line(ann_page, "example.com").locator(".chat-text")).to_have_text(said)
    assert ann_page.locator("#chat-lines b, #chat-lines a").count() == 0  # no markup, no link made
    expect(chat_line(ann_page, "Good luck!")).to_have_class("chat-line mine")
    shots_at_two_sizes(ann_page, tmp_path, "chat-table")
    # Ann reports Bob's line: the service keeps a copy of it for the moderators.
    chat_line(ann_page, "example.com").locator("[data-action=report-line]").click()
    ann_page.select_option("#report-reason", "abuse")
    ann_page.click("[data-action=send-report]")
    expect(ann_page.locator(".report-sent")).to_be_visible()
    ann_page.click("[data-action=close-report]")

    # On a phone the chat folds under the table: a line that comes is counted, the table stays whole.
    ann_page.set_viewport_size({"width": 390, "height": 844})
    toggle = ann_page.locator("#chat-toggle")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(ann_page.locator("#chat-lines")).to_be_hidden()
    bob_page.click("#chat [data-preset=well_played]")
    expect(toggle.locator(".chat-unread")).to_have_text("1")
    expect(toggle).to_have_attribute("aria-label", "Chat: 1 new line")
    expect(ann_page.locator("#my-hand")).to_be_visible()
    assert not boxes_overlap(
        ann_page.locator("#chat").bounding_box(), ann_page.locator("#felt").bounding_box()
    )
    ann_page.screenshot(path=str(shot_folder(tmp_path) / "chat-folded-390x844.png"), full_page=True)
    toggle.click()
    expect(chat_line(ann_page, "Well played!")).to_be_visible()
    expect(toggle.locator(".chat-unread")).to_have_count(0)
    assert not boxes_overlap(
        ann_page.locator("#chat").bounding_box(), ann_page.locator("#felt").bounding_box()
    )
    ann_page.screenshot(path=str(shot_folder(tmp_path) / "chat-open-390x844.png"), full_page=True)

    # Ann mutes Bob at this table: his lines go, past ones too, and his next one never shows.
    ann_page.click("[data-action=chat-mute]")
    expect(ann_page.locator("[data-action=chat-mute]")).to_have_attribute("aria-pressed", "true")
    expect(chat_line(ann_page, "Well played!")).to_have_count(0)
    bob_page.fill("#chat-input", "are you still there?")
    bob_page.press("#chat-input", "Enter")
    unheard = int(chat_line(bob_page, "are you still there?").get_attribute("data-n") or 0)
    ann_page.click("#chat [data-preset=thanks]")
    expect(ann_page.locator("#chat-lines")).to_have_attribute("data-last", str(unheard + 1))
    expect(chat_line(ann_page, "are you still there?")).to_have_count(0)
    assert call(live_service, "GET", f"/v1/games/{game}/chat", ann["token"])["muted"] is True
    ann_page.set_viewport_size(LAPTOP)

    # A spectator signed in chats on the watch page, in the spectators' room the players do not read yet.
    cal_page = signed_in(new_context, live_service, cal)
    cal_page.goto(f"{play_url(live_service)}#/watch/{game}")
    cal_page.fill("#chat-input", "Go Ann!")
    cal_page.press("#chat-input", "Enter")
    expect(chat_line(cal_page, "Go Ann!")).to_have_class("chat-line mine")
    expect(chat_line(cal_page, "Good luck!")).to_have_count(0)  # the players' room is theirs
    shots_at_two_sizes(cal_page, tmp_path, "chat-watch")

    # Once the match is over the players read the spectators' room too; the replay shows the chat, read only.
    call(live_service, "POST", f"/v1/games/{game}/actions", bob["token"], {"type": "resign"})
    expect(chat_line(ann_page, "Go Ann!").locator(".chat-room")).to_have_text("spectator")
    expect(chat_line(bob_page, "Go Ann!")).to_be_visible()
    deadline = time.monotonic() + 30  # the match reaches the archive a moment after its end
    while requests.get(f"{live_service}/v1/games/{game}/export", timeout=10).status_code != 200:
        assert time.monotonic() < deadline, "the match never reached the archive"
        time.sleep(0.3)
    cal_page.goto(f"{play_url(live_service)}#/replay/{game}")
    expect(chat_line(cal_page, "Go Ann!")).to_be_visible()
    expect(cal_page.locator("#chat .chat-presets, #chat-input")).to_have_count(0)
    shots_at_two_sizes(cal_page, tmp_path, "chat-replay")


def test_a_friend_followed_from_the_profile_is_online_playing_and_challenged_in_one_click(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    ann, bob = account(live_service, "Ann"), account(live_service, "Bob")
    # Bob plays a house bot, and has the site open (his page follows his account stream: he is online).
    playing = call(
        live_service, "POST", "/v1/games", bob["token"], {"opponent": {"type": "bot", "bot": "simple"}}
    )
    bob_page = signed_in(new_context, live_service, bob)
    page = signed_in(new_context, live_service, ann)

    # Ann follows Bob from his profile: the button turns, his followers count one more.
    page.goto(f"{play_url(live_service)}#/players/{bob['name']}")
    expect(page.locator("#profile-followers")).to_have_text("0")
    page.click("[data-action=follow]")
    expect(page.locator("[data-action=follow]")).to_have_text("Unfollow")
    expect(page.locator("#profile-followers")).to_have_text("1")
    followed = call(live_service, "GET", "/v1/account/following", ann["token"])["players"]
    assert [f["name"] for f in followed] == [bob["name"]]
    shots_at_two_sizes(page, tmp_path, "friends-profile")

    # The friends page, from the navigation: Bob online and playing, his game to watch.
    page.click("a[data-nav=friends]")
    row = page.locator(f"#friend-list li[data-player='{bob['name']}']")
    expect(row).to_have_attribute("data-online", "true")
    expect(row).to_have_attribute("data-playing", "1")
    expect(row.locator("[data-action=watch-friend]")).to_have_attribute(
        "href", f"#/watch/{playing['game_id']}"
    )
    shots_at_two_sizes(page, tmp_path, "friends-page")

    # Challenge in one click: Ann's page waits for the answer, Bob's shows the challenge, as the service says.
    row.locator("[data-action=challenge-friend]").click()
    expect(page.locator("#challenges li.challenge[data-direction=out]")).to_have_attribute(
        "data-status", "open"
    )
    received = call(live_service, "GET", "/v1/challenges", bob["token"])["in"]
    assert [
        (c["challenger"]["name"], c["rules"]["preset"], c["clock"]["preset"], c["rated"]) for c in received
    ] == [(ann["name"], "standard", "rapid", False)]
    expect(bob_page.locator("#challenges li.challenge[data-direction=in]")).to_have_attribute(
        "data-challenge", received[0]["id"]
    )

    # Block and unblock from the profile (and the friends page), and a report, each as the service says.
    page.goto(f"{play_url(live_service)}#/players/{bob['name']}")
    page.click("[data-action=block]")
    expect(page.locator("[data-action=block]")).to_have_text("Unblock")
    assert call(live_service, "GET", "/v1/account/blocking", ann["token"])["players"] == [bob["name"]]
    page.click("[data-action=report-player]")
    page.select_option("#report-reason", "spam")
    shots_at_two_sizes(page, tmp_path, "friends-report")
    page.click("[data-action=send-report]")
    expect(page.locator(".report-sent")).to_be_visible()
    page.click("a[data-nav=friends]")
    page.locator(f"#blocked-list li[data-player='{bob['name']}'] [data-action=unblock]").click()
    expect(page.locator("#blocked-list li")).to_have_count(0)
    assert call(live_service, "GET", "/v1/account/blocking", ann["token"])["players"] == []
