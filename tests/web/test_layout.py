"""The table's layout at a laptop's and a phone's size: the moves list scrolled to its latest move shows its
top row whole (not half under its heading), a name in the scores is cut only when the row is full, Resign
stays inside the table's wooden border, and a replay on a phone shows no keyboard hints.

Real parts only: Debian's chromium through Playwright against the suite's gunicorn (GIN_ALLOW_SEED=1).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .pages import Table, game_address, play_url, shots_at_two_sizes, start_game

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
DEVICES = {"laptop": LAPTOP, "phone": PHONE}

# Whether the list of moves, scrolled to its end, shows its first visible row whole and its last one too.
LOG_ROWS = """() => {
  const log = document.querySelector('#log');
  const box = log.getBoundingClientRect();
  const rows = [...log.children].map(li => li.getBoundingClientRect());
  const seen = rows.filter(r => r.bottom > box.top + 0.5 && r.top < box.bottom - 0.5);
  return {
    scrolls: log.scrollHeight > log.clientHeight + 1,
    topCut: seen.length ? box.top - seen[0].top : 0,
    bottomCut: seen.length ? seen[seen.length - 1].bottom - box.bottom : 0,
  };
}"""
# The names in the scores that are cut (an ellipsis), and the room left in the first row of the header.
CUT_NAMES = """() => [...document.querySelectorAll('.scoreboard .score b')]
  .filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)"""


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def long_hand(page: Page, url: str) -> Table:
    """A game against knocker with gin only: a long hand, so that the moves list scrolls."""
    start_game(page, url, bot="knocker", seed=7, name="Ann", knock_limit=0)
    table = Table(page)
    for _ in range(14):
        table.wait_for_turn()
        if page.locator("#result").count():
            break
        table.play_turn()
    table.wait_for_turn()
    return table


@pytest.mark.parametrize("device", DEVICES)
def test_the_table_fits_its_frames(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path, device: str
) -> None:
    options: dict[str, Any] = DEVICES[device]
    page = new_context(device, **options).new_page()
    table = long_hand(page, play_url(live_service))
    expect(page.locator("#result")).to_have_count(0)
    table.shot(tmp_path, f"layout-{device}")

    rows = page.evaluate(LOG_ROWS)
    assert rows["scrolls"], "enough moves for the list to scroll"
    assert rows["topCut"] <= 0.5, f"the top row of the moves is cut by {rows['topCut']:.1f} px"
    assert rows["bottomCut"] <= 0.5, "the latest move is in sight"

    # The opponent's name is whole where the header has room for it.
    assert page.evaluate(CUT_NAMES) == []
    expect(page.locator(".scoreboard")).to_contain_text(re.compile(r"knocker \(bot\) \d+"))

    # Resign sits inside the wooden border (9 px wide on a laptop, 4 px on a phone), not over it.
    felt, resign = box(page, "#felt"), box(page, "[data-action=resign]")
    assert resign["x"] + resign["width"] <= felt["x"] + felt["width"] - 9
    assert resign["y"] + resign["height"] <= felt["y"] + felt["height"] - 9


def test_a_replay_on_a_phone_shows_no_keyboard_hints(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    laptop = new_context("laptop", **LAPTOP).new_page()
    start_game(laptop, play_url(live_service), bot="simple", seed=3, name="Ann")
    game_id, _ = game_address(laptop)
    table = Table(laptop)
    table.wait_for_turn()
    laptop.click("[data-action=resign]")
    table.after_change(lambda: laptop.click("[data-action=confirm-resign]"))
    expect(laptop.locator("#match-end")).to_contain_text("You resigned")

    replay = f"{play_url(live_service)}#/replay/{game_id}"
    laptop.goto(replay)
    for _ in range(40):  # the match reaches the archive a moment after its end
        if laptop.locator("#replay").count():
            break
        laptop.wait_for_timeout(250)
        laptop.reload()
    expect(laptop.locator(".keys-note")).to_be_visible()  # a keyboard: the keys are said

    phone = new_context("phone", **PHONE).new_page()
    phone.goto(replay)
    expect(phone.locator("#replay")).to_be_visible()
    expect(phone.locator(".keys-note")).to_be_hidden()
    expect(phone.get_by_text("Keys: ←")).to_be_hidden()
    shots_at_two_sizes(phone, tmp_path, "replay-phone")
