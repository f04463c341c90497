"""Commit notifications: a waiting reader is woken by the commit (one pub/sub listener), never by polling."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from ginrummy.store import EmbeddedRedis, GameStore, make_client
from ginrummy.store.notify import channel_of


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A redis-server of these tests alone: they count the commands it runs, which others must not add to
    (a stream of another test winding down still reads its game every second)."""
    with EmbeddedRedis(tmp_path_factory.mktemp("notify") / "redis") as server:
        yield server.url


@pytest.fixture
def store(own_redis: str) -> Iterator[GameStore]:
    store = GameStore(make_client(own_redis), live_ttl=600)
    yield store
    store.notifier.close()


@pytest.fixture
def game_id() -> str:
    return "g" + uuid.uuid4().hex


def _until(what: str, check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.01)


def _calls(store: GameStore, command: str) -> int:
    stats: dict[str, Any] = store.client.info("commandstats")
    return int(stats.get(f"cmdstat_{command}", {}).get("calls", 0))


def _wait_in_thread(store: GameStore, game_id: str, after: str) -> tuple[threading.Thread, dict[str, Any]]:
    result: dict[str, Any] = {}
    with store.notifier.watch("warm-up"):  # the listener subscribes (and wakes everyone) once, now
        _until("the listener subscribes", lambda: store.notifier.subscribed)

    def wait() -> None:
        result["rows"] = store.read_events(game_id, after, wait_ms=60_000)

    reads = _calls(store, "lrange")
    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    # Registered, then read once (nothing new): now it sleeps until a commit of its game.
    _until("the reader waits", lambda: store.notifier.waiting() == 1 and _calls(store, "lrange") == reads + 1)
    return thread, result


def test_a_commit_publishes_the_new_version_on_the_games_channel(store: GameStore, game_id: str) -> None:
    pubsub = store.client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel_of(game_id))
    store.create(game_id, "doc-1", ["e1"])
    store.commit(game_id, 1, "doc-2", ["e2"])
    message = None
    deadline = time.monotonic() + 10
    while message is None and time.monotonic() < deadline:
        message = pubsub.get_message(timeout=1.0)
    pubsub.close()
    assert message is not None and message["data"] == b"2"


def test_a_waiting_reader_is_woken_by_the_commit_without_polling(store: GameStore, game_id: str) -> None:
    store.create(game_id, "doc-1", ["e1"])
    reads_before, lindex_before = _calls(store, "lrange"), _calls(store, "lindex")
    thread, result = _wait_in_thread(store, game_id, "1-1")
    time.sleep(1.0)  # a polling reader would have looked at the game several times by now
    reads_while_waiting = _calls(store, "lrange") - reads_before
    store.commit(game_id, 1, "doc-2", ["e2"])
    thread.join(timeout=30)
    assert not thread.is_alive(), "the commit did not wake the reader"
    assert result["rows"] == [("2-1", "e2")]
    assert reads_while_waiting == 1  # the one read after registering, then nothing until the commit
    assert _calls(store, "lrange") - reads_before == 2  # … and one read when the commit woke it
    assert _calls(store, "lindex") == lindex_before
    assert store.notifier.waiting() == 0


def test_a_reader_still_gets_the_commit_after_the_subscription_was_cut(
    store: GameStore, game_id: str
) -> None:
    """Pub/sub loses what is published while nobody listens: the listener wakes every waiter when it
    subscribes again, and the waiter reads the game's list, where the events are."""
    store.create(game_id, "doc-1", ["e1"])
    thread, result = _wait_in_thread(store, game_id, "1-1")
    killed = store.client.client_kill_filter(_type="pubsub")
    assert killed >= 1
    store.commit(game_id, 1, "doc-2", ["e2"])
    thread.join(timeout=30)
    assert not thread.is_alive(), "the reader was not woken after the subscription was cut"
    assert result["rows"] == [("2-1", "e2")]
    _until("the listener subscribes again", lambda: store.notifier.subscribed)


def test_readers_of_other_games_sleep_on(store: GameStore, game_id: str) -> None:
    other = game_id + "x"
    store.create(game_id, "doc-1", ["e1"])
    store.create(other, "doc-1", ["e1"])
    thread, result = _wait_in_thread(store, other, "1-1")
    reads_before = _calls(store, "lrange")
    store.commit(game_id, 1, "doc-2", ["e2"])
    time.sleep(0.5)
    assert thread.is_alive() and _calls(store, "lrange") == reads_before
    store.commit(other, 1, "doc-2", ["o2"])
    thread.join(timeout=30)
    assert result["rows"] == [("2-1", "o2")]
