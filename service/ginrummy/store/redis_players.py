"""The players of releases before issue 19, as they were kept in Redis: read once, to be copied into
PostgreSQL by ``ginrummy-copy-players`` (:mod:`ginrummy.store.player_copy`). Nothing writes this layout
any more; this module only reads it.

Every key lives in the one Cluster hash slot ``{players}`` (on a Cluster, all on one master: SCAN of the
masters finds them there):

``gin:{players}:p:<folded>``     hash — ``name`` (as typed), ``created`` (epoch seconds), ``token`` (the
                                 digest of the player's token, as PostgreSQL keeps it; absent for the
                                 profiles the service made itself, the bots' fixed names),
                                 ``played``/``won``/``lost``/``drawn``, ``s:<stat>`` (summed per-seat
                                 statistics), ``r:<family>`` (JSON ``{"mu", "sigma", "games"}``)
``gin:{players}:t:<token_hash>`` string — the folded name of the token's player
``gin:{players}:g:<folded>``     list — the player's last 20 games, newest first: JSON ``{"game_id",
                                 "family" (a preset, "casual" when unrated), "rated", "reason",
                                 "opponent" (a player's name, null for an anonymous seat), "result"
                                 ("won", "lost", "drawn"), "finished_at" (epoch seconds), "rating_change"
                                 (the change of the ordinal, null when unrated)}``
``gin:{players}:lb:<family>``    sorted set — folded name scored by the ratings' ordinal (``mu - 3 * sigma``)
``gin:{players}:a:<game_id>``    string — the game was applied to the records (expired after 30 days)

``<folded>`` is ``name.casefold()``: names are unique whatever their case.

What the copy needs is the profiles and the recent-games lists: the token index repeats the profiles'
``token``, the leaderboards their ratings (PostgreSQL ranks by an index), and the applied markers guarded
writes that no longer happen. Values that cannot be read are reported as :class:`Unreadable`, never
guessed.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .games import _text

PREFIX = "gin:{players}:"
PROFILE_PREFIX = PREFIX + "p:"
RECENT_PREFIX = PREFIX + "g:"
COUNTERS = ("played", "won", "lost", "drawn")
RESULTS = ("won", "lost", "drawn", "aborted")
BATCH = 500  # profiles asked for in one SCAN step and read in one pipeline


@dataclass(frozen=True)
class OldRating:
    """A rating in a family: OpenSkill's (mu, sigma) and the rated games played in it."""

    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class OldProfile:
    """One player of the old layout."""

    folded: str  # <folded> of its keys
    name: str  # as typed
    created: float  # epoch seconds
    token_digest: str | None  # None: a profile made by the service (a bot's name)
    counters: Mapping[str, int]  # played, won, lost, drawn
    stats: Mapping[str, int]
    ratings: Mapping[str, OldRating]  # by family


@dataclass(frozen=True)
class OldGame:
    """One entry of a player's recent games."""

    game_id: str
    family: str
    rated: bool
    reason: str | None
    opponent: str | None  # the other seat's player, None when anonymous
    result: str  # of this player: won, lost, drawn
    finished_at: float  # epoch seconds
    rating_change: float | None


@dataclass(frozen=True)
class Unreadable:
    """A profile or an entry that is not what the old release wrote: the key and why."""

    key: str
    reason: str


def _count(value: Any, what: str) -> int:
    number = int(_text(value))
    if number < 0:
        raise ValueError(f"{what} is negative ({number})")
    return number


def _rating(raw: str, family: str) -> OldRating:
    value = json.loads(raw)
    rating = OldRating(float(value["mu"]), float(value["sigma"]), int(value["games"]))
    if not (
        math.isfinite(rating.mu) and math.isfinite(rating.sigma) and rating.sigma > 0 and rating.games >= 0
    ):
        raise ValueError(f"rating {family!r} is out of range ({raw})")
    return rating


def parse_profile(folded: str, fields: Mapping[Any, Any]) -> OldProfile:
    """A profile from its hash's fields. Raises ``ValueError`` (or ``KeyError``) saying what is wrong."""
    profile = {_text(k): _text(v) for k, v in fields.items()}
    name = profile.get("name", "")
    if not name.strip():
        raise ValueError("no name")
    created = float(profile["created"])
    if not math.isfinite(created) or created <= 0:
        raise ValueError(f"created is out of range ({profile['created']})")
    return OldProfile(
        folded=folded,
        name=name,
        created=created,
        token_digest=profile.get("token") or None,
        counters={counter: _count(profile.get(counter, 0), counter) for counter in COUNTERS},
        stats={k[2:]: int(v) for k, v in profile.items() if k.startswith("s:")},
        ratings={k[2:]: _rating(v, k[2:]) for k, v in profile.items() if k.startswith("r:")},
    )


def parse_game(raw: Any) -> OldGame:
    """A recent-games entry from its JSON. Raises ``ValueError`` (or ``KeyError``, ``TypeError``)."""
    entry = json.loads(_text(raw))
    game_id, result = str(entry["game_id"]), str(entry["result"])
    if not game_id:
        raise ValueError("no game_id")
    if result not in RESULTS:
        raise ValueError(f"result {result!r} is none of {', '.join(RESULTS)}")
    opponent, change = entry.get("opponent"), entry.get("rating_change")
    finished_at = float(entry["finished_at"])
    if not math.isfinite(finished_at) or finished_at <= 0:
        raise ValueError(f"finished_at is out of range ({entry['finished_at']})")
    return OldGame(
        game_id=game_id,
        family=str(entry.get("family") or "casual"),
        rated=bool(entry.get("rated")),
        reason=None if entry.get("reason") is None else str(entry["reason"]),
        opponent=str(opponent) if opponent else None,
        result=result,
        finished_at=finished_at,
        rating_change=None if change is None else float(change),
    )


class RedisPlayers:
    """Reads the old layout. ``client`` is any redis-py client (single, Sentinel master or Cluster) of
    :func:`~ginrummy.store.connection.make_client`."""

    def __init__(self, client: Any, *, batch: int = BATCH) -> None:
        self.client = client
        self.batch = max(1, batch)

    def profiles(self) -> Iterator[OldProfile | Unreadable]:
        """Every profile, each once, in SCAN's order (no order at all), read a batch at a time."""
        seen: set[str] = set()
        keys: list[str] = []
        for key in self.client.scan_iter(match=PROFILE_PREFIX + "*", count=self.batch):
            text = _text(key)
            if text not in seen:  # SCAN may return a key twice
                seen.add(text)
                keys.append(text)
            if len(keys) >= self.batch:
                yield from self._read_profiles(keys)
                keys = []
        yield from self._read_profiles(keys)

    def _read_profiles(self, keys: Sequence[str]) -> Iterator[OldProfile | Unreadable]:
        if not keys:
            return
        pipe = self.client.pipeline(transaction=False)
        for key in keys:
            pipe.hgetall(key)
        for key, fields in zip(keys, pipe.execute(), strict=True):
            if not fields:
                continue  # deleted since SCAN saw it
            try:
                yield parse_profile(key.removeprefix(PROFILE_PREFIX), fields)
            except (ValueError, KeyError, TypeError) as exc:
                yield Unreadable(key, f"{type(exc).__name__}: {exc}")

    def recent_games(self, folded: Sequence[str]) -> list[list[OldGame | Unreadable]]:
        """The recent games of each of these players (by the ``<folded>`` of their keys), newest first."""
        if not folded:
            return []
        pipe = self.client.pipeline(transaction=False)
        for name in folded:
            pipe.lrange(RECENT_PREFIX + name, 0, -1)
        out: list[list[OldGame | Unreadable]] = []
        for name, entries in zip(folded, pipe.execute(), strict=True):
            games: list[OldGame | Unreadable] = []
            for index, raw in enumerate(entries):
                try:
                    games.append(parse_game(raw))
                except (ValueError, KeyError, TypeError) as exc:
                    games.append(
                        Unreadable(f"{RECENT_PREFIX}{name}[{index}]", f"{type(exc).__name__}: {exc}")
                    )
            out.append(games)
        return out
