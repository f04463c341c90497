"""Finished matches for the stories that read the archive (tests/sdk, tests/cli), made through the SDK
against the real service: a player's rated games against the ``simple`` bot, each resigned at once (a
quick rated result), and a casual match under quick rules played out to its end, hand after hand (a short
one, :func:`short_match`, for the stories of reviews: a bot worker judges every decision of it)."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

from ginrummy_client import Client, MatchExport, NotArchived

from tests.support import choose

QUICK_RULES = {"target": 25}
"""A played-out match of a few hands: still dealt, played, scored and over like any other."""
SHORT_RULES = {"target": 30}
SHORT_SEED = 16
"""A match of two hands (some 30 moves): its review takes a bot worker a few seconds of CPU."""


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class History:
    """A player's finished games: ``resigned`` (rated, oldest first), then ``played`` (the newest)."""

    name: str
    token: str
    resigned: list[str]
    played: str

    @property
    def newest_first(self) -> list[str]:
        return [self.played, *reversed(self.resigned)]


def archived(client: Client, game_id: str, timeout: float = 10.0) -> MatchExport:
    """The export of a game that has just finished: the request that ends a match writes its record to
    the archive, so a ``not_archived`` lasts a moment at most (a guard, not a timed assertion)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return client.archive.export(game_id)
        except NotArchived:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def play_history(server: str, *, resigned: int, name: str = "", token: str = "", seed: int = 7) -> History:
    """``resigned`` rated games resigned at once, then one casual match played out to its end, by the
    player ``name`` with ``token`` (default: a new player); returns once the archive has them all."""
    if not token:
        with Client(server) as anonymous:
            player = anonymous.players.create(unique("Arc"))
        name, token = player.name, player.token
    with Client(server, token=token) as client:
        ids = []
        for _ in range(resigned):
            game = client.games.create(bot="simple", rated=True)
            game.resign()
            ids.append(game.game_id)
        played = play_out(client, QUICK_RULES, seed)
        for game_id in [*ids, played]:
            archived(client, game_id)
    return History(name, token, ids, played)


def play_out(client: Client, options: dict[str, int], seed: int, name: str | None = None) -> str:
    """A casual match against ``simple`` under ``options``, played to its end (by ``name``): its id."""
    match = client.games.create(bot="simple", options=options, seed=seed, name=name)
    for _ in range(3000):
        if not match.your_move:
            break
        match.act(choose(dict(match.view)))
    assert match.match_over, match.view
    return match.game_id


def short_match(server: str, seed: int = SHORT_SEED) -> MatchExport:
    """A short match (:data:`SHORT_RULES`) played out by Ann, no player's: its export, once archived."""
    with Client(server) as client:
        return archived(client, play_out(client, SHORT_RULES, seed, name="Ann"))
