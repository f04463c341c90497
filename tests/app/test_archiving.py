"""The drainer's writes against a real Redis and a real PostgreSQL: the outboxes of the games handed off
together go in one transaction; a record PostgreSQL refuses holds back its own game only."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import orjson
import pytest
from ginrummy import bots
from ginrummy.app import metrics, security
from ginrummy.app.archive.writing import Archiving
from ginrummy.app.config import Config
from ginrummy.app.players import ratings
from ginrummy.app.playing import dealing
from ginrummy.app.playing.metadata import MatchMeta, Seat
from ginrummy.app.playing.recording import outbox_records
from ginrummy.app.playing.render import BOT_VIEW_OMITS
from ginrummy.engine import Action, Rules, seat_view
from ginrummy.store import Database, GameStore
from ginrummy.store.archive import Archive
from ginrummy.store.connection import make_client


@pytest.fixture(scope="module")
def database(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def archiving(redis_url: str, database: Database) -> Archiving:
    store = GameStore(make_client(redis_url), live_ttl=600, events_maxlen=5)
    return Archiving(store, Archive(database, ordinal=ratings.ordinal), Config(finished_ttl=30))


def resigned_match(game_id: str) -> dict[str, str]:
    """The outboxes of a casual match between two named players, its first hand played out by house
    bots and the second resigned: the records the commits of the hand's end and of the resignation
    wrote, together."""
    names = [f"Arc-{uuid.uuid4().hex[:8]}" for _ in range(2)]
    seats = tuple(Seat.human(name, token_digest=security.digest(name), player=name) for name in names)
    meta = MatchMeta(seats=seats, bot_salt="salt", test_seed=1, created_ms=int(time.time() * 1000))
    match, _ = dealing.start(game_id, meta, Rules.from_options("standard"))
    players = [bots.make_bot("simple", 1), bots.make_bot("simple", 2)]
    records: dict[str, str] = {}
    while not match.game.match_over:
        game = match.game
        if game.to_act is None:
            dealing.deal(match)
        elif game.hand_number > 1:
            game.apply(1, Action.resign())
        else:
            seat = game.to_act
            game.apply(seat, dict(players[seat].choose(seat_view(game, seat, BOT_VIEW_OMITS))))
        match.version += 1
        records.update(outbox_records(match))
        match.hand_before, match.over_before = (game.hand_over, game.hand_number), game.match_over
    assert set(records) == {"h:1", "m"}
    return records


def ended(archiving: Archiving, count: int) -> list[tuple[str, float]]:
    """``count`` matches whose last commits wrote their outboxes, announced as a commit announces them."""
    games = []
    for _ in range(count):
        game_id = security.new_game_id()
        announced = archiving.store.announce(game_id)
        archiving.store.create(game_id, "over", ["e"], outbox=resigned_match(game_id))
        games.append((game_id, announced))
    return games


def pending(archiving: Archiving, games: list[tuple[str, float]]) -> set[str]:
    listed = {game for game, _ in archiving.store.pending(time.time() + 1, 100_000)}
    return {game for game, _ in games if game in listed}


def transactions() -> float:
    return sum(
        s.value for m in metrics.ARCHIVE_WRITE.collect() for s in m.samples if s.name.endswith("_count")
    )


def test_games_handed_off_together_are_written_in_one_transaction(archiving: Archiving) -> None:
    games = ended(archiving, 12)
    handed = [*games, games[0]]  # a game handed off twice (its hand, then its match): written once
    before = transactions()
    assert archiving.drain(handed)
    assert transactions() == before + 1
    for game_id, _ in games:
        archived = archiving.archive.match(game_id)
        assert archived is not None and archived.document["game_id"] == game_id
        assert archiving.archive.hand(game_id, 1) is not None
    assert archiving.store.outboxes([game for game, _ in games]) == [{}] * len(games)
    assert not pending(archiving, games)  # the requests' commits were over: settled at once
    # Retired: the archive has them, their keys go GIN_FINISHED_TTL later.
    assert 0 < archiving.store.client.ttl(archiving.store.state_key(games[3][0])) <= 30
    # Drained again (a second process's drainer that read the same outboxes): nothing changes.
    assert archiving.drain(games) and transactions() == before + 1


def test_a_record_postgresql_refuses_holds_back_its_own_game_only(archiving: Archiving) -> None:
    games = ended(archiving, 5)
    bad = games[2][0]
    # A hand number past PostgreSQL's int: the whole transaction is refused, then the games go one by one.
    late = orjson.dumps({"at": time.time(), "r": {"number": 99999999999}}).decode()
    archiving.store.commit(bad, 1, "over", ["e"], outbox={"h:99999999999": late})
    failures = metrics.ARCHIVE_FAILURES._value.get()
    assert archiving.drain(games)
    assert metrics.ARCHIVE_FAILURES._value.get() > failures
    for game_id, _ in games:
        assert (archiving.archive.match(game_id) is None) == (game_id == bad)
    assert set(archiving.store.outbox(bad)) == {"h:1", "h:99999999999", "m"}  # nothing of it lost
    assert pending(archiving, games) == {bad}  # the archive's lag shows it
    # The background pass (a long while later) writes what it can and keeps the refused game listed.
    assert archiving.drain_pending(now=time.time() + 3600) >= 0
    assert pending(archiving, games) == {bad} and archiving.archive.match(bad) is None
    # (Taken away, so that the suite's other tests do not find a game pending for ever.)
    archiving.store.clear_outboxes({bad: ["h:1", "h:99999999999", "m"]})
    archiving.store.settle([(game, announced) for game, announced in games if game == bad])
