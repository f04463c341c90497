"""Melds, deadwood and lay-offs: the exact solver behind knocking, scoring, bots and hints.

Terminology (docs/rules.md §2 and §5):

- **meld** — a group of cards that scores nothing against its holder: a *set* or a *run*.
- **set** — 3 or 4 cards of one rank (``7C 7D 7H``).
- **run** — 3 or more cards of one suit in consecutive rank (``4H 5H 6H``); the ace is low only,
  so ``AH 2H 3H`` is a run and ``QH KH AH`` is not, and nothing wraps.
- **arrangement** — a choice of disjoint melds within a hand; every other card is deadwood.
- **deadwood** — the cards of a hand in no meld; the *deadwood count* is the sum of their point
  values (ace 1, two to ten face value, court cards 10) under the arrangement that makes it smallest.
- **lay-off** — after a knock, the defender adds deadwood cards to the knocker's melds: the 4th card
  of a set, or cards extending a run at either end, possibly building on each other (7H then 8H onto
  4H 5H 6H).
- **gin** — a knock with 0 deadwood: the 10 cards kept are all in melds.
- **big gin** — all 11 cards (after drawing) are in melds; the player knocks without discarding.

How the solver works. A card is ``suit * 13 + rank``, so each suit of a hand is a 13-bit field and
a run is a stretch of adjacent set bits. At import a table of all 8192 suit fields gives the least
deadwood of one suit using runs only. Sets are the only melds that span suits, and only ranks held
three or four times can form one, so the minimum over the whole hand is the minimum, over the few
ways of choosing sets at those ranks, of the four table lookups of what is left. A random hand
usually has no such rank: the common case is four lookups. Every result is exact, for any number of
cards.

Arrangements are reported with *maximal runs*: two runs of one suit that touch are one run
(``3H..8H`` rather than ``3H 4H 5H`` + ``6H 7H 8H``). Splitting a run never lowers deadwood nor opens
a lay-off, so arrangements that differ only by such a split count as one.

>>> deadwood(["7C", "7D", "7H", "4S", "5S", "6S", "2H", "3D", "KS", "QD"])
25
>>> best_arrangement(mask_of(["7C", "7D", "7H", "4S", "5S", "6S", "2H", "3D"])).deadwood
5
>>> knock_deadwood(["7C", "7D", "7H", "4S", "5S", "6S", "AH", "2D", "3C", "5D", "9C"])
11
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from . import shapes
from .cards import SUIT_MASK, card_text, cards_of, mask_value, parse_card, texts
from .cards import mask_of as mask_of  # re-exported; the doctests use it
from .errors import BadCardError, InvalidLayoffError, InvalidMeldError

__all__ = [
    "Arrangement",
    "Layoff",
    "LayoffResult",
    "Meld",
    "MeldKind",
    "best_arrangement",
    "best_layoff",
    "best_melds",
    "deadwood",
    "discard_options",
    "knock_deadwood",
    "knock_min",
    "layoff_cards",
    "meld_kind",
    "min_deadwood",
    "validate_arrangement",
    "validate_layoff",
]

Layoff = tuple[int, int]
"""A lay-off: ``(card, index of the knocker's meld it goes onto)``."""

_RANK_VALUES = tuple(min(rank + 1, 10) for rank in range(13))
_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""One bit per suit at rank 0: ``_SPREAD << r`` is every card of rank ``r``."""
_NO_CARD = 1 << 20
"""Stands for "impossible" in the discard table (a suit with no card to discard)."""


class MeldKind(enum.Enum):
    """The two kinds of meld."""

    SET = "set"
    RUN = "run"


# --------------------------------------------------------------------------------------------
# Tables over one suit's 13-bit field, built once at import (a few milliseconds).


def _build_suit_tables() -> tuple[list[int], list[int], list[int], list[int]]:
    """Least run-only deadwood, one optimal melded field, best-after-one-discard, run-capable cards."""
    size = 1 << 13
    least = [0] * size
    melded = [0] * size
    for field in range(1, size):
        low = field & -field
        rank = low.bit_length() - 1
        # The lowest card is either deadwood or the first card of a run starting at it.
        best = _RANK_VALUES[rank] + least[field ^ low]
        best_melded = melded[field ^ low]
        run = low
        end = rank + 1
        while end < 13 and field >> end & 1:
            run |= 1 << end
            end += 1
            if end - rank >= 3 and least[field ^ run] < best:
                best = least[field ^ run]
                best_melded = melded[field ^ run] | run
        least[field] = best
        melded[field] = best_melded
    after_discard = [_NO_CARD] * size
    capable = [0] * size
    for field in range(1, size):
        rest = field
        best = _NO_CARD
        while rest:
            low = rest & -rest
            rest ^= low
            if least[field ^ low] < best:
                best = least[field ^ low]
        after_discard[field] = best
        # A card can be in a run only if two neighbours of a 3-card window around it are held.
        up1, up2, down1, down2 = field >> 1, field >> 2, field << 1, field << 2
        capable[field] = field & ((up1 & up2) | (up1 & down1) | (down1 & down2)) & SUIT_MASK
    return least, melded, after_discard, capable


_RUN_DEADWOOD, _RUN_MELDED, _DISCARD_DEADWOOD, _RUN_CAPABLE = _build_suit_tables()


def _build_set_options() -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
    """For one rank held three or four times: the set choices worth trying.

    Both tables give, as 4-suit spreads at rank 0, the cards to take out as a set (0 = no set).
    The first is keyed by ``held | run_capable << 1`` (spreads of the rank's held cards and of those
    that could be in some run of the hand): a choice that leaves out of the set a card which can be
    in no run leaves it as deadwood, which is strictly worse than putting it in, so such choices are
    dropped. That keeps the search small without losing any optimal arrangement. The second table,
    keyed by ``held`` alone, lists every choice: when a card will be discarded afterwards, leaving
    it out of the set costs nothing, so nothing may be pruned.
    """
    suit_bits = (1, 1 << 13, 1 << 26, 1 << 39)
    pruned: dict[int, tuple[int, ...]] = {}
    every: dict[int, tuple[int, ...]] = {}
    for present in range(16):
        held = [suit_bits[i] for i in range(4) if present >> i & 1]
        if len(held) < 3:
            continue
        full = sum(held)
        every[full] = (full, *(full ^ bit for bit in held), 0) if len(held) == 4 else (full, 0)
        for capable_subset in range(16):
            if capable_subset & ~present:
                continue
            capable = [suit_bits[i] for i in range(4) if capable_subset >> i & 1]
            choices = [full]
            if len(held) == 4:
                choices += [full ^ bit for bit in capable]
            if (len(held) == 3 and capable) or len(capable) >= 2:
                choices.append(0)
            pruned[full | sum(capable) << 1] = tuple(choices)
    return pruned, every


_SET_OPTIONS, _ALL_SET_OPTIONS = _build_set_options()


def _triples(mask: int) -> int:
    """The ranks (as bits 0–12) held in at least three suits."""
    c = mask & SUIT_MASK
    d = mask >> 13 & SUIT_MASK
    h = mask >> 26 & SUIT_MASK
    s = mask >> 39
    return (c & d & (h | s)) | (h & s & (c | d))


def _set_choices(mask: int, triples: int, *, prune: bool = True) -> list[int]:
    """Every worthwhile residual hand (``mask`` minus the chosen sets), for ranks in ``triples``."""
    capable = (
        _RUN_CAPABLE[mask & SUIT_MASK]
        | _RUN_CAPABLE[mask >> 13 & SUIT_MASK] << 13
        | _RUN_CAPABLE[mask >> 26 & SUIT_MASK] << 26
        | _RUN_CAPABLE[mask >> 39] << 39
    )
    residuals = [mask]
    while triples:
        low = triples & -triples
        triples ^= low
        rank = low.bit_length() - 1
        if prune:
            choices = _SET_OPTIONS[(mask >> rank & _SPREAD) | (capable >> rank & _SPREAD) << 1]
        else:
            choices = _ALL_SET_OPTIONS[mask >> rank & _SPREAD]
        residuals = [residual ^ (choice << rank) for residual in residuals for choice in choices]
    return residuals


# --------------------------------------------------------------------------------------------
# The hot path: plain ints, no allocation in the common case, tables bound as default arguments
# (a local lookup is cheaper than a global one).


def min_deadwood(mask: int, _table: list[int] = _RUN_DEADWOOD) -> int:
    """Minimum deadwood count of a hand given as a bitmask, keeping every card.

    >>> min_deadwood(mask_of(["AC", "2C", "3C", "KS"]))
    10
    """
    c = mask & 8191
    d = mask >> 13 & 8191
    h = mask >> 26 & 8191
    s = mask >> 39
    triples = (c & d & (h | s)) | (h & s & (c | d))
    if triples:
        return _min_with_sets(mask, triples, c, d, h, s)
    return _table[c] + _table[d] + _table[h] + _table[s]


def _min_with_sets(
    mask: int,
    triples: int,
    c: int,
    d: int,
    h: int,
    s: int,
    _table: list[int] = _RUN_DEADWOOD,
    _capable: list[int] = _RUN_CAPABLE,
    _options: dict[int, tuple[int, ...]] = _SET_OPTIONS,
) -> int:
    capable = _capable[c] | _capable[d] << 13 | _capable[h] << 26 | _capable[s] << 39
    residual = mask
    residuals: list[int] | None = None
    while triples:
        low = triples & -triples
        triples ^= low
        rank = low.bit_length() - 1
        choices = _options[(mask >> rank & 0x8004002001) | (capable >> rank & 0x8004002001) << 1]
        if len(choices) == 1:
            # The usual case: no card of this rank can be in a run, so the whole rank is a set.
            if residuals is None:
                residual ^= choices[0] << rank
            else:
                taken = choices[0] << rank
                residuals = [r ^ taken for r in residuals]
        elif residuals is None:
            residuals = [residual ^ choice << rank for choice in choices]
        else:
            residuals = [r ^ choice << rank for r in residuals for choice in choices]
    if residuals is None:
        return (
            _table[residual & 8191]
            + _table[residual >> 13 & 8191]
            + _table[residual >> 26 & 8191]
            + _table[residual >> 39]
        )
    best = 1000
    for r in residuals:
        value = _table[r & 8191] + _table[r >> 13 & 8191] + _table[r >> 26 & 8191] + _table[r >> 39]
        if value < best:
            best = value
    return best


def _knock_min(mask: int, _table: list[int] = _RUN_DEADWOOD, _after: list[int] = _DISCARD_DEADWOOD) -> int:
    """Minimum deadwood after discarding the best card of ``mask`` (at least one card).

    Any discard with any choice of sets is some set choice of the whole hand followed by a discard
    from what the sets leave, so the minimum is taken over set choices (all of them: see
    :func:`_build_set_options`) of the best single-discard run-only deadwood of the residual.
    """
    c = mask & 8191
    d = mask >> 13 & 8191
    h = mask >> 26 & 8191
    s = mask >> 39
    triples = (c & d & (h | s)) | (h & s & (c | d))
    if not triples:
        tc, td, th, ts = _table[c], _table[d], _table[h], _table[s]
        total = tc + td + th + ts
        return min(
            total - tc + _after[c], total - td + _after[d], total - th + _after[h], total - ts + _after[s]
        )
    best = _NO_CARD
    for r in _set_choices(mask, triples, prune=False):
        c, d, h, s = r & 8191, r >> 13 & 8191, r >> 26 & 8191, r >> 39
        tc, td, th, ts = _table[c], _table[d], _table[h], _table[s]
        total = tc + td + th + ts
        value = min(
            total - tc + _after[c], total - td + _after[d], total - th + _after[h], total - ts + _after[s]
        )
        if value < best:
            best = value
    return best


_CARD_BITS: dict[str | int, int] = {card: 1 << card for card in range(52)}
_CARD_BITS.update({card_text(card): 1 << card for card in range(52)})
_bit_of = _CARD_BITS.__getitem__


def _hand_mask(cards: Iterable[str | int]) -> int:
    """Bitmask of a hand given as card texts or numbers.

    Canonical texts and ints go through one dict lookup each; anything else (or a repeated card)
    falls back to :func:`parse_card` for the full parsing and the error message. Repeated cards are
    caught by counting: a sum of n powers of two has n one bits only if they are all different.
    """
    if type(cards) is not list and type(cards) is not tuple:
        if isinstance(cards, (str, bytes, int)):
            raise BadCardError(f"expected a list of cards, got {cards!r}")
        cards = list(cards)
    try:
        mask: int = sum(map(_bit_of, cards))
    except (KeyError, TypeError):
        return _slow_hand_mask(cards)
    # ``True == 1`` and ``False == 0``: a bool passes the lookup as AC or 2C, so when either card
    # is in the mask let the slow path check (and reject bools).
    if mask.bit_count() != len(cards) or (mask & 3 and bool in map(type, cards)):
        return _slow_hand_mask(cards)
    return mask


def _slow_hand_mask(cards: Iterable[str | int]) -> int:
    mask = 0
    for value in cards:
        card = parse_card(value)
        bit = 1 << card
        if mask & bit:
            raise BadCardError(f"card given twice: {card_text(card)}")
        mask |= bit
    return mask


def deadwood(cards: Iterable[str | int]) -> int:
    """Minimum deadwood count of a hand, keeping all its cards (11 cards all melded give 0).

    >>> deadwood(["AH", "2H", "3H", "9S"])
    9
    """
    return min_deadwood(_hand_mask(cards))


def knock_deadwood(cards: Iterable[str | int]) -> int:
    """Minimum deadwood after the best discard (for an 11-card hand: what a knock would leave).

    >>> knock_deadwood(["3C", "5D", "9H", "AS", "2S", "3S", "4S", "7C", "7D", "7H", "7S"])
    8
    """
    mask = _hand_mask(cards)
    if not mask:
        raise BadCardError("a hand with no card has nothing to discard")
    return _knock_min(mask)


def knock_min(mask: int, forbidden: int | None = None) -> int:
    """:func:`knock_deadwood` of a bitmask: least deadwood after the best discard.

    ``forbidden`` is a card that may not be the discard (the card just taken from the discard
    pile); a card not in ``mask`` forbids nothing. ``mask`` must hold at least one other card.

    >>> knock_min(mask_of(["AC", "2C", "3C", "9D"]))
    0
    >>> knock_min(mask_of(["AC", "2C", "3C", "9D"]), forbidden=parse_card("9D"))
    12
    """
    if forbidden is None:
        return _knock_min(mask)
    # Rare (one call per draw decision, not per searched hand): ranking the discards is enough.
    options = discard_options(mask, forbidden)
    return options[0][1] if options else _NO_CARD


def discard_options(mask11: int, forbidden: int | None = None) -> list[tuple[int, int]]:
    """``(card, deadwood after discarding it)`` for every card, ascending by deadwood then card.

    ``forbidden`` is a card left out of the options (the card just taken from the discard pile,
    which the rules do not let a player throw back); a card not in ``mask11`` leaves out nothing.

    >>> [(card_text(c), dw) for c, dw in discard_options(mask_of(["AC", "2C", "3C", "9D"]))][:2]
    [('9D', 0), ('3C', 12)]
    >>> hand = mask_of(["AC", "2C", "3C", "9D"])
    >>> [(card_text(c), dw) for c, dw in discard_options(hand, forbidden=parse_card("9D"))][:2]
    [('3C', 12), ('2C', 13)]
    """
    table = _RUN_DEADWOOD
    ranked: list[tuple[int, int]] = []
    # Only the set of candidate discards changes; the deadwood after each is the same.
    candidates = mask11 if forbidden is None else mask11 & ~(1 << forbidden)
    if _triples(mask11):
        rest = candidates
        while rest:
            low = rest & -rest
            rest ^= low
            ranked.append((min_deadwood(mask11 ^ low), low.bit_length() - 1))
    else:
        # No rank is held three times, so no discard can make a set: only the discard's own suit
        # changes, and its run-only deadwood is one table lookup.
        fields = _fields(mask11)
        total = sum(table[field] for field in fields)
        for suit, field in enumerate(fields):
            others = total - table[field]
            rest = field if forbidden is None else candidates >> 13 * suit & SUIT_MASK
            while rest:
                low = rest & -rest
                rest ^= low
                ranked.append((others + table[field ^ low], low.bit_length() - 1 + 13 * suit))
    ranked.sort()
    return [(card, dw) for dw, card in ranked]


# --------------------------------------------------------------------------------------------
# Melds and arrangements as values.


@dataclass(frozen=True, slots=True)
class Meld:
    """A set or a run, as a bitmask of its cards.

    >>> Meld.of(["7H", "7C", "7D"])
    Meld.of(['7C', '7D', '7H'])
    >>> Meld.of(["4H", "5H", "6H"]).kind
    <MeldKind.RUN: 'run'>
    """

    kind: MeldKind
    mask: int

    @classmethod
    def of(cls, cards: Iterable[str | int] | int) -> Meld:
        """The meld of these cards (texts, numbers or a bitmask); :class:`InvalidMeldError` if none."""
        mask = cards if isinstance(cards, int) else _hand_mask(cards)
        kind = meld_kind(mask)
        if kind is None:
            raise InvalidMeldError(_not_a_meld_message(mask))
        return cls(kind, mask)

    @property
    def cards(self) -> tuple[int, ...]:
        """The cards, ascending."""
        return tuple(cards_of(self.mask))

    def texts(self) -> list[str]:
        """Canonical texts of the cards, ascending."""
        return texts(self.mask)

    def __repr__(self) -> str:
        return f"Meld.of({self.texts()!r})"

    def __str__(self) -> str:
        return " ".join(self.texts())


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Disjoint melds of a hand and what is left over as deadwood."""

    melds: tuple[Meld, ...]
    deadwood_mask: int
    deadwood: int

    @property
    def meld_mask(self) -> int:
        """All the melded cards."""
        mask = 0
        for meld in self.melds:
            mask |= meld.mask
        return mask

    @property
    def deadwood_cards(self) -> tuple[int, ...]:
        """The deadwood cards, ascending."""
        return tuple(cards_of(self.deadwood_mask))


@dataclass(frozen=True, slots=True)
class LayoffResult:
    """The defender's side after a knock: own melds, lay-offs onto the knocker's melds, deadwood."""

    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood_mask: int
    deadwood: int

    @property
    def layoff_mask(self) -> int:
        """All the cards laid off."""
        mask = 0
        for card, _ in self.layoffs:
            mask |= 1 << card
        return mask


def _meld_order(meld: Meld) -> tuple[int, int, int]:
    low = (meld.mask & -meld.mask).bit_length() - 1
    return (low % 13, low // 13, meld.mask)


def _runs_of_field(field: int, suit: int) -> Iterator[Meld]:
    """The maximal runs of a melded suit field (every stretch there is at least 3 long)."""
    shift = 13 * suit
    while field:
        low = field & -field
        stretch = low
        while field & (stretch << 1) & ~stretch:
            stretch |= stretch << 1 & field
        field ^= stretch
        yield Meld(MeldKind.RUN, stretch << shift)


def _arrangement(mask: int, residual: int, run_fields: Sequence[int]) -> Arrangement:
    """Build the arrangement where ``mask ^ residual`` went to sets and ``run_fields`` to runs."""
    melds: list[Meld] = []
    in_sets = mask ^ residual
    ranks = 0
    for shift in (0, 13, 26, 39):
        ranks |= in_sets >> shift & SUIT_MASK
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        melds.append(Meld(MeldKind.SET, in_sets & _SPREAD << (low.bit_length() - 1)))
    melded = in_sets
    for suit, field in enumerate(run_fields):
        melds.extend(_runs_of_field(field, suit))
        melded |= field << 13 * suit
    melds.sort(key=_meld_order)
    dead = mask ^ melded
    return Arrangement(tuple(melds), dead, mask_value(dead))


def _fields(mask: int) -> tuple[int, int, int, int]:
    return (mask & SUIT_MASK, mask >> 13 & SUIT_MASK, mask >> 26 & SUIT_MASK, mask >> 39)


def _residual_deadwood(residual: int) -> int:
    table = _RUN_DEADWOOD
    return sum(table[field] for field in _fields(residual))


def best_arrangement(mask: int) -> Arrangement:
    """One minimum-deadwood arrangement of a hand (the first of :func:`best_melds` is not implied).

    >>> a = best_arrangement(mask_of(["7C", "7D", "7H", "7S", "5H", "6H", "KD"]))
    >>> [m.texts() for m in a.melds], texts(a.deadwood_mask), a.deadwood
    ([['5H', '6H', '7H'], ['7C', '7D', '7S']], ['KD'], 10)
    """
    triples = _triples(mask)
    residuals = _set_choices(mask, triples) if triples else [mask]
    best = min(residuals, key=_residual_deadwood)
    return _arrangement(mask, best, [_RUN_MELDED[field] for field in _fields(best)])


def _all_run_fields(field: int) -> list[int]:
    """Every melded field (union of runs) of one suit reaching the least run-only deadwood."""
    target = _RUN_DEADWOOD[field]
    found: set[int] = set()

    def walk(rest: int, melded: int, dead: int) -> None:
        if dead + _RUN_DEADWOOD[rest] != target:
            return
        if not rest:
            found.add(melded)
            return
        low = rest & -rest
        rank = low.bit_length() - 1
        walk(rest ^ low, melded, dead + _RANK_VALUES[rank])
        run = low
        end = rank + 1
        while end < 13 and rest >> end & 1:
            run |= 1 << end
            end += 1
            if end - rank >= 3:
                walk(rest ^ run, melded | run, dead)

    walk(field, 0, 0)
    return sorted(found)


def best_melds(cards: Iterable[str | int] | int) -> list[Arrangement]:
    """Every minimum-deadwood arrangement of a hand, deduplicated, in a deterministic order.

    Accepts card texts or numbers, or a bitmask. Runs are maximal (see the module docstring).
    The order: fewest melds first, then by the melds' masks.

    >>> for a in best_melds(["7C", "7D", "7H", "5C", "6C", "8D", "9D"]):
    ...     print([str(m) for m in a.melds], a.deadwood)
    ['5C 6C 7C', '7D 8D 9D'] 7
    """
    mask = cards if isinstance(cards, int) else _hand_mask(cards)
    triples = _triples(mask)
    residuals = _set_choices(mask, triples) if triples else [mask]
    target = min(_residual_deadwood(residual) for residual in residuals)
    arrangements: dict[tuple[int, ...], Arrangement] = {}
    for residual in residuals:
        if _residual_deadwood(residual) != target:
            continue
        per_suit = [_all_run_fields(field) for field in _fields(residual)]
        for run_fields in itertools.product(*per_suit):
            arrangement = _arrangement(mask, residual, run_fields)
            key = tuple(sorted(meld.mask for meld in arrangement.melds))
            arrangements.setdefault(key, arrangement)
    return sorted(
        arrangements.values(),
        key=lambda a: (len(a.melds), [(_meld_order(m)) for m in a.melds]),
    )


# --------------------------------------------------------------------------------------------
# Checking what a player lays down.


def meld_kind(mask: int) -> MeldKind | None:
    """:attr:`MeldKind.SET`, :attr:`MeldKind.RUN` or ``None`` if the cards are no meld.

    >>> meld_kind(mask_of(["QH", "KH", "AH"])) is None, meld_kind(mask_of(["AH", "2H", "3H"]))
    (True, <MeldKind.RUN: 'run'>)
    """
    count = mask.bit_count()
    if count < 3:
        return None
    low = mask & -mask
    rank = (low.bit_length() - 1) % 13
    if count <= 4 and mask & ~(_SPREAD << rank) == 0:
        return MeldKind.SET
    # A run: ``count`` adjacent bits starting at the lowest card, all in that card's suit.
    stretch = ((1 << count) - 1) * low
    if mask == stretch and rank + count <= 13:
        return MeldKind.RUN
    return None


def _not_a_meld_message(mask: int) -> str:
    shown = " ".join(texts(mask)) or "(no cards)"
    return (
        f"{shown} is not a meld: a set is 3 or 4 cards of one rank, "
        "a run is 3 or more cards of one suit in sequence (ace low, no wrapping)"
    )


MeldSpec = Meld | int | Iterable[str | int]
"""A meld as given by a caller: a :class:`Meld`, a bitmask or a list of cards."""


def _as_mask(meld: MeldSpec) -> int:
    if isinstance(meld, Meld):
        return meld.mask
    if isinstance(meld, bool):
        raise InvalidMeldError(f"not a meld: {meld!r}")
    if isinstance(meld, int):
        return meld
    return _hand_mask(meld)


def _validated_melds(hand_mask: int, meld_masks: Iterable[MeldSpec]) -> list[Meld]:
    melds: list[Meld] = []
    used = 0
    for item in meld_masks:
        mask = _as_mask(item)
        if mask < 0 or mask >> 52:
            raise InvalidMeldError(f"not a set of cards: {mask!r}")
        kind = meld_kind(mask)
        if kind is None:
            raise InvalidMeldError(_not_a_meld_message(mask))
        missing = mask & ~hand_mask
        if missing:
            raise InvalidMeldError(
                f"meld {' '.join(texts(mask))} uses cards not in the hand: {' '.join(texts(missing))}"
            )
        overlap = mask & used
        if overlap:
            raise InvalidMeldError(f"{' '.join(texts(overlap))} cannot be in two melds")
        used |= mask
        melds.append(Meld(kind, mask))
    return melds


def validate_arrangement(hand_mask: int, meld_masks: Iterable[MeldSpec]) -> Arrangement:
    """Check melds a player lays down and return the arrangement they make.

    Each meld may be a bitmask, a :class:`Meld` or a list of cards. Raises :class:`InvalidMeldError`
    (naming the cards) if a group is no meld, two melds share a card, or a card is not in the hand.

    >>> hand = mask_of(["7C", "7D", "7H", "8H", "9H", "KS"])
    >>> validate_arrangement(hand, [mask_of(["7C", "7D", "7H"])]).deadwood
    27
    >>> validate_arrangement(hand, [mask_of(["7H", "8H", "9H"]), mask_of(["7C", "7D", "7H"])])
    Traceback (most recent call last):
    ...
    ginrummy.engine.errors.InvalidMeldError: 7H cannot be in two melds
    """
    melds = _validated_melds(hand_mask, meld_masks)
    melded = 0
    for meld in melds:
        melded |= meld.mask
    dead = hand_mask & ~melded
    return Arrangement(tuple(melds), dead, mask_value(dead))


# --------------------------------------------------------------------------------------------
# Lay-offs.


def _layoff_options(defender_mask: int, target: int) -> list[list[tuple[int, int]]]:
    """For one knocker's meld: each way to lay off onto it, as ``[(card_bit, order)]`` lists.

    A set of 3 takes its 4th card; a run takes a stretch of held cards going down from its lowest
    card and a stretch going up from its highest (each card building on the one before).
    """
    kind = meld_kind(target)
    ways: list[list[tuple[int, int]]] = [[]]
    if kind is MeldKind.SET:
        low = target & -target
        rank = (low.bit_length() - 1) % 13
        fourth = (_SPREAD << rank) & ~target & defender_mask
        if fourth:
            ways.append([(fourth, 0)])
    elif kind is MeldKind.RUN:
        low_card = (target & -target).bit_length() - 1
        high_card = target.bit_length() - 1
        suit_start = low_card - low_card % 13
        down: list[tuple[int, int]] = []
        card = low_card - 1
        while card >= suit_start and defender_mask >> card & 1:
            down.append((1 << card, len(down)))
            card -= 1
        up: list[tuple[int, int]] = []
        card = high_card + 1
        while card < suit_start + 13 and defender_mask >> card & 1:
            up.append((1 << card, len(up)))
            card += 1
        ways = [down[:i] + up[:j] for i in range(len(down) + 1) for j in range(len(up) + 1)]
    return ways


def layoff_cards(defender_mask: int, meld: Meld | int) -> int:
    """The most cards of ``defender_mask`` that can be laid off onto one knocker's meld (0 if none).

    Under the lay-off rules :func:`best_layoff` weighs: the 4th card of a set of 3, or every held
    card of the stretches going down from a run's lowest card and up from its highest.

    >>> texts(layoff_cards(mask_of(["3H", "7H", "8H", "TH", "4S"]), mask_of(["4H", "5H", "6H"])))
    ['3H', '7H', '8H']
    >>> texts(layoff_cards(mask_of(["9H", "8H"]), mask_of(["9C", "9D", "9S"])))
    ['9H']
    """
    laid = 0
    # The last way is the longest one: a set's 4th card, or both stretches of a run in full.
    for bit, _ in _layoff_options(defender_mask, _as_mask(meld))[-1]:
        laid |= bit
    return laid


def best_layoff(defender_mask: int, knocker_melds: Sequence[Meld | int]) -> LayoffResult:
    """The defender's own melds and lay-offs that leave the least deadwood, chosen jointly.

    A card may serve better laid off than in the defender's own meld, or the other way round; every
    combination of lay-offs is weighed with the best arrangement of the cards left.

    >>> knocker = [mask_of(["4H", "5H", "6H"]), mask_of(["9C", "9D", "9S"])]
    >>> r = best_layoff(mask_of(["7H", "8H", "KC", "KD", "KS", "2C", "3C"]), knocker)
    >>> [(card_text(c), i) for c, i in r.layoffs], [str(m) for m in r.melds], r.deadwood
    ([('7H', 0), ('8H', 0)], ['KC KD KS'], 5)
    """
    targets = [_as_mask(meld) for meld in knocker_melds]
    per_meld = [_layoff_options(defender_mask, target) for target in targets]
    best_key: tuple[int, int, int] | None = None
    best_choice: tuple[list[tuple[int, int]], ...] = tuple([] for _ in targets)
    for choice in itertools.product(*per_meld):
        laid = 0
        clash = False
        for way in choice:
            for bit, _ in way:
                if laid & bit:
                    clash = True
                laid |= bit
        if clash:
            continue
        key = (min_deadwood(defender_mask & ~laid), laid.bit_count(), laid)
        if best_key is None or key < best_key:
            best_key = key
            best_choice = choice
    laid = 0
    layoffs: list[Layoff] = []
    for index, way in enumerate(best_choice):
        for bit, _ in sorted(way, key=lambda item: item[1]):
            laid |= bit
            layoffs.append((bit.bit_length() - 1, index))
    own = best_arrangement(defender_mask & ~laid)
    return LayoffResult(own.melds, tuple(layoffs), own.deadwood_mask, own.deadwood)


def validate_layoff(
    defender_mask: int,
    knocker_melds: Sequence[Meld | int],
    defender_melds: Iterable[Meld | int | Iterable[str | int]],
    layoffs: Iterable[tuple[str | int, int]],
) -> LayoffResult:
    """Check the defender's melds and lay-offs; return what they leave.

    Lay-offs onto the knocker's meld *i* are valid when meld *i* plus every card laid off onto it is
    still one meld. A laid-off card must be in the defender's hand and in none of their own melds.
    Raises :class:`InvalidMeldError` for a bad own meld and :class:`InvalidLayoffError` otherwise.

    >>> knocker = [mask_of(["4H", "5H", "6H"])]
    >>> validate_layoff(mask_of(["8H", "7H", "KS"]), knocker, [], [("8H", 0), ("7H", 0)]).deadwood
    10
    >>> validate_layoff(mask_of(["8H", "KS"]), knocker, [], [("8H", 0)])
    Traceback (most recent call last):
    ...
    ginrummy.engine.errors.InvalidLayoffError: 8H does not fit onto 4H 5H 6H (4H 5H 6H 8H is not a meld)
    """
    targets = [_as_mask(meld) for meld in knocker_melds]
    own = validate_arrangement(defender_mask, defender_melds)
    own_mask = own.meld_mask
    added = [0] * len(targets)
    laid = 0
    result: list[Layoff] = []
    for item in layoffs:
        try:
            if isinstance(item, (str, bytes)):
                raise TypeError
            raw_card, index = item
        except (TypeError, ValueError):
            raise InvalidLayoffError(f"a lay-off is (card, meld index), not {item!r}") from None
        card = parse_card(raw_card)
        name = card_text(card)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(targets):
            raise InvalidLayoffError(
                f"cannot lay off {name} onto meld {index!r}: the knocker has melds 0 to {len(targets) - 1}"
                if targets
                else f"cannot lay off {name}: the knocker has no melds"
            )
        bit = 1 << card
        if not defender_mask & bit:
            raise InvalidLayoffError(f"cannot lay off {name}: it is not in your hand")
        if own_mask & bit:
            raise InvalidLayoffError(f"cannot lay off {name}: it is in one of your own melds")
        if laid & bit:
            raise InvalidLayoffError(f"{name} is laid off twice")
        laid |= bit
        added[index] |= bit
        result.append((card, index))
    for index, target in enumerate(targets):
        if added[index] and meld_kind(target | added[index]) is None:
            raise InvalidLayoffError(
                f"{' '.join(texts(added[index]))} does not fit onto {' '.join(texts(target))} "
                f"({' '.join(texts(target | added[index]))} is not a meld)"
            )
    dead = own.deadwood_mask & ~laid
    return LayoffResult(own.melds, tuple(result), dead, mask_value(dead))


@overload
def arrangement_json(arrangement: LayoffResult) -> shapes.LaidOff: ...
@overload
def arrangement_json(arrangement: Arrangement) -> shapes.Arrangement: ...
def arrangement_json(arrangement: Arrangement | LayoffResult) -> shapes.Arrangement | shapes.LaidOff:
    """``{"melds", "deadwood_cards", "deadwood"}`` of an arrangement; a defender's lay-off result also has
    ``"layoffs"`` (after ``"melds"``), each ``{"card", "meld": index of the knocker's meld}``."""
    melds = [texts(m.mask) for m in arrangement.melds]
    if isinstance(arrangement, LayoffResult):
        return {
            "melds": melds,
            "layoffs": [{"card": card_text(c), "meld": i} for c, i in arrangement.layoffs],
            "deadwood_cards": texts(arrangement.deadwood_mask),
            "deadwood": arrangement.deadwood,
        }
    return {
        "melds": melds,
        "deadwood_cards": texts(arrangement.deadwood_mask),
        "deadwood": arrangement.deadwood,
    }
