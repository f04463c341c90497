"""A compact, versioned JSON form of a whole game (state and the live hand's log) that round-trips exactly.

Cards are written one character each, so a live hand takes a few hundred bytes. The form includes the
live hand's deck order: it is for the server's store only and never goes to a player.

>>> import random
>>> from ginrummy.engine.game import Game
>>> from ginrummy.engine.rules import Rules
>>> game = Game.new(Rules.from_options("oklahoma"), random.Random(5))
>>> text = dumps(game)
>>> dumps(loads(text)) == text, len(text) < 2048
(True, True)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from . import melds as _melds
from .actions import DISCARD, DRAW, KNOCK, LAYOFF, PASS, PILE, STOCK, Action
from .cards import cards_of, mask_value
from .errors import BadStateError, GinRummyError
from .game import Game, GameScore, HandSummary, MatchEnd
from .hand import Hand, HandEnd, HandOutcome, LogEntry, Phase
from .melds import LayoffResult, Meld
from .rules import Rules

VERSION = 1
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_INDEX = {ch: i for i, ch in enumerate(_ALPHABET)}
_NONE = "-"


def _c(card: int | None) -> str:
    return _NONE if card is None else _ALPHABET[card]


def _card(ch: str) -> int | None:
    return None if ch == _NONE else _INDEX[ch]


def _cs(cards: list[int] | tuple[int, ...]) -> str:
    return "".join(_ALPHABET[c] for c in cards)


def _mask_chars(mask: int) -> str:
    return _cs(cards_of(mask))


def _mask(text: str) -> int:
    mask = 0
    for ch in text:
        mask |= 1 << _INDEX[ch]
    return mask


def _compact_json(state: dict[str, Any]) -> str:
    return json.dumps(state, separators=(",", ":"))


def dumps(game: Game, encode: Callable[[dict[str, Any]], str] = _compact_json) -> str:
    """The game as compact JSON text. A caller with a faster JSON library may pass its encoder."""
    return encode(to_state(game))


def loads(text: str | bytes, decode: Callable[[str | bytes], Any] = json.loads) -> Game:
    """The game back from :func:`dumps`; raises BadStateError when the text is not a game. A caller
    with a faster JSON library may pass its decoder."""
    try:
        return from_state(decode(text))
    except GinRummyError as error:
        raise BadStateError(f"not a saved game: {error}") from error
    except (ValueError, KeyError, IndexError, TypeError, AssertionError) as error:
        raise BadStateError(f"not a saved game: {error!r}") from error


def to_state(game: Game) -> dict[str, Any]:
    state: dict[str, Any] = {
        "v": VERSION,
        "r": game.rules.changes(),
        "d": game.dealer,
        "n": game.hand_number,
        "s": [
            [
                *s.points,
                *s.hands_won,
                -1 if s.reached_target is None else s.reached_target,
                *([] if s.forfeited_by is None else [s.forfeited_by]),
            ]
            for s in game.scores
        ],
        "w": game.games_won,
        "m": game.match_winner,
        "h": [
            [h.number, h.end.value, h.winner, h.points, h.knocker, *h.deadwood, list(h.games)]
            for h in game.summaries
        ],
        "H": None if game.hand is None else _hand_state(game.hand),
    }
    if game.end_reason is not None:  # only then: a game saved before these existed dumps as it was
        state["e"] = [game.end_reason.value, game.forfeited_by]
    return state


def from_state(state: dict[str, Any]) -> Game:
    if state.get("v") != VERSION:
        raise BadStateError(f"unknown saved-game version {state.get('v')!r}")
    rules = Rules.from_dict(state["r"])
    game = Game(rules, int(state["d"]))
    game.hand_number = int(state["n"])
    game.scores = []
    for number, (p0, p1, w0, w1, reached, *forfeit) in enumerate(state["s"], start=1):
        forfeited_by = int(forfeit[0]) if forfeit else None
        game.scores.append(
            GameScore(number, [p0, p1], [w0, w1], None if reached < 0 else reached, forfeited_by)
        )
    game.games_won = list(state["w"])
    game.match_winner = state["m"]
    if "e" in state:
        reason, game.forfeited_by = state["e"]
        game.end_reason = MatchEnd(reason)
    game.summaries = [
        HandSummary(n, HandEnd(end), winner, points, knocker, (d0, d1), tuple(games))
        for n, end, winner, points, knocker, d0, d1, games in state["h"]
    ]
    game.hand = None if state["H"] is None else _hand_from(rules, state["H"])
    return game


def _hand_state(hand: Hand) -> dict[str, Any]:
    out: dict[str, Any] = {
        "D": hand.dealer,
        "k": _cs(hand.deck),
        "p": [_mask_chars(m) for m in hand.hands],
        "q": hand.stock_pos,
        "x": _cs(hand.discard_pile),
        "y": [_mask_chars(m) for m in hand.known],
        "f": [
            hand.phase.value,
            hand.turn,
            _c(hand.taken),
            int(hand.stock_only),
            int(hand.must_knock),
            hand.discard_draws,
        ],
        "g": [_log_entry(e) for e in hand.log],
    }
    if hand.knocker is not None:
        assert hand.knock_arrangement is not None
        out["K"] = [
            hand.knocker,
            _c(hand.knock_discard),
            [_mask_chars(m.mask) for m in hand.knock_arrangement.melds],
        ]
    if hand.defender_result is not None:
        result = hand.defender_result
        out["L"] = [[_mask_chars(m.mask) for m in result.melds], [_c(c) + str(i) for c, i in result.layoffs]]
    if hand.outcome is not None:
        o = hand.outcome
        out["o"] = [
            o.end.value,
            o.winner,
            o.points,
            o.knocker,
            o.knocker_deadwood,
            o.defender_deadwood,
            o.difference,
            o.bonus,
            o.multiplier,
        ]
    return out


def _hand_from(rules: Rules, data: dict[str, Any]) -> Hand:
    deck = [_INDEX[ch] for ch in data["k"]]
    hand = Hand(rules, int(data["D"]), deck)
    hand.hands = [_mask(t) for t in data["p"]]
    hand.stock_pos = int(data["q"])
    hand.discard_pile = [_INDEX[ch] for ch in data["x"]]
    hand.known = [_mask(t) for t in data["y"]]
    phase, turn, taken, stock_only, must_knock, draws = data["f"]
    hand.phase = Phase(phase)
    hand.turn = int(turn)
    hand.taken = _card(taken)
    hand.stock_only = bool(stock_only)
    hand.must_knock = bool(must_knock)
    hand.discard_draws = int(draws)
    hand.log = [_log_from(t) for t in data["g"]]
    if "K" in data:
        knocker, discard, meld_texts = data["K"]
        hand.knocker = int(knocker)
        hand.knock_discard = _card(discard)
        hand.knock_arrangement = _melds.validate_arrangement(
            hand.hands[knocker], [_mask(t) for t in meld_texts]
        )
    if "L" in data:
        meld_texts, layoffs = data["L"]
        own = tuple(_meld(_mask(t)) for t in meld_texts)
        pairs = tuple((_INDEX[t[0]], int(t[1:])) for t in layoffs)
        used = 0
        for m in own:
            used |= m.mask
        for card, _ in pairs:
            used |= 1 << card
        defender = hand.hands[1 - hand.knocker] if hand.knocker is not None else 0
        rest = defender & ~used
        hand.defender_result = LayoffResult(own, pairs, rest, mask_value(rest))
    if "o" in data:
        end, winner, points, knocker, kdw, ddw, diff, bonus, mult = data["o"]
        hand.outcome = HandOutcome(HandEnd(end), winner, points, knocker, kdw, ddw, diff, bonus, mult)
    return hand


def _meld(mask: int) -> Meld:
    kind = _melds.meld_kind(mask)
    if kind is None:
        raise BadStateError("a saved meld is not a meld")
    return Meld(kind, mask)


def _log_entry(entry: LogEntry) -> str:
    action = entry.action
    seat = str(entry.seat)
    if action.type == DRAW:
        return seat + ("s" if action.source == STOCK else "d") + _c(entry.card)
    if action.type == PASS:
        return seat + "p"
    if action.type == DISCARD:
        return seat + "x" + _c(action.card)
    if action.type == KNOCK:
        text = seat + "k" + _c(action.card)
        if action.melds is not None:
            text += "/" + "/".join(_mask_chars(m) for m in action.melds)
        return text
    if action.type == LAYOFF:
        melds = "/".join(_mask_chars(m) for m in action.melds or ())
        layoffs = "".join(_c(c) + str(i) for c, i in action.layoffs or ())
        return seat + "l" + melds + ";" + layoffs
    raise BadStateError(f"cannot save action {action.type}")


@functools.lru_cache(maxsize=4096)  # a hand's log repeats few distinct entries; LogEntry is immutable
def _log_from(text: str) -> LogEntry:
    seat = int(text[0])
    kind = text[1]
    rest = text[2:]
    if kind in "sd":
        return LogEntry(seat, Action.draw(STOCK if kind == "s" else PILE), _card(rest))
    if kind == "p":
        return LogEntry(seat, Action.pass_())
    if kind == "x":
        card = _card(rest)
        assert card is not None
        return LogEntry(seat, Action.discard(card))
    if kind == "k":
        parts = rest.split("/")
        melds = tuple(_mask(t) for t in parts[1:]) if len(parts) > 1 else None
        return LogEntry(seat, Action.knock(_card(parts[0]), melds))
    if kind == "l":
        meld_text, layoff_text = rest.split(";")
        melds = tuple(_mask(t) for t in meld_text.split("/") if t)
        layoffs = tuple(
            (_INDEX[layoff_text[i]], int(layoff_text[i + 1])) for i in range(0, len(layoff_text), 2)
        )
        return LogEntry(seat, Action.layoff(melds, layoffs))
    raise BadStateError(f"unknown saved action {text!r}")
