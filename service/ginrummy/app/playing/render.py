"""What a seat sees: its view of a match (the engine's seat view plus the service's members) and the
events as that seat may see them."""

from __future__ import annotations

import math
from typing import Any

import orjson

from ginrummy.engine import Event, seat_view
from ginrummy.store.cursor import Cursor

from .. import clocks
from .match import Match, claim_after, your_move
from .seats import players_json

# What the response of a change leaves out of the caller's view: the hand's history (the response's events
# are what just happened) and the match statistics; GET /v1/games/{id} has both (docs/api.md, "Views").
PLAY_VIEW_OMITS = frozenset({"history", "stats"})
# What a bot's view leaves out: nothing a bot reads (it works out its own hand's melds itself).
BOT_VIEW_OMITS = frozenset({"stats", "analysis"})


def view(
    match: Match, seat: int | None, omit: frozenset[str] = frozenset(), *, abandon_after: int
) -> dict[str, Any]:
    """The seat view (without the parts in ``omit``) plus the service's members: game_id, version,
    players, legal actions and whether it is the seat's move, commitment, clock, when a claim of the game
    is possible (``GIN_ABANDON_AFTER``: ``abandon_after``), rematch."""
    meta = match.meta
    # Engine assistance — hints, undo, the deadwood left by each discard — is for games against a bot:
    # against a person it would be help the other does not get (docs/api.md, "Assistance"), and in a
    # tournament help the other players do not get.
    if not meta.assisted:
        omit = omit | {"discards"}
    out = seat_view(match.game, seat, omit)
    people = players_json(meta)
    if seat is None and isinstance(out.get("players"), list):
        # The spectator view lists each seat's public card facts; add who sits there.
        out["players"] = [{**facts, **person} for facts, person in zip(out["players"], people, strict=False)]
    else:
        out["players"] = people
    out["legal_actions"] = match.legal_actions(seat, out["legal_actions"])
    # Whether the seat has a move to make now; clients wait for the opponent while it is false.
    out["your_move"] = your_move(out["legal_actions"])
    out["waiting_for_opponent"] = meta.waiting_for_opponent
    assisted = seat is not None and meta.assisted and not meta.rated
    out["can_undo"] = assisted and seat is not None and match.game.can_undo(seat)
    out["can_hint"] = assisted and out["your_move"]
    out["commitment"] = meta.shuffle.commitment if meta.shuffle else None
    out["game_id"] = match.game_id
    out["version"] = match.version
    out["cursor"] = str(Cursor.after_version(match.version))  # GET …/events?after= it: what follows
    out["rated"] = meta.rated
    out["private"] = meta.private
    now = clocks.now_ms()
    out["clock"] = clocks.clock_view(meta.clock, now_ms=now) if meta.clock else None
    left = claim_after(match, seat, abandon_after, now)
    # Rounded up to a tenth: never 0 while the claim would still be refused.
    out["claim_after"] = None if left is None else math.ceil(left * 10) / 10
    out["archived"] = match.archived
    out["tournament"] = (
        None
        if meta.tournament is None
        else {
            "id": meta.tournament,
            "berserk": [number in meta.berserked for number in (0, 1)],
            "may_berserk": seat is not None and match.berserk_refused(seat) is None,
        }
    )
    if match.game.match_over:
        out["rematch"] = {"offered_by": list(meta.rematch_offers), "game_id": meta.rematch_game}
    return out


def seat_event(cursor: str, row: str, seat: int | None) -> dict[str, Any]:
    """A stored event (its :meth:`Event.to_row`) with its cursor, as ``seat`` may see it."""
    return {"id": cursor, **Event.from_row(orjson.loads(row)).for_seat(seat)}
