"""The game store against a real redis-server: versions, atomic commits, events, expiry, one hash slot."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
import redis
from ginrummy.store import (
    GameExists,
    GameMissing,
    GameStore,
    Idempotency,
    IdempotencyKeyUsed,
    StaleVersion,
    make_client,
)
from ginrummy.store.account_live import AccountLive
from ginrummy.store.challenges import ChallengeStore
from ginrummy.store.game_scripts import ARGS_LUA, COMMIT_LUA, CREATE_LUA, SCRIPT_FIELDS
from redis.crc import key_slot


@pytest.fixture
def store(redis_url: str) -> GameStore:
    return GameStore(make_client(redis_url), live_ttl=600, events_maxlen=5)


@pytest.fixture
def game_id() -> str:
    return uuid.uuid4().hex


def test_a_created_game_loads_at_version_one(store: GameStore, game_id: str) -> None:
    store.create(game_id, "doc-1", ["e1", "e2"])
    loaded = store.load(game_id)
    assert loaded is not None
    assert (loaded.version, loaded.doc) == (1, "doc-1")
    assert store.read_events(game_id, None) == [("1-1", "e1"), ("1-2", "e2")]


def test_a_doc_may_contain_newlines_and_braces(store: GameStore, game_id: str) -> None:
    store.create(game_id, 'meta\n{"g": 1}\n')
    loaded = store.load(game_id)
    assert loaded is not None and loaded.doc == 'meta\n{"g": 1}\n'


def test_creating_twice_is_refused(store: GameStore, game_id: str) -> None:
    store.create(game_id, "a")
    with pytest.raises(GameExists):
        store.create(game_id, "b")
    assert store.load(game_id).doc == "a"  # type: ignore[union-attr]


def test_an_unknown_game_loads_as_none_and_cannot_be_committed(store: GameStore, game_id: str) -> None:
    assert store.load(game_id) is None
    with pytest.raises(GameMissing):
        store.commit(game_id, 1, "x")


def test_a_commit_bumps_the_version_and_appends_events(store: GameStore, game_id: str) -> None:
    store.create(game_id, "a", ["e1"])
    assert store.commit(game_id, 1, "b", ["e2", "e3"]) == 2
    assert store.load(game_id).doc == "b"  # type: ignore[union-attr]
    assert store.read_events(game_id, "1-1") == [("2-1", "e2"), ("2-2", "e3")]


def test_a_stale_commit_changes_nothing(store: GameStore, game_id: str) -> None:
    store.create(game_id, "a", ["e1"])
    store.commit(game_id, 1, "b")
    with pytest.raises(StaleVersion) as caught:
        store.commit(game_id, 1, "c", ["never"], hand_records={1: "r"})
    assert caught.value.current == 2
    assert store.load(game_id).doc == "b"  # type: ignore[union-attr]
    assert store.read_events(game_id, None) == [("1-1", "e1")]
    assert store.hand_record(game_id, 1) is None


def test_of_two_racing_commits_exactly_one_applies(store: GameStore, game_id: str) -> None:
    store.create(game_id, "a")
    barrier = threading.Barrier(8)
    results: list[str] = []

    def racer(n: int) -> None:
        barrier.wait()
        try:
            store.commit(game_id, 1, f"doc-{n}", [f"ev-{n}"])
            results.append(f"doc-{n}")
        except StaleVersion:
            results.append("stale")

    threads = [threading.Thread(target=racer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [r for r in results if r != "stale"]
    assert len(winners) == 1
    loaded = store.load(game_id)
    assert loaded is not None and (loaded.version, loaded.doc) == (2, winners[0])
    assert len(store.read_events(game_id, None)) == 1


def test_the_event_stream_is_trimmed(store: GameStore, game_id: str) -> None:
    store.create(game_id, "a")
    for version in range(1, 5):
        store.commit(game_id, version, "a", ["x", "y"])
    events = store.read_events(game_id, None)
    assert len(events) == 5
    assert store.first_event_id(game_id) == events[0][0] == "3-2"


def test_hand_records_and_idempotency_records_are_written_with_the_commit(
    store: GameStore, game_id: str
) -> None:
    store.create(game_id, "a")
    store.commit(game_id, 1, "b", hand_records={1: "hand one"}, idempotency=Idempotency("k1", "resp"))
    assert store.hand_record(game_id, 1) == "hand one"
    loaded, record = store.load_with_record(game_id, "k1")
    assert loaded is not None and loaded.version == 2
    assert record == "resp"
    with pytest.raises(IdempotencyKeyUsed) as caught:
        store.commit(game_id, 2, "c", idempotency=Idempotency("k1", "other"))
    assert caught.value.record == "resp"
    assert store.load(game_id).version == 2  # type: ignore[union-attr]


def test_one_commit_writes_each_of_its_parts_to_its_own_key(store: GameStore, game_id: str) -> None:
    """Events, finished hands, the idempotency record and the outbox travel as named parts of one script
    call (SCRIPT_FIELDS): each lands where it belongs, whatever the others' counts."""
    store.create(game_id, "a", ["e0"], outbox={"h:0": "before"})
    version = store.commit(
        game_id,
        1,
        "b",
        ["e1", "e2", "e3"],
        hand_records={1: "one", 2: "two"},
        idempotency=Idempotency("k", "answer"),
        outbox={"h:1": "one", "m": "the match"},
    )
    assert version == 2
    assert store.read_events(game_id, None) == [("1-1", "e0"), ("2-1", "e1"), ("2-2", "e2"), ("2-3", "e3")]
    assert [store.hand_record(game_id, n) for n in (1, 2)] == [None, "two"]  # one hand kept
    loaded, record = store.load_with_record(game_id, "k")
    assert loaded is not None and (loaded.version, loaded.doc, record) == (2, "b", "answer")
    assert store.outbox(game_id) == {"h:0": "before", "h:1": "one", "m": "the match"}


def test_the_scripts_read_their_arguments_by_name() -> None:
    for script in (COMMIT_LUA, CREATE_LUA):
        body = script.removeprefix(ARGS_LUA)
        assert "ARGV" not in body, "a script indexes ARGV: read args.<field> instead"
    used = {name for script in (COMMIT_LUA, CREATE_LUA) for name in SCRIPT_FIELDS if f"args.{name}" in script}
    assert used == set(SCRIPT_FIELDS), f"fields no script reads: {set(SCRIPT_FIELDS) - used}"


def test_only_the_last_finished_hands_are_kept(redis_url: str, game_id: str) -> None:
    store = GameStore(make_client(redis_url), hands_kept=2)
    store.create(game_id, "a")
    for number in range(1, 5):
        store.commit(game_id, number, "a", hand_records={number: f"hand {number}"})
    assert [store.hand_record(game_id, n) for n in range(1, 5)] == [None, None, "hand 3", "hand 4"]


def test_every_key_shares_one_hash_slot_and_expires(store: GameStore, game_id: str, redis_url: str) -> None:
    store.create(game_id, "a", ["e"], idempotency=Idempotency("c", "created"))
    store.commit(game_id, 1, "b", ["f"], hand_records={1: "r"}, idempotency=Idempotency("k", "v"))
    raw = redis.Redis.from_url(redis_url)
    keys = store.keys_of(game_id)
    assert len(keys) == 6  # state, events, hands, two idempotency records and the set that lists them
    assert all(f"{{{game_id}}}" in k for k in keys)
    assert len({key_slot(k.encode()) for k in keys}) == 1
    for key in keys:
        assert 0 < raw.ttl(key) <= 600


def test_the_outbox_is_written_with_the_commit_and_never_expires(
    store: GameStore, game_id: str, redis_url: str
) -> None:
    store.create(game_id, "a", ["e"], idempotency=Idempotency("c", "created"))
    announced = store.announce(game_id)
    store.commit(game_id, 1, "b", ["f"], outbox={"h:1": "hand one", "m": "the match"})
    assert store.outbox(game_id) == {"h:1": "hand one", "m": "the match"}
    raw = redis.Redis.from_url(redis_url)
    assert raw.ttl(store.outbox_key(game_id)) == -1  # no expiry: it waits for PostgreSQL however long
    assert game_id in [game for game, _ in store.pending(announced + 1, 100_000)]
    # A commit that fails leaves no record in the outbox.
    with pytest.raises(StaleVersion):
        store.commit(game_id, 1, "c", ["g"], outbox={"h:2": "never"})
    assert set(store.outbox(game_id)) == {"h:1", "m"}

    assert store.retire([game_id], 5) == [False]  # refused while records wait
    store.clear_outboxes({game_id: ["h:1", "m"]})
    assert store.retire([game_id], 5) == [True]
    keys = store.keys_of(game_id)
    assert store.outbox_key(game_id) not in keys and keys  # the emptied outbox is gone
    assert all(0 < raw.ttl(key) <= 5 for key in keys)  # idempotency records included
    # A change of a finished match (a rematch offer) keeps the expiry the archive set.
    store.commit(game_id, 2, "d", ["h"], keep_ttl=True)
    assert 0 < raw.ttl(store.state_key(game_id)) <= 5
    # A game whose first hand ends as it is created (a bot's first move) has its record in the outbox.
    other = game_id + "-2"
    store.create(other, "a", ["e"], idempotency=Idempotency("c", "created"), outbox={"h:1": "first hand"})
    assert store.outbox(other) == {"h:1": "first hand"}


def test_an_announcement_is_settled_only_if_nobody_announced_again(store: GameStore, game_id: str) -> None:
    first = store.announce(game_id)
    time.sleep(0.002)
    second = store.announce(game_id)
    assert second > first
    other = uuid.uuid4().hex
    third = store.announce(other)
    assert store.settle([(game_id, first), (other, third)]) == 1  # announced again since: it stays listed
    listed = [game for game, _ in store.pending(time.time() + 1, 10_000)]
    assert game_id in listed and other not in listed
    assert store.settle([(game_id, second)]) == 1
    assert game_id not in [game for game, _ in store.pending(time.time() + 1, 10_000)]
    assert store.settle([]) == 0


def test_waiting_for_events_returns_when_one_arrives(store: GameStore, game_id: str) -> None:
    store.create(game_id, "a", ["e1"])
    timer = threading.Timer(0.2, lambda: store.commit(game_id, 1, "b", ["e2"]))
    timer.start()
    try:
        events = store.read_events(game_id, "1-1", wait_ms=10_000)
    finally:
        timer.join()
    assert events == [("2-1", "e2")]


def test_ping(store: GameStore) -> None:
    assert store.ping()


def _commit_story(store: GameStore, game_id: str) -> None:
    """The store's whole contract on one topology: create, commit, stale, events, records, idempotency."""
    store.create(game_id, "a", ["e1"], idempotency=Idempotency("c", "created"))
    assert (
        store.commit(game_id, 1, "b", ["e2"], hand_records={1: "r1"}, idempotency=Idempotency("k", "v")) == 2
    )
    with pytest.raises(StaleVersion):
        store.commit(game_id, 1, "c")
    with pytest.raises(IdempotencyKeyUsed):
        store.commit(game_id, 2, "c", idempotency=Idempotency("k", "other"))
    loaded, record = store.load_with_record(game_id, "k")
    assert loaded is not None and (loaded.version, loaded.doc) == (2, "b") and record == "v"
    assert store.read_events(game_id, "1-1") == [("2-1", "e2")]
    assert store.hand_record(game_id, 1) == "r1"
    assert len(store.keys_of(game_id)) == 6
    # The archive's outbox and the retirement of an archived match (one slot: fine on a Cluster).
    # Several games at once (in other slots): outboxes read and cleared, games settled and retired.
    other = game_id + "-2"
    announced = store.announce(game_id)
    store.commit(game_id, 2, "d", ["e3"], outbox={"m": "match"})
    store.create(other, "a", ["e1"], outbox={"h:1": "hand", "m": "match"})
    assert store.outboxes([game_id, other]) == [{"m": "match"}, {"h:1": "hand", "m": "match"}]
    store.clear_outboxes({game_id: ["m"], other: ["h:1"]})
    assert store.retire([game_id, other], 1) == [True, False]  # the other still holds its match's record
    assert store.settle([(game_id, announced)]) == 1


def test_the_store_works_on_a_redis_cluster(redis_cluster_url: str, game_id: str) -> None:
    _commit_story(GameStore(make_client(redis_cluster_url)), game_id)


def test_the_store_works_through_sentinel(redis_sentinel_url: str, game_id: str) -> None:
    _commit_story(GameStore(make_client(redis_sentinel_url)), game_id)


def test_one_drainer_holds_the_drain_lock_until_it_lapses(redis_url: str) -> None:
    # A database of its own: the apps of other tests run drainers that take the lock on database 0.
    store = GameStore(make_client(redis_url.rsplit("/", 1)[0] + "/3"))
    store.client.delete(store.DRAIN_LOCK)
    assert store.hold_drain_lock("me", 300) and store.hold_drain_lock("me", 300)  # taken, then extended
    assert not store.hold_drain_lock("other", 300)
    time.sleep(0.4)
    assert store.hold_drain_lock("other", 300)  # lapsed: another process takes over


def test_account_events_and_challenges_work_on_a_redis_cluster(redis_cluster_url: str) -> None:
    """The account stream's events (a stream per player, announced on its channel) and challenges (a
    compare-and-set on one key, indexes in other slots) on a real three-master Cluster."""
    client = make_client(redis_cluster_url)
    live = AccountLive(client, live_ttl=60)
    players = [f"p{uuid.uuid4().hex[:6]}" for _ in range(3)]
    live.publish(players, '{"type":"challenge"}')
    for player in players:
        assert [text for _, text in live.events(player, "0-0")] == ['{"type":"challenge"}']
    timer = threading.Timer(0.2, lambda: live.publish(players[:1], '{"type":"gameStart"}'))
    timer.start()
    try:
        last = live.last_event_id(players[0])
        woke = live.events(players[0], last, wait=5)  # woken by the announcement, not by the timeout
    finally:
        timer.join()
    assert [text for _, text in woke] == ['{"type":"gameStart"}']
    challenges = ChallengeStore(client)
    challenge_id = uuid.uuid4().hex[:16]
    challenges.create(challenge_id, {"id": challenge_id}, time.time() + 60, players[:2])
    assert challenges.of_player(players[1]) == [challenge_id]
    assert challenges.move(challenge_id, "open", "accepted", {"id": challenge_id, "game_id": "g"})
    assert not challenges.move(challenge_id, "open", "canceled", {"id": challenge_id})
    assert challenges.get_many([challenge_id, "nope"]) == [
        ("accepted", {"id": challenge_id, "game_id": "g"}),
        None,
    ]
