"""Every JSON form of game state that leaves the engine, and what a seat may see (docs/rules.md §11).

While a hand is live a seat sees its own cards, the whole discard pile, the stock's size, the opponent's
card count and the cards the opponent took from the pile and still holds; never the opponent's other
cards, the stock's order or the face-down knock discard. Once the hand is over, both hands are revealed.
A spectator (``seat=None``) sees only what is public.

Besides :func:`seat_view`, this module renders a finished hand (:func:`hand_result`, :func:`hand_record`),
a hand's moves as one seat saw them (:func:`hand_history`) and a stateless analysis of some cards
(:func:`analyze_hand`). :func:`arrangement_json` is the one place melds and deadwood are written out:

>>> arrangement_json(_melds.best_arrangement(mask_of(["7C", "7D", "7H", "2S", "KS"])))
{'melds': [['7C', '7D', '7H']], 'deadwood_cards': ['2S', 'KS'], 'deadwood': 12}
>>> analyze_hand(["7C", "7D", "7H", "2S", "KS"], 10)["can_knock"] is None  # no verdict on 5 cards
True
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from . import melds as _melds
from . import shapes
from .actions import DRAW, KNOCK, LAYOFF, PILE, Action
from .cards import card_text, mask_of, parse_cards, texts
from .errors import IllegalActionError
from .hand import Hand, LogEntry, hand_result
from .melds import arrangement_json

if TYPE_CHECKING:
    from .game import Game


# -- a seat's view of the game -----------------------------------------------------------------------


# Members of the view a caller may leave out when it does not read them (they are the costly ones):
# "history" (the live hand's moves), "stats" (per-seat figures of the match) and "analysis" (the
# melds, deadwood and discard options of the seat's own hand; its cards stay), or only "discards" (the
# deadwood each discard would leave: assistance a game between people goes without).
OPTIONAL_PARTS = frozenset({"history", "stats", "analysis", "discards"})


def seat_view(game: Game, seat: int | None, omit: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The game as `seat` (0 or 1) may see it, or as a spectator sees it when `seat` is None; without
    the :data:`OPTIONAL_PARTS` named in `omit`.

    >>> from ginrummy.engine import Game, Rules
    >>> import random
    >>> game = Game.new(Rules(), random.Random(1))
    >>> sorted(set(seat_view(game, 0)) - set(seat_view(game, 0, omit=OPTIONAL_PARTS)))
    ['history', 'stats']
    >>> seat_view(game, 0, omit=frozenset({"analysis"}))["hand"].keys()
    dict_keys(['cards'])
    """
    hand = game.hand
    assert hand is not None
    live = not hand.over
    view: dict[str, Any] = {
        "seat": seat,
        "phase": game.phase,
        "end_reason": None if game.end_reason is None else game.end_reason.value,
        "forfeited_by": game.forfeited_by,
        "turn": game.to_act,
        "dealer": hand.dealer,
        "hand_number": game.hand_number,
        "rules": game.rules.to_dict(),
        "knock_limit": hand.knock_limit,
        "spades_double": hand.spades_double,
    }
    if seat is not None:
        mask = hand.hands[seat]
        if "analysis" in omit:
            view["hand"] = {"cards": texts(mask)}
        else:
            taken = hand.taken if hand.turn == seat else None
            view["hand"] = _own_hand(mask, taken, discards="discards" not in omit)
        view["opponent"] = _player(game, 1 - seat, live)
    else:
        view["players"] = [_player(game, s, live) for s in (0, 1)]
    view["discard_pile"] = texts(hand.discard_pile)
    view["stock_size"] = hand.stock_size
    view["knock"] = _knock(game, seat)
    view["result"] = None if live else hand_result(hand)
    # A seat may also resign (or abort): a client sees every action it may post in one list.
    view["legal_actions"] = (
        [] if seat is None else [a.listed() for a in (*game.legal_actions(seat), *game.ending_actions(seat))]
    )
    if "history" not in omit:
        view["history"] = hand_history(hand, seat)
    view["scores"] = scores_view(game)
    view["hands"] = [s.to_json() for s in game.summaries]
    if "stats" not in omit:
        view["stats"] = game.stats()
    return view


def scores_view(game: Game) -> shapes.Scores:
    return {
        "games": [score.settle(game.rules) for score in game.scores],
        "games_won": list(game.games_won),
        "match_over": game.match_over,
        "match_winner": game.match_winner,
    }


def _own_hand(mask: int, taken: int | None, *, discards: bool = True) -> shapes.OwnHand:
    best = arrangement_json(_melds.best_arrangement(mask))
    out: shapes.OwnHand = {
        "cards": texts(mask),
        "melds": best["melds"],
        "deadwood_cards": best["deadwood_cards"],
        "deadwood": best["deadwood"],
    }
    if discards and mask.bit_count() == 11:
        out["discards"] = [
            {"card": card_text(c), "deadwood": d} for c, d in _melds.discard_options(mask, forbidden=taken)
        ]
    return out


def _player(game: Game, seat: int, live: bool) -> shapes.TableSeat:
    """What anyone at the table knows of `seat`'s hand."""
    hand = game.hand
    assert hand is not None
    entry: shapes.TableSeat = {
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


def _knock(game: Game, seat: int | None) -> shapes.Knock | None:
    hand = game.hand
    assert hand is not None
    if hand.knocker is None or hand.knock_arrangement is None:
        return None
    arrangement = hand.knock_arrangement
    return {
        "knocker": hand.knocker,
        **arrangement_json(arrangement),
        "gin": arrangement.deadwood == 0 and hand.knock_discard is not None,
        "big_gin": hand.knock_discard is None,
        "discard": (
            card_text(hand.knock_discard)
            if hand.knock_discard is not None and (hand.over or seat == hand.knocker)
            else None
        ),
    }


# -- a hand's moves and its end ----------------------------------------------------------------------


@functools.lru_cache(maxsize=1024)  # histories repeat the same few actions; callers copy the dict
def _action_json(action: Action) -> dict[str, Any]:
    return action.to_json()


def hand_history(hand: Hand, viewer: int | None) -> list[dict[str, Any]]:
    """The hand's moves as `viewer` saw them (stock draws show the card to the drawer only; the knock
    discard shows once the hand is over)."""
    over = hand.over
    log, memo = hand.history_memo
    if log is not hand.log:  # a log put in place of the one the memo was made for (loads does)
        log, memo = hand.history_memo = (hand.log, {})
    items = memo.setdefault((viewer, over), [])
    for entry in log[len(items) :]:
        items.append(_history_item(entry, viewer, over))
    return [dict(item) for item in items]  # flat dicts: the caller's to change


def _history_item(entry: LogEntry, viewer: int | None, over: bool) -> dict[str, Any]:
    item = {"seat": entry.seat, **_action_json(entry.action)}
    kind = entry.action.type
    shown = entry.action.source == PILE or entry.seat == viewer or over
    if kind == DRAW and entry.card is not None and shown:
        item["card"] = card_text(entry.card)
    elif kind == KNOCK:
        item.pop("melds", None)
        if not over and entry.seat != viewer:
            item.pop("discard")
    elif kind == LAYOFF:
        item = {"seat": entry.seat, "type": LAYOFF}
    return item


def _logged(entry: LogEntry) -> shapes.Move:
    """A move of the hand's log, with the card drawn: the action's JSON (Action.to_json) is one Move of
    its type — checked against the document by the suite, not by mypy."""
    item: dict[str, Any] = {"seat": entry.seat, **entry.action.to_json()}
    if entry.card is not None:
        item["card"] = card_text(entry.card)
    return cast(shapes.Move, item)


def hand_record(game: Game) -> shapes.HandRecord:
    """The game's current hand revealed, once it is over: the deal, the deck, every move (with every card
    drawn), the result, and the hand's number in the match. A hand the match ended in the middle of (a
    resignation, a loss on time, an abandoned game, an abort) is revealed too, once the match is over:
    its ``result`` is None and ``ended`` says how the match ended (``resigned``, ``timeout``, …).

    >>> import random
    >>> from ginrummy.engine import Game, Rules
    >>> game = Game.new(Rules.from_options("standard"), random.Random(3))
    >>> _ = game.forfeit(0, "resigned")
    >>> record = hand_record(game)
    >>> record["result"], record["ended"], record["actions"]
    (None, 'resigned', [])
    """
    hand = game.hand
    if hand is None:
        raise IllegalActionError("no hand has been dealt")
    if not hand.over and not game.match_over:
        raise IllegalActionError("a hand is revealed only once it is over")
    record: shapes.HandRecord = {
        "dealer": hand.dealer,
        "deck": texts(list(hand.deck)),
        "initial_hands": [texts(h) for h in hand.dealt_hands],
        "upcard": card_text(hand.upcard),
        "knock_limit": hand.knock_limit,
        "spades_double": hand.spades_double,
        "actions": [_logged(e) for e in hand.log],
        "result": hand_result(hand) if hand.over else None,
        "number": game.hand_number,
    }
    if not hand.over:
        record["ended"] = game.end_reason.value if game.end_reason else "ended"
    return record


# -- stateless analysis ------------------------------------------------------------------------------


def analyze_hand(cards: Iterable[str | int], knock_limit: int) -> shapes.Analysis:
    """Melds, deadwood and the number of optimal arrangements of 1 to 11 cards; for 10 or 11 cards also
    whether they can knock (within `knock_limit`), go gin or big gin, and for 11 the deadwood after each
    discard. Raises BadCardError for a card that is no card or is given twice.

    >>> out = analyze_hand(["7S", "7H", "7D", "4C", "5C", "6C", "2H", "3D", "9S", "TS"], 10)
    >>> out["deadwood"], out["can_knock"], out["can_gin"], out["discards"]
    (24, False, False, [])
    """
    parsed = parse_cards(cards)
    mask = mask_of(parsed)
    arrangements = _melds.best_melds(mask)
    best = arrangements[0]
    discards: list[shapes.DiscardOption] = []
    # knocking and gin are about a whole hand: no verdict on a part of one
    can_knock: bool | None = None
    can_gin: bool | None = None
    big_gin: bool | None = None
    if len(parsed) == 11:
        options = _melds.discard_options(mask)
        after = options[0][1]
        discards = [{"card": card_text(c), "deadwood": d} for c, d in options]
        can_knock, can_gin, big_gin = after <= knock_limit, after == 0, _melds.min_deadwood(mask) == 0
    elif len(parsed) == 10:
        can_knock, can_gin, big_gin = best.deadwood <= knock_limit, best.deadwood == 0, False
    arranged = arrangement_json(best)
    if len(parsed) == 11:  # the key order is part of the answer's bytes: with 11 cards, discards first
        return {
            "cards": texts(sorted(parsed)),
            "melds": arranged["melds"],
            "deadwood_cards": arranged["deadwood_cards"],
            "deadwood": arranged["deadwood"],
            "arrangements": len(arrangements),
            "discards": discards,
            "can_knock": can_knock,
            "can_gin": can_gin,
            "big_gin": big_gin,
        }
    return {
        "cards": texts(sorted(parsed)),
        "melds": arranged["melds"],
        "deadwood_cards": arranged["deadwood_cards"],
        "deadwood": arranged["deadwood"],
        "arrangements": len(arrangements),
        "can_knock": can_knock,
        "can_gin": can_gin,
        "big_gin": big_gin,
        "discards": discards,
    }
