"""Stories of whole hands and whole games played through the API."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.support import choose

from .gameplay import Seat, Table, play_hand


def play_against_bot(me: Seat, until: str, max_moves: int = 2000) -> dict:
    """Play my seat until the view's phase is in ``until`` (the bot answers inside each request)."""
    for _ in range(max_moves):
        view = me.view()
        if view["phase"] in until.split("|"):
            return view
        assert view["turn"] in (0, None), "the bot must have answered inside the request"
        me.act(choose(view), view["version"])
    raise AssertionError(f"never reached {until}")


def test_a_new_game_against_a_bot_shows_my_seat_and_a_dealt_hand(table: Table) -> None:
    me, created = table.create(opponent={"type": "bot", "bot": "simple"}, name="Ann")
    view = created["view"]
    assert created["seat"] == 0 and created["invitation"] is None
    assert len(created["token"]) >= 22
    assert view["game_id"] == me.game_id and view["version"] == 1
    assert len(view["hand"]["cards"]) in (10, 11)
    assert view["opponent"]["card_count"] in (10, 11)
    assert view["players"][0] == {"seat": 0, "name": "Ann", "type": "human", "joined": True, "player": None}
    assert view["players"][1]["type"] == "bot" and view["players"][1]["bot"] == "simple"
    assert len(view["commitment"]) == 64
    assert view["legal_actions"], "the bot's opening replies are made at creation: it is my turn"
    deal = created["events"][0]
    assert deal["type"] == "deal" and deal["cards"] == view["hand"]["cards"]
    assert deal["commitment"] == view["commitment"]


def test_a_full_hand_against_the_bot(table: Table) -> None:
    me = table.bot_game()
    view = play_against_bot(me, "hand_over|game_over|match_over")
    assert view["result"] is not None
    assert view["hands"][0]["number"] == 1
    record = me.get("/hands/1").get_json()
    assert record["number"] == 1 and record["result"] == view["result"]
    # Every legal action of the finished hand is a deal, by either seat.
    assert (
        view["legal_actions"] == [{"type": "deal", "kind": "play"}, {"type": "resign", "kind": "match"}]
        and view["your_move"]
    )


def test_each_response_carries_the_bots_replies(table: Table) -> None:
    """A discard's response holds exactly: my discard, then the bot's draw and discard (or its knock)
    — the moves the hand's history gains, and the events any later reader of the log gets."""
    me = table.bot_game()
    checked = 0
    for _ in range(300):
        view = me.view()
        if checked == 5 or view["phase"] == "match_over":
            break
        if view["phase"] != "discard":  # draw, lay off, or deal the next hand
            me.act(choose(view), view["version"])
            continue
        before = len(view["history"])
        cursor = me.get("/events").get_json()["cursor"]
        action = choose(view)
        moved = me.act(action, view["version"])
        version = moved["version"]
        assert version == view["version"] + 1
        events = moved["events"]
        assert [e["id"] for e in events] == [f"{version}-{i}" for i in range(1, len(events) + 1)]
        # Exactly the events the log holds after my cursor, as my seat sees them.
        assert me.get(f"/events?after={cursor}").get_json()["events"] == events
        moves = [
            {k: v for k, v in e.items() if k != "id"} for e in events if e["type"] in ("draw", "discard")
        ]
        # A move's response leaves the history out (its events are what happened); GET has it.
        assert "history" not in moved["view"] and "stats" not in moved["view"]
        added = me.view()["history"][before:]
        assert {k: moves[0][k] for k in ("seat", *action)} == {"seat": 0, **action}
        if moved["view"]["phase"] == "draw":  # the bot drew and discarded: my turn again
            # Each move event says what the history entry says (events add e.g. the stock's size).
            assert len(moves) == len(added) == 3
            assert [{k: m.get(k) for k in h} for m, h in zip(moves, added, strict=True)] == added
            assert [m["type"] for m in moves] == ["discard", "draw", "discard"]
            assert moved["view"]["turn"] == 0
            # The bot's stock draw shows me its source, never its card.
            bot_draw = moves[1]
            assert ("card" in bot_draw) == (bot_draw["source"] == "discard")
            checked += 1
    assert checked == 5


def test_a_full_game_against_the_bot_to_the_end_of_the_match(table: Table) -> None:
    me = table.bot_game(rules={"preset": "standard", "options": {"target": 40}})
    view = play_against_bot(me, "match_over")
    scores = view["scores"]
    assert scores["match_over"] is True and scores["match_winner"] in (0, 1)
    assert (
        view["legal_actions"] == [{"type": "rematch", "kind": "match"}] and not view["your_move"]
    )  # a bot accepts at once
    assert len(view["hands"]) >= 1 and len(view["stats"]) == 2
    final = scores["games"][0]
    assert final["winner"] == scores["match_winner"]
    # Every finished hand stays readable: Redis keeps the last one (GIN_HANDS_KEPT=1), the archive all.
    numbers = [hand["number"] for hand in view["hands"]]
    for number in numbers:
        record = me.get(f"/hands/{number}").get_json()
        assert record["number"] == number and record["initial_hands"] and record["shuffle"]["salt"]
    assert me.get(f"/hands/{numbers[-1] + 1}").status_code == 404


def test_the_specific_action_endpoints_accept_their_bodies(table: Table) -> None:
    me = table.bot_game()
    for _ in range(300):
        view = me.view()
        if view["phase"] in ("hand_over", "game_over", "match_over"):
            break
        action = choose(view)
        kind = action.pop("type")
        body = None if kind in ("deal", "pass") else action
        response = me.post(f"/{kind}", body, version=view["version"])
        assert response.status_code == 200, response.get_json()
    else:
        raise AssertionError("the hand did not end")
    deal = me.post("/deal", None, version=me.view()["version"])
    assert deal.status_code == 200
    assert deal.get_json()["view"]["hand_number"] == 2


def test_two_humans_play_a_hand_after_joining_by_invitation(table: Table, client: FlaskClient) -> None:
    ann, bob = table.human_game()
    assert (ann.seat, bob.seat) == (0, 1)
    view = ann.view()
    assert view["players"][1] == {"seat": 1, "name": "Bob", "type": "human", "joined": True, "player": None}
    last = play_hand((ann, bob))
    assert last["result"] is not None
    # Between hands either human may deal.
    dealer = bob if last["hand_number"] % 2 else ann
    dealt = dealer.act({"type": "deal"}, last["version"])
    assert dealt["view"]["hand_number"] == 2


def test_undo_in_a_bot_game_takes_back_my_last_move(table: Table) -> None:
    me = table.bot_game()
    before = me.view()
    me.act(choose(before), before["version"])
    after = me.view()
    response = me.post("/undo", None, version=after["version"])
    assert response.status_code == 200, response.get_json()
    undone = response.get_json()["view"]
    assert undone["hand"]["cards"] == before["hand"]["cards"]
    assert undone["legal_actions"] == before["legal_actions"]


def test_a_hint_suggests_a_legal_action(table: Table) -> None:
    me = table.bot_game()
    view = me.view()
    hint = me.get("/hint").get_json()
    assert hint["action"] in view["legal_actions"]
    assert hint["explanation"]
    assert isinstance(hint["alternatives"], list)


@pytest.mark.parametrize(
    "preset", ["standard", "tournament", "big-gin-50", "oklahoma", "hollywood", "straight"]
)
def test_every_preset_plays_a_hand_and_reports_its_rules(table: Table, preset: str) -> None:
    me = table.bot_game(rules={"preset": preset, "options": {"max_discard_draws": 20}})
    view = play_against_bot(me, "hand_over|game_over|match_over")
    assert view["rules"]["max_discard_draws"] == 20
    assert view["result"] is not None
    if preset == "straight":
        assert view["rules"]["knock_limit"] == 0


def test_a_failing_bot_never_blocks_the_game(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    from ginrummy.bots import SimpleBot

    def broken(self: SimpleBot, view: dict) -> dict:
        raise RuntimeError("bot bug")

    monkeypatch.setattr(SimpleBot, "choose", broken)
    me = table.bot_game()
    view = play_against_bot(me, "hand_over|game_over|match_over")
    assert view["result"] is not None
