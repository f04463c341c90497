"""Card text in and out: what a player may type, and how a card is drawn on a terminal.

Only notation lives here (the service knows the rules). The canonical form is rank char + suit char
(``7H``, ``TD``); players may also type ``10``, lower case and the suit glyphs.

>>> [normalize_card(t) for t in ("7h", "10♥", "TH", "a♠", "q♢", "1H", "7X", "")]
['7H', 'TH', 'TH', 'AS', 'QD', None, None, None]
>>> display_card("TH", glyphs=True), display_card("TH", glyphs=False)
('10♥', 'TH')
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "CDHS"
GLYPHS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SUIT_INPUT = {
    **{s: s for s in SUITS},
    "♣": "C", "♦": "D", "♥": "H", "♠": "S",
    # the white glyphs some keyboards produce
    "♧": "C", "♢": "D", "♡": "H", "♤": "S",
}  # fmt: skip
_RANK_INPUT = {**{r: r for r in RANKS}, "10": "T", "1": "A"}
del _RANK_INPUT["1"]  # "1H" is too easy to mistype for "10H" to guess which was meant


def normalize_card(text: str) -> str | None:
    """The canonical text of a card typed by a player, or None when it is not a card."""
    text = text.strip().upper().replace("\ufe0f", "").replace("\ufe0e", "")
    if len(text) < 2:
        return None
    rank = _RANK_INPUT.get(text[:-1])
    suit = _SUIT_INPUT.get(text[-1])
    if rank is None or suit is None:
        return None
    return rank + suit


def is_red(card: str) -> bool:
    """Hearts and diamonds are drawn in red."""
    return card[-1] in "HD"


def card_order(card: str) -> tuple[int, int]:
    """Where a card stands when cards are shown in order: by suit (clubs, diamonds, hearts, spades),
    then by rank, as the service lists a hand.

    >>> sorted(["KS", "2S", "TC", "6D"], key=card_order)
    ['TC', '6D', '2S', 'KS']
    """
    return SUITS.find(card[-1:]), RANKS.find(card[:1])


def display_card(card: str, *, glyphs: bool) -> str:
    """A card as shown: ``10♥`` with glyphs, the canonical ``TH`` without."""
    if not glyphs:
        return card
    rank = "10" if card[0] == "T" else card[0]
    return rank + GLYPHS.get(card[-1], card[-1])
