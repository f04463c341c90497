"""Watching: the list of public games in play, and a game two other clients play, followed live by a
spectator's page that shows no hidden card.

Like the other browser tests: Debian's chromium through Playwright against the real gunicorn of the suite;
the two players are plain HTTP clients of the public API. The pages are shot at 1280×800 and 390×844.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import BrowserContext, expect

from .pages import CARD_CODE, Opponent, Seat, Table, play_url, shots_at_two_sizes


def spectator_cards(view: dict[str, Any]) -> set[str]:
    """Every card the spectator's view shows: the pile, the cards taken from it, the moves' cards."""
    cards = set(view.get("discard_pile") or [])
    for player in view.get("players") or []:
        cards.update(player.get("known_cards") or [])
    for entry in view.get("history") or []:
        for key in ("card", "discard"):
            if isinstance(entry.get(key), str) and CARD_CODE.match(entry[key]):
                cards.add(entry[key])
    return cards


def test_a_spectator_watches_two_other_clients_play_and_sees_each_move_arrive(
    context: BrowserContext, live_service: str, tmp_path: Path
) -> None:
    # Two players of their own (plain HTTP clients): Wes invites, Xia joins.
    created = requests.post(
        f"{live_service}/v1/games",
        json={"opponent": {"type": "human"}, "name": "Wes", "seed": 21},
        timeout=10,
    )
    created.raise_for_status()
    game_id = created.json()["game_id"]
    host = Seat(live_service, game_id, created.json()["token"], created.json()["view"])
    invitation = created.json()["invitation"]
    guest = Opponent(live_service, f"{live_service}/play/#join={game_id}.{invitation}", name="Xia")

    page = context.new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{play_url(live_service)}#/watch")
    row = page.locator(f"#live-list li[data-game='{game_id}']")
    expect(row).to_contain_text("Wes vs Xia")
    shots_at_two_sizes(page, tmp_path, "watch-list")
    row.locator("[data-action=watch]").click()

    table = page.locator("#watch-table")
    expect(table).to_have_attribute("data-version", re.compile(r"\d+"))
    expect(page.locator("#page-title")).to_have_text("Watching Wes vs Xia")
    expect(page.locator("#connection")).to_have_text("live")
    before = int(table.get_attribute("data-version") or 0)

    # Whoever is to play moves (over the API, not in this page): the spectator sees it arrive.
    mover = host if host.refresh()["your_move"] else guest
    mover.move(next(a for a in mover.view["legal_actions"] if a["kind"] == "play"))
    who = "Wes" if mover is host else "Xia"
    expect(table).to_have_attribute("data-version", str(before + 1))
    expect(page.locator("#watch-log li").last).to_contain_text(who)
    expect(page.locator("#watch-prompt")).to_contain_text("to play")

    # The spectator's page holds no card the spectator's view does not show.
    spectator_view = requests.get(f"{live_service}/v1/games/{game_id}", timeout=10).json()
    shown = Table(page).cards_in_page()
    assert shown <= spectator_cards(spectator_view), sorted(shown - spectator_cards(spectator_view))

    shots_at_two_sizes(page, tmp_path, "watching")

    # The match ends: the spectator is given the replay once the archive has it (it kept "archived":
    # false for the ten minutes the finished match stays in Redis).
    host.refresh()
    host.move({"type": "resign"})
    expect(page.locator("#watch-over")).to_be_visible()
    replay = page.locator("#watch-over [data-action=replay]")
    expect(replay).to_be_visible(timeout=120_000)
    replay.click()
    expect(page).to_have_url(re.compile(rf"#/replay/{game_id}"))
