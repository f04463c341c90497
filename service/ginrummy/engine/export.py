"""The export document of a finished match — ``ginrummy.match``, version 1 (docs/api.md "The past") — built
from the engine's game: one builder for every writer of the format.

The service's archive (``ginrummy.app.playing.recording.document``) and the arena's records
(``ginrummy.arena.records.export_document``) both call :func:`match_document`; they differ only in what
they know beside the game (who sat where, the clock, the rating family, the dates), which they pass in.
A reader of the service's exports therefore reads the arena's games too.

>>> commitment("00ff", ["AC", "2C"])
'445ae989cec0be4a465c64579c0bc2da5d80e36b317267d3aa91ceffb44fea16'
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from .game import Game
from .views import scores_view

FORMAT = "ginrummy.match"
FORMAT_VERSION = 1  # a change that breaks a reader gets a new version
SHUFFLE_NOTE = (
    "each hand's shuffle {salt, commitment, deck}: commitment = sha256_hex(salt + ':' + ','.join(deck))"
)


def commitment(salt: str, deck: Sequence[str]) -> str:
    """The fair-shuffle commitment of a deck: SHA-256 of ``salt:card,card,…``, hex."""
    return hashlib.sha256(f"{salt}:{','.join(deck)}".encode()).hexdigest()


def match_document(
    game: Game,
    game_id: str,
    *,
    family: str | None,
    rated: bool,
    clock: dict[str, Any] | None,
    players: list[dict[str, Any]],
    started_at: str | None,
    finished_at: str | None,
) -> dict[str, Any]:
    """The export document of the finished match ``game``, less its hands and its rating changes (the
    writer adds ``hands`` and ``ratings``): ``players`` are the seats' members as the writer knows them."""
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game_id": game_id,
        "rules": game.rules.to_dict(),
        "family": family,
        "rated": rated,
        "clock": clock,
        "players": players,
        "started_at": started_at,
        "finished_at": finished_at,
        "result": {
            "winner": game.match_winner,
            "end_reason": game.end_reason.value if game.end_reason else "finished",
            "forfeited_by": game.forfeited_by,
            **scores_view(game),
        },
        "stats": game.stats(),
        "hand_count": len(game.summaries),
        # By hand: how it ended, who won how many points, and the game(s) of the score sheets they went to.
        "hand_summaries": [summary.to_json() for summary in game.summaries],
        "shuffle": SHUFFLE_NOTE,
    }
