"""The lobby against a real redis-server and a real 3-master Cluster: quick matching pairs compatible
seekers only, a seek is taken, completed, released or cancelled, everything expires, the owner is
notified — and hundreds of simultaneous quick seekers end up in pairs, none twice and none left over."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from ginrummy.store import Lobby, SeekIncompatible, SeekNotFound, SeekNotOpen, make_client, new_seek_id
from ginrummy.store.notify import Notifier

RULES = '{"preset": "standard", "target": 100}'


def own_database(url: str) -> str:
    """The suite's server, database 5, which no service of the suite uses: the services list their lobby
    (database 0, the fuzzer's 1), and these seeks are the store's own (their rules, families and ratings are
    this file's), not ones a service wrote."""
    return url.rsplit("/", 1)[0] + "/5"


@pytest.fixture
def client(redis_url: str) -> Iterator[Any]:
    client = make_client(own_database(redis_url))
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def lobby(client: Any) -> Lobby:
    return Lobby(client)


@pytest.fixture
def family() -> str:
    """Each test seeks in a family of its own: the tests share one server (and one lobby)."""
    return "fam-" + uuid.uuid4().hex[:8]


def _seek(who: str, family: str, **fields: Any) -> dict[str, Any]:
    seek: dict[str, Any] = {"player": f"{who}-{family}", "family": family, "rules": RULES, "rated": True}
    seek["secret_hash"] = "secret-of-" + seek["player"]
    seek.update(fields)
    return seek


def test_two_compatible_quick_seekers_are_paired(lobby: Lobby, family: str) -> None:
    ann = _seek("Ann", family, rating=1520.5, min_rating=1400)
    assert lobby.post(ann, quick=True) is None  # nobody waits yet: Ann's seek is stored, open
    assert ann["id"].startswith("s")
    assert [seek["id"] for seek in lobby.open_seeks(family=family)] == [ann["id"]]

    bob = _seek("Bob", family)
    claimed = lobby.post(bob, quick=True)
    assert claimed is not None
    assert claimed == lobby.get(ann["id"])
    assert claimed["status"] == "claimed" and claimed["taker"] == bob["player"]
    assert claimed["claimed_at"] >= claimed["created"] > time.time() - 60
    assert {k: claimed[k] for k in ("player", "rating", "min_rating", "max_rating", "rules", "rated")} == {
        "player": ann["player"], "rating": 1520.5, "min_rating": 1400, "max_rating": None,
        "rules": RULES, "rated": True,
    }  # fmt: skip
    assert lobby.get(bob["id"]) is None  # the taker's own seek is never stored
    assert lobby.open_seeks(family=family) == []


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({}, {"rules": '{"preset": "oklahoma"}'}),
        ({}, {"rated": False}),
        ({"player": "Same"}, {"player": "SAME"}),  # the same player, in another case
        ({"min_rating": 1600}, {"rating": 1599}),  # the second is below the first's range
        ({"max_rating": 1400}, {}),  # no rating counts as 1500: above the first's range
        ({"rating": 1800}, {"max_rating": 1700}),  # the first is above the second's range
        ({}, {"min_rating": 1501}),
    ],
)
def test_incompatible_seekers_are_not_paired(
    lobby: Lobby, family: str, first: dict[str, Any], second: dict[str, Any]
) -> None:
    a, b = _seek("A", family, **first), _seek("B", family, **second)
    assert lobby.post(a, quick=True) is None
    assert lobby.post(b, quick=True) is None
    assert [seek["id"] for seek in lobby.open_seeks(family=family)] == [a["id"], b["id"]]


def test_ratings_in_range_are_paired_and_a_missing_rating_counts_as_the_default(
    lobby: Lobby, family: str
) -> None:
    a = _seek("A", family, min_rating=1450, max_rating=1550)  # no rating: 1500 for B's range
    assert lobby.post(a, quick=True) is None
    claimed = lobby.post(_seek("B", family, rating=1550, min_rating=1500, max_rating=1500), quick=True)
    assert claimed is not None and claimed["id"] == a["id"]


def test_a_seek_posted_without_quick_is_never_paired_and_the_oldest_is_taken_first(
    lobby: Lobby, family: str
) -> None:
    first, second = _seek("A", family), _seek("B", family)
    assert lobby.post(first, quick=False) is None
    assert lobby.post(second, quick=False) is None  # compatible, but not a quick match: both wait
    claimed = lobby.post(_seek("C", family), quick=True)
    assert claimed is not None and claimed["id"] == first["id"]
    assert [seek["id"] for seek in lobby.open_seeks(family=family)] == [second["id"]]
    assert second["id"] in [seek["id"] for seek in lobby.open_seeks(limit=1000)]  # every family


def test_a_retried_post_is_not_posted_twice(lobby: Lobby, family: str) -> None:
    seek = _seek("A", family, id=new_seek_id())
    assert lobby.post(seek, quick=False) is None
    assert lobby.post(dict(seek), quick=True) is None
    assert len(lobby.open_seeks(family=family)) == 1


def test_a_seek_needs_a_player_and_known_fields(lobby: Lobby, family: str) -> None:
    with pytest.raises(ValueError, match="player"):
        lobby.post({"family": family, "rules": RULES, "rated": True}, quick=True)
    with pytest.raises(ValueError, match="colour"):
        lobby.post(_seek("A", family, colour="red"), quick=True)
    seek = _seek("A", family, created=1.0, min_rating=None)  # None: not set; created: the server's clock
    lobby.post(seek, quick=False)
    stored = lobby.get(seek["id"])
    assert stored is not None and stored["created"] > time.time() - 60 and stored["min_rating"] is None


def test_taking_a_seek_checks_it_and_claims_it(lobby: Lobby, family: str) -> None:
    seek = _seek("Ann", family, min_rating=1400, max_rating=1600)
    lobby.post(seek, quick=False)
    with pytest.raises(SeekNotFound):
        lobby.take(new_seek_id(), "Bob", None)
    with pytest.raises(SeekIncompatible) as own:
        lobby.take(seek["id"], seek["player"].upper(), 1500)
    with pytest.raises(SeekIncompatible) as rating:
        lobby.take(seek["id"], "Bob", 1399.5)
    assert (own.value.reason, rating.value.reason) == ("own_seek", "rating")

    claimed = lobby.take(seek["id"], "Bob", 1600)
    assert (claimed["status"], claimed["taker"], claimed["taker_rating"]) == ("claimed", "Bob", 1600.0)
    with pytest.raises(SeekNotOpen) as taken:
        lobby.take(seek["id"], "Cid", None)
    assert taken.value.status == "claimed"
    assert lobby.open_seeks(family=family) == []


def test_completing_a_claim_matches_the_seek_and_notifies_its_owner(
    lobby: Lobby, client: Any, family: str
) -> None:
    seek = _seek("Ann", family)
    lobby.post(seek, quick=False)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(Lobby.channel(seek["id"]))
    notifier = Notifier(client)
    try:
        with notifier.watch("seek-" + seek["id"]) as changed:
            # (Not changed.wait(): the listener's wake-up on subscribing may come before this watch.)
            deadline = time.monotonic() + 5
            while not notifier.subscribed and time.monotonic() < deadline:
                time.sleep(0.01)
            assert notifier.subscribed
            changed.clear()
            lobby.take(seek["id"], "Bob", None)
            with pytest.raises(SeekNotFound):
                lobby.complete(new_seek_id(), "g1", "x")
            lobby.complete(seek["id"], "gGame1", "sealed-token")
            assert changed.wait(5)  # the owner's waiter is woken
        message = None
        deadline = time.monotonic() + 5
        while message is None and time.monotonic() < deadline:  # None also for the subscription's reply
            message = pubsub.get_message(timeout=1)
        assert message is not None and message["channel"] == f"gin:{{seek-{seek['id']}}}:n".encode()
    finally:
        notifier.close()
        pubsub.close()

    matched = lobby.get(seek["id"])
    assert matched is not None
    assert (matched["status"], matched["game_id"], matched["sealed"]) == ("matched", "gGame1", "sealed-token")
    assert matched["matched_at"] >= matched["claimed_at"]
    assert 0 < client.ttl(Lobby.seek_key(seek["id"])) <= lobby.matched_ttl
    lobby.complete(seek["id"], "gGame1", "sealed-token")  # a retry of the same completion is fine
    with pytest.raises(SeekNotOpen):
        lobby.complete(seek["id"], "gOther", "sealed-token")
    lobby.release(seek["id"])  # a matched seek is not released
    assert lobby.get(seek["id"])["status"] == "matched"  # type: ignore[index]


def test_a_released_claim_is_open_again(lobby: Lobby, family: str) -> None:
    seek = _seek("Ann", family)
    lobby.post(seek, quick=False)
    lobby.take(seek["id"], "Bob", 1500)
    lobby.release(seek["id"])
    reopened = lobby.get(seek["id"])
    assert reopened is not None
    assert (reopened["status"], reopened["taker"], reopened["taker_rating"], reopened["claimed_at"]) == (
        "open", None, None, None,
    )  # fmt: skip
    assert [s["id"] for s in lobby.open_seeks(family=family)] == [seek["id"]]
    with pytest.raises(SeekNotOpen):
        lobby.complete(seek["id"], "gGame", "x")  # no longer claimed
    assert lobby.take(seek["id"], "Cid", None)["taker"] == "Cid"


def test_only_the_owner_cancels_an_open_seek(lobby: Lobby, client: Any, family: str) -> None:
    seek = _seek("Ann", family)
    lobby.post(seek, quick=False)
    assert not lobby.cancel(seek["id"], "a wrong secret")
    assert not lobby.cancel(seek["id"], "")
    assert lobby.cancel(seek["id"], seek["secret_hash"])
    assert lobby.get(seek["id"])["status"] == "cancelled"  # type: ignore[index]
    assert 0 < client.ttl(Lobby.seek_key(seek["id"])) <= lobby.matched_ttl
    assert lobby.open_seeks(family=family) == []
    assert lobby.cancel(seek["id"], seek["secret_hash"])  # a retried cancel
    assert not lobby.cancel(seek["id"], "a wrong secret")
    with pytest.raises(SeekNotOpen) as caught:
        lobby.take(seek["id"], "Bob", None)
    assert caught.value.status == "cancelled"
    claimed = _seek("Cid", family)
    lobby.post(claimed, quick=False)
    lobby.take(claimed["id"], "Dan", None)
    assert not lobby.cancel(claimed["id"], claimed["secret_hash"])  # too late: it is claimed


def test_an_open_seek_expires_and_leaves_no_index_entry(client: Any, family: str) -> None:
    lobby = Lobby(client, seek_ttl=1)
    old = _seek("Old", family)
    lobby.post(old, quick=False)
    assert 0 < client.ttl(Lobby.seek_key(old["id"])) <= 1
    assert client.ttl(Lobby.OPEN) > 0 and client.ttl(Lobby.family_key(family)) > 0
    time.sleep(1.1)
    assert lobby.get(old["id"]) is None
    assert lobby.open_seeks(family=family) == []
    new = _seek("New", family)
    assert lobby.post(new, quick=True) is None  # the expired seek is not claimed…
    assert client.zscore(Lobby.family_key(family), old["id"]) is None  # …and its entries are pruned
    assert client.zscore(Lobby.OPEN, old["id"]) is None
    assert client.zscore(Lobby.family_key(family), new["id"]) is not None


def test_a_claim_whose_game_is_never_made_lapses(client: Any, family: str) -> None:
    lobby = Lobby(client, claim_timeout=0.2)
    seek = _seek("Ann", family)
    lobby.post(seek, quick=False)
    lobby.take(seek["id"], "Bob", None)  # …and the service dies before it makes the game
    assert client.ttl(Lobby.seek_key(seek["id"])) > lobby.matched_ttl  # kept for the claim and after
    assert lobby.get(seek["id"])["status"] == "claimed"  # type: ignore[index]
    time.sleep(0.3)
    assert lobby.get(seek["id"])["status"] == "open"  # type: ignore[index]
    claimed = lobby.post(_seek("Cid", family), quick=True)
    assert claimed is not None and claimed["id"] == seek["id"] and claimed["taker"] == f"Cid-{family}"
    lobby.complete(seek["id"], "gGame", "sealed")
    assert lobby.get(seek["id"])["taker"] == f"Cid-{family}"  # type: ignore[index]


@pytest.mark.parametrize("topology", ["single", "cluster"])
def test_hundreds_of_simultaneous_quick_seekers_end_up_in_pairs(
    request: pytest.FixtureRequest, topology: str, family: str
) -> None:
    url = request.getfixturevalue("redis_url" if topology == "single" else "redis_cluster_url")
    client = make_client(own_database(url) if topology == "single" else url, max_connections=64)
    lobby = Lobby(client)
    seekers = 240
    barrier = threading.Barrier(seekers)
    outcomes: dict[str, dict[str, Any] | None] = {}
    posted: dict[str, str] = {}
    errors: list[BaseException] = []

    def seek(index: int) -> None:
        mine = _seek(f"p{index}", family, rating=1500 + index % 7)
        try:
            barrier.wait()
            outcomes[mine["player"]] = lobby.post(mine, quick=True)
            posted[mine["player"]] = mine["id"]
        except BaseException as error:  # reported by the assert below
            errors.append(error)

    threads = [threading.Thread(target=seek, args=(i,)) for i in range(seekers)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        claims = {taker: seek for taker, seek in outcomes.items() if seek is not None}
        for taker, claim in claims.items():
            assert claim["status"] == "claimed" and claim["taker"] == taker
            lobby.complete(claim["id"], "g-" + claim["id"], "sealed-for-" + claim["player"])

        waited = {player: posted[player] for player, seek in outcomes.items() if seek is None}
        claimed_ids = [claim["id"] for claim in claims.values()]
        owners = [claim["player"] for claim in claims.values()]
        assert len(claims) == seekers // 2
        assert len(set(claimed_ids)) == len(claimed_ids)  # no seek claimed twice
        assert set(claimed_ids) == set(waited.values())  # every stored seek was claimed
        assert set(owners) == set(waited) and not set(owners) & set(claims)  # nobody on both sides
        assert set(owners) | set(claims) == set(outcomes) and len(outcomes) == seekers
        assert lobby.open_seeks(family=family) == []  # nobody left waiting
        for seek_id in waited.values():
            matched = lobby.get(seek_id)
            assert matched is not None and matched["status"] == "matched"
            assert matched["game_id"] == "g-" + seek_id
        for taker in claims:
            assert lobby.get(posted[taker]) is None  # a taker's own seek was never stored
    finally:
        client.close()


def test_the_lobby_keys_share_one_slot(client: Any) -> None:
    keys = [Lobby.OPEN, Lobby.CLAIMED, Lobby.seek_key(new_seek_id()), Lobby.family_key("oklahoma")]
    assert len({redis.crc.key_slot(key.encode()) for key in keys}) == 1
