"""Cards as small ints and sets of cards as int bitmasks.

A card is ``suit * 13 + rank`` with rank 0 = ace … 12 = king and suits in the order clubs, diamonds,
hearts, spades, so the cards of one suit are 13 adjacent bits and a run is a run of set bits.

>>> parse_card("7H"), card_text(32)
(32, '7H')
>>> [card_text(parse_card(t)) for t in ("10d", "th", "A♠", "qs")]
['TD', 'TH', 'AS', 'QS']
>>> texts(mask_of(["KS", "AC", "2C"]))
['AC', '2C', 'KS']
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .errors import BadCardError, DuplicateCardError

Card = int
"""A card, 0–51."""

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_GLYPHS = "♣♦♥♠"
FULL_DECK = (1 << 52) - 1
SUIT_MASK = (1 << 13) - 1

_VALUES = tuple(min(rank + 1, 10) for rank in range(13))
CARD_VALUES: tuple[int, ...] = tuple(_VALUES[c % 13] for c in range(52))
"""Point value of each card: ace 1, two to ten face value, court cards 10."""

_TEXT = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))
_PARSE: dict[str, int] = {}
for _c, _t in enumerate(_TEXT):
    _PARSE[_t] = _c
    _PARSE[_t[0] + SUIT_GLYPHS[_c // 13]] = _c
    if _t[0] == "T":
        _PARSE["10" + _t[1]] = _c
        _PARSE["10" + SUIT_GLYPHS[_c // 13]] = _c
# Variation selectors and the white suit glyphs some keyboards and terminals produce.
_GLYPH_ALIASES = {"♧": "♣", "♢": "♦", "♡": "♥", "♤": "♠", "\ufe0f": "", "\ufe0e": ""}

CARD_PATTERN = r"^(?:10|[2-9AaTtJjQqKk])(?:[CDHScdhs]|[♣♦♥♠♧♢♡♤][\ufe0e\ufe0f]?)$"
"""Every card text `parse_card` accepts (the OpenAPI document's pattern): rank then suit, any case."""
_CARD_RE = re.compile(CARD_PATTERN)


def rank_of(card: Card) -> int:
    """Rank 0 (ace) … 12 (king)."""
    return card % 13


def suit_of(card: Card) -> int:
    """Suit 0 (clubs) … 3 (spades)."""
    return card // 13


def card_value(card: Card) -> int:
    """Deadwood value: ace 1, two to ten their face value, jack, queen and king 10."""
    return CARD_VALUES[card]


def card_text(card: Card) -> str:
    """Canonical text: rank char then suit char, e.g. ``7H`` or ``TD``."""
    return _TEXT[card]


def parse_card(value: str | int) -> Card:
    """A card from its text (``7H``, ``10h``, ``th``, ``7♥``) or its number 0–51."""
    if type(value) is str:  # the common case, canonical text: one look-up
        card = _PARSE.get(value)
        if card is not None:
            return card
    if isinstance(value, bool):
        raise BadCardError(f"not a card: {value!r}")
    if isinstance(value, int):
        if 0 <= value < 52:
            return value
        raise BadCardError(f"card numbers go from 0 to 51, not {value}")
    if not isinstance(value, str):
        raise BadCardError(f"not a card: {value!r}")
    # search(), as JSON Schema validators apply the document's pattern ("$" also before a final newline).
    if not _CARD_RE.search(value):
        raise BadCardError(f"not a card: {value!r} (write rank then suit, e.g. 7H, 10D, TD, QS or 7♥)")
    text = value.rstrip("\n").upper()
    for alias, glyph in _GLYPH_ALIASES.items():
        text = text.replace(alias, glyph)
    return _PARSE[text]


def parse_cards(values: Iterable[str | int]) -> list[Card]:
    """Cards from texts or numbers; a card given twice is an error."""
    if isinstance(values, (str, bytes)):
        raise BadCardError("expected a list of cards, got a single string")
    cards: list[Card] = []
    seen = 0
    for value in values:
        card = parse_card(value)
        if seen >> card & 1:
            raise DuplicateCardError(f"card given twice: {card_text(card)}")
        seen |= 1 << card
        cards.append(card)
    return cards


def mask_of(cards: Iterable[str | int]) -> int:
    """The bitmask of the given cards (texts or numbers, no duplicates)."""
    mask = 0
    for card in parse_cards(cards):
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a bitmask in ascending order."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def mask_value(mask: int) -> int:
    """Sum of the point values of the cards in a bitmask."""
    total = 0
    while mask:
        low = mask & -mask
        total += CARD_VALUES[low.bit_length() - 1]
        mask ^= low
    return total


def texts(cards: int | Iterable[int]) -> list[str]:
    """Canonical texts of a bitmask (ascending) or of a sequence of cards (in its order)."""
    if isinstance(cards, int):
        cards = cards_of(cards)
    return [_TEXT[c] for c in cards]


def popcount(mask: int) -> int:
    """Number of cards in a bitmask."""
    return mask.bit_count()
