"""The web client on a phone (390×844, touch, no mouse) and on a touch tablet: nothing covers what a player
reads on a card, the header stays two rows high with the clocks, and the words speak of tapping, not keys.

Like test_play.py: Debian's chromium through Playwright against a real gunicorn (GIN_ALLOW_SEED=1).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect

from .pages import Table, play_url, start_game

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
TABLET = {"viewport": {"width": 820, "height": 1180}, "is_mobile": True, "has_touch": True}

# For each card of my hand: whether the middle of its top index (rank, suit) is that card, i.e. not covered
# by another card; and each deadwood figure's box against its own card and the cards' indices.
COVERED_INDICES = """() => [...document.querySelectorAll('#my-hand [data-card]')].flatMap(card => {
  return ['.corner.top .rank', '.corner.top .suit'].flatMap(part => {
    const box = card.querySelector(part).getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const on = hit && hit.closest('[data-card]');
    return on === card ? [] : [`${card.dataset.card} ${part} under ${on ? on.dataset.card : hit && hit.className}`];
  });
})"""
BADGES_OVER = """() => {
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const cards = [...document.querySelectorAll('#my-hand [data-card]')];
  const badges = cards.map(c => c.querySelector('.badge')).filter(Boolean);
  // The indices one can see (not under another card), looked for with the figures out of the way.
  badges.forEach(b => { b.style.visibility = 'hidden'; });
  const corners = cards.flatMap(c => [...c.querySelectorAll('.corner')].map(k => [c, k.getBoundingClientRect()]))
    .filter(([c, r]) => document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('[data-card]') === c);
  badges.forEach(b => { b.style.visibility = ''; });
  const wrong = [];
  for (const badge of badges) {
    const card = badge.closest('[data-card]');
    const box = badge.getBoundingClientRect();
    if (!inside(box, card.getBoundingClientRect())) wrong.push(`${card.dataset.card}: its figure reaches out of the card`);
    for (const [other, corner] of corners) if (meet(box, corner)) wrong.push(`${card.dataset.card}: its figure covers an index of ${other.dataset.card}`);
  }
  return wrong;
}"""
HEADER_ROWS = """() => {
  const items = [...document.querySelector('header.topbar').children]
    .map(e => e.getBoundingClientRect()).filter(r => r.width && r.height).sort((a, b) => a.top - b.top);
  let rows = 0, bottom = -Infinity;
  for (const r of items) if (r.top >= bottom - 2) { rows++; bottom = r.bottom; } else bottom = Math.max(bottom, r.bottom);
  return rows;
}"""


def phone_page(new_context: Callable[..., BrowserContext], **options: object) -> Page:
    return new_context("phone", **{**PHONE, **options}).new_page()


def test_on_a_phone_no_card_hides_another_cards_index_nor_does_a_deadwood_figure(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    page = phone_page(new_context)
    # Seed 27: the upcard 8♠ is mine to take; then I hold 11 cards with their deadwood-after-discard figures.
    start_game(page, play_url(live_service), bot="simple", seed=27, knock_limit=60)
    table = Table(page)
    table.click_action("draw-pile")
    expect(page.locator("#my-hand .card.drawn[data-card='8S']")).to_have_count(
        1
    )  # the card just taken, raised
    expect(page.locator("#my-hand .badge")).not_to_have_count(0)
    assert page.evaluate(COVERED_INDICES) == []
    assert page.evaluate(BADGES_OVER) == []
    table.shot(tmp_path, "phone-taken")

    # In the knock editor picked cards are raised: their neighbours' indices stay in sight.
    page.click("[data-action=knock]")
    expect(page.locator("[data-action=knock-confirm]")).to_be_enabled()
    page.click("#my-hand .group.meld button.break")
    for card in ("8C", "3S"):
        page.click(f"#my-hand [data-card='{card}']")
    expect(page.locator("#my-hand .card.selected")).to_have_count(2)
    assert page.evaluate(COVERED_INDICES) == []
    table.shot(tmp_path, "phone-picked")


def test_on_a_phone_the_header_with_clocks_is_two_rows(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    page = phone_page(new_context)
    start_game(page, play_url(live_service), bot="simple", seed=27, clock="move60")
    table = Table(page)
    expect(page.locator("header.topbar #clocks .clock")).to_have_count(2)
    assert page.evaluate(HEADER_ROWS) <= 2
    # What the header no longer holds is still on screen: the hand, the dealer, the knock limit.
    expect(page.locator(".hand-info:visible")).to_contain_text("knock at ≤ 10")
    expect(page.locator(".hand-info:visible")).to_contain_text("simple (bot) dealt")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    table.shot(tmp_path, "phone-header")


# A device whose browser reports hover but whose only pointer is a finger (some Android phones do): the
# browser cannot emulate that pair, so the page's matchMedia answers as such a device's would.
COARSE_WITH_HOVER = """(() => {
  const real = window.matchMedia.bind(window);
  const answers = { '(hover: none)': false, '(hover: hover)': true, '(any-hover: hover)': true,
                    '(pointer: coarse)': true, '(pointer: fine)': false, '(any-pointer: coarse)': true,
                    '(any-pointer: fine)': false };
  window.matchMedia = (query) => {
    const key = query.trim();
    if (!(key in answers)) return real(query);
    const list = real(query);
    return Object.defineProperty(list, 'matches', { value: answers[key] });
  };
})()"""


def test_on_a_touch_screen_the_words_speak_of_tapping_not_keys(
    new_context: Callable[..., BrowserContext], live_service: str, tmp_path: Path
) -> None:
    page = phone_page(new_context)
    page.add_init_script(COARSE_WITH_HOVER)
    start_game(page, play_url(live_service), bot="simple", seed=27, knock_limit=60)
    table = Table(page)
    prompt = page.locator("#prompt")
    expect(prompt).to_contain_text("upcard")
    expect(prompt).not_to_contain_text("(P)")
    table.click_action("draw-pile")
    expect(prompt).to_contain_text("Tap a card")
    page.click("[data-action=knock]")
    expect(page.locator("[data-action=knock-confirm]")).to_be_enabled()
    expect(prompt).to_contain_text("tap cards")
    for keyboard_words in ("Enter", "M makes", "pick cards"):
        expect(prompt).not_to_contain_text(keyboard_words)
    table.shot(tmp_path, "touch-words")

    # A touch tablet is wide, yet has no keys either: the buttons show no key letters.
    tablet = new_context("tablet", **TABLET).new_page()
    start_game(tablet, play_url(live_service), bot="simple", seed=27, knock_limit=60)
    Table(tablet).click_action("draw-pile")
    expect(tablet.locator("[data-action=knock] kbd")).to_be_hidden()
    expect(tablet.locator("#my-hand .card .key").first).to_be_hidden()
    expect(tablet.locator("#prompt")).not_to_contain_text("(K)")
    Table(tablet).shot(tmp_path, "tablet")
