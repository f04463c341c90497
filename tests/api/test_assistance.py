"""What the service offers besides play, and what it must refuse (issue 22's outside trials): undo
never reveals a knocker's cards, engine assistance only against bots, refusals list the same legal
actions as the view, a retried rematch gets the same answer, and small things a player trips on."""

from __future__ import annotations

import threading
from typing import Any

from flask.testing import FlaskClient

from .gameplay import PROBLEM, Seat, Table, play_hand


def passive(view: dict[str, Any]) -> dict[str, Any]:
    """A player who never knocks: takes the stock (or passes the upcard), discards the first card
    listed, lays off as the engine would."""
    legal = view["legal_actions"]
    for wanted in ({"type": "layoff", "best": True}, {"type": "deal"}):
        for action in legal:
            if all(action.get(k) == v for k, v in wanted.items()):
                return action
    for action in legal:
        if action["type"] == "draw" and action["source"] == "stock" or action["type"] == "pass":
            return action
    return next(a for a in legal if a["type"] == "discard")


def test_undo_is_refused_once_the_bot_has_knocked_and_the_view_says_so(table: Table) -> None:
    me = table.bot_game(opponent={"type": "bot", "bot": "knocker"})
    for _ in range(200):
        view = me.view()
        if view["phase"] == "layoff" and view["turn"] == me.seat:
            break  # the bot knocked: its melds are on the table
        assert view["phase"] not in ("hand_over", "game_over", "match_over"), "the bot never knocked"
        moved = me.post("/actions", passive(view), version=view["version"])
        assert moved.status_code == 200, moved.get_json()
    else:
        raise AssertionError("the bot never knocked")
    assert view["can_undo"] is False and view["can_hint"] is True
    refused = me.post("/undo", None, version=view["version"])
    assert refused.status_code == 409 and refused.get_json()["code"] == "cannot_undo", refused.get_json()
    assert me.view()["version"] == view["version"] and me.view()["phase"] == "layoff"  # nothing changed


def test_can_undo_follows_the_seats_own_moves(table: Table) -> None:
    me = table.bot_game()
    first = me.view()
    assert first["can_undo"] is (first["turn"] != me.seat)  # the bot moved first: undo is possible
    moved = me.act(passive(first), first["version"])["view"]
    assert moved["can_undo"] is True
    undone = me.post("/undo", None, version=moved["version"])
    assert undone.status_code == 200 and undone.get_json()["view"]["can_undo"] is (first["turn"] != me.seat)


def test_no_engine_assistance_between_two_people(table: Table) -> None:
    ann, bob = table.human_game()
    view = ann.view()
    mover = ann if view["turn"] == ann.seat else bob
    current = mover.view()
    assert current["your_move"] and not current["can_hint"] and not current["can_undo"]
    hint = mover.get("/hint")
    assert hint.status_code == 409 and hint.get_json()["code"] == "hint_not_allowed"
    while current["hand"]["cards"].__len__() != 11:
        current = mover.act(passive(current), current["version"])["view"]
        if current["turn"] != mover.seat:
            mover = ann if mover is bob else bob
            current = mover.view()
    assert "discards" not in current["hand"]  # no per-card deadwood numbers against a person
    assert current["hand"]["deadwood"] >= 0 and "melds" in current["hand"]


def test_a_bot_game_keeps_hints_and_the_discard_numbers(table: Table) -> None:
    me = table.bot_game()
    view = me.view()
    while len(view["hand"]["cards"]) != 11:
        view = me.act(passive(view), view["version"])["view"]
    assert view["can_hint"] and view["hand"]["discards"]
    assert me.get("/hint").status_code == 200


def test_after_the_match_a_refusal_lists_the_rematch_as_the_view_does(table: Table) -> None:
    ann, bob = table.human_game()
    resigned = ann.post("/resign", None, version=ann.view()["version"])
    assert resigned.status_code == 200
    view = ann.view()
    assert view["legal_actions"] == [{"type": "rematch", "kind": "match"}]
    again = ann.post("/resign", None, version=view["version"])
    assert again.status_code == 409 and again.headers["Content-Type"] == PROBLEM
    assert again.get_json()["legal_actions"] == view["legal_actions"]


def test_a_rematch_offer_retried_at_once_with_its_key_gets_the_same_answer(
    table: Table, client: FlaskClient
) -> None:
    ann, bob = table.human_game()
    assert ann.post("/resign", None, version=ann.view()["version"]).status_code == 200
    answers: list[Any] = [None, None]
    start = threading.Barrier(2)

    def offer(slot: int) -> None:
        seat = Seat(client.application.test_client(), ann.game_id, ann.seat, ann.token)
        start.wait()
        answers[slot] = seat.post("/rematch", None, headers={"Idempotency-Key": "offer-1"})

    threads = [threading.Thread(target=offer, args=(slot,)) for slot in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [200, 200], [a.get_json() for a in answers]
    assert answers[0].get_json() == answers[1].get_json()
    assert {"true"} <= {a.headers.get("Idempotent-Replayed") for a in answers}
    assert ann.view()["rematch"]["offered_by"] == [ann.seat]


def test_the_hand_a_resignation_cut_short_says_it_is_never_revealed(table: Table) -> None:
    ann, bob = table.human_game()
    assert ann.post("/resign", None, version=ann.view()["version"]).status_code == 200
    missing = ann.get("/hands/1")
    assert missing.status_code == 404
    assert "never revealed" in missing.get_json()["detail"], missing.get_json()


def test_clock_presets_for_people(table: Table) -> None:
    for preset, bank, increment in (("blitz", 180, 2), ("rapid", 600, 5), ("classical", 1800, 10)):
        ann, bob = table.human_game(clock={"preset": preset})
        clock = ann.view()["clock"]
        assert (clock["bank"], clock["increment"]) == (bank, increment)
        assert max(clock["remaining"]) == bank and min(clock["remaining"]) > bank - 5  # one seat's runs


def test_the_root_leads_to_the_web_client(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 302 and response.headers["Location"].endswith("/play/")


def test_play_hand_helper_still_plays_between_people(table: Table) -> None:
    """The story helper the other tests use works without the per-discard numbers."""
    last = play_hand(table.human_game())
    assert last["result"] is not None


def test_a_rematch_in_seed_mode_deals_other_hands(table: Table, client: FlaskClient) -> None:
    """With the match's own seed a rematch replayed the very same deals (the expert's figures against
    an outside bot looked like one match played over and over)."""
    me = table.bot_game(seed=11)
    first = me.view()
    assert me.post("/resign", None, version=first["version"]).status_code == 200
    accepted = me.post("/rematch", None)
    assert accepted.status_code == 200, accepted.get_json()
    rematch = Seat(client, accepted.get_json()["events"][0]["game_id"], me.seat, me.token).view()
    # The same deck with the dealer switched would give me the bot's first hand: none of my own cards.
    assert set(rematch["hand"]["cards"]) & set(first["hand"]["cards"])


def test_a_bot_named_by_its_name_is_that_bot(client: FlaskClient) -> None:
    created = client.post("/v1/games", json={"opponent": {"type": "bot", "name": "expert"}})
    assert created.status_code == 201
    assert created.get_json()["view"]["players"][1]["bot"] == "expert"
