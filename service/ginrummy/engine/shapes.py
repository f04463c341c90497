"""The JSON the engine writes, typed: each form once, as a ``TypedDict`` (standard library only).

The builders (:mod:`.views`, :mod:`.hand`, :mod:`.game`, :mod:`.melds`) are typed with these, so mypy
checks what they write; the service's OpenAPI document is written from them (``ginrummy.http.contract``:
a ``Literal`` is an enum, ``NotRequired`` a member that may be absent, ``X | None`` one that may be null,
``Annotated[T, "text"]`` the member's description, ``Annotated[T, Ref("Name")]`` a component defined by
the service). Bot authors using the engine alone get the same types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, NotRequired, TypedDict


@dataclass(frozen=True)
class Ref:
    """In ``Annotated[T, Ref("Name")]``: the document's component ``Name`` (defined by the service)."""

    name: str


@dataclass(frozen=True)
class Component:
    """In ``Annotated[A | B, Component("Name")]``: the type (a union, most often) is the document's
    component ``Name``, referred to wherever it is used."""

    name: str


class Schema:
    """In ``Annotated[T, Schema(pattern=…)]``: JSON Schema keywords the type cannot say (hashable, as
    ``Annotated``'s metadata must be)."""

    def __init__(self, **keywords: object) -> None:
        self.keywords = tuple(sorted(keywords.items()))

    def __hash__(self) -> int:
        return hash(repr(self.keywords))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Schema) and self.keywords == other.keywords


# A card as every output writes it: rank (A 2 … 9 T J Q K) then suit (C D H S).
CardText = Annotated[str, Schema(pattern="^[A2-9TJQK][CDHS]$", examples=["7H", "TD"])]
Seat = Annotated[int, Schema(minimum=0, maximum=1)]
BySeat = Annotated[list[int], Schema(minItems=2, maxItems=2)]
Cards = list[CardText]
Meld = Annotated[list[CardText], Schema(minItems=3)]

Phase = Literal[
    "upcard_nondealer", "upcard_dealer", "draw", "discard", "fiftieth_card", "layoff",
    "hand_over", "game_over", "match_over",
]  # fmt: skip
HandEndText = Literal["knock", "undercut", "gin", "big_gin", "tie", "wall", "draw_limit"]
MatchEndText = Literal["resigned", "timeout", "abandoned", "aborted", "disqualified"]
DrawSource = Literal["stock", "discard"]


# Every rule option with its value: the component "Rules", written from the options' own descriptions.
RuleValues = Annotated[dict[str, int | bool | str], Ref("Rules")]


class Arrangement(TypedDict):
    """Melds and deadwood of a hand, arranged for the least deadwood."""

    melds: list[Meld]
    deadwood_cards: Cards
    deadwood: Annotated[int, "Points of the unmelded cards"]


class Layoff(TypedDict):
    card: CardText
    meld: Annotated[int, "Index into the knocker's melds as shown"]


class LaidOff(TypedDict):
    """The defender's answer to a knock: its melds, its cards laid off on the knocker's melds, its
    deadwood."""

    melds: list[Meld]
    layoffs: list[Layoff]
    deadwood_cards: Cards
    deadwood: int


class DiscardOption(TypedDict):
    card: CardText
    deadwood: Annotated[int, "Deadwood left after discarding the card"]


class OwnHand(TypedDict):
    """The caller's cards and, unless left out (``?omit=analysis``), how they arrange."""

    cards: Cards
    melds: NotRequired[list[Meld]]
    deadwood_cards: NotRequired[Cards]
    deadwood: NotRequired[int]
    discards: NotRequired[
        Annotated[list[DiscardOption], "With 11 cards: the deadwood after each discard (not between people)"]
    ]


class TableSeat(TypedDict):
    """What anyone at the table knows of a seat's hand."""

    seat: Seat
    card_count: Annotated[int, "Cards in the seat's hand"]
    known_cards: Annotated[Cards, "Its cards anyone has seen it take from the pile, or lay down"]
    cards: NotRequired[Annotated[Cards, "Its whole hand, once the hand is over"]]


class Knock(TypedDict):
    """The knock of the live hand: the knocker's melds are shown."""

    knocker: Seat
    melds: list[Meld]
    deadwood_cards: Cards
    deadwood: int
    gin: bool
    big_gin: Annotated[bool, "Knocked with 11 cards melded, no discard"]
    discard: Annotated[
        CardText | None, "The face-down discard: to the knocker, and to all once the hand is over"
    ]


class Outcome(TypedDict):
    """How a hand ended and what it scored."""

    end: HandEndText
    winner: Seat | None
    points: int
    knocker: Seat | None
    knocker_deadwood: int
    defender_deadwood: int
    difference: int
    bonus: int
    multiplier: Annotated[int, "2 when spades double the hand (Oklahoma), else 1"]


class KnockerHand(TypedDict):
    seat: Seat
    discard: CardText | None
    melds: list[Meld]
    deadwood_cards: Cards
    deadwood: int


class DefenderHand(TypedDict):
    seat: Seat
    melds: list[Meld]
    layoffs: list[Layoff]
    deadwood_cards: Cards
    deadwood: int


class HandResult(TypedDict):
    """A finished hand revealed: its outcome, both hands, and either the knock and its answer, or (a hand
    nobody knocked in) both arrangements."""

    outcome: Outcome
    hands: Annotated[list[Cards], "Both hands, by seat"]
    knocker: NotRequired[KnockerHand]
    defender: NotRequired[DefenderHand]
    arrangements: NotRequired[Annotated[list[Arrangement], "By seat, when nobody knocked"]]


class Bonuses(TypedDict):
    game: BySeat
    box: BySeat
    shutout: bool
    shutout_hand_points: BySeat


class GameScore(TypedDict):
    """A game's score sheet (Hollywood plays three at once)."""

    number: int
    points: BySeat
    hands_won: BySeat
    over: bool
    reached_target: Seat | None
    forfeited_by: Seat | None
    bonuses: Bonuses
    grand_totals: BySeat
    winner: Seat | None


class Scores(TypedDict):
    games: list[GameScore]
    games_won: BySeat
    match_over: bool
    match_winner: Seat | None


class HandSummary(TypedDict):
    """What the score sheet keeps of a finished hand."""

    number: int
    end: HandEndText
    winner: Seat | None
    points: int
    knocker: Seat | None
    deadwood: BySeat
    games: Annotated[list[int], "The game numbers the points went to"]


class SeatStats(TypedDict):
    """A seat's figures over the finished hands of the match."""

    hands_played: int
    hands_won: int
    gins: int
    big_gins: int
    knocks: int
    undercuts_given: int
    undercuts_suffered: int
    walls: int
    points: int
    avg_deadwood: float
    points_per_hand: float


# -- a hand's moves, as a seat saw them --------------------------------------------------------------


class DrawMove(TypedDict):
    seat: Seat
    type: Literal["draw"]
    source: DrawSource
    card: NotRequired[Annotated[CardText, "From the pile; from the stock, to the drawer (and once revealed)"]]


class PassMove(TypedDict):
    seat: Seat
    type: Literal["pass"]


class DiscardMove(TypedDict):
    seat: Seat
    type: Literal["discard"]
    card: CardText


class KnockMove(TypedDict):
    seat: Seat
    type: Literal["knock"]
    discard: NotRequired[Annotated[CardText | None, "To the knocker, and to all once the hand is over"]]
    melds: NotRequired[list[Meld]]


class LayoffMove(TypedDict):
    seat: Seat
    type: Literal["layoff"]
    best: NotRequired[bool]
    melds: NotRequired[list[Meld]]
    layoffs: NotRequired[list[Layoff]]


Move = Annotated[DrawMove | PassMove | DiscardMove | KnockMove | LayoffMove, Component("Move")]


class HandRecord(TypedDict):
    """A finished hand revealed to both seats: the deal, the deck, every move with every card drawn."""

    number: int
    dealer: Seat
    deck: Annotated[Cards, "The deck order, first card dealt first"]
    initial_hands: Annotated[list[Cards], "By seat"]
    upcard: CardText
    knock_limit: int
    spades_double: bool
    actions: Annotated[list[Move], "Every move, with the cards drawn"]
    result: Annotated[
        HandResult | None, "null for a hand the match's end cut short (a resignation, a timeout, …)"
    ]
    ended: NotRequired[
        Annotated[MatchEndText | Literal["ended"], "How the match ended, for a hand cut short"]
    ]


class Analysis(TypedDict):
    """Melds and deadwood of some cards; for 10 or 11 cards whether they knock or go gin."""

    cards: Cards
    melds: list[Meld]
    deadwood_cards: Cards
    deadwood: int
    arrangements: Annotated[int, "The number of arrangements with this least deadwood"]
    can_knock: Annotated[bool | None, "null: fewer than 10 cards"]
    can_gin: bool | None
    big_gin: bool | None
    discards: Annotated[list[DiscardOption], "With 11 cards: the deadwood after each discard"]
