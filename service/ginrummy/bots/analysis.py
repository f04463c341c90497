"""Hand analysis for the bots: meld tests and lay-offs on bitmasks, reading a seat view, card tracking.

Bots evaluate thousands of hypothetical hands per decision (lookahead over the next draw, sampled
opponent hands), so everything here works on plain int masks. The counting is the engine's: bots call
:mod:`ginrummy.engine.melds` (``min_deadwood``, ``knock_min``, ``discard_options``, ``layoff_cards``)
directly rather than keeping copies of it here.

Everything here works from what a seat view shows: a bot never receives the game object, so it
cannot read the stock or the opponent's hidden cards even by mistake.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ginrummy.engine import melds as _melds
from ginrummy.engine.cards import FULL_DECK, mask_value, parse_card

View = dict[str, Any]
Action = dict[str, Any]

_RANK_MASKS = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))


def _build_melds() -> tuple[tuple[int, ...], ...]:
    """Every meld (set or run) that contains each card, as masks, longest first."""
    with_card: list[list[int]] = [[] for _ in range(52)]
    for suit in range(4):
        for start in range(13):
            for end in range(start + 3, 14):
                mask = sum(1 << (suit * 13 + r) for r in range(start, end))
                for r in range(start, end):
                    with_card[suit * 13 + r].append(mask)
    for rank in range(13):
        cards = [s * 13 + rank for s in range(4)]
        full = _RANK_MASKS[rank]
        subsets = [full] + [full & ~(1 << c) for c in cards]
        for mask in subsets:
            for c in cards:
                if mask >> c & 1:
                    with_card[c].append(mask)
    return tuple(tuple(sorted(ms, key=lambda m: -m.bit_count())) for ms in with_card)


MELDS_WITH: tuple[tuple[int, ...], ...] = _build_melds()
"""For each card, every set or run containing it."""

# Cards a card could ever share a meld with: same rank, or same suit within two ranks.
NEIGHBOURS: tuple[int, ...] = tuple(
    (_RANK_MASKS[c % 13] | sum(1 << (c - c % 13 + r) for r in range(max(0, c % 13 - 2), min(13, c % 13 + 3))))
    & ~(1 << c)
    for c in range(52)
)


def melded_mask(mask: int) -> int:
    """The cards in melds under one minimum-deadwood arrangement."""
    return mask & ~_melds.best_arrangement(mask).deadwood_mask


def arrangement_melds(mask: int) -> list[int]:
    """The melds (as masks) of one minimum-deadwood arrangement."""
    return [meld.mask for meld in _melds.best_arrangement(mask).melds]


def in_some_meld(mask: int, card: int) -> bool:
    """Whether ``card`` is part of any meld drawn from ``mask | card`` (Neller's upcard test)."""
    full = mask | (1 << card)
    return any(meld & full == meld for meld in MELDS_WITH[card])


def layoff_closure(knocker_melds: list[int], cards: int) -> int:
    """Cards of ``cards`` that can be laid off onto the melds, lay-offs building on each other.

    Meld by meld in the order given, each takes the most it can of what is left (the engine's
    :func:`~ginrummy.engine.melds.layoff_cards`), so a card that fits two melds goes onto the first.
    In the engine's order (lowest card first) this is the same as laying off one card at a time
    onto whichever meld it fits until none fits any more.
    """
    laid = 0
    for meld in knocker_melds:
        laid |= _melds.layoff_cards(cards & ~laid, meld)
    return laid


def defender_deadwood(defender: int, knocker_melds: list[int]) -> int:
    """The defender's deadwood after lay-offs (an upper bound close to the optimum, fast).

    Takes the defender's own best arrangement, then lays off what it can of the deadwood. The engine's
    ``best_layoff`` also considers breaking a meld to lay off; that rarely changes the count and this
    runs inside the sampling loop.
    """
    melded = melded_mask(defender)
    dead = defender & ~melded
    laid = layoff_closure(knocker_melds, dead)
    return mask_value(dead & ~laid)


# ---------------------------------------------------------------------------------------- view reading


def card_mask(cards: list[Any]) -> int:
    """Mask of a list of card texts from a view."""
    mask = 0
    for text in cards:
        mask |= 1 << parse_card(text)
    return mask


@dataclass
class Knowledge:
    """What one seat knows in a live hand, read from its view.

    ``unseen`` are the cards this seat has never seen: the stock plus the opponent's hidden cards.
    ``opp_known`` are cards the opponent holds for sure (taken from the discard pile, not discarded since).
    ``opp_discarded``/``opp_passed`` are cards the opponent showed it did not want.
    """

    seat: int
    hand: int
    discard_pile: list[int]
    opp_known: int
    opp_discarded: int
    opp_passed: int
    opp_taken: int
    unseen: int
    stock_size: int
    knock_limit: int
    opp_card_count: int
    last_drawn: int | None = None
    opp_draws: int = 0
    pile_draws: int = 0  # draws from the discard pile this hand, by both seats (``max_discard_draws``)
    opp_last_discard: int | None = None  # the opponent's latest discard this hand
    my_turn_pairs: set[tuple[int, int]] = field(default_factory=set)

    @property
    def top(self) -> int | None:
        """The top card of the discard pile."""
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def opp_unknown_count(self) -> int:
        """How many of the opponent's cards this seat cannot name."""
        return max(0, self.opp_card_count - self.opp_known.bit_count())


def read_view(view: View) -> Knowledge:
    """Builds the seat's knowledge from its view (hand, pile, opponent's public moves)."""
    seat = view["seat"]
    hand = card_mask(view["hand"]["cards"])
    pile = [parse_card(t) for t in view.get("discard_pile", [])]
    opp = view.get("opponent") or {}
    opp_known = card_mask(opp.get("known_cards", []))
    opp_discarded = 0
    opp_passed = 0
    opp_taken = 0
    last_drawn: int | None = None
    pairs: set[tuple[int, int]] = set()
    opp_draws = 0
    pile_draws = 0
    opp_last_discard: int | None = None
    # Replays the public moves to know which card was on top of the pile at each draw: a seat that
    # drew from the stock (or passed) declined that card.
    top: int | None = None
    history = view.get("history") or []
    first_top = _initial_upcard(pile, history)
    top = first_top
    pile_stack: list[int] = [] if first_top is None else [first_top]
    for move in history:
        kind = move.get("type")
        mover = move.get("seat")
        if kind == "pass":
            if mover != seat and top is not None:
                opp_passed |= 1 << top
        elif kind == "draw":
            if mover != seat:
                opp_draws += 1
            source = move.get("source")
            if source == "discard":
                pile_draws += 1
                taken = parse_card(move["card"]) if move.get("card") is not None else top
                if pile_stack:
                    pile_stack.pop()
                top = pile_stack[-1] if pile_stack else None
                if mover != seat and taken is not None:
                    opp_taken |= 1 << taken
                elif mover == seat:
                    last_drawn = taken
            else:
                if mover != seat and top is not None:
                    opp_passed |= 1 << top
                elif mover == seat:
                    last_drawn = parse_card(move["card"]) if move.get("card") is not None else None
        elif kind == "discard" or (kind == "knock" and move.get("discard") is not None):
            card_field = move.get("card") if kind == "discard" else move.get("discard")
            if card_field is None:
                continue
            card = parse_card(card_field)
            pile_stack.append(card)
            top = card
            if mover != seat:
                opp_discarded |= 1 << card
                opp_last_discard = card
            elif last_drawn is not None:
                pairs.add((last_drawn, card))
    pile_mask = 0
    for c in pile:
        pile_mask |= 1 << c
    unseen = FULL_DECK & ~hand & ~pile_mask & ~opp_known
    return Knowledge(
        seat=seat,
        hand=hand,
        discard_pile=pile,
        opp_known=opp_known,
        opp_discarded=opp_discarded,
        opp_passed=opp_passed & ~opp_taken,
        opp_taken=opp_taken,
        unseen=unseen,
        stock_size=int(view.get("stock_size", 0)),
        knock_limit=int(view.get("knock_limit", 10)),
        opp_card_count=int(opp.get("card_count", 10)),
        last_drawn=last_drawn,
        opp_draws=opp_draws,
        pile_draws=pile_draws,
        opp_last_discard=opp_last_discard,
        my_turn_pairs=pairs,
    )


def _initial_upcard(pile: list[int], history: list[dict[str, Any]]) -> int | None:
    """The upcard of the deal: the pile's bottom card unless it was taken during the hand."""
    if not history or not pile:
        return pile[0] if pile else None
    taken_first = next((m for m in history if m.get("type") == "draw"), None)
    if (
        taken_first is not None
        and taken_first.get("source") == "discard"
        and taken_first.get("card") is not None
        and not any(m.get("type") == "discard" for m in history[: history.index(taken_first)])
    ):
        return parse_card(taken_first["card"])
    return pile[0]
