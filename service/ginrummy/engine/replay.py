"""The decisions of a recorded match, rebuilt: every move each seat made, with the seat view it made it
from — from the hands' records (:func:`~ginrummy.engine.views.hand_record`: each hand's dealer, deck order
and moves), as a review or a study needs them. The match is played again on the engine, each hand dealt
from its recorded deck, so every view is exactly what that seat saw then (and nothing more).

>>> import random
>>> from ginrummy.engine import Game, Rules, hand_record, seat_view
>>> rng = random.Random(1)
>>> game = Game.new(Rules.from_options("standard", target=10), rng)
>>> records = []
>>> while not game.match_over:
...     seat = game.to_act
...     if seat is None:
...         _ = game.apply(0, {"type": "deal"}, rng=rng)
...         continue
...     moves = [a for a in seat_view(game, seat)["legal_actions"] if a["type"] not in ("resign", "abort")]
...     _ = game.apply(seat, ([a for a in moves if a["type"] == "knock"] or moves)[0])
...     if game.hand_over:
...         records.append(hand_record(game))
>>> seen = list(positions(game.rules, records))
>>> len(seen) == sum(len(r["actions"]) for r in records)
True
>>> seen[0].view["seat"] == seen[0].seat and seen[0].action in seen[0].view["legal_actions"]
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, MutableSequence
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .cards import parse_card
from .game import Game
from .rules import Rules
from .views import seat_view


@dataclass(frozen=True)
class Position:
    """A decision of a recorded match: the seat, the view it had, and the move it made (an element of the
    view's ``legal_actions``); ``hand`` counts from 1, ``index`` is the move's place in the hand's record."""

    hand: int
    index: int
    seat: int
    view: dict[str, Any]
    action: dict[str, Any]


class _RecordedDeck(random.Random):
    """A random source whose shuffle lays the deck in a recorded order."""

    def __init__(self, order: list[int]) -> None:
        super().__init__(0)
        self.order = order

    def shuffle(self, x: MutableSequence[Any]) -> None:
        x[:] = self.order


def positions(rules: Rules, hands: Iterable[Mapping[str, Any]]) -> Iterator[Position]:
    """Every move of these hands' records (in order, from the match's first hand), with its seat view.
    ValueError when a record does not follow from the one before (another dealer) or holds a move the
    rules refuse at that point."""
    game: Game | None = None
    for number, record in enumerate(hands, 1):
        if game is None:
            game = Game(rules, int(record["dealer"]))
        if game.dealer != record["dealer"]:
            raise ValueError(f"hand {number} was dealt by seat {record['dealer']}, not seat {game.dealer}")
        deck = [parse_card(card) for card in record["deck"]]
        game.apply(0, Action.deal(), rng=_RecordedDeck(deck))
        for index, entry in enumerate(record["actions"]):
            seat = int(entry["seat"])
            view = seat_view(game, seat)
            action = _as_legal(view, entry)
            yield Position(number, index, seat, view, action)
            game.apply(seat, action)


def _plain(action: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "kind"}


def _as_legal(view: Mapping[str, Any], entry: Mapping[str, Any]) -> dict[str, Any]:
    """The recorded move as the element of the view's legal actions it was (a record's draw also names
    the card drawn, which the action did not); the recorded move itself if none is equal to it."""
    move = {k: v for k, v in entry.items() if k != "seat"}
    if move.get("type") == "draw":
        move.pop("card", None)
    wanted = _plain(move)
    for legal in view["legal_actions"]:
        if _plain(legal) == wanted:
            return dict(legal)
    return move
