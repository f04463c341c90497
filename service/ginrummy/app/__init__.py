"""The application: the service's use cases, knowing no HTTP.

Each use case takes plain values and a :class:`~ginrummy.app.calls.Caller`, loads what it needs through
the store, asks the engine and the bots, commits, and returns a :class:`~ginrummy.app.calls.Result` — or
raises a :class:`~ginrummy.app.errors.ServiceError` with a stable ``code``.

The use cases are grouped by context, a package each, and a context imports only the contexts before it
in this order (tests/app/test_architecture.py checks it):

1. ``players`` — who a token stands for, players' profiles, the leaderboard, ratings, the account feed;
2. ``archive`` — finished hands and matches into PostgreSQL and back: exports, a player's finished
   matches, rating history, reviews;
3. ``playing`` — a match in play: starting one, moves, reading, clocks and forfeits, events, bot turns;
4. ``meeting`` — seeks in the lobby and challenges, which start matches;
5. ``accounts`` — signing in, sessions, API tokens, bot accounts, the account stream;
6. ``tournaments`` — arenas, Swiss and round robins: their organisers, players and director.

At the root is what they share, importing no context: :mod:`.config`, :mod:`.errors`, :mod:`.calls`
(``Caller``, ``Result``), :mod:`.security` (tokens, ids), :mod:`.metrics`, :mod:`.clocks` (time controls:
asked when meeting, run while playing), :mod:`.encoding` (JSON as stored), :mod:`.shapes` (what the
service sends, typed), and the wiring: :func:`build` and :func:`connect` (lila's ``Env``).

Entry points and helpers: a context's ``__init__`` exports its use cases — the classes :func:`build`
wires into :class:`Services` for the HTTP adapter and the workers to call, and the archive's ``Drainer``,
which they start — and nothing else; every other module of a context is a helper. Inside the application
a module imports another by its module's name, never through a context's ``__init__``.

Where things go:

- a new use case: a method of the use-case class whose job it is (the modules' names say which:
  ``playing/starting.py`` starts matches, ``archive/reading.py`` reads the archive, …) — or a class in a
  module of its own, exported by its context and wired in :func:`build`;
- a new refusal: a ``ServiceError`` with a new code, and its line in the registry ``ginrummy.http.codes``;
- a new member of what the service sends: its ``TypedDict`` (:mod:`.shapes`; docs/design.md, "The
  contract");
- what the service keeps of a match beside the engine: :mod:`~ginrummy.app.playing.metadata`; a new Redis
  key: the store (:mod:`ginrummy.store`), the only code that talks to Redis.

The words (a *game* is played to the target score; a *match*, what a game id names, is one game or the
best of several): docs/design.md, "Glossary". Dependencies point one way: engine ← bots ← app → store, and
``ginrummy.http`` → app. Nothing here imports Flask (tests/app/test_architecture.py checks it).
"""

from __future__ import annotations

from dataclasses import dataclass

from ginrummy.store import Database, GameStore, Lobby, PlayerStore, make_client
from ginrummy.store.account_live import AccountLive
from ginrummy.store.accounts import AccountStore
from ginrummy.store.archive import Archive
from ginrummy.store.bot_jobs import BotQueue
from ginrummy.store.challenges import ChallengeStore
from ginrummy.store.chat import ChatStore
from ginrummy.store.moderation import ModerationStore
from ginrummy.store.relations import RelationStore
from ginrummy.store.reviews import ReviewStore
from ginrummy.store.tournaments import TournamentLive, TournamentStore

from .accounts import Accounts, AccountStreams
from .accounts.passwords import Offload, inline
from .archive import Archiving, Records, Reviews
from .config import Config, ConfigError
from .meeting import Challenges, Seeks
from .players import Moderation, People, Relations
from .players.feed import AccountFeed
from .players.identity import Identities
from .players.ratings import ordinal
from .playing import BotTurns, Chat, EventReader, Life, Matches, Moves, Reading
from .playing.bookkeeping import Bookkeeping
from .playing.seats import Seating
from .playing.unit_of_work import UnitOfWork
from .tournaments import Director, Tournaments

__all__ = ["Config", "Services", "build", "connect"]

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


@dataclass(frozen=True)
class Services:
    """Every use case, wired to one set of stores."""

    config: Config
    matches: Matches
    moves: Moves
    reading: Reading
    life: Life
    events: EventReader
    chat: Chat
    people: People
    relations: Relations
    moderation: Moderation
    accounts: Accounts
    challenges: Challenges
    streams: AccountStreams
    seeks: Seeks
    records: Records
    archiving: Archiving
    bot_turns: BotTurns
    bot_queue: BotQueue
    reviews: Reviews
    tournaments: Tournaments
    director: Director
    store: GameStore
    database: Database

    def unavailable(self) -> list[str]:
        """The stores that do not answer, by name (``Redis``, ``PostgreSQL``); empty when all do."""
        down = [] if self.store.ping() else ["Redis"]
        if not self.database.ping():
            down.append("PostgreSQL")
        return down

    def ready(self) -> bool:
        """Whether every store answers."""
        return not self.unavailable()


def build(
    config: Config,
    store: GameStore,
    lobby: Lobby,
    database: Database,
    offload: Offload[object] = inline,
) -> Services:
    """The use cases over these stores: Redis (``store``, ``lobby``) and PostgreSQL (``database``).
    ``offload`` runs CPU-heavy work that releases the GIL (password hashing) off the caller's event loop
    (the HTTP adapter's :func:`ginrummy.http.offload.run`; inline by default)."""
    players = PlayerStore(database)
    account_store = AccountStore(database)
    identities = Identities(players, account_store, config.session_days * 86400)
    live = AccountLive(store.client, live_ttl=config.live_ttl, notifier=store.notifier)
    feed = AccountFeed(live)
    relation_store = RelationStore(database)
    relations = Relations(relation_store, identities, feed, live)
    archiving = Archiving(store, Archive(database, ordinal=ordinal), config)
    bot_queue = BotQueue(store.client, store.notifier)
    work = UnitOfWork(store, archiving, bot_queue, abandon_after=config.abandon_after)
    seating = Seating(identities)
    books = Bookkeeping(store, live, feed, relations, config)
    life = Life(work, seating, books, config)
    matches = Matches(work, seating, books, config)
    moderation_store = ModerationStore(database)
    people = People(players, identities, relations, moderation_store)
    accounts = Accounts(account_store, identities, live, store, feed, config, offload)
    challenges = Challenges(
        ChallengeStore(store.client), identities, players, matches, feed, relations, config
    )
    records = Records(archiving, identities)
    bot_turns = BotTurns(work, books)
    tournament_store = TournamentStore(database)
    tournament_live = TournamentLive(store.client, store.notifier)
    return Services(
        config=config,
        matches=matches,
        moves=Moves(work, seating, life, books, matches),
        reading=Reading(work, seating, life, books, config),
        life=life,
        events=EventReader(store, work, seating, life, config),
        chat=Chat(ChatStore(database, store.client), store, work, identities, config),
        people=people,
        relations=relations,
        moderation=Moderation(moderation_store, identities),
        accounts=accounts,
        challenges=challenges,
        streams=AccountStreams(accounts, challenges, feed),
        seeks=Seeks(lobby, people, players, matches, relations, store.notifier, config),
        records=records,
        archiving=archiving,
        bot_turns=bot_turns,
        bot_queue=bot_queue,
        reviews=Reviews(archiving, ReviewStore(database), bot_queue),
        tournaments=Tournaments(
            tournament_store, tournament_live, identities, players, records, config.tournaments_per_day
        ),
        director=Director(tournament_store, tournament_live, matches, work, life, bot_turns, relations),
        store=store,
        database=database,
    )


def connect(config: Config, offload: Offload[object] = inline) -> Services:
    """The use cases over the stores ``config`` names (the web app's and the bot workers' wiring).
    PostgreSQL's pool opens in the background: the service starts (and plays) while it is down."""
    client = make_client(config.redis_url or DEFAULT_REDIS_URL)
    store = GameStore(
        client,
        live_ttl=config.live_ttl,
        events_maxlen=config.events_maxlen,
        hands_kept=config.hands_kept,
        idempotency_ttl=config.idempotency_ttl,
    )
    if not config.database_url:
        raise ConfigError(
            "DATABASE_URL is not set: the service keeps players and finished games in PostgreSQL "
            "(ginrummy-serve starts an embedded one when it is unset)"
        )
    return build(config, store, Lobby(client, config.seek_ttl), Database(config.database_url), offload)
