"""A finished arena game as an export document: the format of ``GET /v1/games/{id}/export``
(``ginrummy.match``, version 1, docs/api.md "The past"), so that whatever reads the service's exports —
the SDK, ``gin replay``'s reader, your own tools — reads the arena's games too.

The service builds its export in ``ginrummy.app.archiving.document`` from its match metadata (players,
clock, rating family, the shuffle commitments of its dealing); the arena has none of that, so this module
writes the same members from the engine alone (tests/arena/test_arena_records.py compares the two
documents of the same game member by member):

- ``players``: each seat's entrant, ``"type": "bot"``, ``"bot"`` its spec (a house bot's name, or
  ``module:function``), ``"player": null``; ``rated`` false, ``clock`` null, ``ratings`` ``[null, null]``;
- ``started_at`` and ``finished_at``: the run's ``--date`` (no clock is read, so that a seed reproduces
  every byte of the records);
- each hand's ``shuffle``: a salt made from the deal seed and the hand's number, and the commitment the
  service would publish for that deck (SHA-256 of ``salt:deck``), so readers that check it find it sound.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from ginrummy.engine import PRESETS, Game, hand_record
from ginrummy.engine.views import scores_view

FORMAT = "ginrummy.match"
FORMAT_VERSION = 1
EPOCH = "1970-01-01T00:00:00.000Z"
SHUFFLE_NOTE = (
    "each hand's shuffle {salt, commitment, deck}: commitment = sha256_hex(salt + ':' + ','.join(deck))"
)


def commitment(salt: str, deck: Sequence[str]) -> str:
    """The service's shuffle commitment of a deck (``ginrummy.app.fairness.commitment``)."""
    return hashlib.sha256(f"{salt}:{','.join(deck)}".encode()).hexdigest()


def revealed_hand(game: Game, game_id: str, deal_seed: int) -> dict[str, Any]:
    """The hand just finished, as ``GET /v1/games/{id}/hands/{n}`` shows it."""
    record = hand_record(game)
    salt = hashlib.sha256(f"ginrummy-arena:{deal_seed}:{game.hand_number}".encode()).hexdigest()[:32]
    record["shuffle"] = {"salt": salt, "commitment": commitment(salt, record["deck"]), "deck": record["deck"]}
    record["game_id"] = game_id
    return record


def family_of(game: Game) -> str | None:
    """The preset the game's rules are, or None (rules with overrides)."""
    return next((name for name, preset in PRESETS.items() if preset == game.rules), None)


def export_document(
    game: Game,
    game_id: str,
    players: Sequence[tuple[str, str]],
    hands: list[dict[str, Any]],
    date: str = EPOCH,
) -> dict[str, Any]:
    """The export document of a finished arena game; ``players``: (name, spec) by seat."""
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game_id": game_id,
        "rules": game.rules.to_dict(),
        "family": family_of(game),
        "rated": False,
        "clock": None,
        "players": [
            {"seat": seat, "name": name, "type": "bot", "bot": spec, "player": None}
            for seat, (name, spec) in enumerate(players)
        ],
        "started_at": date,
        "finished_at": date,
        "result": {
            "winner": game.match_winner,
            "end_reason": game.end_reason.value if game.end_reason else "finished",
            "forfeited_by": game.forfeited_by,
            **scores_view(game),
        },
        "stats": game.stats(),
        "hand_count": len(game.summaries),
        "hand_summaries": [summary.to_json() for summary in game.summaries],
        "shuffle": SHUFFLE_NOTE,
        "hands": hands,
        "ratings": [None, None],
    }


def ndjson_line(document: dict[str, Any]) -> str:
    """One line of an NDJSON export (compact, UTF-8 as is, members in their order), without its newline."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))
