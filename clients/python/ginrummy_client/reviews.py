"""``client.reviews``: reviews of finished matches (docs/api.md, *Reviews*) — asking for one, reading it,
and waiting while a bot worker of the service computes it.

``POST /v1/games/{id}/review`` asks, ``GET`` reads; both answer 202 ``pending`` while the worker is on
it, 200 ``done`` (or ``failed``: it may be asked for again) once it is there. :func:`wait_for_review` asks
only when there is nothing to read yet — a POST counts against the service's budget of costly requests, a
GET costs nothing —, then reads the review again after the ``Retry-After`` the service sent, or else after
a pause that doubles from half a second up to a few seconds, until it is done or has failed.

>>> [poll_delay(attempt, None) for attempt in range(5)], poll_delay(0, 7.0)
([0.5, 1.0, 2.0, 3.0, 3.0], 7.0)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import cast

from .errors import ReviewNotFound, ReviewTimeout
from .game import game_path
from .models import Review
from .resource import Resource
from .transport import Reply, Requestor, retry_after

FIRST_PAUSE = 0.5
"""Seconds before the first read of a pending review (a short match takes a worker a second or two)."""
LONGEST_PAUSE = 3.0
"""The longest pause between two reads of a pending review when the service does not say how long."""
UNDONE = "pending"
"""The one status that is waited out; ``done`` and ``failed`` end the wait."""


def review_path(game_id: str) -> str:
    """The path of a match's review.

    >>> review_path("g1")
    '/v1/games/g1/review'
    """
    return game_path(game_id, "review")


def poll_delay(attempt: int, asked: float | None) -> float:
    """Seconds to wait before reading a pending review again (``attempt``: how many reads were pending
    so far, less one): what the service ``asked`` for in ``Retry-After``, else half a second doubling, at
    most :data:`LONGEST_PAUSE`."""
    if asked is not None:
        return asked
    return min(LONGEST_PAUSE, FIRST_PAUSE * float(2**attempt))


def status_of(reply: Reply) -> tuple[Review, float | None]:
    """A review's answer and the ``Retry-After`` it came with."""
    return cast(Review, reply.data), retry_after(reply.headers.get("Retry-After"))


def request_review(requestor: Requestor, game_id: str) -> tuple[Review, float | None]:
    """Ask for the review of a finished match (nothing new is computed when it is pending or done)."""
    return status_of(requestor.request("POST", review_path(game_id)))


def read_review(requestor: Requestor, game_id: str) -> tuple[Review, float | None]:
    """The review of a finished match as it stands (:class:`ReviewNotFound` when none was asked for)."""
    return status_of(requestor.request("GET", review_path(game_id)))


def wait_for_review(
    requestor: Requestor,
    game_id: str,
    timeout: float | None,
    sleep: Callable[[float], None] = time.sleep,
) -> Review:
    """The review of a finished match once it is ``done`` or has ``failed``: read, asked for when there is
    none (or a failed one: asked again, once), then read again after each pause (:func:`poll_delay`) —
    the last one cut short at the deadline — until it is. :class:`ReviewTimeout` when it is still pending
    after ``timeout`` seconds (None: no limit); ``sleep`` is how a pause is waited (an application may
    show the time going by meanwhile)."""
    started = time.monotonic()
    try:
        status, asked = read_review(requestor, game_id)
    except ReviewNotFound:
        status, asked = request_review(requestor, game_id)
    else:
        if status["status"] == "failed":
            status, asked = request_review(requestor, game_id)
    attempt = 0
    while status["status"] == UNDONE:
        waited = time.monotonic() - started
        left = None if timeout is None else timeout - waited
        if left is not None and left <= 0:
            raise ReviewTimeout(game_id, waited, status)
        pause = poll_delay(attempt, asked)
        sleep(pause if left is None else min(pause, left))
        status, asked = read_review(requestor, game_id)
        attempt += 1
    return status


class Reviews(Resource):
    """The master's reviews of finished matches: every decision of each seat judged from what that seat
    knew."""

    def request(self, game_id: str) -> Review:
        """Ask for the review of a finished match and return where it stands: ``pending`` while a bot
        worker of the service computes it (read it with :meth:`get`, or wait with :meth:`wait`), ``done``
        with the ``review`` when it was there already (asking again costs nothing), ``failed`` never (a
        failed one is asked for anew). :class:`NotArchived` for a match not (yet) in the archive."""
        return request_review(self.requestor, game_id)[0]

    def get(self, game_id: str) -> Review:
        """The review of a finished match as it stands: ``pending``, ``done`` (with ``review``: seats'
        accuracy and counts, the judged moves) or ``failed`` (ask again). :class:`ReviewNotFound` when
        none was asked for, :class:`NotArchived` for a match not (yet) in the archive."""
        return read_review(self.requestor, game_id)[0]

    def wait(
        self,
        game_id: str,
        timeout: float | None = 300.0,
        *,
        sleep: Callable[[float], None] = time.sleep,
    ) -> Review:
        """The review of a finished match once it is ``done`` (or has ``failed``), asked for when there is
        none yet, then read again as the service's ``Retry-After`` says, else after pauses from 0.5 s
        doubling to 3 s. :class:`ReviewTimeout` when it is still pending after ``timeout`` seconds (None:
        wait as long as it takes) — the review goes on in the service; :class:`NotArchived` for a match
        not (yet) in the archive. ``sleep(seconds)`` waits each pause (e.g. to show the time passing)."""
        return wait_for_review(self.requestor, game_id, timeout, sleep)
