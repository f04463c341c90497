"""The JSON of tournaments, typed: a tournament with its settings, its standings, its pairings, and the
lines of its stream — each form once, as a ``TypedDict`` (the conventions: :mod:`ginrummy.engine.shapes`).
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from ginrummy.engine.shapes import Component

from .accounts import EVENT_ID, EventId
from .archive import ArchivedMatch
from .meeting import ChallengeClock, RulesAsked
from .players import Timestamp
from .playing import KeepAlive, StreamError

TournamentFormat = Literal["arena", "swiss", "round_robin"]
TournamentStatus = Literal["created", "started", "finished", "canceled"]
PairingStatus = Annotated[
    Literal["playing", "finished", "bye", "unscored"],
    "unscored: still playing when an arena ended (it counts for nothing)",
]
Outcome = Annotated[
    Literal["seat0", "seat1", "drawn", "aborted"], "Who won the match: the player in seat 0 or seat 1"
]


class TournamentSettings(TypedDict):
    """What the organiser chose. The members of the other formats are null."""

    rules: Annotated[
        RulesAsked, "The rules every match is played under (a preset, without overrides when rated)"
    ]
    clock: Annotated[ChallengeClock | None, "Every match's time control (null: none)"]
    rated: bool
    bots: Annotated[bool, "Bot accounts may join (the organiser may also enter house bots)"]
    min_rated_games: Annotated[int, "Rated matches a player must have finished in the rules' family to join"]
    minutes: Annotated[float | None, "An arena: how long it lasts (at least half a minute)"]
    berserk: Annotated[
        bool, "An arena: a person may berserk (half the bank, no increment; a win scores 1 more)"
    ]
    rounds: Annotated[int | None, "A Swiss: its number of rounds"]
    round_interval: Annotated[
        int | None,
        "A Swiss: seconds between the end of a round and the next (null: the organiser starts each)",
    ]
    duplicate: Annotated[
        bool,
        "A round robin: each pairing plays two matches on the same deals with the seats swapped (bots only)",
    ]


class Tournament(TypedDict):
    """A tournament as lists show it."""

    id: str
    name: str
    format: TournamentFormat
    status: TournamentStatus
    organiser: str
    private: Annotated[bool, "Joined with its entry code; not listed"]
    settings: TournamentSettings
    starts_at: Timestamp
    started_at: Timestamp | None
    ends_at: Annotated[Timestamp | None, "An arena: when it ends"]
    finished_at: Timestamp | None
    round: Annotated[int, "A Swiss or round robin: the round paired last (0 before the first)"]
    rounds: Annotated[
        int | None, "A Swiss or round robin: how many rounds it has (a round robin's: once started)"
    ]
    next_round_at: Annotated[
        Timestamp | None, "A Swiss: when the next round is paired (null: by the organiser)"
    ]
    players: Annotated[int, "Entries"]
    url: Annotated[str, "This tournament's path"]


class Standing(TypedDict):
    """A player's line of the standings. Members of another format are left out."""

    rank: int
    player: str
    bot: Annotated[bool, "A bot account or a house bot"]
    active: Annotated[bool, "false: paused (an arena) or withdrawn"]
    rating: Annotated[float, "When it joined"]
    points: Annotated[
        float, "An arena: its points (2 a win, doubled on fire, +1 berserked); else 1 a win, ½ a draw"
    ]
    games: int
    wins: int
    losses: int
    draws: int
    performance: Annotated[float | None, "The performance rating (a tie-break): null without a match"]
    sheet: NotRequired[Annotated[list[int], "An arena: each match's points, in the order they finished"]]
    fire: NotRequired[Annotated[bool, "An arena: on a streak (two wins in a row): a win scores double"]]
    berserks: NotRequired[Annotated[int, "An arena: matches won berserked"]]
    sonneborn_berger: NotRequired[Annotated[float, "A Swiss or round robin: the tie-break after points"]]
    byes: NotRequired[Annotated[int, "A Swiss: byes received"]]
    interval: NotRequired[
        Annotated[list[float], "A round robin: the 95 % Wilson interval of its score rate, [low, high]"]
    ]


class StandingsPage(TypedDict):
    page: int
    pages: int
    players: Annotated[list[Standing], "Best first"]


class Pairing(TypedDict):
    """Two players' match (or a Swiss bye)."""

    number: Annotated[int, "1, 2, … in the order made"]
    round: Annotated[int, "A Swiss or round robin: its round; an arena: its wave"]
    players: Annotated[list[str | None], "[seat 0, seat 1]; seat 1 null: a bye"]
    bots: Annotated[list[bool], "Whether each seat is a bot (a bye's second: false)"]
    game_id: Annotated[str | None, "The match (null: a bye)"]
    mirror_of: Annotated[int | None, "Duplicate deals: the pairing whose deals this one plays, seats swapped"]
    status: PairingStatus
    outcome: Annotated[Outcome | None, "Once finished"]
    end_reason: Annotated[str | None, "finished, or how the match ended early"]
    berserk: Annotated[list[bool], "Whether each seat berserked"]


class MyEntry(TypedDict):
    """The caller's entry."""

    player: str
    active: bool
    playing: Annotated[str | None, "The game it plays now in this tournament"]


class TournamentInfo(Tournament):
    """A tournament with a page of its standings, the matches in play (best placed first) and the
    caller's entry."""

    description: str
    standings: StandingsPage
    playing: Annotated[list[Pairing], "Matches in play, the best placed players' first (the games to watch)"]
    me: Annotated[MyEntry | None, "The caller's entry (null: not entered, or no account)"]


class TournamentList(TypedDict):
    created: Annotated[list[Tournament], "Upcoming, soonest first"]
    started: Annotated[list[Tournament], "Running"]
    finished: Annotated[list[Tournament], "Finished, newest first"]


class TournamentCreated(TypedDict):
    tournament: Tournament
    entry_code: Annotated[str | None, "A private tournament's entry code (shown once; null: public)"]


class Entered(TypedDict):
    tournament: str
    player: str
    active: bool


class StandingsEvent(TypedDict):
    """The standings changed: the top of them, and the tournament's state."""

    type: Literal["standings"]
    id: EventId
    tournament: Tournament
    standings: Annotated[list[Standing], "The first page"]


class PairingEvent(TypedDict):
    """A match was paired: its game is open (the players learn it as a ``gameStart`` on their account
    streams too)."""

    type: Literal["pairing"]
    id: EventId
    pairing: Pairing


class ResultEvent(TypedDict):
    """A match of the tournament finished (or, still playing when an arena ended, goes unscored)."""

    type: Literal["result"]
    id: EventId
    pairing: Pairing


TournamentEvent = Annotated[StandingsEvent | PairingEvent | ResultEvent, Component("TournamentEvent")]
TournamentStreamLine = Annotated[
    StandingsEvent | PairingEvent | ResultEvent | KeepAlive | StreamError, Component("TournamentStreamLine")
]


class ResultLine(Standing):
    """One line of a tournament's results (NDJSON): a player's final (or current) standing."""

    tournament: str


class TournamentResults(TypedDict):
    """A tournament's results at once (with Accept: application/x-ndjson, a line each)."""

    tournament: str
    players: Annotated[list[Standing], "Best first: final once it is over"]


class TournamentGames(TypedDict):
    """A tournament's finished matches at once (with Accept: application/x-ndjson, a line each)."""

    games: Annotated[list[ArchivedMatch], "In the order they finished"]


class TournamentEvents(TypedDict):
    """A page of the tournament's events (a long poll of up to ?wait= seconds while there is none)."""

    events: list[TournamentEvent]
    last_id: Annotated[str, EVENT_ID, "Ask again with ?since= this id"]
