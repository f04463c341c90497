"""What a seat may see (RULES.md §11): the only way game state leaves the engine toward a player.

While a hand is live a seat sees its own cards, the whole discard pile, the stock's size, the opponent's
card count and the cards the opponent took from the pile and still holds; never the opponent's other
cards, the stock's order or the face-down knock discard. Once the hand is over, both hands are revealed.
A spectator (``seat=None``) sees only what is public.
"""

from __future__ import annotations

from typing import Any

from . import melds as _melds
from .cards import card_text, texts
from .game import Game
from .hand import melds_json


def seat_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The game as `seat` (0 or 1) may see it, or as a spectator sees it when `seat` is None."""
    hand = game.hand
    assert hand is not None
    live = not hand.over
    view: dict[str, Any] = {
        "seat": seat,
        "phase": game.phase,
        "turn": game.to_act,
        "dealer": hand.dealer,
        "hand_number": game.hand_number,
        "rules": game.rules.to_dict(),
        "knock_limit": hand.knock_limit,
        "spades_double": hand.spades_double,
    }
    if seat is not None:
        view["hand"] = _own_hand(hand.hands[seat], hand.taken if hand.turn == seat else None)
        view["opponent"] = _player(game, 1 - seat, live)
    else:
        view["players"] = [_player(game, s, live) for s in (0, 1)]
    view["discard_pile"] = texts(hand.discard_pile)
    view["stock_size"] = hand.stock_size
    view["knock"] = _knock(game, seat)
    view["result"] = hand.result() if hand.over else None
    view["legal_actions"] = [] if seat is None else [a.to_json() for a in game.legal_actions(seat)]
    view["history"] = hand.history(seat)
    view["scores"] = scores_view(game)
    view["hands"] = [s.to_json() for s in game.summaries]
    view["stats"] = game.stats()
    return view


def scores_view(game: Game) -> dict[str, Any]:
    return {
        "games": [score.settle(game.rules) for score in game.scores],
        "games_won": list(game.games_won),
        "match_over": game.match_over,
        "match_winner": game.match_winner,
    }


def _own_hand(mask: int, taken: int | None) -> dict[str, Any]:
    arrangement = _melds.best_arrangement(mask)
    out: dict[str, Any] = {
        "cards": texts(mask),
        "melds": melds_json(arrangement.melds),
        "deadwood_cards": texts(arrangement.deadwood_mask),
        "deadwood": arrangement.deadwood,
    }
    if mask.bit_count() == 11:
        out["discards"] = [
            {"card": card_text(c), "deadwood": d} for c, d in _melds.discard_options(mask) if c != taken
        ]
    return out


def _player(game: Game, seat: int, live: bool) -> dict[str, Any]:
    """What anyone at the table knows of `seat`'s hand."""
    hand = game.hand
    assert hand is not None
    entry: dict[str, Any] = {
        "seat": seat,
        "card_count": hand.hands[seat].bit_count(),
        "known_cards": texts(hand.known[seat]),
    }
    if hand.knocker == seat:
        # Laid down face up after the knock: public from then on.
        entry["known_cards"] = texts(hand.hands[seat])
    if not live:
        entry["cards"] = texts(hand.hands[seat])
    return entry


def _knock(game: Game, seat: int | None) -> dict[str, Any] | None:
    hand = game.hand
    assert hand is not None
    if hand.knocker is None or hand.knock_arrangement is None:
        return None
    arrangement = hand.knock_arrangement
    return {
        "knocker": hand.knocker,
        "melds": melds_json(arrangement.melds),
        "deadwood_cards": texts(arrangement.deadwood_mask),
        "deadwood": arrangement.deadwood,
        "gin": arrangement.deadwood == 0 and hand.knock_discard is not None,
        "big_gin": hand.knock_discard is None,
        "discard": (
            card_text(hand.knock_discard)
            if hand.knock_discard is not None and (hand.over or seat == hand.knocker)
            else None
        ),
    }
