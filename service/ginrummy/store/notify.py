"""Commit notifications: one Redis pub/sub listener per process wakes every request waiting on a game.

Every commit publishes the game's new version on the channel ``gin:{G}:n`` (inside the commit script,
so a notification is never sent for a change that did not happen). A process that has requests waiting
for events (long polls, NDJSON and SSE streams) keeps ONE pattern subscription (``gin:*:n``) on one
connection, in one background thread (a greenlet under gunicorn's gevent worker), and fans each message
out to the requests waiting on that game: waiting costs no Redis command and no poll, however many
clients wait.

Pub/sub delivers at most once: while the listener is not subscribed (Redis restarting, a Sentinel
failover, a Cluster node gone) messages are lost. So the listener wakes every waiter each time it
(re)subscribes, and waiters look at the game again by themselves every :data:`RECHECK` seconds while
the listener is subscribed, every :data:`RECHECK_UNSUBSCRIBED` seconds while it is not: a lost message
delays an event, it never loses one (the events themselves are in the game's list, not in the message).

Under Redis Cluster a classic ``PUBLISH`` reaches every node, so one subscription on any node hears the
commits of all of them.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import redis.exceptions

log = logging.getLogger(__name__)

PATTERN = "gin:*:n"
RECHECK = 30.0  # seconds between a waiter's own looks at its game while the listener is subscribed
RECHECK_UNSUBSCRIBED = 0.5  # … and while it is not
RETRY_MAX = 2.0  # longest pause between two attempts to subscribe


def channel_of(game_id: str) -> str:
    """The channel a game's commits are announced on (the commit script derives it from the state key)."""
    return f"gin:{{{game_id}}}:n"


def _game_of(channel: bytes | str) -> str:
    text = channel.decode() if isinstance(channel, bytes) else channel
    return text[5:-3]  # gin:{G}:n


class Notifier:
    """Waits for commits of games. Threads (or greenlets) call :meth:`watch`; the listener starts on the
    first wait in each process (gunicorn forks its workers after the app is made)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self._lock = threading.Lock()
        self._waiters: dict[str, set[threading.Event]] = {}
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._stopping = threading.Event()
        self.subscribed = False

    @contextlib.contextmanager
    def watch(self, *game_ids: str) -> Iterator[threading.Event]:
        """An event that is set when the game may have changed (or any of several keys: a game and its
        chat); register BEFORE reading the game, so that a commit between the read and the wait is not
        missed. Clear it after each look."""
        self._ensure_listening()
        changed = threading.Event()
        with self._lock:
            for game_id in game_ids:
                self._waiters.setdefault(game_id, set()).add(changed)
        try:
            yield changed
        finally:
            with self._lock:
                for game_id in game_ids:
                    waiting = self._waiters.get(game_id)
                    if waiting is not None:
                        waiting.discard(changed)
                        if not waiting:
                            del self._waiters[game_id]

    def recheck_interval(self) -> float:
        return RECHECK if self.subscribed else RECHECK_UNSUBSCRIBED

    def waiting(self) -> int:
        """How many requests wait now (for metrics and tests)."""
        with self._lock:
            return sum(len(w) for w in self._waiters.values())

    def close(self) -> None:
        """Stop the listener (tests; a process that exits needs nothing)."""
        self._stopping.set()
        thread = self._thread
        if thread is not None and thread.is_alive() and thread is not threading.current_thread():
            thread.join(timeout=5)

    # --- the listener ------------------------------------------------------------------------------
    def _ensure_listening(self) -> None:
        pid = os.getpid()
        if self._pid == pid and self._thread is not None and self._thread.is_alive():
            return
        with self._lock:
            if self._pid == pid and self._thread is not None and self._thread.is_alive():
                return
            if self._pid != pid:  # a forked child: the parent's thread and waiters are not ours
                self._waiters.clear()
                self.subscribed = False
            self._pid = pid
            self._stopping.clear()
            self._thread = threading.Thread(target=self._listen, name="gin-notifier", daemon=True)
            self._thread.start()

    def _listen(self) -> None:
        pause = 0.05
        while not self._stopping.is_set():
            pubsub = None
            try:
                pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(PATTERN)
                if pubsub.connection is not None:
                    # redis-py reconnects and resubscribes by itself after a dropped connection: what was
                    # published meanwhile is lost, so every waiter looks at its game again.
                    pubsub.connection.register_connect_callback(self._reconnected)
                self._wake_all()  # whatever was committed while nobody listened
                self.subscribed = True
                pause = 0.05
                while not self._stopping.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message is not None and message.get("type") == "pmessage":
                        self._wake(_game_of(message["channel"]))
            except (redis.exceptions.RedisError, OSError) as error:
                if self.subscribed:
                    log.warning("commit notifications interrupted (%s); resubscribing", type(error).__name__)
                self.subscribed = False
                self._wake_all()
                self._stopping.wait(pause)
                pause = min(pause * 2, RETRY_MAX)
            finally:
                self.subscribed = False
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        pubsub.close()

    def _reconnected(self, connection: Any) -> None:
        self._wake_all()

    def _wake(self, game_id: str) -> None:
        with self._lock:
            waiting = list(self._waiters.get(game_id, ()))
        for changed in waiting:
            changed.set()

    def _wake_all(self) -> None:
        with self._lock:
            waiting = [changed for group in self._waiters.values() for changed in group]
        for changed in waiting:
            changed.set()


def wait_until(changed: threading.Event, deadline: float, interval: float) -> bool:
    """Wait for ``changed`` until ``deadline`` (monotonic), at most ``interval`` seconds; then clear it.
    Whether it was set (rather than the time being up)."""
    left = deadline - time.monotonic()
    woken = changed.wait(min(left, interval)) if left > 0 else changed.is_set()
    changed.clear()
    return woken
