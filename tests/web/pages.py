"""The web client as the browser tests drive it: the start page, the table, and what a seat may see.

Nothing here knows the rules: a turn is played from what the page offers (its buttons, the cards it makes
playable, the deadwood-after-discard figure it shows on each card), and what the page holds is compared
with what the service says the seat may see (GET /v1/games/{id} with the seat's own token).
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

CARD_CODE = re.compile(r"^[A2-9TJQK][CDHS]$")
RANKS = {
    "ace": "A", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9",
    "10": "T", "jack": "J", "queen": "Q", "king": "K",
}  # fmt: skip
SUITS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
GLYPHS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
CARD_NAME = re.compile(r"\b(ace|[2-9]|10|jack|queen|king) of (clubs|diamonds|hearts|spades)\b")
CARD_GLYPH = re.compile(r"(10|[A2-9JQK])([♣♦♥♠])")


def start_game(
    page: Page,
    url: str,
    *,
    bot: str | None = "simple",
    seed: int | None = None,
    knock_limit: int | None = None,
    target: int | None = None,
    name: str | None = "Ann",
    clock: str | None = None,
    rated: bool = False,
) -> None:
    """Open the start page at ``url`` and start a game against ``bot`` (None: invite a friend).

    ``name``: the name at the table (None: a logged-in player's); ``clock``: a value of the Clock menu;
    ``rated``: tick Rated (a logged-in or signed-in player's)."""
    page.goto(url)
    expect(page.locator("#bot option")).not_to_have_count(0)
    more_options(page)
    if name is not None:
        page.fill("#name", name)
    if clock is not None:
        page.select_option("#clock", clock)
    if rated:
        page.check("#rated")
    if bot:
        page.select_option("#bot", bot)
    if knock_limit is not None:
        page.fill("#knock-limit", str(knock_limit))
    if target is not None:
        page.fill("#target", str(target))
    if seed is not None:
        page.click("details.more > summary")
        page.fill("#seed", str(seed))
    page.click("[data-action=play-bot]" if bot else "[data-action=invite]")
    expect(page.locator("#game")).to_have_attribute("data-version", re.compile(r"\d+"))


def more_options(page: Page) -> None:
    """Unfold the start page's "More options" (the form of a new game: folded while a player is signed
    in, below the pools' grid)."""
    if page.locator("#more-options").get_attribute("open") is None:
        page.click("#more-options > summary")
    expect(page.locator("#new-game")).to_be_visible()


def play_url(base: str) -> str:
    """The web client's address on a service."""
    return f"{base}/play/"


def game_address(page: Page) -> tuple[str, int]:
    """The game and seat the page shows (its address: #game=<id>&seat=<n>)."""
    params = dict(part.split("=", 1) for part in page.evaluate("location.hash").lstrip("#").split("&"))
    return params["game"], int(params["seat"])


def log_in(page: Page, url: str, name: str) -> None:
    """Open the start page at ``url`` and log in as the player ``name`` by a name alone, without a
    password (a new one: POST /v1/players)."""
    page.goto(url)
    page.click("#name-only > summary")
    page.fill("#player-name", name)
    page.click("[data-action=login]")
    expect(page.locator("#player-me")).to_have_text(name)


def wait_for_game(page: Page) -> None:
    """Until the page shows a game (after a quick match, a Play in the lobby, a rematch)."""
    expect(page.locator("#game")).to_have_attribute("data-version", re.compile(r"\d+"))


class Seat:
    """One seat of a game played by the test over the public API (a client that knows no page): it moves
    with If-Match from the view it holds."""

    def __init__(self, base: str, game_id: str, token: str, view: dict[str, Any]) -> None:
        self.base, self.game_id, self.token = base, game_id, token
        self.view = view

    def refresh(self) -> dict[str, Any]:
        """The seat's view as it is now (the other seat may have moved)."""
        reply = requests.get(
            f"{self.base}/v1/games/{self.game_id}",
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
        )
        reply.raise_for_status()
        self.view = dict(reply.json())
        return self.view

    def move(self, action: dict[str, Any]) -> dict[str, Any]:
        reply = requests.post(
            f"{self.base}/v1/games/{self.game_id}/actions",
            json=action,
            headers={"Authorization": f"Bearer {self.token}", "If-Match": f'"{self.view["version"]}"'},
            timeout=10,
        )
        reply.raise_for_status()
        self.view = dict(reply.json()["view"])
        return self.view

    def deadwood(self, cards: list[str]) -> int:
        """The least deadwood of ``cards``, from the stateless analysis (as a person would count it: a game
        between people shows no deadwood per discard)."""
        reply = requests.post(f"{self.base}/v1/analyze", json={"cards": cards}, timeout=10)
        reply.raise_for_status()
        return int(reply.json()["deadwood"])

    def least_deadwood(self, kind: str, key: str) -> dict[str, Any]:
        """Of the legal actions of type ``kind``, the one whose card (``key``) leaves the least deadwood."""
        cards = self.view["hand"]["cards"]
        options = [a for a in self.view["legal_actions"] if a["type"] == kind and a.get(key)]
        return min(options, key=lambda a: (self.deadwood([c for c in cards if c != a[key]]), a[key]))

    def sensible_move(self) -> dict[str, Any]:
        """A plain player's move: the best lay-offs, a knock as soon as allowed, the stock (never the
        upcard), the discard leaving the least deadwood."""
        kinds = {a["type"] for a in self.view["legal_actions"]}
        if "layoff" in kinds:
            return self.move({"type": "layoff", "best": True})
        if any(a["type"] == "knock" and a.get("discard") for a in self.view["legal_actions"]):
            return self.move(self.least_deadwood("knock", "discard"))
        if "pass" in kinds:
            return self.move({"type": "pass"})
        if "draw" in kinds:
            return self.move({"type": "draw", "source": "stock"})
        return self.move(self.least_deadwood("discard", "card"))


def finish_hand_over_the_api(*tables: Table) -> None:
    """The hand on the pages played to its end over the API, each seat with the token its page holds
    (:meth:`Seat.sensible_move`); then each page shows the result, having followed the moves live."""
    seats = []
    for table in tables:
        entry = table.seat_entry()
        seats.append(Seat(entry["server"], entry["gameId"], entry["token"], table.api_view()))
    for _ in range(200):
        views = [seat.refresh() for seat in seats]
        if all(view["result"] for view in views):
            break
        playing = [
            s
            for s, v in zip(seats, views, strict=True)
            if any(a["kind"] == "play" for a in v["legal_actions"])
        ]
        playing[0].sensible_move()
    else:
        raise AssertionError("the hand did not end")
    for table in tables:
        expect(table.page.locator("#result")).to_be_visible()


class Opponent(Seat):
    """The other seat of a game the page invited to: it joins with the invitation link."""

    def __init__(self, base: str, link: str, name: str = "Bob") -> None:
        game_id, invitation = urlsplit(link).fragment.removeprefix("join=").split(".", 1)
        joined = requests.post(
            f"{base}/v1/games/{game_id}/join", json={"invitation": invitation, "name": name}, timeout=10
        )
        joined.raise_for_status()
        super().__init__(base, game_id, joined.json()["token"], joined.json()["view"])

    def knock(self, deadwood: int | None = None) -> dict[str, Any]:
        """Knock with the legal discard leaving ``deadwood`` (None: the least)."""
        knocks = {a["discard"] for a in self.view["legal_actions"] if a["type"] == "knock" and a["discard"]}
        cards = self.view["hand"]["cards"]
        options = sorted((self.deadwood([c for c in cards if c != card]), card) for card in knocks)
        card = next(c for d, c in options if deadwood is None or d == deadwood)
        return self.move({"type": "knock", "discard": card})


def invite(
    page: Page, base: str, *, seed: int, knock_limit: int | None = None, name: str = "Ann"
) -> Opponent:
    """The page invites a friend (a game between two people); the test's own client joins as Bob."""
    start_game(page, play_url(base), bot=None, seed=seed, knock_limit=knock_limit, name=name)
    return Opponent(base, page.locator("#invite-link").input_value())


# --- accounts ---------------------------------------------------------------------------------------------
PASSWORD = "correct horse battery staple"
LAPTOP = {"width": 1280, "height": 800}


def unique(prefix: str) -> str:
    """A name no other test (or earlier run against the same database) uses."""
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def start_page(new_context: Callable[..., BrowserContext], url: str, device: str) -> Page:
    """The start page in a browser profile of its own (another device), at a laptop's size."""
    page = new_context(device, viewport=LAPTOP).new_page()
    page.goto(url)
    return page


def sign_in_form(page: Page, name: str, password: str, *, sign_up: bool = False) -> None:
    """Fill the start page's account form and send it (``sign_up``: create the account)."""
    if sign_up:
        page.click("[data-action=mode-sign-up]")
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.click("[data-action=sign-up]" if sign_up else "[data-action=sign-in]")


def storage_dump(page: Page) -> dict[str, str]:
    """The page's localStorage, key by key."""
    return dict(
        page.evaluate(
            "() => Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)]))"
        )
    )


def signed_up(new_context: Callable[..., BrowserContext], base: str, name: str) -> Page:
    """A person with a new account ``name``, signed in on the start page of a browser of its own."""
    page = start_page(new_context, play_url(base), name)
    sign_in_form(page, name, PASSWORD, sign_up=True)
    expect(page.locator("#player-me")).to_have_text(name)
    return page


def kept_session(page: Page, base: str) -> dict[str, Any]:
    """The session the page keeps for ``base`` (name, session id, token): to ask the service what the
    page shows, or to see whether it still works."""
    return dict(json.loads(storage_dump(page)[f"gin.session.{base}"]))


SCREEN_SIZES = ((1280, 800), (390, 844))  # a laptop, a phone


def shots_at_two_sizes(page: Page, tmp_path: Path, name: str, *, fits: bool = True) -> list[Path]:
    """Full-page screenshots of what ``page`` shows at a laptop's and a phone's size (then back to the
    page's own size): ``<tmp_path>/shots/<name>-1280x800.png`` and ``…-390x844.png``, or in the folder
    ``GIN_WEB_SHOTS`` names, if set (to look at them all in one place). ``fits``: at each size, nothing
    sticks out sideways (no horizontal scroll bar)."""
    folder = Path(os.environ.get("GIN_WEB_SHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    own = page.viewport_size
    made = []
    for width, height in SCREEN_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)  # the layout, and graphs redrawn at the new width
        path = folder / f"{name}-{width}x{height}.png"
        page.screenshot(path=str(path), full_page=True)
        made.append(path)
        assert not (fits and overflows_sideways(page)), (
            f"{name} sticks out sideways at {width}x{height}: {path}"
        )
    if own:
        page.set_viewport_size(own)
    return made


def overflows_sideways(page: Page) -> bool:
    """Whether the page is wider than its window (something sticks out: a horizontal scroll bar)."""
    return bool(page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1"))


def boxes_overlap(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    """Whether two bounding boxes (Playwright's x, y, width, height) share any area."""
    assert a is not None and b is not None
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


class Table:
    """One seat's page in a game."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.game = page.locator("#game")

    # --- what the page says ----------------------------------------------------------------------------
    def version(self) -> int:
        return int(self.game.get_attribute("data-version") or 0)

    def phase(self) -> str:
        return self.game.get_attribute("data-phase") or ""

    def my_turn(self) -> bool:
        return self.game.get_attribute("data-my-turn") == "yes"

    def hand(self) -> list[str]:
        return [
            c
            for c in self.page.locator("#my-hand [data-card]").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
        ]

    def seat_entry(self) -> dict[str, Any]:
        """The saved seat of the game on screen (its token lets the test ask the service directly)."""
        game, seat = game_address(self.page)
        raw = self.page.evaluate(f"localStorage.getItem('gin.seat.{game}.{seat}')")
        return dict(json.loads(raw))

    def api_view(self) -> dict[str, Any]:
        entry = self.seat_entry()
        response = requests.get(
            f"{entry['server']}/v1/games/{entry['gameId']}",
            headers={"Authorization": f"Bearer {entry['token']}"},
            timeout=10,
        )
        response.raise_for_status()
        return dict(response.json())

    # --- waiting -----------------------------------------------------------------------------------------
    def wait_settled(self) -> None:
        expect(self.game).to_have_attribute("data-busy", "no")

    def wait_for_turn(self) -> None:
        """Until it is this seat's move, or the hand (or the match) is over (the opponent's moves come by
        the event feed)."""
        self.page.wait_for_function(
            """() => { const g = document.querySelector('#game');
                       return g && g.dataset.busy === 'no'
                         && (g.dataset.myTurn === 'yes' || g.dataset.over === 'yes' || !!document.querySelector('#result')); }"""
        )

    def after_change(self, do: Any) -> None:
        """Do something, then wait until the page shows a newer version of the game."""
        before = self.version()
        do()
        self.page.wait_for_function(
            "v => { const g = document.querySelector('#game'); return g && g.dataset.busy === 'no' && Number(g.dataset.version) > v; }",
            arg=before,
        )

    # --- moves ---------------------------------------------------------------------------------------------
    def click_action(self, action: str) -> None:
        self.after_change(lambda: self.page.click(f"[data-action={action}]"))

    def has_action(self, action: str) -> bool:
        return self.page.locator(f"#felt [data-action={action}]").count() > 0

    def best_discard(self) -> str:
        """The card the page says leaves the least deadwood (its badge), ties to the first; between two
        people the page shows no such badges: the first card it lets me discard."""
        cards = self.page.locator("#my-hand [data-after]").evaluate_all(
            "els => els.map(e => [e.dataset.card, Number(e.dataset.after)])"
        )
        if not cards:
            return str(self.page.locator("#my-hand button[data-card]").first.get_attribute("data-card"))
        return str(min(cards, key=lambda c: c[1])[0])

    def play_turn(self) -> str:
        """One sensible move from what the page offers; returns what was done."""
        if self.game.get_attribute("data-mode") == "layoff":
            self.click_action("layoff-best")
            return "layoff"
        if self.has_action("big-gin"):
            self.click_action("big-gin")
            return "big gin"
        if self.has_action("gin") or self.has_action("knock"):
            self.page.click("[data-action=gin]" if self.has_action("gin") else "[data-action=knock]")
            expect(self.page.locator("[data-action=knock-confirm]")).to_be_enabled()
            self.click_action("knock-confirm")
            return "knock"
        if self.has_action("pass"):
            self.click_action("pass")
            return "pass"
        if self.has_action("draw-stock") and self.page.locator("#stock .playable").count():
            self.after_change(lambda: self.page.click("#stock button.card"))  # click the stock itself
            return "draw"
        card = self.best_discard()
        self.after_change(lambda: self.page.click(f"#my-hand [data-card='{card}']"))
        return f"discard {card}"

    def play_hand(self, limit: int = 80) -> list[str]:
        """Play this seat until the hand's result is on screen (against a bot: it answers at once)."""
        done = []
        for _ in range(limit):
            self.wait_for_turn()
            if self.page.locator("#result").count():
                return done
            done.append(self.play_turn())
        raise AssertionError(f"the hand did not end after {limit} moves: {done}")

    # --- what the page holds ----------------------------------------------------------------------------------
    def cards_in_page(self) -> set[str]:
        """Every card the page shows or holds in its DOM: data-card attributes, accessible names, text."""
        found: set[str] = set()
        found.update(
            self.page.locator("[data-card]").evaluate_all("els => els.map(e => e.getAttribute('data-card'))")
        )
        labels = self.page.evaluate(
            """() => [...document.querySelectorAll('[aria-label],[title]')]
                     .map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || ''))"""
        )
        text = self.page.evaluate("document.body.innerText + ' ' + document.body.textContent")
        for label in [*labels, text]:
            found.update(RANKS[r] + SUITS[s] for r, s in CARD_NAME.findall(label.lower()))
        found.update(("T" if r == "10" else r) + GLYPHS[s] for r, s in CARD_GLYPH.findall(text))
        return found

    def storage_text(self) -> str:
        """localStorage and sessionStorage, without the secrets (a token may contain '7H' by chance)."""
        dump = self.page.evaluate(
            """() => { const out = [];
                       for (const store of [localStorage, sessionStorage])
                         for (let i = 0; i < store.length; i++) out.push([store.key(i), store.getItem(store.key(i))]);
                       return out; }"""
        )
        parts = []
        for key, value in dump:
            try:
                data = json.loads(value)
            except ValueError:
                data = value
            if isinstance(data, dict):
                data = {k: v for k, v in data.items() if k not in ("token", "invitation", "gameId")}
            parts.append(f"{key}={json.dumps(data)}")
        return "\n".join(parts)

    def assert_holds_only_visible_cards(self) -> set[str]:
        """The page's cards are a subset of what the service shows this seat; storage holds no card."""
        view = self.api_view()
        allowed = visible_cards(view)
        shown = self.cards_in_page()
        assert shown <= allowed, f"the page holds cards the seat may not see: {sorted(shown - allowed)}"
        stored = self.storage_text()
        codes = set(re.findall(r"(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])", stored))
        assert not codes, f"cards in the browser's storage: {codes}\n{stored}"
        return shown

    def shot(self, tmp_path: Path, name: str) -> None:
        shots = tmp_path / "shots"
        shots.mkdir(exist_ok=True)
        self.page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


def visible_cards(view: dict[str, Any]) -> set[str]:
    """Every card a seat's view shows (docs/rules.md §11): its hand, the pile, the opponent's known cards, and
    once the hand is over, both hands laid down with the face-down discard."""
    cards: set[str] = set()
    hand = view.get("hand") or {}
    cards.update(hand.get("cards") or [])
    cards.update(view.get("discard_pile") or [])
    opponent = view.get("opponent") or {}
    cards.update(opponent.get("known_cards") or [])
    cards.update(opponent.get("cards") or [])
    knock = view.get("knock") or {}
    for meld in knock.get("melds") or []:
        cards.update(meld)
    cards.update(knock.get("deadwood_cards") or [])
    if knock.get("discard"):
        cards.add(knock["discard"])
    result = view.get("result") or {}
    for seat_cards in result.get("hands") or []:
        cards.update(seat_cards)
    knocker = result.get("knocker") or {}
    if knocker.get("discard"):
        cards.add(knocker["discard"])
    for entry in view.get("history") or []:  # e.g. my own stock draws, or after the hand every draw
        for key in ("card", "discard"):
            if isinstance(entry.get(key), str):
                cards.add(entry[key])
    return cards


def resign(page: Page) -> None:
    """Resign the game at the table, as a person does (the button, then the confirmation). Between two hands
    the result panel may still grow under the pointer (the fair shuffle's check is written in when done),
    and a click that fell beside the moved button is clicked again, as a person would."""
    table = Table(page)
    question = page.locator("[data-action=confirm-resign]")
    for _ in range(3):
        if not question.is_visible():
            page.click("[data-action=resign]")
        try:
            question.wait_for(state="visible", timeout=5000)
            break
        except PlaywrightTimeoutError:
            continue
    table.after_change(question.click)
    expect(page.locator("#match-end")).to_contain_text("You resigned")
