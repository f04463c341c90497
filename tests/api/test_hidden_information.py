"""While a hand is live, nothing a seat receives — views, events, action results, errors, hints — names
the opponent's hidden cards or any card of the stock (docs/rules.md §11)."""

from __future__ import annotations

import json
import random
import re

import pytest
from flask.testing import FlaskClient

from tests.support import choose

from .gameplay import Seat, Table, to_act
from .leaks import Figures, play_one

ALL_CARDS = {r + s for r in "A23456789TJQK" for s in "CDHS"}
CARD_TOKEN = re.compile(r'"([A2-9TJQK][CDHS])"')


def hidden_from(viewer: dict, other: dict, seen_before: set[str]) -> set[str]:
    """Cards the viewer must not see: the opponent's unknown cards, the stock and a face-down knock
    discard — except cards the viewer itself held or saw face up earlier in the hand."""
    opponent_hidden = set(other["hand"]["cards"]) - set(viewer["opponent"]["known_cards"])
    visible = set(viewer["hand"]["cards"]) | set(viewer["discard_pile"])
    not_held = ALL_CARDS - visible - set(other["hand"]["cards"])  # the stock (and a face-down discard)
    return (opponent_hidden | not_held) - seen_before


def public_to(view: dict) -> set[str]:
    return set(view["hand"]["cards"]) | set(view["discard_pile"]) | set(view["opponent"]["known_cards"])


def named_cards(texts: list[str]) -> set[str]:
    found: set[str] = set()
    for text in texts:
        found |= set(CARD_TOKEN.findall(text))
    return found


def scan(seat: Seat, forbidden: set[str], start: int) -> None:
    leaked = named_cards(seat.seen[start:]) & forbidden
    assert not leaked, f"seat {seat.seat} saw hidden cards {sorted(leaked)}"


def test_no_view_event_result_or_error_reveals_hidden_cards(table: Table, client: FlaskClient) -> None:
    ann, bob = table.human_game(seed=21)
    seats = (ann, bob)
    spectator_seen: list[str] = []
    ever_seen: list[set[str]] = [set(), set()]
    spectator_known: set[str] = set()
    for _ in range(300):
        starts = [len(ann.seen), len(bob.seen)]
        views = [ann.view(), bob.view()]
        if views[0]["phase"] in ("hand_over", "game_over", "match_over"):
            break
        for seat in seats:
            ever_seen[seat.seat] |= public_to(views[seat.seat])
        mover = to_act(seats)
        waiter = seats[1 - mover.seat]
        # What each seat may legitimately look at now, and the errors it may provoke.
        mover.get("/events")
        waiter.get("/events")
        waiter.get("/hint")
        waiter.post("/actions", {"type": "draw", "source": "stock"}, version=views[0]["version"])
        mover.post("/actions", {"type": "knock", "discard": None}, version=views[0]["version"])
        mover.get("/hint")
        mover.post("/actions", choose(views[mover.seat]), version=views[0]["version"])
        spectator_seen.append(client.get(f"/v1/games/{ann.game_id}").get_data(as_text=True))
        spectator_seen.append(client.get(f"/v1/games/{ann.game_id}/events").get_data(as_text=True))
        after = [ann.view(), bob.view()]
        for seat in seats:
            other = 1 - seat.seat
            # Cards hidden before the move stay hidden unless the move itself made them public; the
            # check uses the state after the move, when the hand is still live.
            if after[0]["phase"] in ("hand_over", "game_over", "match_over"):
                break
            scan(seat, hidden_from(after[seat.seat], after[other], ever_seen[seat.seat]), starts[seat.seat])
            # A spectator may see only the discard pile and cards taken from it.
            spectator_public = set(after[0]["discard_pile"]) | spectator_known
            spectator_public |= set(after[0]["opponent"]["known_cards"]) | set(
                after[1]["opponent"]["known_cards"]
            )
            spectator_known |= spectator_public
            leaked = named_cards(spectator_seen[-2:]) - spectator_known
            assert not leaked, f"a spectator saw {sorted(leaked)}"
    else:
        raise AssertionError("the hand did not end")


def test_the_stored_state_and_seed_never_leave_the_server(table: Table) -> None:
    me = table.bot_game(seed=5)
    body = json.dumps(me.view())
    for secret in ('"sd"', '"bs"', '"sh"', '"salt"', '"deck"', "seed"):
        assert secret not in body


def test_the_bots_hidden_cards_and_the_stock_never_reach_the_human(table: Table) -> None:
    me = table.bot_game(seed=33)
    bot = 1
    ended = ("layoff", "hand_over", "game_over", "match_over")  # a knock reveals the knocker's melds
    while True:
        view = me.view()
        if view["phase"] in ended:
            live_until = len(me.seen) - 1
            break
        me.get("/events")
        me.get("/hint")
        mark = len(me.seen)
        if me.act(choose(view), view["version"])["view"]["phase"] in ended:
            live_until = mark
            break
    while me.view()["phase"] == "layoff":
        view = me.view()
        me.act(choose(view), view["version"])
    record = me.get("/hands/1").get_json()
    public = {record["upcard"]}
    held_by_bot = set(record["initial_hands"][bot])
    drawn = set()
    for action in record["actions"]:
        if action["type"] == "discard":
            public.add(action["card"])
        if action["type"] == "draw":
            drawn.add(action["card"])
            if action["source"] == "discard":
                public.add(action["card"])
            elif action["seat"] == bot:
                held_by_bot.add(action["card"])
        if action["type"] == "knock" and action["seat"] == bot and action.get("discard"):
            held_by_bot.add(action["discard"])
    never_dealt_or_drawn = (
        set(record["deck"]) - set(record["initial_hands"][0]) - set(record["initial_hands"][1])
    )
    never_dealt_or_drawn -= drawn | {record["upcard"]}
    forbidden = (held_by_bot - public) | never_dealt_or_drawn
    assert forbidden
    leaked = named_cards(me.seen[:live_until]) & forbidden
    assert not leaked, f"the human saw the bot's or the stock's cards {sorted(leaked)}"
    assert not named_cards(me.seen[live_until:-1]) & never_dealt_or_drawn


@pytest.mark.slow
def test_no_channel_reveals_a_hidden_card_over_random_games(client: FlaskClient) -> None:
    """Views, events (page, NDJSON, SSE), hints, errors of random probes, hand records, for both seats
    and a spectator, move after move (bench/bench_leaks.py runs the same over 1,000 games)."""
    figures = Figures()
    rng = random.Random(2026)
    for _ in range(4):
        play_one(client, rng, figures)
    assert figures.games == 4 and figures.moves > 40 and figures.probes > 80
    assert figures.leaks == []
