"""What the use cases count (Prometheus metrics): actions applied, games created and finished, the
house bots' decision times. The HTTP adapter's own figures (request latencies, rate-limit refusals, store
failures) and the ``/metrics`` endpoint are :mod:`ginrummy.http.observability`'s.
"""

from __future__ import annotations

import re

from prometheus_client import Counter, Gauge, Histogram

from ginrummy.engine.actions import KINDS

_BOT_BUCKETS = (0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

ACTIONS = Counter("gin_actions", "Game actions applied, by type (bots' actions included)", ["type"])
GAMES_CREATED = Counter("gin_games_created", "Games created")
GAMES_FINISHED = Counter("gin_games_finished", "Games (matches) played to the end")
ARCHIVED = Counter("gin_archived", "Records written to the archive (PostgreSQL), by kind", ["kind"])
ARCHIVE_FAILURES = Counter("gin_archive_failures", "Attempts to write the archive that failed (retried)")
ARCHIVE_WRITE = Histogram(
    "gin_archive_write_seconds",
    "Time one archive transaction (the outboxes of up to 50 games) took in PostgreSQL",
)
ARCHIVE_PENDING = Gauge(
    "gin_archive_pending", "Games whose records wait in the outbox for PostgreSQL", multiprocess_mode="max"
)
ARCHIVE_LAG = Gauge(
    "gin_archive_lag_seconds", "Age of the oldest record waiting for PostgreSQL", multiprocess_mode="max"
)
BOT_DECISION = Histogram(
    "gin_bot_decision_seconds", "Time a bot took to choose one action", ["bot"], buckets=_BOT_BUCKETS
)

# Label values come from fixed sets so that bad input can never grow the number of time series.
ACTION_TYPES = frozenset({*KINDS, "undo"})
_LABEL_RE = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


def label(value: str) -> str:
    """``value`` as a label value: itself when it is a plain short name, else ``other``."""
    return value if _LABEL_RE.match(value) else "other"


def record_action(action_type: str) -> None:
    """Count one applied action (``"draw"``, ``"discard"``, …; anything unknown counts as ``other``)."""
    ACTIONS.labels(type=action_type if action_type in ACTION_TYPES else "other").inc()


def record_game_created() -> None:
    """Count one new game."""
    GAMES_CREATED.inc()


def record_game_finished() -> None:
    """Count one game (match) played to its end."""
    GAMES_FINISHED.inc()


def observe_bot_decision(seconds: float, bot: str = "bot") -> None:
    """Record how long bot ``bot`` took to choose one action."""
    BOT_DECISION.labels(bot=label(bot)).observe(seconds)


def record_archived(hands: int, matches: int, seconds: float) -> None:
    """Count records written to the archive, and the time their transaction took."""
    ARCHIVED.labels(kind="hand").inc(hands)
    ARCHIVED.labels(kind="match").inc(matches)
    ARCHIVE_WRITE.observe(seconds)


def record_archive_failure() -> None:
    """Count a write to the archive that failed (the records wait in the outbox)."""
    ARCHIVE_FAILURES.inc()


def record_archive_status(pending: int, lag_seconds: float) -> None:
    """The outbox's depth and the archive's lag, as last seen."""
    ARCHIVE_PENDING.set(pending)
    ARCHIVE_LAG.set(lag_seconds)
