"""One hand of Gin Rummy as an explicit state machine.

A hand goes through the phases of :class:`Phase`: the upcard is offered to the non-dealer, then to the
dealer; then players draw and discard in turn until one knocks (or goes gin or big gin), the stock runs
down to its last two cards (a wall), or the discard pile has been drawn from too often. After a knock,
the defender lays down and lays off. `legal_actions(seat)` lists every legal move; `apply` validates
whatever it is given, so untrusted input can be fed straight in. What a hand looks like as JSON (its
result, history and record) is rendered by :mod:`ginrummy.engine.views`.

>>> import random
>>> from ginrummy.engine.rules import Rules
>>> deck = list(range(52)); random.Random(7).shuffle(deck)
>>> hand = Hand.deal(Rules(), dealer=0, deck=deck)
>>> hand.phase, hand.turn, hand.stock_size
(<Phase.UPCARD_NONDEALER: 'upcard_nondealer'>, 1, 31)
>>> [a.to_json() for a in hand.legal_actions(1)]
[{'type': 'draw', 'source': 'discard'}, {'type': 'pass'}]
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import melds as _melds
from . import shapes
from .actions import DISCARD, DRAW, KNOCK, LAYOFF, PASS, PILE, STOCK, Action
from .cards import Card, card_text, card_value, cards_of, suit_of, texts
from .errors import (
    BadStateError,
    DeadwoodTooHighError,
    IllegalActionError,
    InvalidMeldError,
    NotYourTurnError,
)
from .melds import Arrangement, LayoffResult, arrangement_json
from .rules import Rules

HAND_SIZE = 10
# Built once: the engine lists these for every discard phase.
DISCARD_ACTIONS = tuple(Action.discard(c) for c in range(52))
KNOCK_ACTIONS = (*(Action.knock(c) for c in range(52)), Action.knock(None))
WALL_STOCK = 2
SPADES = 3


class Phase(enum.StrEnum):
    """Where a hand stands; `turn` says whose move it is."""

    UPCARD_NONDEALER = "upcard_nondealer"
    UPCARD_DEALER = "upcard_dealer"
    DRAW = "draw"
    DISCARD = "discard"
    FIFTIETH_CARD = "fiftieth_card"
    LAYOFF = "layoff"
    OVER = "over"


# Where a hand stands, in the game's words: what a refusal tells a player (never a phase's name).
PHASE_WORDS: dict[Phase, str] = {
    Phase.UPCARD_NONDEALER: "the upcard is on offer (take it or pass)",
    Phase.UPCARD_DEALER: "the upcard is on offer (take it or pass)",
    Phase.DRAW: "it is time to draw, from the stock or the discard pile",
    Phase.DISCARD: "it is time to discard (or knock)",
    Phase.FIFTIETH_CARD: "the fiftieth card is on offer (take it or pass)",
    Phase.LAYOFF: "the knock is being answered: the defender lays down and lays off",
    Phase.OVER: "the hand is over",
}


class HandEnd(enum.StrEnum):
    """How a hand ended."""

    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"
    TIE = "tie"
    WALL = "wall"
    DRAW_LIMIT = "draw_limit"


@dataclass(frozen=True)
class HandOutcome:
    """The result of a finished hand: how it ended, who won what, and how the points were made."""

    end: HandEnd
    winner: int | None
    points: int
    knocker: int | None = None
    knocker_deadwood: int = 0
    defender_deadwood: int = 0
    difference: int = 0
    bonus: int = 0
    multiplier: int = 1

    @property
    def scored(self) -> bool:
        """Whether someone won the hand (walls and scoreless ties do not count)."""
        return self.winner is not None

    def to_json(self) -> shapes.Outcome:
        return {
            "end": self.end.value,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
            "knocker_deadwood": self.knocker_deadwood,
            "defender_deadwood": self.defender_deadwood,
            "difference": self.difference,
            "bonus": self.bonus,
            "multiplier": self.multiplier,
        }


@dataclass(frozen=True)
class Event:
    """Something that happened, as seats see it: ``data`` is public, ``private[seat]`` is added for that
    seat only."""

    type: str
    seat: int | None
    data: dict[str, Any]
    private: dict[int, dict[str, Any]]

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as `seat` may see it (None: a spectator)."""
        out: dict[str, Any] = {"type": self.type, "seat": self.seat, **self.data}
        if seat is not None and seat in self.private:
            out.update(self.private[seat])
        return out

    def to_row(self) -> list[Any]:
        """The compact stored form: ``[type, seat, data, private]`` (JSON-ready once private's keys are
        strings: encode with non-string keys allowed, or let :meth:`from_row` take them either way).

        >>> import json
        >>> e = Event("draw", 0, {"source": "stock"}, {0: {"card": "7H"}})
        >>> Event.from_row(json.loads(json.dumps(e.to_row()))) == e
        True
        """
        return [self.type, self.seat, self.data, self.private]

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> Event:
        """The event of a :meth:`to_row` row (private's seat keys may be strings after JSON)."""
        kind, seat, data, private = row
        return cls(kind, seat, data, {int(s): p for s, p in private.items()})


def _event(
    kind: str, seat: int | None, private: dict[int, dict[str, Any]] | None = None, **data: Any
) -> Event:
    return Event(kind, seat, data, private or {})


def deal_hands(dealer: int, deck: Sequence[Card]) -> tuple[int, int]:
    """The two hands (bitmasks, by seat) dealt from the top of `deck`: ten cards each, one at a time, the
    non-dealer first.

    >>> dealer, nondealer = deal_hands(0, range(52))
    >>> cards_of(nondealer)[:3], cards_of(dealer)[:3]
    ([0, 2, 4], [1, 3, 5])
    """
    nondealer_mask = dealer_mask = 0
    for card in deck[0 : 2 * HAND_SIZE : 2]:
        nondealer_mask |= 1 << card
    for card in deck[1 : 2 * HAND_SIZE : 2]:
        dealer_mask |= 1 << card
    return (dealer_mask, nondealer_mask) if dealer == 0 else (nondealer_mask, dealer_mask)


@dataclass(frozen=True)
class LogEntry:
    """One applied action; ``card`` is the card drawn (for draws), which replays and histories need."""

    seat: int
    action: Action
    card: Card | None = None


class Hand:
    """The state of one hand. Create it with :meth:`deal`; change it only through :meth:`apply`."""

    def __init__(self, rules: Rules, dealer: int, deck: Sequence[Card]) -> None:
        if sorted(deck) != list(range(52)):
            raise BadStateError("a deck must hold each of the 52 cards exactly once")
        self.rules = rules
        self.dealer = dealer
        self.deck: tuple[Card, ...] = tuple(deck)
        nondealer = 1 - dealer
        self.hands = list(deal_hands(dealer, deck))
        upcard = deck[2 * HAND_SIZE]
        self.discard_pile: list[Card] = [upcard]
        self.stock_pos = 2 * HAND_SIZE + 1
        self.known = [0, 0]
        self.phase = Phase.UPCARD_NONDEALER
        self.turn = nondealer
        self.taken: Card | None = None  # taken from the pile this turn: may not be discarded
        self.stock_only = False  # both passed the upcard: the non-dealer must draw from the stock
        self.must_knock = False  # took the fiftieth-card discard: must knock or gin
        self.discard_draws = 0
        if rules.oklahoma:
            value = card_value(upcard)
            self.knock_limit = 0 if value == 1 else value
            self.spades_double = suit_of(upcard) == SPADES
        else:
            self.knock_limit = rules.knock_limit
            self.spades_double = False
        self.knocker: int | None = None
        self.knock_discard: Card | None = None
        self.knock_arrangement: Arrangement | None = None
        self.defender_result: LayoffResult | None = None
        self.outcome: HandOutcome | None = None
        self.log: list[LogEntry] = []
        self._legal: tuple[int, tuple[Action, ...], frozenset[Action]] | None = None
        # The history items views.hand_history has rendered, by (viewer, over), for this very log: a log
        # only grows, so each view renders only the moves made since the one before.
        self.history_memo: tuple[list[LogEntry], dict[tuple[int | None, bool], list[dict[str, Any]]]] = (
            self.log,
            {},
        )

    @classmethod
    def deal(cls, rules: Rules, dealer: int, deck: Sequence[Card]) -> Hand:
        """A new hand dealt from `deck` (52 cards, top first): ten each one at a time, the non-dealer
        first, then the upcard; the rest is the stock."""
        return cls(rules, dealer, deck)

    # -- queries --------------------------------------------------------------------------------

    @property
    def stock_size(self) -> int:
        return 52 - self.stock_pos

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def untouched(self) -> bool:
        """Whether no card has been drawn or taken yet (passing the upcard leaves a hand untouched)."""
        return all(entry.action.type == PASS for entry in self.log)

    @property
    def upcard(self) -> Card:
        return self.deck[2 * HAND_SIZE]

    @property
    def dealt_hands(self) -> tuple[int, int]:
        """Both hands as they were dealt (bitmasks, by seat)."""
        return deal_hands(self.dealer, self.deck)

    def cards(self, seat: int) -> list[Card]:
        return cards_of(self.hands[seat])

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now (empty when it is not that seat's move)."""
        if self.phase is Phase.OVER or seat != self.turn:
            return []
        return list(self._legal_for(seat))

    def _legal_for(self, seat: int) -> tuple[Action, ...]:
        """The legal actions of the seat to move, computed once per state."""
        if self._legal is None or self._legal[0] != seat:
            actions = tuple(self._compute_legal(seat))
            self._legal = (seat, actions, frozenset(actions))
        return self._legal[1]

    def _is_listed(self, seat: int, action: Action) -> bool:
        self._legal_for(seat)
        assert self._legal is not None
        return action in self._legal[2]

    def _compute_legal(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase in (Phase.UPCARD_NONDEALER, Phase.UPCARD_DEALER):
            return [Action.draw(PILE), Action.pass_()]
        if phase is Phase.DRAW:
            actions = [Action.draw(STOCK)]
            if not self.stock_only and self.discard_pile:
                actions.append(Action.draw(PILE))
            return actions
        if phase is Phase.FIFTIETH_CARD:
            top = self.discard_pile[-1]
            actions = []
            if self._can_end_with(self.hands[seat] | 1 << top, exclude=top):
                actions.append(Action.draw(PILE))
            actions.append(Action.pass_())
            return actions
        if phase is Phase.DISCARD:
            return self._discard_phase_actions(seat)
        if phase is Phase.LAYOFF:
            best = self._best_layoff(seat)
            return [Action.layoff_best(), Action.layoff(tuple(m.mask for m in best.melds), best.layoffs)]
        raise AssertionError(phase)

    def _discard_phase_actions(self, seat: int) -> list[Action]:
        mask = self.hands[seat]
        after = dict(_melds.discard_options(mask))
        choices = [c for c in cards_of(mask) if c != self.taken]
        limit = self.knock_limit
        # An 11-card hand all in melds always has a meld of 4 or more, so some discard leaves 0:
        # only then can it be big gin.
        big_gin = self.rules.big_gin and min(after.values()) == 0 and _melds.min_deadwood(mask) == 0
        knocks = [KNOCK_ACTIONS[52]] if big_gin else []
        knocks += [KNOCK_ACTIONS[c] for c in choices if after[c] <= limit]
        if self.must_knock:
            return knocks
        return [DISCARD_ACTIONS[c] for c in choices] + knocks

    def _can_end_with(self, mask: int, exclude: Card) -> bool:
        """Whether 11 cards allow a knock or gin (discarding any card but `exclude`) or big gin."""
        if self.rules.big_gin and _melds.min_deadwood(mask) == 0:
            return True
        return _melds.knock_min(mask, forbidden=exclude) <= self.knock_limit

    def _best_layoff(self, defender: int) -> LayoffResult:
        assert self.knock_arrangement is not None
        return _melds.best_layoff(self.hands[defender], self.knock_arrangement.melds)

    # -- moves ----------------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and apply `seat`'s action; returns what happened. Raises a GinRummyError and leaves
        the hand unchanged when the action is not legal."""
        if self.phase is Phase.OVER:
            raise IllegalActionError("the hand is over: deal the next one")
        if seat != self.turn:
            raise NotYourTurnError(
                f"it is the other player's move (seat {self.turn}), not yours (seat {seat})"
            )
        if action.type == LAYOFF:
            if self.phase is not Phase.LAYOFF:
                raise IllegalActionError(self._not_now(action))
            events = self._layoff(seat, action)
        else:
            if not self._is_listed(seat, action.canonical()):
                raise self._why_illegal(seat, action)
            events = self._dispatch(seat, action)
        self._legal = None
        return events

    def _dispatch(self, seat: int, action: Action) -> list[Event]:
        if action.type == DRAW:
            return self._draw(seat, action)
        if action.type == PASS:
            return self._pass(seat)
        if action.type == DISCARD:
            assert action.card is not None
            return self._discard(seat, action.card)
        if action.type == KNOCK:
            return self._knock(seat, action)
        raise IllegalActionError(self._not_now(action))

    def _draw(self, seat: int, action: Action) -> list[Event]:
        if action.source == STOCK:
            card = self.deck[self.stock_pos]
            self.stock_pos += 1
            self.taken = None
            self.log.append(LogEntry(seat, action, card))
            self.hands[seat] |= 1 << card
            self.phase = Phase.DISCARD
            self.stock_only = False
            return [
                _event(
                    "draw", seat, {seat: {"card": card_text(card)}}, source=STOCK, stock_size=self.stock_size
                )
            ]
        card = self.discard_pile.pop()
        self.discard_draws += 1
        self.taken = card
        self.known[seat] |= 1 << card
        self.log.append(LogEntry(seat, action, card))
        self.hands[seat] |= 1 << card
        if self.phase is Phase.FIFTIETH_CARD:
            self.must_knock = True
        self.phase = Phase.DISCARD
        return [_event("draw", seat, source=PILE, card=card_text(card))]

    def _pass(self, seat: int) -> list[Event]:
        self.log.append(LogEntry(seat, Action.pass_()))
        events = [_event("pass", seat)]
        if self.phase is Phase.UPCARD_NONDEALER:
            self.phase = Phase.UPCARD_DEALER
            self.turn = self.dealer
        elif self.phase is Phase.UPCARD_DEALER:
            self.phase = Phase.DRAW
            self.turn = 1 - self.dealer
            self.stock_only = True
        else:  # the fiftieth card refused: the wall rule cancels the hand
            events += self._finish(HandOutcome(HandEnd.WALL, None, 0))
        return events

    def _discard(self, seat: int, card: Card) -> list[Event]:
        self.hands[seat] &= ~(1 << card)
        self.known[seat] &= ~(1 << card)
        self.discard_pile.append(card)
        self.taken = None
        self.log.append(LogEntry(seat, Action.discard(card)))
        events = [_event("discard", seat, card=card_text(card))]
        if self.stock_size <= WALL_STOCK:
            if self.rules.wall == "fiftieth_card":
                self.phase = Phase.FIFTIETH_CARD
                self.turn = 1 - seat
                return events
            return events + self._finish(HandOutcome(HandEnd.WALL, None, 0))
        if self.discard_draws >= self.rules.max_discard_draws:
            return events + self._finish(HandOutcome(HandEnd.DRAW_LIMIT, None, 0))
        self.phase = Phase.DRAW
        self.turn = 1 - seat
        return events

    def _knock(self, seat: int, action: Action) -> list[Event]:
        mask = self.hands[seat]
        card = action.card
        laid = mask if card is None else mask & ~(1 << card)
        if action.melds is not None:
            arrangement = _melds.validate_arrangement(laid, action.melds)
            if arrangement.deadwood > self.knock_limit and not (card is None and arrangement.deadwood == 0):
                raise DeadwoodTooHighError(
                    f"that arrangement leaves {arrangement.deadwood} deadwood; the knock limit is "
                    f"{self.knock_limit}"
                )
            if card is None and arrangement.deadwood:
                raise InvalidMeldError("big gin lays down all eleven cards in melds")
        else:
            arrangement = _melds.best_arrangement(laid)
        self.knocker = seat
        self.knock_discard = card
        self.knock_arrangement = arrangement
        self.hands[seat] = laid
        self.known[seat] = 0
        self.taken = None
        self.log.append(LogEntry(seat, action))
        defender = 1 - seat
        gin = arrangement.deadwood == 0
        private = {} if card is None else {seat: {"discard": card_text(card)}}
        events = [
            _event(
                "knock",
                seat,
                private,
                **arrangement_json(arrangement),
                gin=gin and card is not None,
                big_gin=card is None,
            )
        ]
        if gin:
            defence = _melds.best_arrangement(self.hands[defender])
            self.defender_result = LayoffResult(defence.melds, (), defence.deadwood_mask, defence.deadwood)
            end, bonus = (
                (HandEnd.BIG_GIN, self.rules.big_gin_bonus)
                if card is None
                else (HandEnd.GIN, self.rules.gin_bonus)
            )
            return events + self._finish(self._score(end, seat, 0, defence.deadwood, bonus))
        self.phase = Phase.LAYOFF
        self.turn = defender
        return events

    def _layoff(self, seat: int, action: Action) -> list[Event]:
        assert self.knock_arrangement is not None and self.knocker is not None
        if action.best:
            result = self._best_layoff(seat)
        else:
            result = _melds.validate_layoff(
                self.hands[seat], self.knock_arrangement.melds, action.melds or (), action.layoffs or ()
            )
        self.defender_result = result
        self.log.append(LogEntry(seat, Action.layoff(tuple(m.mask for m in result.melds), result.layoffs)))
        events = [_event("layoff", seat, **arrangement_json(result))]
        knocker_deadwood = self.knock_arrangement.deadwood
        defender_deadwood = result.deadwood
        if knocker_deadwood < defender_deadwood:
            outcome = self._score(HandEnd.KNOCK, self.knocker, knocker_deadwood, defender_deadwood, 0)
        elif knocker_deadwood == defender_deadwood and not self.rules.undercut_on_tie:
            outcome = HandOutcome(HandEnd.TIE, None, 0, self.knocker, knocker_deadwood, defender_deadwood)
        else:
            outcome = self._score(
                HandEnd.UNDERCUT, seat, knocker_deadwood, defender_deadwood, self.rules.undercut_bonus
            )
        return events + self._finish(outcome)

    def _score(self, end: HandEnd, winner: int, knocker_dw: int, defender_dw: int, bonus: int) -> HandOutcome:
        assert self.knocker is not None
        multiplier = 2 if self.spades_double else 1
        difference = abs(defender_dw - knocker_dw)
        return HandOutcome(
            end,
            winner,
            (difference + bonus) * multiplier,
            self.knocker,
            knocker_dw,
            defender_dw,
            difference,
            bonus,
            multiplier,
        )

    def _finish(self, outcome: HandOutcome) -> list[Event]:
        self.outcome = outcome
        self.phase = Phase.OVER
        return [_event("hand_over", outcome.winner, **hand_result(self))]

    # -- errors ---------------------------------------------------------------------------------

    def _not_now(self, action: Action) -> str:
        return f"you cannot {action.type} now: {PHASE_WORDS[self.phase]}"

    def _why_illegal(self, seat: int, action: Action) -> IllegalActionError:
        held = self.hands[seat]
        if action.type in (DISCARD, KNOCK) and self.phase is Phase.DISCARD:
            card = action.card
            if card is not None and not held >> card & 1:
                return IllegalActionError(f"you do not hold {card_text(card)}")
            if card is not None and card == self.taken:
                return IllegalActionError(
                    f"{card_text(card)} was just taken from the discard pile: "
                    "it may not be discarded this turn"
                )
            if action.type == DISCARD and self.must_knock:
                return IllegalActionError("after taking the fiftieth card you must knock or go gin")
            if action.type == KNOCK and card is None:
                if not self.rules.big_gin:
                    return IllegalActionError("big gin is not played under these rules")
                return IllegalActionError("big gin needs all eleven cards in melds; knock with a discard")
            if action.type == KNOCK:
                assert card is not None
                deadwood = _melds.min_deadwood(held & ~(1 << card))
                if self.knock_limit == 0:
                    return DeadwoodTooHighError(
                        f"only gin may end this hand; discarding {card_text(card)} leaves {deadwood} deadwood"
                    )
                return DeadwoodTooHighError(
                    f"discarding {card_text(card)} leaves {deadwood} deadwood; the knock limit is "
                    f"{self.knock_limit}"
                )
        if action.type == DRAW and self.phase is Phase.DRAW and action.source == PILE:
            return IllegalActionError("both passed the upcard: the non-dealer must draw from the stock")
        if action.type == DRAW and self.phase in (Phase.UPCARD_DEALER, Phase.UPCARD_NONDEALER):
            return IllegalActionError("the upcard is on offer: take it (draw from the discard pile) or pass")
        if action.type == DRAW and self.phase is Phase.FIFTIETH_CARD:
            return IllegalActionError(
                "taking the fiftieth card is only allowed when it lets you knock or go gin"
            )
        return IllegalActionError(self._not_now(action))


def hand_result(hand: Hand) -> shapes.HandResult:
    """The finished hand as both seats may now see it: the outcome, both hands laid down, lay-offs."""
    assert hand.outcome is not None
    out: shapes.HandResult = {"outcome": hand.outcome.to_json(), "hands": [texts(h) for h in hand.hands]}
    if hand.knocker is not None:
        assert hand.knock_arrangement is not None and hand.defender_result is not None
        out["knocker"] = {
            "seat": hand.knocker,
            "discard": None if hand.knock_discard is None else card_text(hand.knock_discard),
            **arrangement_json(hand.knock_arrangement),
        }
        out["defender"] = {"seat": 1 - hand.knocker, **arrangement_json(hand.defender_result)}
    else:
        out["arrangements"] = [arrangement_json(_melds.best_arrangement(mask)) for mask in hand.hands]
    return out
