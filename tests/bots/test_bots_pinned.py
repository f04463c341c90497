"""Pinned decisions: every bot makes the same choices on a fixed set of views.

The views are made up from a seeded generator with the engine's meld solver (no game is played, so
a change in the game flow or the view builder does not move them): draws, discards that can knock or
not, the card just taken from the pile, the fiftieth card and a knock forced after taking it. The
expected choices were recorded from the bots before their analysis helpers moved onto the engine
(issue 13); a change of these is a change of play, to be weighed with ``bench/tournament.py``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from ginrummy.bots import BOTS, make_bot
from ginrummy.engine.cards import card_text
from ginrummy.engine.melds import discard_options

from .views import DRAW, OFFER, discard_legal, make_view, token

FIFTIETH = [{"type": "draw", "source": "discard"}, {"type": "pass"}]


def _deal(rng: random.Random, size: int, meldy: bool) -> list[int]:
    """Distinct cards for one view; ``meldy`` puts a run, a set and low cards first (near a knock)."""
    cards: list[int] = []
    if meldy:
        suit, start = rng.randrange(4), rng.randrange(0, 10)
        cards += [suit * 13 + rank for rank in range(start, start + rng.choice((3, 3, 4)))]
        rank = rng.choice([r for r in range(13) if not start <= r < start + 4])
        cards += rng.sample([s * 13 + rank for s in range(4)], 3)
        low = [c for c in range(52) if c % 13 < 5 and c not in cards]
        cards += rng.sample(low, rng.randrange(2, 5))
        rng.shuffle(cards)
    rest = [c for c in range(52) if c not in cards]
    return cards + rng.sample(rest, size - len(cards))


def _view(rng: random.Random, index: int) -> dict[str, Any]:
    kind = ("draw", "offer", "discard", "taken", "fiftieth", "forced")[index % 6]
    cards = _deal(rng, 16, meldy=index % 4 != 0)
    hand, pile, known = cards[:11], cards[11:15], cards[15:16]
    texts = [card_text(c) for c in hand]
    common: dict[str, Any] = {
        "pile": [card_text(c) for c in pile],
        "opp_known": [card_text(c) for c in known],
        "stock_size": rng.randrange(2, 31),
        "points": (rng.randrange(0, 90), rng.randrange(0, 90)),
        "knock_limit": rng.choice((10, 10, 10, 5)),
    }
    limit = common["knock_limit"]
    if kind in ("draw", "offer", "fiftieth"):
        legal = {"draw": DRAW, "offer": OFFER, "fiftieth": FIFTIETH}[kind]
        phase = {"draw": "draw", "offer": "upcard", "fiftieth": "fiftieth_card"}[kind]
        return make_view(texts[:10], legal=[dict(a) for a in legal], phase=phase, **common)
    taken = texts[-1] if kind != "discard" else None
    mask = sum(1 << c for c in hand)
    knocks = [card_text(c) for c, d in discard_options(mask) if d <= limit and card_text(c) != taken]
    legal = discard_legal(texts, knocks=knocks, exclude=taken)
    if kind == "forced":
        legal = [a for a in legal if a["type"] == "knock"] or legal
    history = [] if taken is None else [{"seat": 0, "type": "draw", "source": "discard", "card": taken}]
    return make_view(texts, legal=legal, phase="discard", history=history, **common)


def pinned_views(count: int = 60) -> list[dict[str, Any]]:
    """The fixed views, the same on every run."""
    rng = random.Random(13)
    return [_view(rng, index) for index in range(count)]


def choices(name: str) -> str:
    """One bot's choices over the pinned views, one bot (and so one random generator) for all."""
    bot = make_bot(name, seed=5)
    return " ".join(token(bot.choose(view)) for view in pinned_views())


# Recorded at commit 07353b0, with the bots' own deadwood, discard and lay-off helpers.
PINNED = {
    "random": "take pass d:5S d:4D take d:AD stock take d:4D d:JC take k:2D stock take d:2C d:8S pass k:2D stock pass d:6C d:JH take k:3C stock take d:2S d:7C take d:JC stock take d:TC d:JC take d:AH stock take d:AC d:9H pass d:9H take pass d:7S d:2D pass d:QH take pass k:AS d:AH pass d:3H take pass d:2S d:AH pass d:AS",
    "novice": "stock pass k:4H k:4D pass d:JC stock pass d:TD d:8C pass k:2C stock pass d:7H k:9C pass k:3S stock pass d:TS d:7S pass k:3C stock pass d:JH d:AD pass d:3C stock pass d:QS k:5H pass d:5C stock pass d:7S d:AC pass d:5C stock pass d:TD k:8C pass d:5H stock pass k:4D k:3C pass d:5D stock pass d:JC d:6H take d:8D",
    "simple": "stock pass k:4H k:4S pass d:JC stock pass d:JD d:8C pass k:2C stock pass d:7H k:9C pass k:3S stock pass d:TH d:7S pass k:3C stock pass d:JH d:KH pass d:3C stock pass d:TC k:5H pass d:5H stock pass d:9H d:4D pass d:5H stock pass d:TD k:8C pass d:5H stock pass k:4D k:3C pass d:5D stock pass d:JC d:6H take d:8D",
    "knocker": "stock pass k:4H k:4D pass d:JC stock pass d:TD d:8C pass k:2C stock pass d:7H k:9C pass k:3S stock pass d:JC d:7S pass k:3C stock pass d:JH d:KH pass d:3C stock pass d:TC k:5H pass d:5C take pass d:9H d:4D pass d:5C stock pass d:JS k:8C pass d:5H stock pass k:4D k:3C pass d:5D stock pass d:TD d:6H take d:8D",
    "trapper": "stock pass k:4H k:4D pass d:JC stock pass d:TD d:8C pass k:2C stock take d:7H k:9C pass k:3S stock take d:JC d:7S pass k:3C stock take d:JH d:KH pass d:3C take pass d:QS d:5H pass d:5C take pass d:9H d:4D pass d:5H stock take d:JS k:8C pass d:5H stock take k:4D k:3C pass d:5D stock pass d:TD d:6H take d:8D",
    "expert": "stock pass k:4H k:4D pass d:JC stock pass d:TD d:8C pass k:2C stock take d:7H k:9C pass k:3S stock take d:JC d:7S pass k:3C stock take d:JH d:KH pass d:3C take pass d:QS k:5H pass d:5C take pass d:9H d:4D pass d:5H stock take d:JS k:8C pass d:5H stock take k:4D k:3C pass d:5D stock pass d:TD d:6H take d:8D",
    # Recorded when the service began to offer the master (its decision seed leaves resign and abort out).
    "master": "stock pass k:4H k:4D pass d:JC stock pass d:TD d:8C pass k:2C stock take d:7H k:9C pass k:3S stock take d:JC d:7S pass k:3C stock take d:JH d:4C pass d:3C take take d:9H k:5H pass d:5C take pass d:9H d:4D pass d:5H stock take d:JS k:8C pass d:5H stock take k:4D k:3C pass d:5D stock take d:6S d:6H take d:8D",
}


@pytest.mark.parametrize("name", list(BOTS))
def test_the_bots_choices_on_fixed_views_are_pinned(name: str) -> None:
    assert choices(name) == PINNED[name]


def test_the_pinned_views_cover_every_kind_of_decision() -> None:
    views = pinned_views()
    phases = {view["phase"] for view in views}
    assert phases == {"draw", "upcard", "discard", "fiftieth_card"}
    legal = [view["legal_actions"] for view in views]
    assert sum(any(a["type"] == "knock" for a in actions) for actions in legal) >= 8
    assert sum(all(a["type"] == "knock" for a in actions) for actions in legal) >= 3
    assert sum(bool(view["history"]) for view in views) >= 10  # the card just taken may not be thrown
    assert "take" in PINNED["expert"].split()[4::6]  # a fiftieth card worth taking
