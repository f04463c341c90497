"""A match as the service holds it — the aggregate every use case of playing loads and commits: the
engine's :class:`~ginrummy.engine.Game` (which holds the whole match) with the service's
:class:`~ginrummy.app.playing.metadata.MatchMeta`, its id (the API's game id) and stored version — and the
one rule of what a seat may do that the engine cannot know (the second seat may be free; a rematch follows
the match).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from ginrummy.engine import Game, dumps, loads
from ginrummy.engine import hand_record as engine_record
from ginrummy.engine.actions import KINDS, PLAY, REMATCH

from ..encoding import compact
from .metadata import MatchMeta


@dataclass
class Match:
    """A match as read from the store, decoded (``version`` 0: not created yet)."""

    game_id: str
    version: int
    meta: MatchMeta
    game: Game
    # Whether the live hand was over, and its number, when loaded: a change that ends a hand stores
    # that hand's record.
    hand_before: tuple[bool, int] = (False, 0)
    # Whether the match was over when loaded (a change that ends it sends its record to the archive).
    over_before: bool = False
    # Read back from the archive (PostgreSQL): the match is over and its keys have left Redis.
    archived: bool = False

    @staticmethod
    def decode(game_id: str, version: int, doc: str) -> Match:
        """A stored doc (``<metadata JSON>\\n<engine dumps>``) read back."""
        meta_text, _, engine_text = doc.partition("\n")
        game = loads(engine_text, orjson.loads)
        meta = MatchMeta.from_json(orjson.loads(meta_text))
        return Match(game_id, version, meta, game, (game.hand_over, game.hand_number), game.match_over)

    @staticmethod
    def decode_meta(doc: str) -> MatchMeta:
        """Only the metadata of a stored doc: enough to seat a reader without loading the engine."""
        return MatchMeta.from_json(orjson.loads(doc.partition("\n")[0]))

    def encode(self) -> str:
        return compact(self.meta.to_json()) + "\n" + dumps(self.game, compact)

    @property
    def match_just_ended(self) -> bool:
        """Whether the match ended since it was loaded (its record then goes to the archive)."""
        return self.game.match_over and not self.over_before

    @property
    def hand_just_ended(self) -> bool:
        """Whether a hand ended since the match was loaded (its record is then stored with the change)."""
        game = self.game
        return game.hand_over and game.hand is not None and self.hand_before != (True, game.hand_number)

    @property
    def hand_cut_short(self) -> bool:
        """Whether the match just ended in the middle of a hand with moves played (resigned, lost on time,
        abandoned): that hand's record then goes to the archive too, unfinished, so its moves can be
        replayed (``result`` None, ``ended``: how)."""
        game = self.game
        hand = game.hand
        return self.match_just_ended and hand is not None and not hand.over and bool(hand.log)

    def legal_actions(
        self, seat: int | None, engine_listed: list[dict[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """Everything ``seat`` may post now, as listed in its view and in refusals: the engine's moves
        and ending actions — none while the invited seat is free — and, once the match is over, the
        rematch (until this seat offered it or it was accepted; never in a tournament).
        ``engine_listed``: the engine's list when the caller has it already (a seat view lists it)."""
        meta, game = self.meta, self.game
        if seat is None or meta.waiting_for_opponent or self.archived:
            return []
        if game.match_over:
            if meta.rematch_game is None and seat not in meta.rematch_offers and meta.tournament is None:
                return [{"type": REMATCH, "kind": KINDS[REMATCH]}]
            return []
        if engine_listed is not None:
            return engine_listed
        return [a.listed() for a in (*game.legal_actions(seat), *game.ending_actions(seat))]

    def berserk_refused(self, seat: int) -> str | None:
        """Why ``seat`` may not berserk now (None: it may): a person's match in an arena that allows it,
        with a clock, once, before its first move."""
        meta, game = self.meta, self.game
        if seat not in meta.berserk_allowed or meta.clock is None:
            return "berserk is for a person's match with a clock in an arena that allows it"
        if seat in meta.berserked:
            return "you have berserked already"
        hand = game.hand
        moved = game.hand_number > 1 or (hand is not None and any(entry.seat == seat for entry in hand.log))
        if moved or game.match_over:
            return "berserk is for before your first move"
        return None


def your_move(legal_actions: list[dict[str, Any]]) -> bool:
    """Whether a seat has a move of the play to make: resign, abort and rematch are on offer at other
    times and are never "your move"."""
    return any(action["kind"] == PLAY for action in legal_actions)


def hand_record(match: Match) -> dict[str, Any]:
    """The finished live hand revealed (the engine's record) with its shuffle's salt and commitment."""
    record: dict[str, Any] = dict(engine_record(match.game))
    shuffle = match.meta.shuffle
    record["shuffle"] = {
        "salt": shuffle.salt if shuffle else None,
        "commitment": shuffle.commitment if shuffle else None,
        "deck": record.get("deck"),
    }
    record["game_id"] = match.game_id
    return record


def claim_after(match: Match, seat: int | None, abandon_after: int, now_ms: int) -> float | None:
    """Seconds until ``seat`` may claim the game as abandoned by its opponent (``claim-victory``; 0: it
    may now): in a game without a clock, while it is the other person's move and the game goes on. None
    otherwise: a clock decides instead (its view says when the other's time runs out), or the other is
    a bot, or it is not the other's move.

    ``abandon_after`` is ``GIN_ABANDON_AFTER``; the idle time counts from the game's last change.
    """
    meta, game = match.meta, match.game
    if seat is None or meta.clock is not None or game.match_over or meta.waiting_for_opponent:
        return None
    other = 1 - seat
    if game.to_act != other or meta.seats[other].is_bot:
        return None
    last = meta.last_change_ms if meta.last_change_ms is not None else now_ms
    return max(0.0, abandon_after - (now_ms - last) / 1000)
