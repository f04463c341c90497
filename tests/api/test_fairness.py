"""The fair shuffle: the view commits to the deck before play; the finished hand reveals deck and salt."""

from __future__ import annotations

import hashlib
import json

from ginrummy.app.playing.fairness import verify

from .gameplay import Table, play_hand


def test_a_finished_hand_proves_its_deck_was_fixed_at_the_deal(table: Table) -> None:
    ann, bob = table.human_game(seed=None)
    commitment = ann.view()["commitment"]
    assert bob.view()["commitment"] == commitment
    initial = [ann.view()["hand"]["cards"], bob.view()["hand"]["cards"]]
    play_hand((ann, bob))
    record = ann.get("/hands/1").get_json()
    shuffle = record["shuffle"]
    assert shuffle["commitment"] == commitment
    # What a client does (docs/api.md): recompute the hash, then check the deal against the deck.
    digest = hashlib.sha256(f"{shuffle['salt']}:{','.join(shuffle['deck'])}".encode()).hexdigest()
    assert digest == commitment and verify(shuffle)
    assert sorted(shuffle["deck"]) == sorted(r + s for r in "A23456789TJQK" for s in "CDHS")
    assert [sorted(h) for h in record["initial_hands"]] == [sorted(h) for h in initial]
    dealt = set(shuffle["deck"][:20])
    assert dealt == set(initial[0]) | set(initial[1])
    assert shuffle["deck"][20] == record["upcard"]


def test_the_salt_is_secret_while_the_hand_is_live(table: Table) -> None:
    me = table.bot_game()
    assert me.get("/hands/1").status_code == 404
    raw = json.dumps([me.view(), me.get("/events").get_json()])
    assert '"salt"' not in raw and '"deck"' not in raw


def test_every_deal_has_a_new_commitment(table: Table) -> None:
    ann, bob = table.human_game()
    first = ann.view()["commitment"]
    last = play_hand((ann, bob))
    dealt = ann.act({"type": "deal"}, last["version"])
    assert dealt["view"]["commitment"] != first
    deal_event = next(e for e in dealt["events"] if e["type"] == "deal")
    assert deal_event["commitment"] == dealt["view"]["commitment"]
