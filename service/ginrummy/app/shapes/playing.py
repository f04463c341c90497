"""What the service sends about a match, typed once: views, events (and the lines of their streams),
finished hands, hints, reviews and the match export. The engine's parts come from
:mod:`ginrummy.engine.shapes`; the OpenAPI document is written from these (``ginrummy.http.contract``)."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from ginrummy.engine.shapes import (
    BySeat,
    Cards,
    CardText,
    Component,
    DrawSource,
    GameScore,
    HandRecord,
    HandResult,
    HandSummary,
    Knock,
    Layoff,
    MatchEndText,
    Meld,
    Move,
    OwnHand,
    Phase,
    Ref,
    RuleValues,
    Scores,
    Seat,
    SeatStats,
    TableSeat,
)

from .chat import ChatLine

# An action as a view lists it and POST …/actions takes it: the request schemas' discriminated union.
ActionBody = Annotated[dict[str, object], Ref("Action")]
EndReason = Literal["resigned", "timeout", "abandoned", "aborted"]


# -- who sits where ------------------------------------------------------------------------------------


class SeatFacts(TypedDict):
    """What a spectator's view adds to each seat (a seat's own view shows its opponent instead)."""

    card_count: NotRequired[Annotated[int, "Cards in the seat's hand (spectator view)"]]
    known_cards: NotRequired[Annotated[Cards, "Its cards anyone has seen (spectator view)"]]
    cards: NotRequired[Annotated[Cards, "Its whole hand, once the hand is over (spectator view)"]]


class HumanSeat(SeatFacts):
    """A person's seat."""

    seat: Seat
    type: Literal["human"]
    name: Annotated[str | None, "null until an invited person joins without a name"]
    player: Annotated[str | None, "The player (POST /v1/players, or an account) seated; null: anonymous"]
    joined: Annotated[bool, "Whether the person has taken the seat"]


class BotSeat(SeatFacts):
    """A computer opponent's seat: a house bot, or a bot account."""

    seat: Seat
    type: Literal["bot"]
    name: str
    bot: Annotated[str, "The bot's name (GET /v1/bots)"]
    player: Annotated[
        str | None, "The bot account seated (bot-<name> for a house bot in a rated game); null: a house bot"
    ]


Player = Annotated[HumanSeat | BotSeat, Component("Player")]


class Clock(TypedDict):
    """The time control and where it stands (seconds)."""

    per_move: Annotated[int | None, "Seconds for each move; null: none"]
    bank: Annotated[int | None, "Each seat's bank at the start; null: none"]
    increment: Annotated[int, "Seconds added to the bank after each move"]
    remaining: Annotated[list[float] | None, "Bank seconds left, by seat (null: no bank)"]
    running: Annotated[Seat | None, "The seat whose clock runs"]
    move_remaining: Annotated[float | None, "Seconds the running seat has left for this move"]


class Rematch(TypedDict):
    offered_by: Annotated[list[Seat], "The seats that offered a rematch"]
    game_id: Annotated[str | None, "The rematch's game, once accepted"]


class ViewTournament(TypedDict):
    """A tournament's match, as its view tells it."""

    id: Annotated[str, "The tournament (GET /v1/tournaments/{id})"]
    berserk: Annotated[list[bool], "By seat: whether it berserked"]
    may_berserk: Annotated[bool, "POST …/berserk would be accepted from this seat now"]


class View(TypedDict):
    """A seat's view of the game (docs/rules.md §11): never the opponent's hidden cards or the stock. A
    spectator's (no token) has no hand or opponent, and its players show what anyone knows of their
    hands."""

    game_id: str
    version: Annotated[int, "Also the ETag; send it back in If-Match"]
    seat: Annotated[Seat | None, "null for a spectator"]
    phase: Phase
    turn: Annotated[Seat | None, "Seat to act; null: between hands (either human may deal) or all over"]
    dealer: Seat
    hand_number: int
    rules: RuleValues
    knock_limit: Annotated[int, "In force this hand (Oklahoma: from the upcard)"]
    spades_double: bool
    hand: NotRequired[Annotated[OwnHand, "The caller's cards (absent for a spectator)"]]
    opponent: NotRequired[Annotated[TableSeat, "What the caller knows of the opponent's hand"]]
    players: list[Player]
    discard_pile: Annotated[Cards, "Bottom to top"]
    stock_size: int
    knock: Knock | None
    result: Annotated[HandResult | None, "Once the hand is over: its outcome, both hands, the points"]
    legal_actions: Annotated[
        list[ActionBody], "Exactly the bodies POST /v1/games/{id}/actions accepts, now, from this seat"
    ]
    history: NotRequired[
        Annotated[
            list[Move],
            "The live hand's moves as this seat saw them; in GET views only (a change's response carries "
            "its events instead), and not with ?omit=history",
        ]
    ]
    scores: Scores
    hands: Annotated[list[HandSummary], "The match's finished hands"]
    stats: NotRequired[
        Annotated[
            list[SeatStats], "Per seat: hands won, gins, knocks, …; in GET views only (not ?omit=stats)"
        ]
    ]
    end_reason: Annotated[EndReason | None, "How the match ended early"]
    forfeited_by: Annotated[Seat | None, "The seat that resigned, lost on time or abandoned"]
    commitment: Annotated[str | None, "SHA-256 commitment to this hand's deck order (docs/api.md)"]
    waiting_for_opponent: Annotated[bool, "The invited person has not joined yet"]
    your_move: Annotated[
        bool,
        "The seat has a move to make now (legal_actions holds more than resign and abort, which are legal "
        "at any time): wait for the opponent while false",
    ]
    can_undo: Annotated[
        bool,
        "POST /undo would take back this seat's last move now (games against a bot, not rated, the hand live "
        "and nobody has knocked)",
    ]
    can_hint: Annotated[bool, "GET /hint advises this seat (games against a bot, not rated)"]
    cursor: Annotated[
        str,
        "The events cursor of this view: GET …/events?after=<cursor> answers the events that follow it "
        "(opaque, like every cursor)",
    ]
    rated: bool
    private: Annotated[bool, "Left out of lists and profiles"]
    clock: Annotated[Clock | None, "null: no time control"]
    claim_after: Annotated[
        float | None,
        "Seconds until this seat may claim the game as abandoned (POST claim-victory): in a game without a "
        "clock, while it is the other person's move (GIN_ABANDON_AFTER after their last move; 0: now). "
        "null: nothing to claim this way (a clock's runs out instead)",
    ]
    archived: Annotated[bool, "The finished match is kept in the archive (GET …/export answers)"]
    rematch: NotRequired[Annotated[Rematch, "Once the match is over"]]
    tournament: Annotated[ViewTournament | None, "The tournament the match is played in (null: none)"]


# -- events ------------------------------------------------------------------------------------------
# Each event has its cursor (``id``: pass it as ?after=, or Last-Event-ID) and the seat that acted.


class DealEvent(TypedDict):
    """A hand was dealt."""

    id: str
    type: Literal["deal"]
    seat: None
    hand: Annotated[int, "The hand's number in the match"]
    game: Annotated[int, "The game (of the score sheets) the hand counts for"]
    dealer: Seat
    upcard: CardText
    stock_size: int
    knock_limit: int
    spades_double: bool
    commitment: Annotated[str | None, "SHA-256 commitment to the deck order (docs/api.md)"]
    cards: NotRequired[Annotated[Cards, "The reader's ten cards (not for a spectator)"]]


class DrawEvent(TypedDict):
    """A seat drew."""

    id: str
    type: Literal["draw"]
    seat: Seat
    source: DrawSource
    stock_size: NotRequired[Annotated[int, "Cards left in the stock (a draw from the stock)"]]
    card: NotRequired[Annotated[CardText, "The card: from the pile, to all; from the stock, to the drawer"]]


class PassEvent(TypedDict):
    """A seat refused the upcard."""

    id: str
    type: Literal["pass"]
    seat: Seat


class DiscardEvent(TypedDict):
    """A seat discarded."""

    id: str
    type: Literal["discard"]
    seat: Seat
    card: CardText


class KnockEvent(TypedDict):
    """A seat knocked; its melds are shown."""

    id: str
    type: Literal["knock"]
    seat: Seat
    melds: list[Meld]
    deadwood_cards: Cards
    deadwood: int
    gin: bool
    big_gin: bool
    discard: NotRequired[Annotated[CardText, "The face-down discard, to the knocker"]]


class LayoffEvent(TypedDict):
    """The defender laid down and laid off."""

    id: str
    type: Literal["layoff"]
    seat: Seat
    melds: list[Meld]
    layoffs: list[Layoff]
    deadwood_cards: Cards
    deadwood: int


class HandOverEvent(HandResult):
    """The hand ended: its outcome, points, and both hands revealed."""

    id: str
    type: Literal["hand_over"]
    seat: Annotated[Seat | None, "The winner; null: nobody won (a wall, a tie)"]


class GameOverEvent(GameScore):
    """A game of the match ended: its score sheet settled (bonuses, totals, winner)."""

    id: str
    type: Literal["game_over"]
    seat: Annotated[Seat | None, "The game's winner"]
    reason: NotRequired[Annotated[MatchEndText, "The game was forfeited: how"]]


class MatchOverEvent(TypedDict):
    """The match ended."""

    id: str
    type: Literal["match_over"]
    seat: Annotated[Seat | None, "The match's winner; null: aborted"]
    games_won: BySeat
    reason: NotRequired[Annotated[MatchEndText, "How the match ended early"]]
    forfeited_by: NotRequired[Annotated[Seat, "The seat that resigned, lost on time or abandoned"]]
    aborted_by: NotRequired[Annotated[Seat, "The seat that aborted the match"]]


class JoinedEvent(TypedDict):
    """The invited person took the seat."""

    id: str
    type: Literal["joined"]
    seat: Seat
    name: str


class UndoEvent(TypedDict):
    """The seat took back its last move(s) (games against a bot)."""

    id: str
    type: Literal["undo"]
    seat: Seat
    actions_undone: Annotated[int, "How many moves were taken back (the bot's replies included)"]


class RematchOfferedEvent(TypedDict):
    """A seat offered a rematch (the match is over)."""

    id: str
    type: Literal["rematch_offered"]
    seat: Seat


class RematchEvent(TypedDict):
    """The rematch was accepted: its game (the same seat tokens play it)."""

    id: str
    type: Literal["rematch"]
    seat: Seat
    game_id: str


class BerserkEvent(TypedDict):
    """A seat berserked (a tournament's arena, before its first move): half its bank, no increment; a
    win scores one point more."""

    id: str
    type: Literal["berserk"]
    seat: Seat


Event = Annotated[
    DealEvent | DrawEvent | PassEvent | DiscardEvent | KnockEvent | LayoffEvent | HandOverEvent
    | GameOverEvent | MatchOverEvent | JoinedEvent | UndoEvent | RematchOfferedEvent | RematchEvent
    | BerserkEvent,
    Component("Event"),
]  # fmt: skip


class OpponentGone(TypedDict):
    """The opponent seems to have left (lichess's opponentGone): it has sat on its move for a minute (or a
    fifth of GIN_ABANDON_AFTER) in a game without a clock. Not one of the game's events (no id): a stream
    says it in place of its keep-alive line, again at each one while it holds; a page as opponent_gone."""

    type: Literal["opponentGone"]
    gone: Literal[True]
    claim_in: Annotated[int, "Seconds until claim-victory wins the game (0: now)"]


class KeepAlive(TypedDict):
    """A stream's line while nothing happens (and its first line)."""

    type: Literal["keepalive"]


class StreamError(TypedDict):
    """A stream's last line when the store fails: reconnect from the last cursor after retry_after."""

    type: Literal["error"]
    code: Literal["store_unavailable"]
    detail: str
    retry_after: Annotated[int, "Seconds to wait before reconnecting"]


# One line of a game's NDJSON stream (or the data of one Server-Sent Event); chat lines with ?chat=true.
EventLine = Annotated[
    DealEvent | DrawEvent | PassEvent | DiscardEvent | KnockEvent | LayoffEvent | HandOverEvent
    | GameOverEvent | MatchOverEvent | JoinedEvent | UndoEvent | RematchOfferedEvent | RematchEvent
    | BerserkEvent | ChatLine | OpponentGone | KeepAlive | StreamError,
    Component("EventLine"),
]  # fmt: skip


class EventsPage(TypedDict):
    """A page of events (and a long poll's answer)."""

    events: list[Event]
    cursor: Annotated[str | None, "Pass as ?after= to resume"]
    truncated: Annotated[bool, "Older events were trimmed: GET the view again"]
    opponent_gone: Annotated[
        OpponentGone | None, "With no event: whether the opponent seems to have left (null: no)"
    ]


# -- what a change answers ----------------------------------------------------------------------------


class CreatedGame(TypedDict):
    """A new game and the caller's seat in it."""

    game_id: str
    seat: Seat
    token: Annotated[str, "This seat's bearer token (shown once)"]
    invitation: Annotated[str | None, "For a human opponent: lets exactly one person join"]
    view: View
    events: list[Event]


class JoinedGame(TypedDict):
    """The seat taken with an invitation."""

    game_id: str
    seat: Seat
    token: Annotated[str, "This seat's bearer token (shown once)"]
    view: View
    events: list[Event]


class Moved(TypedDict):
    """What a change did: its events (the bot's replies included) and the play view after it."""

    version: int
    events: list[Event]
    view: Annotated[View, "The play view: the seat view without history and stats"]


# -- finished hands, hints, reviews, the export -------------------------------------------------------


class Shuffle(TypedDict):
    """A hand's deal revealed: verify sha256(salt:deck) == commitment."""

    salt: Annotated[str, "The secret salt of the deal, revealed"]
    commitment: Annotated[str, "The commitment shown in the view during the hand"]
    deck: Annotated[Cards, "The deck order, first card dealt first"]


class FinishedHand(HandRecord):
    """A finished hand revealed to both seats, with its shuffle."""

    game_id: str
    shuffle: Shuffle


class Alternative(TypedDict):
    action: ActionBody
    explanation: str
    value: Annotated[float, "The move's estimated worth in points"]


class Hint(TypedDict):
    """Advice for the seat's move."""

    action: ActionBody
    explanation: str
    alternatives: list[Alternative]
    by: Annotated[
        Literal["master", "expert"],
        "Whose advice: the master's (its search, in a bot worker) or, when no bot worker answers, the "
        "expert's",
    ]


class Estimate(TypedDict):
    action: ActionBody
    explanation: str
    points: Annotated[float, "The move's mean points over the sampled deals"]
    undercut: NotRequired[Annotated[float, "The chance of being undercut (a knock)"]]


class JudgedMove(TypedDict):
    """A decision of the match, judged."""

    hand: int
    index: Annotated[int, "The move's index in the hand's actions"]
    seat: Seat
    played: ActionBody
    best: ActionBody
    loss: Annotated[float, "Points given up against the best move"]
    verdict: Literal["inaccuracy", "mistake", "blunder"] | None
    estimates: Annotated[list[Estimate], "The best moves' mean points over the sampled deals"]


class SeatReview(TypedDict):
    seat: Seat
    accuracy: Annotated[float | None, "0–100; null: no decision to judge"]
    decisions: int
    points_lost: float
    inaccuracies: int
    mistakes: int
    blunders: int


class Thresholds(TypedDict):
    """Points given up for each verdict."""

    inaccuracy: float
    mistake: float
    blunder: float


class ReviewBody(TypedDict):
    seats: list[SeatReview]
    moves: list[JudgedMove]
    thresholds: Thresholds
    samples: Annotated[int, "Deals sampled for each decision"]


class Review(TypedDict):
    """A finished match's review: asked for, running, or done."""

    game_id: str
    status: Literal["pending", "done", "failed"]
    requested_at: Annotated[str, "ISO 8601"]
    finished_at: Annotated[str | None, "ISO 8601; null while pending"]
    review: Annotated[ReviewBody | None, "Once done"]


class ShownRating(TypedDict):
    """A rating as shown: OpenSkill's mu on a 1500 ± 500 scale (docs/api.md, Ratings)."""

    rating: int
    deviation: int
    provisional: Annotated[bool, "Deviation over 250: a rating of few games"]
    ordinal: Annotated[int, "rating - 3 deviations: the leaderboard's order"]


class RatingChange(TypedDict):
    """A rated game's change of rating."""

    before: Annotated[ShownRating | None, "null: the first rated game of the family"]
    after: ShownRating


# -- the games in play --------------------------------------------------------------------------------


class LiveGame(TypedDict):
    game_id: str
    hand_number: int
    players: list[Player]
    rated: bool
    rules: RuleValues
    spectate: Annotated[str, "The game's URL: GET it without a token to watch"]


class LiveGames(TypedDict):
    games: list[LiveGame]
