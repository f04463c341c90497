"""Actions a seat can take, as values, with their JSON form.

An action's JSON form is what `legal_actions` lists and what the service accepts:

>>> Action.from_json({"type": "discard", "card": "10h"}).to_json()
{'type': 'discard', 'card': 'TH'}
>>> Action.knock(None).to_json()
{'type': 'knock', 'discard': None}
>>> Action.from_json({"type": "resign"}) == Action.resign()
True
>>> Action.from_json({"type": "draw", "source": "pile"})
Traceback (most recent call last):
...
ginrummy.engine.errors.BadActionError: draw needs "source": "stock" or "discard", not 'pile'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card, card_text, mask_of, parse_card, texts
from .errors import BadActionError

DEAL = "deal"
DRAW = "draw"
PASS = "pass"
DISCARD = "discard"
KNOCK = "knock"
LAYOFF = "layoff"
RESIGN = "resign"
ABORT = "abort"
ACTION_TYPES = (DEAL, DRAW, PASS, DISCARD, KNOCK, LAYOFF, RESIGN, ABORT)
# Actions that end the match early instead of playing it (see game.py): either seat, at any turn.
ENDING_TYPES = (RESIGN, ABORT)
# After the match, either seat may ask for a rematch: a new match between the same seats, which the
# service starts (it makes a new game); the engine only names it.
REMATCH = "rematch"

# What kind of action each type is, as every listed legal action says (``"kind"``): a move of the PLAY
# (dealing included: it is what the seat has to do now), or an action on the MATCH as a whole (resign and
# abort, offered whenever allowed; rematch, once it is over), which is never "your move".
PLAY = "play"
MATCH = "match"
KINDS: dict[str, str] = {
    DEAL: PLAY,
    DRAW: PLAY,
    PASS: PLAY,
    DISCARD: PLAY,
    KNOCK: PLAY,
    LAYOFF: PLAY,
    RESIGN: MATCH,
    ABORT: MATCH,
    REMATCH: MATCH,
}
STOCK = "stock"
PILE = "discard"

_FIELDS: dict[str, frozenset[str]] = {
    DEAL: frozenset(),
    DRAW: frozenset({"source"}),
    PASS: frozenset(),
    DISCARD: frozenset({"card"}),
    KNOCK: frozenset({"discard", "melds"}),
    LAYOFF: frozenset({"best", "melds", "layoffs"}),
    RESIGN: frozenset(),
    ABORT: frozenset(),
}


@dataclass(frozen=True)
class Action:
    """One move. ``card`` is the discard (for a knock: the face-down discard, None for big gin);
    ``melds`` are meld bitmasks (a knocker's or defender's chosen arrangement, None: the engine's best);
    ``layoffs`` are ``(card, knocker_meld_index)`` pairs."""

    type: str
    source: str | None = None
    card: Card | None = None
    melds: tuple[int, ...] | None = None
    layoffs: tuple[tuple[Card, int], ...] | None = None
    best: bool = False

    @staticmethod
    def deal() -> Action:
        return Action(DEAL)

    @staticmethod
    def draw(source: str) -> Action:
        return Action(DRAW, source=source)

    @staticmethod
    def pass_() -> Action:
        return Action(PASS)

    @staticmethod
    def discard(card: Card) -> Action:
        return Action(DISCARD, card=card)

    @staticmethod
    def knock(card: Card | None, melds: tuple[int, ...] | None = None) -> Action:
        return Action(KNOCK, card=card, melds=melds)

    @staticmethod
    def layoff_best() -> Action:
        return Action(LAYOFF, best=True)

    @staticmethod
    def layoff(melds: tuple[int, ...], layoffs: tuple[tuple[Card, int], ...]) -> Action:
        return Action(LAYOFF, melds=melds, layoffs=layoffs)

    @staticmethod
    def resign() -> Action:
        """Give up the match: the opponent wins it (either seat, at any time before the match is over)."""
        return Action(RESIGN)

    @staticmethod
    def abort() -> Action:
        """Call the match off with no result (only before the first card of hand 1 is drawn)."""
        return Action(ABORT)

    def canonical(self) -> Action:
        """The action without a chosen arrangement: the form `legal_actions` lists for knocks."""
        if self.type == KNOCK and self.melds is not None:
            return Action(KNOCK, card=self.card)
        return self

    def listed(self) -> dict[str, Any]:
        """The JSON form as `legal_actions` lists it: with its ``kind`` (see :data:`KINDS`); a new dict.

        >>> Action.resign().listed()
        {'type': 'resign', 'kind': 'match'}
        """
        form: dict[str, Any] | None = self.__dict__.get("_listed")
        if form is None:
            form = {**self.to_json(), "kind": KINDS[self.type]}
            if self.melds is not None:  # nested lists: not kept, so that no caller shares them
                return form
            # Kept on the (frozen) action, whose flat form views list at every turn: a copy is cheaper.
            self.__dict__["_listed"] = form
        return dict(form)

    def to_json(self) -> dict[str, Any]:
        """The JSON form, with canonical card texts."""
        out: dict[str, Any] = {"type": self.type}
        if self.type == DRAW:
            out["source"] = self.source
        elif self.type == DISCARD:
            assert self.card is not None
            out["card"] = card_text(self.card)
        elif self.type == KNOCK:
            out["discard"] = None if self.card is None else card_text(self.card)
            if self.melds is not None:
                out["melds"] = [texts(m) for m in self.melds]
        elif self.type == LAYOFF:
            if self.best:
                out["best"] = True
            else:
                out["melds"] = [texts(m) for m in self.melds or ()]
                out["layoffs"] = [{"card": card_text(c), "meld": i} for c, i in self.layoffs or ()]
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Action:
        """Parse and check the shape of an action (not its legality); raises BadActionError/BadCardError."""
        if isinstance(obj, Action):
            return obj
        if not isinstance(obj, Mapping):
            raise BadActionError('an action is a JSON object with a "type"')
        kind = obj.get("type")
        if kind not in _FIELDS:
            raise BadActionError(f"unknown action type {kind!r} (types: {', '.join(ACTION_TYPES)})")
        if "kind" in obj and obj["kind"] != KINDS[kind]:
            raise BadActionError(f"a {kind} is of kind {KINDS[kind]!r}, not {obj['kind']!r}")
        extra = set(obj) - _FIELDS[kind] - {"type", "kind"}  # a listed action is accepted as it is listed
        if extra:
            raise BadActionError(f"{kind} takes no field {', '.join(sorted(map(str, extra)))}")
        if kind == DRAW:
            source = obj.get("source")
            if source not in (STOCK, PILE):
                raise BadActionError(f'draw needs "source": "stock" or "discard", not {source!r}')
            return cls(DRAW, source=source)
        if kind == DISCARD:
            if "card" not in obj:
                raise BadActionError('discard needs "card"')
            return cls(DISCARD, card=parse_card(obj["card"]))
        if kind == KNOCK:
            if "discard" not in obj:
                raise BadActionError('knock needs "discard": a card, or null for big gin')
            card = None if obj["discard"] is None else parse_card(obj["discard"])
            melds = _parse_melds(obj["melds"]) if obj.get("melds") is not None else None
            return cls(KNOCK, card=card, melds=melds)
        if kind == LAYOFF:
            return _parse_layoff(obj)
        return cls(kind)


def _parse_melds(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(m, list) for m in value):
        raise BadActionError('"melds" is a list of melds, each a list of cards')
    return tuple(mask_of(m) for m in value)


def _parse_layoff(obj: Mapping[str, Any]) -> Action:
    best = obj.get("best", False)
    if not isinstance(best, bool):
        raise BadActionError('"best" is true or false')
    if best:
        if "melds" in obj or "layoffs" in obj:
            raise BadActionError('layoff takes either "best": true or "melds" and "layoffs", not both')
        return Action(LAYOFF, best=True)
    if "melds" not in obj or "layoffs" not in obj:
        raise BadActionError('layoff needs "best": true, or both "melds" and "layoffs" (lists, may be empty)')
    melds = _parse_melds(obj["melds"])
    raw = obj["layoffs"]
    if not isinstance(raw, list):
        raise BadActionError('"layoffs" is a list of {"card": ..., "meld": index}')
    layoffs = []
    for item in raw:
        if not isinstance(item, Mapping) or set(item) != {"card", "meld"}:
            raise BadActionError('each lay-off is {"card": ..., "meld": index of the knocker\'s meld}')
        index = item["meld"]
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise BadActionError(f"lay-off meld index must be a whole number >= 0, not {index!r}")
        layoffs.append((parse_card(item["card"]), index))
    return Action(LAYOFF, melds=melds, layoffs=tuple(layoffs))
