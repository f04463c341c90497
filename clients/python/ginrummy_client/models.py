"""The service's JSON bodies as ``TypedDict``\\ s: at run time they are the plain dicts decoded from the
response (a view can be handed to a bot as it is), and a type checker knows their members.

Only documented members are listed (docs/api.md, the service's OpenAPI document); the service may add
more, and clients ignore what they do not know. Cards are always the canonical two-character text
(``"7H"``, ``"TD"``); a *meld* is a list of cards. Members marked ``NotRequired`` are absent from some
answers: e.g. ``history`` and ``stats`` are only in a view read with GET (the *full view*), not in the
*play view* a move answers with.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

Card = str
"""A card as the service writes it: rank then suit, ``"7H"``, ``"TD"``, ``"AS"``."""

Meld = list[Card]


class Layoff(TypedDict):
    """A defender's card laid off onto the knocker's meld number ``meld`` (as shown in the view)."""

    card: Card
    meld: int


class Action(TypedDict, total=False):
    """An element of a view's ``legal_actions``: exactly what ``POST …/actions`` accepts back.

    ``type`` is deal, draw (``source``: stock or discard), pass, discard (``card``), knock (``discard``,
    null for big gin; optional ``melds``) or layoff (``best``: true, or ``melds`` and ``layoffs``)."""

    type: str
    source: str
    card: Card
    discard: Card | None
    melds: list[Meld]
    best: bool
    layoffs: list[Layoff]


class DiscardOption(TypedDict):
    """With 11 cards: the deadwood left after discarding ``card``."""

    card: Card
    deadwood: int


class Hand(TypedDict):
    """The caller's own cards, grouped into a minimum-deadwood arrangement."""

    cards: list[Card]
    melds: list[Meld]
    deadwood_cards: list[Card]
    deadwood: int
    discards: NotRequired[list[DiscardOption]]


class Opponent(TypedDict):
    """What the caller knows of the other seat's hand (``cards``: all of it, once the hand is over)."""

    seat: int
    card_count: int
    known_cards: list[Card]
    cards: NotRequired[list[Card]]


class Player(TypedDict, total=False):
    """Who sits at a seat (the spectator view adds the seat's public card facts)."""

    seat: int
    name: str | None
    type: str
    bot: str
    joined: bool
    card_count: int
    known_cards: list[Card]
    cards: list[Card]


class Knock(TypedDict, total=False):
    """The knock of the live hand: the knocker's arrangement laid face up."""

    knocker: int
    melds: list[Meld]
    deadwood_cards: list[Card]
    deadwood: int
    gin: bool
    big_gin: bool
    discard: Card | None


class HandResult(TypedDict, total=False):
    """A finished hand: ``outcome`` (end, winner, points, …), both hands, and either the knocker's and
    defender's arrangements or, for a wall, both ``arrangements``."""

    outcome: dict[str, Any]
    hands: list[list[Card]]
    knocker: dict[str, Any]
    defender: dict[str, Any]
    arrangements: list[dict[str, Any]]


class Scores(TypedDict):
    """The score sheets of the match's games and who has won the match."""

    games: list[dict[str, Any]]
    games_won: list[int]
    match_over: bool
    match_winner: int | None


class HandSummary(TypedDict, total=False):
    """One finished hand in the view's ``hands``."""

    number: int
    end: str
    winner: int | None
    points: int
    knocker: int | None
    deadwood: list[int]
    games: list[int]


class View(TypedDict, total=False):
    """A seat's view of the game (without a token: the spectator's). ``version`` is also its ETag.

    ``phase`` is one of upcard_nondealer, upcard_dealer, draw, discard, fiftieth_card, layoff, hand_over,
    game_over or match_over; ``turn`` the seat to act (null: either human may deal)."""

    game_id: str
    version: int
    seat: int | None
    phase: str
    turn: int | None
    dealer: int
    hand_number: int
    rules: dict[str, Any]
    knock_limit: int
    spades_double: bool
    hand: Hand
    opponent: Opponent
    players: list[Player]
    discard_pile: list[Card]
    stock_size: int
    knock: Knock | None
    result: HandResult | None
    legal_actions: list[Action]
    history: list[dict[str, Any]]
    scores: Scores
    hands: list[HandSummary]
    stats: list[dict[str, Any]]
    commitment: str | None
    waiting_for_opponent: bool


class Event(TypedDict, total=False):
    """Something that happened in the game, as the caller's seat may see it; ``id`` is its cursor
    (``"<version>-<i>"``). The members besides ``id``, ``type`` and ``seat`` depend on the type:

    deal (hand, dealer, upcard, stock_size, knock_limit, spades_double, game, commitment; and the seat's
    own ``cards``), draw (source, stock_size; ``card`` when the seat may see it), pass, discard (card),
    knock (melds, deadwood_cards, deadwood, gin, big_gin; the knocker's own ``discard``), layoff (melds,
    layoffs, deadwood_cards, deadwood), hand_over (outcome, hands, knocker, defender, arrangements),
    game_over (the game's score sheet: number, points, winner, …), match_over (games_won), joined (name),
    undo (actions_undone)."""

    id: str
    type: str
    seat: int | None
    hand: int
    dealer: int
    upcard: Card
    stock_size: int
    knock_limit: int
    spades_double: bool
    game: int
    commitment: str
    cards: list[Card]
    source: str
    card: Card
    discard: Card | None
    melds: list[Meld]
    layoffs: list[Layoff]
    deadwood_cards: list[Card]
    deadwood: int
    gin: bool
    big_gin: bool
    outcome: dict[str, Any]
    hands: list[list[Card]]
    knocker: dict[str, Any]
    defender: dict[str, Any]
    arrangements: list[dict[str, Any]]
    number: int
    points: list[int]
    hands_won: list[int]
    over: bool
    reached_target: int | None
    bonuses: dict[str, Any]
    grand_totals: list[int]
    winner: int | None
    games_won: list[int]
    name: str
    actions_undone: int


class EventsPage(TypedDict):
    """``GET …/events`` as JSON: the events after the cursor, the cursor to resume from, and whether
    older events were trimmed away in between (then re-read the view)."""

    events: list[Event]
    cursor: str | None
    truncated: bool


class MoveResult(TypedDict):
    """The answer to an action or an undo: the game's new ``version``, the ``events`` of this request
    (yours and the bot's replies) and the caller's new play view."""

    version: int
    events: list[Event]
    view: View


class Created(TypedDict):
    """The answer to creating (seat 0) or joining (seat 1) a game; ``invitation`` only for a creator who
    invited a human."""

    game_id: str
    seat: int
    token: str
    invitation: NotRequired[str | None]
    view: View
    events: list[Event]


class Shuffle(TypedDict):
    """The fair-shuffle proof of a finished hand: ``sha256(salt + ":" + ",".join(deck)) == commitment``."""

    salt: str
    commitment: str
    deck: list[Card]


class HandRecord(TypedDict, total=False):
    """A finished hand revealed to both seats: the deal, the deck, every action, the result, the proof."""

    number: int
    game_id: str
    dealer: int
    deck: list[Card]
    initial_hands: list[list[Card]]
    upcard: Card
    knock_limit: int
    spades_double: bool
    actions: list[dict[str, Any]]
    result: HandResult
    shuffle: Shuffle


class Alternative(TypedDict):
    """An action a hint considered: higher ``value`` is better."""

    action: Action
    value: float
    explanation: str


class Hint(TypedDict):
    """Advice for the caller's seat: an element of its ``legal_actions`` and why."""

    action: Action
    explanation: str
    alternatives: list[Alternative]


class Analysis(TypedDict):
    """``POST /v1/analyze``: melds and deadwood of 1 to 11 cards; the verdicts are null under 10 cards."""

    cards: list[Card]
    melds: list[Meld]
    deadwood_cards: list[Card]
    deadwood: int
    arrangements: int
    can_knock: bool | None
    can_gin: bool | None
    big_gin: bool | None
    discards: list[DiscardOption]


class Preset(TypedDict):
    """A named set of rules."""

    name: str
    description: str
    rules: dict[str, Any]


class RulesInfo(TypedDict):
    """``GET /v1/rules``: the presets and every option with its default and meaning."""

    presets: list[Preset]
    options: dict[str, Any]


class BotInfo(TypedDict):
    """A computer opponent: its name, strength (0–5) and style."""

    name: str
    level: int
    description: str


class BotsInfo(TypedDict):
    """``GET /v1/bots``: the bots, and the one a game gets when it names none."""

    bots: list[BotInfo]
    default: str


class Health(TypedDict):
    """``GET /healthz`` (``ok``) or ``GET /readyz`` (``ready``)."""

    status: str


class Problem(TypedDict, total=False):
    """An error answer (``application/problem+json``, RFC 9457) with the service's stable ``code``.

    Action errors add the caller's ``legal_actions`` and ``turn``; 412 adds the current ``version``; 422
    schema errors add ``errors`` per field; an error line of an event stream adds ``retry_after``."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    errors: dict[str, Any]
    legal_actions: list[Action]
    turn: int | None
    version: int
    bots: list[str]
    retry_after: float
