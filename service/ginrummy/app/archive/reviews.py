"""Reviews of finished matches: every decision of each seat judged by the master from what that seat knew
(:mod:`ginrummy.bots.review`), asked for by anyone who may read the match and computed by a bot worker —
some twenty seconds of CPU for a ten-hand match, never in a web request — then kept with the archived
match (:class:`~ginrummy.store.reviews.ReviewStore`).

``request`` answers at once: ``pending`` (the worker is on it: ask ``get`` again) or ``done``.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from ginrummy.bots.review import PLURALS, REVIEW_SAMPLES, THRESHOLDS, accuracy, judge, judged, verdict
from ginrummy.engine import Rules
from ginrummy.engine.replay import positions
from ginrummy.store.bot_jobs import BotQueue
from ginrummy.store.reviews import GameNotArchived, ReviewStore, StoredReview

from .. import security
from ..calls import Result
from ..errors import ServiceError
from .reading import iso
from .writing import Archiving

log = logging.getLogger(__name__)

POLL_AFTER = 2
"""Seconds a client is told to wait before it reads a pending review again (``Retry-After``)."""
LOST_AFTER = 300.0
"""Seconds after which a review still pending is queued again when it is asked for (its job was lost)."""


def not_archived(game_id: str) -> ServiceError:
    return ServiceError(
        "not_archived",
        f"the game {game_id!r} is not in the archive: a review is of a finished match (it is still being "
        "played, it is unknown, or it ended a moment ago)",
    )


class Reviews:
    """Asking for a review, reading it, and (in a bot worker) computing it."""

    def __init__(self, archiving: Archiving, store: ReviewStore, queue: BotQueue) -> None:
        self.archiving = archiving
        self.store = store
        self.queue = queue

    def request(self, game_id: str) -> Result:
        security.check_game_id(game_id)
        try:
            due = self.archiving.read(self.store.request, game_id)
        except GameNotArchived:
            raise not_archived(game_id) from None
        if due:
            self.queue.push_review(game_id)
        return self.get(game_id)

    def get(self, game_id: str) -> Result:
        security.check_game_id(game_id)
        try:
            stored = self.archiving.read(self.store.get, game_id)
        except GameNotArchived:
            raise not_archived(game_id) from None
        if stored is None:
            raise ServiceError(
                "review_not_found", f"no review of {game_id!r} was asked for: POST …/review asks for one"
            )
        pending = stored.status == "pending"
        waited = (dt.datetime.now(dt.UTC) - stored.requested_at).total_seconds()
        if pending and waited > LOST_AFTER and self.archiving.read(self.store.again, game_id, LOST_AFTER):
            self.queue.push_review(game_id)
        return Result(shown(game_id, stored), pending=pending, retry_after=POLL_AFTER if pending else None)

    def compute(self, game_id: str) -> str:
        """The review of a match asked for (a bot worker's job): ``done``, ``failed`` or ``stale`` (not
        pending: done meanwhile, or never asked for)."""
        try:
            stored = self.store.get(game_id)
        except GameNotArchived:
            return "stale"
        archived = self.archiving.archive.match(game_id)
        if stored is None or stored.status != "pending" or archived is None:
            return "stale"
        started = time.process_time()
        try:
            rules = Rules.from_dict(archived.document["rules"])
            hands = [orjson.loads(h) for h in self.archiving.archive.hands(game_id)]
            done = review_match(rules, hands)
        except Exception:  # a bug or a record it cannot read: said, kept as failed (it may be asked again)
            log.exception("the review of %s failed", game_id)
            self.store.fail(game_id)
            return "failed"
        self.store.save(game_id, orjson.dumps(done).decode(), time.process_time() - started)
        return "done"


def shown(game_id: str, stored: StoredReview) -> dict[str, Any]:
    """A review's answer: its status, when it was asked for and done, and the review once done."""
    return {
        "game_id": game_id,
        "status": stored.status,
        "requested_at": iso(stored.requested_at),
        "finished_at": iso(stored.finished_at) if stored.finished_at else None,
        "review": orjson.loads(stored.review) if stored.review is not None else None,
    }


def review_match(
    rules: Rules, hands: Sequence[Mapping[str, Any]], samples: int = REVIEW_SAMPLES
) -> dict[str, Any]:
    """A match's review from its hands' records (as exported): every judged decision of each seat, in
    order (``hand``, ``index`` in the hand's moves, ``seat``, and the judgement), and for each seat its
    accuracy and how many inaccuracies, mistakes and blunders it made. Each decision is judged from the
    seat's own view, rebuilt by the engine (:func:`ginrummy.engine.replay.positions`): the bots never see
    a game, only views."""
    moves: list[dict[str, Any]] = []
    losses: list[list[float]] = [[], []]
    for position in positions(rules, hands):
        if not judged(position.view):
            continue
        judgement = judge(position.view, position.action, samples)
        moves.append(
            {"hand": position.hand, "index": position.index, "seat": position.seat, **judgement.to_json()}
        )
        losses[position.seat].append(judgement.loss)
    seats = []
    for seat, lost in enumerate(losses):
        verdicts = [verdict(loss) for loss in lost]
        seats.append(
            {
                "seat": seat,
                "accuracy": accuracy(lost),
                "decisions": len(lost),
                "points_lost": round(sum(lost), 1),
                **{PLURALS[name]: verdicts.count(name) for name, _ in reversed(THRESHOLDS)},
            }
        )
    return {
        "seats": seats,
        "moves": moves,
        "thresholds": {name: points for name, points in THRESHOLDS},
        "samples": samples,
    }
