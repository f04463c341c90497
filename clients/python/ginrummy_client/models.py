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
    null for big gin; optional ``melds``) or layoff (``best``: true, or ``melds`` and ``layoffs``) — the
    moves of the play — or one that ends or follows the match: resign (listed while the match is live),
    abort (before the first card of the first hand is drawn) and rematch (once the match is over)."""

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


class SeatPlayer(TypedDict, total=False):
    """Who sits at a seat (the spectator view adds the seat's public card facts); ``player``: the
    player (``POST /v1/players``) the seat is tied to, or null."""

    seat: int
    name: str | None
    player: str | None
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


class Clock(TypedDict):
    """A game's time control as both seats see it: ``per_move`` seconds and/or a ``bank`` of seconds per
    player for the match with an ``increment`` per move; ``remaining``: each seat's bank left (null
    without a bank); ``running``: the seat whose clock runs (null: nobody's — a bot or between hands);
    ``move_remaining``: the seconds the running seat's move has left."""

    per_move: int | None
    bank: int | None
    increment: int
    remaining: list[float] | None
    running: int | None
    move_remaining: float | None


class Rematch(TypedDict):
    """Once the match is over: the seats that offered a rematch, and the rematch's game once accepted."""

    offered_by: list[int]
    game_id: str | None


class View(TypedDict, total=False):
    """A seat's view of the game (without a token: the spectator's). ``version`` is also its ETag.

    ``phase`` is one of upcard_nondealer, upcard_dealer, draw, discard, fiftieth_card, layoff, hand_over,
    game_over or match_over; ``turn`` the seat to act (null: either human may deal). ``your_move``: the
    seat has a move of the play to make now (``legal_actions`` also lists resign and abort, which are
    allowed at any time: they do not make it the seat's move). ``end_reason``: how a match ended early
    (resigned, timeout, abandoned, aborted), ``forfeited_by`` the seat that lost it so. ``cursor``: where
    the events that follow this view start (``game.events(after=view["cursor"])``)."""

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
    players: list[SeatPlayer]
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
    your_move: bool
    rated: bool
    private: bool
    clock: Clock | None
    end_reason: str | None
    forfeited_by: int | None
    rematch: Rematch
    cursor: str


class Event(TypedDict, total=False):
    """Something that happened in the game, as the caller's seat may see it; ``id`` is its cursor
    (``"<version>-<i>"``). The members besides ``id``, ``type`` and ``seat`` depend on the type:

    deal (hand, dealer, upcard, stock_size, knock_limit, spades_double, game, commitment; and the seat's
    own ``cards``), draw (source, stock_size; ``card`` when the seat may see it), pass, discard (card),
    knock (melds, deadwood_cards, deadwood, gin, big_gin; the knocker's own ``discard``), layoff (melds,
    layoffs, deadwood_cards, deadwood), hand_over (outcome, hands, knocker, defender, arrangements),
    game_over (the game's score sheet: number, points, winner, …), match_over (games_won; after a resign,
    a loss on time or an abandonment also ``reason`` and ``forfeited_by``, after an abort ``reason`` and
    ``aborted_by``), joined (name), undo (actions_undone), rematch_offered, rematch (game_id)."""

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
    reason: str
    forfeited_by: int | None
    aborted_by: int
    game_id: str


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
    """Advice for the caller's seat: an element of its ``legal_actions`` and why; ``by``: whose —
    ``"master"`` (its search) or ``"expert"`` (when the service has no bot worker to search)."""

    action: Action
    explanation: str
    alternatives: list[Alternative]
    by: NotRequired[str]


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


class BotRating(TypedDict):
    """A bot's rating in one rules family (a house bot's seeded from measured play): ``ordinal`` is the
    rating minus 3 deviations; ``games``: rated games played in the family."""

    rating: int
    deviation: int
    provisional: bool
    ordinal: int
    games: int


class BotInfo(TypedDict):
    """A house bot: its name (what ``create_game(bot=…)`` takes), strength (0–5) and style; ``player``:
    its player name — its profile, and whom to challenge (``bot-expert``); ``ratings`` by rules family."""

    name: str
    level: int
    description: str
    player: NotRequired[str]
    ratings: NotRequired[dict[str, BotRating]]


class BotAccount(TypedDict):
    """A bot account online now (its account stream open): challenge it by ``name``. ``since``: when the
    account became a bot; ``played``: its games."""

    name: str
    since: float | None
    played: int
    ratings: dict[str, BotRating]


class BotsInfo(TypedDict):
    """``GET /v1/bots``: the house bots, the one a game gets when it names none, and the bot accounts
    online now."""

    bots: list[BotInfo]
    default: str
    accounts: NotRequired[list[BotAccount]]


class Health(TypedDict):
    """``GET /healthz`` (``ok``) or ``GET /readyz`` (``ready``)."""

    status: str


class Problem(TypedDict, total=False):
    """An error answer (``application/problem+json``, RFC 9457) with the service's stable ``code``.

    Action errors add the caller's ``legal_actions`` and ``turn``; 412 adds the current ``version``; 422
    schema errors add ``errors`` per field; an error line of an event stream adds ``retry_after``;
    ``too_early`` adds ``seconds_left``, ``rematch_exists`` the rematch's ``game_id``, ``challenge_closed``
    the ``challenge_status``."""

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
    seconds_left: float
    game_id: str
    challenge_status: str


# --- players, the lobby, the games in play ----------------------------------------------------------


class Rating(TypedDict):
    """A player's rating in one rules family: ``ordinal`` (rating minus 3 deviations) orders the
    leaderboard; ``rank`` is the place on it (null: not ranked)."""

    rating: int
    deviation: int
    provisional: bool
    ordinal: int
    games: int
    rank: int | None


class RecentGame(TypedDict, total=False):
    """A finished game in a profile: ``result`` (won, lost…), ``reason`` (how it ended early, if it did),
    ``rating_change`` (rated games), ``game`` and ``hands``: the paths of the game and its first hand."""

    game_id: str
    family: str
    rated: bool
    opponent: str | None
    result: str
    reason: str | None
    finished_at: float
    rating_change: float | None
    game: str
    hands: str


class Profile(TypedDict):
    """``GET /v1/players/{name}``: a player's public profile. ``games``: played, won, lost; ``stats``:
    the per-seat statistics of its games, summed; ``ratings`` by rules family; ``recent`` games."""

    name: str
    created: float | None
    games: dict[str, int]
    stats: dict[str, Any]
    ratings: dict[str, Rating]
    recent: list[RecentGame]


class LeaderRow(Rating):
    """A row of the leaderboard."""

    name: str


class Leaderboard(TypedDict):
    """``GET /v1/leaderboard``: the best rated players of a rules family, best first."""

    family: str
    players: list[LeaderRow]


class SeekInfo(TypedDict, total=False):
    """A seek: an open game waiting in the lobby. ``status`` is open, matched or cancelled (its owner
    sees it); once matched, ``game_id`` and the owner's ``seat`` (0)."""

    id: str
    player: str
    rating: int | None
    family: str
    rated: bool
    min_rating: int | None
    max_rating: int | None
    created: float
    status: str
    rules: dict[str, Any]
    expires_in: int
    game_id: str
    seat: int
    game: str


class Lobby(TypedDict):
    """``GET /v1/lobby``: the open seeks, oldest first (no tokens)."""

    seeks: list[SeekInfo]


class LiveGame(TypedDict, total=False):
    """A public game in play: who plays it and where a spectator reads it (``spectate``: its path)."""

    game_id: str
    players: list[SeatPlayer]
    rated: bool
    rules: dict[str, Any]
    hand_number: int
    spectate: str


class LiveGames(TypedDict):
    """``GET /v1/games?status=live``: the public games in play, newest first."""

    games: list[LiveGame]


# --- the archive: finished matches, a player's games, rating history --------------------------------


class ShownRating(TypedDict):
    """A rating as it stood at a moment: ``ordinal`` is rating minus 3 deviations."""

    rating: int
    deviation: int
    provisional: bool
    ordinal: int


class RatingChange(TypedDict):
    """What a rated game did to a player's rating (``before``: None for the first rated game of a family)."""

    before: ShownRating | None
    after: ShownRating


class MatchResult(TypedDict, total=False):
    """How a finished match ended: ``winner`` (a seat; None: aborted or drawn), ``end_reason``
    (finished, resigned, timeout, abandoned, aborted), ``forfeited_by``, and the score sheets (``games``,
    each with ``grand_totals``), ``games_won``, ``match_over``, ``match_winner`` as in a view's scores."""

    winner: int | None
    end_reason: str
    forfeited_by: int | None
    games: list[dict[str, Any]]
    games_won: list[int]
    match_over: bool
    match_winner: int | None


class MatchExport(TypedDict, total=False):
    """``GET /v1/games/{id}/export``: a finished match in one document, ``format`` ``ginrummy.match``,
    ``version`` 1 (new members may come within a version). ``family``: the preset its rules are (None:
    rules with overrides); ``started_at``/``finished_at``: ISO 8601, UTC; ``hands``: every finished hand,
    each as :meth:`Game.hand` reads it; ``stats`` and ``ratings`` (None: unrated) by seat."""

    format: str
    version: int
    game_id: str
    rules: dict[str, Any]
    family: str | None
    rated: bool
    clock: dict[str, Any] | None
    players: list[SeatPlayer]
    started_at: str
    finished_at: str
    result: MatchResult
    stats: list[dict[str, Any]]
    hand_count: int
    shuffle: str
    hands: list[HandRecord]
    ratings: list[RatingChange | None]


class PlayerGame(TypedDict, total=False):
    """One of a player's finished games, as the player's list shows it: ``seat`` (the player's),
    ``result`` (won, lost, drawn, aborted), ``points`` ([the player's, the opponent's]: the grand totals),
    ``hands`` played to their end, ``rating`` (None: unrated) and ``export``: the path of the whole match."""

    game_id: str
    seat: int
    result: str
    end_reason: str
    rated: bool
    family: str | None
    opponent: str | None
    points: list[int]
    hands: int
    started_at: str
    finished_at: str
    rating: RatingChange | None
    export: str


class PlayerGamesPage(TypedDict):
    """``GET /v1/players/{name}/games``: a page of the player's games, newest first; ``next`` is the
    opaque cursor of the following page (None: the last one)."""

    player: str
    games: list[PlayerGame]
    next: str | None


class RatingPoint(TypedDict):
    """A rated game in a rating history: when it ended (``at``, ISO 8601) and the rating around it."""

    game_id: str
    at: str
    before: ShownRating | None
    after: ShownRating


class RatingHistory(TypedDict):
    """``GET /v1/players/{name}/rating-history``: by rules family, each rated game, oldest first."""

    player: str
    families: dict[str, list[RatingPoint]]


# --- reviews: a finished match judged by the master -------------------------------------------------


class ReviewEstimate(TypedDict):
    """One move the master weighed at a decision: its mean ``points`` over the sampled deals (the
    seat's hand points to come, as the master plays them out) and the expert's words about it."""

    action: Action
    points: float
    explanation: str


class ReviewMove(TypedDict):
    """One judged decision: hand ``hand`` (from 1), the move at ``index`` (from 0) of that hand's
    ``actions`` in the export, made by ``seat``; the move ``played``, the ``best`` the master found, the
    points the move played gave up (``loss``, at least 0), the ``verdict`` (``inaccuracy``, ``mistake``,
    ``blunder``, or None: a good move) and up to three ``estimates``, the move played among them. A draw
    names no card (the drawer did not know it): the record's entry at ``index`` does."""

    hand: int
    index: int
    seat: int
    played: Action
    best: Action
    loss: float
    verdict: str | None
    estimates: list[ReviewEstimate]


class ReviewSeat(TypedDict):
    """A seat's figures: ``accuracy`` (0–100: the mean over its decisions of ``1 - loss/25``; None when
    the seat made no decision to judge), how many ``decisions`` were judged, the ``points_lost`` in all,
    and how many were ``inaccuracies``, ``mistakes`` and ``blunders``."""

    seat: int
    accuracy: float | None
    decisions: int
    points_lost: float
    inaccuracies: int
    mistakes: int
    blunders: int


class Review(TypedDict):
    """A finished match reviewed: ``seats`` (by seat), the judged ``moves`` in the order they were
    made, the ``thresholds`` (points given up from which each verdict is given: ``{"blunder": 10.0,
    "mistake": 5.0, "inaccuracy": 2.0}``) and how many deals each decision was played out over
    (``samples``)."""

    seats: list[ReviewSeat]
    moves: list[ReviewMove]
    thresholds: dict[str, float]
    samples: int


class ReviewStatus(TypedDict):
    """``POST``/``GET /v1/games/{id}/review``: the review's ``status`` — ``pending`` (a bot worker is
    computing it), ``done`` (``review`` is there) or ``failed`` (it may be asked for again) —, when it was
    asked for (``requested_at``) and finished (``finished_at``, None while pending), ISO 8601."""

    game_id: str
    status: str
    requested_at: str
    finished_at: str | None
    review: Review | None
