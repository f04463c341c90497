"""A finished arena game as an export document: the format of ``GET /v1/games/{id}/export``
(``ginrummy.match``, version 1, docs/api.md "The past"), so that whatever reads the service's exports —
the SDK, ``gin replay``'s reader, your own tools — reads the arena's games too.

The service's archive and the arena build the document with the engine's one builder
(``ginrummy.engine.export.match_document``); they differ in what they know beside the game. The arena
has no accounts, clock or rating family, so it says (tests/arena/test_arena_records.py compares the two
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
from ginrummy.engine.export import commitment, match_document

EPOCH = "1970-01-01T00:00:00.000Z"


def revealed_hand(game: Game, game_id: str, deal_seed: int) -> dict[str, Any]:
    """The hand just finished, as ``GET /v1/games/{id}/hands/{n}`` shows it."""
    record: dict[str, Any] = dict(hand_record(game))
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
    document = match_document(
        game,
        game_id,
        family=family_of(game),
        rated=False,
        clock=None,
        players=[
            {"seat": seat, "name": name, "type": "bot", "bot": spec, "player": None}
            for seat, (name, spec) in enumerate(players)
        ],
        started_at=date,
        finished_at=date,
    )
    return {**document, "hands": hands, "ratings": [None, None]}


def ndjson_line(document: dict[str, Any]) -> str:
    """One line of an NDJSON export (compact, UTF-8 as is, members in their order), without its newline."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))
