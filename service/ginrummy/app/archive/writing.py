"""The way of every finished hand and match into PostgreSQL: exactly once, even when PostgreSQL is down
when it ends or the worker dies between the two stores.

1. **Outbox.** The commit that ends a hand writes the hand's record to the game's outbox in Redis (and
   the commit that ends the match, the match's record; both made by
   :mod:`ginrummy.app.playing.recording`) in the same atomic script as the move itself
   (:meth:`ginrummy.store.GameStore.commit`). Before that commit, the game is *announced* on the pending
   set: a worker killed after the commit leaves the game listed with its records.
2. **Drain.** Right after the commit, the request hands the game to its process's drainer thread
   (:meth:`Archiving.committed`) and answers: a move never waits for PostgreSQL, not even a slow or hung
   one. The drainer drains the game's outbox at once (:meth:`Archiving.drain`), with those of the games
   handed off while its last write went on (up to :data:`DRAIN_TX`): their records are written to
   PostgreSQL in one transaction, idempotently (a hand by ``(game, number)``, a match by its id, its
   ratings in the same transaction as the match's row), then taken out of the outboxes, and each game is
   taken off the pending set if nobody announced it again meanwhile. A record PostgreSQL refuses (a bug)
   holds back its own game only: the games of a refused transaction are then written one at a time.
3. **Retry.** Between hand-offs, the drainer of one process at a time (under a Redis lock) makes a pass
   over what is still pending a few seconds after its announcement:
   what a request could not write (PostgreSQL down, a worker killed). An announcement whose commit failed
   leaves nothing; it is settled once it is older than :data:`ANNOUNCE_GRACE`.
4. **Retire.** Once a finished match's record is in PostgreSQL, its Redis keys expire after
   ``GIN_FINISHED_TTL`` seconds (rematch offers, late readers); from then on it is read from the archive.
   Nothing of a finished match leaves Redis before it is archived: until then its keys keep the expiry
   of a game in play, and its outbox never expires.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import orjson

from ginrummy.store import (
    DatabaseBusy,
    DatabaseRefusedValue,
    DatabaseUnavailable,
    DatabaseUnreachable,
    GameStore,
    Stored,
)
from ginrummy.store.archive import (
    NO_STATE,
    Archive,
    HandRecord,
    MatchRecord,
    SeatRecord,
)
from ginrummy.store.games import STORE_FAILURES

from .. import metrics
from ..config import Config
from ..encoding import compact
from ..errors import ServiceError
from ..players import ratings

log = logging.getLogger(__name__)

MATCH_FIELD = "m"  # the outbox field of a finished match's record
ANNOUNCE_GRACE = 60.0  # seconds after which an announced game with an empty outbox is settled
RETRY_AFTER = 3.0  # seconds a pending game is left to its request before the drainer takes it
DRAIN_INTERVAL = 1.0  # seconds between two passes of the background drainer
DRAIN_BATCH = 100  # games per pass
DRAIN_TX = 50  # games whose outboxes one transaction writes, at most (what has queued up meanwhile)
LOCK_MS = 15_000
MAX_BACKOFF = 10.0  # seconds between passes while PostgreSQL keeps failing
FAILURE_LOG_INTERVAL = 60.0  # seconds between two warnings of a drainer that keeps failing
HANDOFF_MAX = 10_000  # games waiting for this process's drainer (past it, its passes pick them up)
SKIP_AFTER_FAILURE = 5.0  # seconds requests leave archiving to the drainer after a failed write
ARCHIVE_RETRY = 5  # seconds a reader of the archive is told to wait while PostgreSQL is down

T = TypeVar("T")


def _match_record(entry: dict[str, Any]) -> MatchRecord:
    seats = tuple(SeatRecord(s["n"], s["p"], int(s["pt"]), s["s"]) for s in entry["seats"])
    assert len(seats) == 2
    return MatchRecord(
        game_id=entry["id"],
        seats=(seats[0], seats[1]),
        rules=entry["rules"],
        family=entry["family"],
        clock=entry["clock"],
        rated=bool(entry["rated"]),
        private=bool(entry.get("private")),  # (outboxes written before it have none: public)
        winner=entry["winner"],
        end_reason=entry["end"],
        started_at=float(entry["started"]),
        finished_at=float(entry["finished"]),
        hands=int(entry["hands"]),
        version=int(entry["version"]),
        state=entry["state"],
        document=entry["doc"],
    )


def archive_records(game_id: str, records: dict[str, str]) -> tuple[list[HandRecord], list[MatchRecord]]:
    """What :meth:`Archive.write` is given for a game's outbox (fields ``h:<n>`` and ``m``, as
    :func:`ginrummy.app.playing.recording.outbox_records` made them): its hands and its match (at most
    one)."""
    hands = []
    matches = []
    for name, text in records.items():
        entry = orjson.loads(text)
        if name == MATCH_FIELD:
            matches.append(_match_record(entry))
        else:
            hands.append(HandRecord(game_id, int(name[2:]), compact(entry["r"]), float(entry["at"])))
    return hands, matches


def export(
    document: dict[str, Any], hands: list[Any], changes: list[dict[str, Any] | None]
) -> dict[str, Any]:
    """The whole match in one document: the archived document with every hand and the rating changes."""
    doc = dict(document)
    doc["hands"] = hands
    doc["ratings"] = [
        None
        if change is None
        else {
            "before": None if change["before"] is None else ratings.shown(*change["before"]),
            "after": ratings.shown(*change["after"]),
        }
        for change in changes
    ]
    return doc


def unavailable(error: Exception) -> ServiceError:
    log.warning("the archive (PostgreSQL) failed a read: %s", error)
    return ServiceError(
        "archive_unavailable",
        "the archive of finished games does not answer; games in play go on — try again shortly",
        retry_after=ARCHIVE_RETRY,
    )


class Archiving:
    """Drains outboxes into the archive, retires archived matches from Redis, and reads them back."""

    def __init__(self, store: GameStore, archive: Archive, config: Config) -> None:
        self.store = store
        self.archive = archive
        self.config = config
        self._skip_until = 0.0  # after a failed write, hand-offs are left to the drainer's passes a while
        self._refused_games: set[str] = set()  # games whose records PostgreSQL refused (told once)
        # Games whose commits just wrote to their outbox, for this process's drainer thread.
        self.handoff: queue.Queue[tuple[str, float]] = queue.Queue(maxsize=HANDOFF_MAX)

    # --- reads --------------------------------------------------------------------------------------
    def stored(self, game_id: str) -> Stored | None:
        """A finished match as archived (its final state), or None. 503 while PostgreSQL is down."""
        found = self.read(self.archive.match, game_id)
        if found is None or found.state == NO_STATE:
            return None  # a game copied from an old release's records has no state to show: only its export
        return Stored(found.version, found.state, archived=True)

    def read(self, what: Callable[..., T], *args: Any) -> T:
        """``what(*args)``, a read of the archive, with PostgreSQL's failures as ``archive_unavailable``
        (but a pool busy with other requests: ``DatabaseBusy``, 429 ``overloaded``)."""
        try:
            return what(*args)
        except (DatabaseBusy, DatabaseRefusedValue):  # (a value of the request refused: its fault, a 4xx)
            raise
        except DatabaseUnavailable as error:
            raise unavailable(error) from None

    def committed(self, game_id: str, announced: float) -> None:
        """A commit announced ``announced`` wrote records to the game's outbox: the process's drainer
        writes them (a full hand-off queue leaves them to the drainer's next pass)."""
        with contextlib.suppress(queue.Full):
            self.handoff.put_nowait((game_id, announced))

    def drain(self, games: Sequence[tuple[str, float]]) -> bool:
        """Write the outboxes of these games — handed off by the requests that committed them, with their
        announcements — to PostgreSQL in one transaction, empty them and settle the announcements. True
        when it went through; a failure is logged and left to the drainer's passes (the records stay)."""
        if time.monotonic() < self._skip_until:
            return False
        try:
            self._drain(games, committed=True)
        except (DatabaseUnavailable, *STORE_FAILURES) as error:
            metrics.record_archive_failure()
            self._skip_until = time.monotonic() + SKIP_AFTER_FAILURE
            log.warning("archiving %d game(s) is left to the drainer: %s", len(games), error)
            return False
        return True

    def drain_pending(self, now: float | None = None) -> int:
        """One pass over the pending set: drain the games announced more than :data:`RETRY_AFTER`
        seconds ago, :data:`DRAIN_TX` a transaction; settle those whose outbox is empty and whose
        announcement is old enough that its commit is over. Returns how many games were written. Raises
        on a failure of PostgreSQL."""
        now = time.time() if now is None else now
        found = self.store.pending(now - RETRY_AFTER, DRAIN_BATCH)
        return sum(
            self._drain(found[start : start + DRAIN_TX], committed=False, now=now)
            for start in range(0, len(found), DRAIN_TX)
        )

    def _drain(self, games: Sequence[tuple[str, float]], *, committed: bool, now: float | None = None) -> int:
        """Write these games' outboxes together and settle their announcements: at once when
        ``committed`` (the requests that announced them handed them off after their commits), else once
        older than :data:`ANNOUNCE_GRACE` (a commit may still be under way). Returns how many games were
        written; a game whose records PostgreSQL refuses keeps them, and its announcement."""
        latest: dict[str, float] = {}  # a game handed off twice (a hand, then the match): its last commit
        for game_id, announced in games:
            latest[game_id] = max(announced, latest.get(game_id, announced))
        ids = list(latest)
        outboxes = {
            game_id: found for game_id, found in zip(ids, self.store.outboxes(ids), strict=True) if found
        }
        written = self._write(outboxes) if outboxes else set()
        now = time.time() if now is None else now
        self.store.settle(
            (game_id, announced)
            for game_id, announced in latest.items()
            if (game_id not in outboxes or game_id in written)
            and (committed or announced < now - ANNOUNCE_GRACE)
        )
        return len(written)

    def _write(self, outboxes: dict[str, dict[str, str]]) -> set[str]:
        """Archive these outboxes in one transaction; when PostgreSQL refuses it (a value it will not
        take, not a failure to reach it), one game at a time, so that one bad record holds back only its
        own game. Returns the games written. Raises when PostgreSQL cannot be reached."""
        parsed: dict[str, tuple[dict[str, str], list[HandRecord], list[MatchRecord]]] = {}
        for game_id, records in outboxes.items():
            try:
                parsed[game_id] = (records, *archive_records(game_id, records))
            except (ValueError, KeyError, TypeError) as error:  # a bug: its records stay, the others go on
                self._refused(game_id, error)
        if not parsed:
            return set()
        try:
            self._write_together(parsed)
            return set(parsed)
        except DatabaseUnreachable:
            raise
        except DatabaseUnavailable as error:
            if len(parsed) == 1:
                self._refused(next(iter(parsed)), error)
                return set()
        written = set()
        for game_id, one in parsed.items():
            try:
                self._write_together({game_id: one})
            except DatabaseUnreachable:
                raise
            except DatabaseUnavailable as error:
                self._refused(game_id, error)
            else:
                written.add(game_id)
        return written

    def _write_together(
        self, parsed: dict[str, tuple[dict[str, str], list[HandRecord], list[MatchRecord]]]
    ) -> None:
        hands = [hand for _, found, _ in parsed.values() for hand in found]
        matches = [match for _, _, found in parsed.values() for match in found]
        started = time.perf_counter()
        self.archive.write(hands, matches, ratings.rate)
        metrics.record_archived(len(hands), len(matches), time.perf_counter() - started)
        self.store.clear_outboxes({game_id: records for game_id, (records, _, _) in parsed.items()})
        if matches:
            self.store.retire([match.game_id for match in matches], self.config.finished_ttl)

    def _refused(self, game_id: str, error: Exception) -> None:
        """A game whose records cannot be archived (a bug): they stay in its outbox, the game stays
        pending (the archive's lag shows it), and it is told once per process."""
        metrics.record_archive_failure()
        if game_id not in self._refused_games:
            self._refused_games.add(game_id)
            log.error(
                "the archive refuses the records of game %s; they stay in its outbox: %s", game_id, error
            )

    def status(self) -> dict[str, Any]:
        """The outbox's depth (games pending) and the archive's lag (seconds since the oldest one)."""
        count, oldest = self.store.pending_summary()
        return {"pending": count, "lag_seconds": 0.0 if oldest is None else max(0.0, time.time() - oldest)}


class Drainer:
    """The drainer of one process: a daemon thread (a greenlet under gevent) that writes the outboxes
    the requests hand it (:meth:`Archiving.committed`) as they come, and between them, every
    :data:`DRAIN_INTERVAL` seconds while it holds the deployment's drain lock, makes a pass over what is
    still pending (:meth:`Archiving.drain_pending`), backing off while PostgreSQL fails."""

    def __init__(self, archiving: Archiving) -> None:
        self.archiving = archiving
        self.owner = uuid.uuid4().hex
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="gin-archive-drainer", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        archiving = self.archiving
        wait = DRAIN_INTERVAL
        next_pass = time.monotonic() + wait
        told = 0.0  # when a failure was last logged: once a minute while they go on, not every pass
        while not self._stop.is_set():
            try:
                handed = [archiving.handoff.get(timeout=max(0.0, next_pass - time.monotonic()))]
            except queue.Empty:
                pass
            else:
                # With it, what has queued up while the last write went on: one transaction for them all.
                with contextlib.suppress(queue.Empty):
                    while len(handed) < DRAIN_TX:
                        handed.append(archiving.handoff.get_nowait())
                try:
                    archiving.drain(handed)
                except Exception:  # a bug: logged, and the records stay for the next pass
                    log.exception("archiving %d game(s) failed", len(handed))
                continue
            try:
                if archiving.store.hold_drain_lock(self.owner, LOCK_MS):
                    archiving.drain_pending()
                wait, told = DRAIN_INTERVAL, 0.0
            except Exception as error:  # noqa: BLE001 — nothing may end the drainer for the life of the process
                metrics.record_archive_failure()
                wait = min(MAX_BACKOFF, wait * 2)
                if time.monotonic() - told > FAILURE_LOG_INTERVAL:
                    told = time.monotonic()
                    known = isinstance(error, (DatabaseUnavailable, *STORE_FAILURES))
                    log.warning(
                        "the archive's drainer fails (retrying every %.0f s at most): %s",
                        wait,
                        error,
                        exc_info=not known,
                    )
            next_pass = time.monotonic() + wait
