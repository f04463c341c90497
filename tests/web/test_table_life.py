"""Life at the table: sounds, cards that glide, the opponent's avatar — in a real browser (Debian's chromium
through Playwright) against a real gunicorn (GIN_ALLOW_SEED=1).

What the page does is observed from outside it: an init script counts the Web Audio sources started (the
``start`` of oscillators and buffer sources) and the Web Animations started (``Element.animate``), and
gives the page the array ``window.ginSounds``, onto which sounds.js writes the name of each sound it plays.
A sound counts only with audio nodes really started for it, an animation as soon as one is started,
however short: nothing here depends on how long anything takes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import BrowserContext, Page, expect

from .pages import (
    LAPTOP,
    SCREEN_SIZES,
    Seat,
    Table,
    boxes_overlap,
    play_url,
    shots_at_two_sizes,
    start_game,
    unique,
    wait_for_game,
)

OBSERVE = """(() => {
  window.ginSounds = [];
  window.audioStarts = 0;
  window.animationsStarted = 0;
  for (const node of [OscillatorNode, AudioBufferSourceNode]) {
    const start = node.prototype.start;
    node.prototype.start = function (...args) { window.audioStarts++; return start.apply(this, args); };
  }
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) { window.animationsStarted++; return animate.apply(this, args); };
})()"""
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def observed(page: Page) -> dict[str, Any]:
    """What the page played and animated so far (since it was loaded)."""
    return dict(
        page.evaluate(
            "() => ({sounds: [...window.ginSounds], audio: window.audioStarts, animations: window.animationsStarted})"
        )
    )


def watched(page: Page) -> list[str]:
    """The page's errors, as they come: an exception, or a console error (a CSP refusal is one)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return errors


def move(table: Table) -> str:
    """One move of mine once it is my turn (between two hands, the deal first)."""
    table.wait_for_turn()
    if table.page.locator("#result").count():
        table.click_action("deal")
        table.wait_for_turn()
    return table.play_turn()


def assert_header_and_avatar_clear(page: Page) -> None:
    """At a laptop's and a phone's size: the mute switch overlaps nothing in the top bar, the scores keep one
    line beside it, and the avatar overlaps nothing beside it."""
    own = page.viewport_size
    for width, height in SCREEN_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        mute = page.locator("[data-action=mute]").bounding_box()
        assert mute is not None, width
        for other in ("[data-action=help]", "#connection", ".topbar .scoreboard", ".topbar .brand"):
            box = page.locator(other).bounding_box()  # (None: not shown at this moment, e.g. reconnecting)
            assert box is None or not boxes_overlap(mute, box), (width, other)
        score = page.locator(".topbar .score").bounding_box()
        target = page.locator(".topbar .target").bounding_box()
        assert score and target and target["y"] < score["y"] + score["height"], (width, "the scores wrap")
        avatar = page.locator(".opponent .avatar").bounding_box()
        assert avatar is not None, width
        for other in (".opponent .name", ".opponent .count", "#opponent-hand"):
            box = page.locator(other).bounding_box()
            assert box is None or not boxes_overlap(avatar, box), (width, other)
        # Nothing sticks out sideways (a phone's browser would rather widen the page than scroll it).
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, width
    if own:
        page.set_viewport_size(own)


def test_moves_sound_and_glide_and_the_mute_switch_silences_them_after_a_reload_too(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    page = new_context("laptop", viewport=LAPTOP).new_page()
    page.add_init_script(OBSERVE)
    errors = watched(page)
    start_game(page, play_url(live_service), bot="simple", seed=3)
    table = Table(page)
    # A house bot: its initial on a bot's square, no online dot (it is always there).
    avatar = page.locator(".opponent .avatar")
    expect(avatar).to_have_text("S")
    expect(avatar).to_have_attribute("data-presence", "bot")
    expect(avatar.locator(".dot")).to_have_count(0)
    mute = page.locator("[data-action=mute]")
    expect(mute).to_have_attribute("aria-pressed", "false")
    expect(mute).to_have_accessible_name("Mute sounds")

    # My draw and my discard, the bot's answer, then my turn: each heard, the cards gliding to their places.
    done = [move(table) for _ in range(3)]
    assert "draw" in done and any(m.startswith("discard") for m in done), done
    page.wait_for_function("() => window.ginSounds.includes('turn')")
    heard = observed(page)
    assert {"draw", "discard", "turn"} <= set(heard["sounds"]), heard
    assert heard["audio"] >= len(heard["sounds"]), heard  # each sound started audio nodes
    assert heard["animations"] > 0, heard
    # On a phone's width the cards glide too.
    page.set_viewport_size({"width": 390, "height": 844})
    before = observed(page)
    move(table)
    assert observed(page)["animations"] > before["animations"]
    page.set_viewport_size(LAPTOP)
    shots_at_two_sizes(page, tmp_path, "table-life-bot")
    assert_header_and_avatar_clear(page)

    # Muted: the next moves glide in silence; the switch says so.
    page.click("[data-action=mute]")
    expect(mute).to_have_attribute("aria-pressed", "true")
    quiet = observed(page)
    for _ in range(3):
        move(table)
    after = observed(page)
    assert after["sounds"] == quiet["sounds"] and after["audio"] == quiet["audio"], after
    assert after["animations"] > quiet["animations"]

    # A reload keeps the switch off; turned on again, the moves are heard again.
    page.reload()
    wait_for_game(page)
    expect(mute).to_have_attribute("aria-pressed", "true")
    for _ in range(2):
        move(table)
    assert observed(page)["sounds"] == [] and observed(page)["audio"] == 0
    page.click("[data-action=mute]")
    expect(mute).to_have_attribute("aria-pressed", "false")
    move(table)
    assert observed(page)["sounds"], "the moves are heard again once the switch is on"
    assert errors == []


def test_reduced_motion_moves_nothing_but_sounds_stay_and_a_person_shows_as_online_or_not(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    page = new_context("phone", reduced_motion="reduce", **PHONE).new_page()
    page.add_init_script(OBSERVE)
    errors = watched(page)
    page.clock.install()  # the page's own time: my clock runs down to its last seconds without waiting
    # Knocking allowed at 60: Bob knocks as soon as he may.
    start_game(page, play_url(live_service), bot=None, seed=11, name="Ann", clock="move60", knock_limit=60)
    # Bob, a player, takes the other seat with the invitation: the page asks for his profile.
    bob = unique("Bob")
    player = requests.post(f"{live_service}/v1/players", json={"name": bob}, timeout=10)
    player.raise_for_status()
    game_id, invitation = page.locator("#invite-link").input_value().split("#join=")[1].split(".", 1)
    with page.expect_request(lambda r: r.url.endswith(f"/v1/players/{bob}")):
        joined = requests.post(
            f"{live_service}/v1/games/{game_id}/join",
            json={"invitation": invitation},
            headers={"Authorization": f"Bearer {player.json()['token']}"},
            timeout=10,
        )
        joined.raise_for_status()
    seat = Seat(live_service, game_id, joined.json()["token"], joined.json()["view"])
    # His initial, and the online dot as his profile says (no dot while it does not say).
    avatar = page.locator(".opponent .avatar")
    expect(avatar).to_have_text("B")
    online = requests.get(f"{live_service}/v1/players/{bob}", timeout=10).json().get("online")
    presence = {True: "online", False: "offline"}.get(online, "none")
    expect(avatar).to_have_attribute("data-presence", presence)
    expect(avatar.locator(".dot")).to_have_count(0 if presence == "none" else 1)

    # Moves on both sides until Bob knocks: nothing glides, nothing is animated at all; the sounds stay.
    table = Table(page)
    for _ in range(12):
        if page.locator("#game[data-mode=layoff]").count():
            break
        before = table.version()
        if table.my_turn():
            if table.has_action("pass"):
                table.click_action("pass")
            elif table.has_action("draw-stock"):
                table.click_action("draw-stock")
            else:  # never a knock: that is Bob's
                table.after_change(lambda: page.click("#my-hand button[data-card]"))
        else:
            seat.refresh()
            seat.sensible_move()
        table.page.wait_for_function(
            "v => { const g = document.querySelector('#game'); return g.dataset.busy === 'no' && Number(g.dataset.version) > v; }",
            arg=before,
        )
        assert page.evaluate("() => document.getAnimations().length") == 0
    heard = observed(page)
    assert heard["animations"] == 0, heard
    assert {"draw", "discard", "turn"} <= set(heard["sounds"]), heard
    assert {"knock", "gin"} & set(heard["sounds"]), heard
    assert heard["audio"] >= len(heard["sounds"]), heard

    # My lay-off is my move: its last ten seconds tick, a second apart (the page's clock jumps 52 s on).
    expect(page.locator("#game")).to_have_attribute("data-mode", "layoff")
    assert "tick" not in heard["sounds"]
    page.clock.fast_forward("00:52")
    page.wait_for_function("() => window.ginSounds.filter(s => s === 'tick').length >= 2")
    expect(page.locator(".clock[data-seat='0']")).to_have_class(re.compile(r"\blow\b"))
    shots_at_two_sizes(page, tmp_path, "table-life-person")
    assert_header_and_avatar_clear(page)
    assert errors == []
