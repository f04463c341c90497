"""The player store and the archive's writes against a real PostgreSQL: accounts with unique names,
finished games applied exactly once (in one transaction with the archived match), ratings that lose no
update under concurrent games (the players' rows are locked), leaderboards by one indexed query."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from ginrummy.app.players.ratings import ordinal
from ginrummy.store import Database, NameTaken, PlayerStore
from ginrummy.store.archive import Archive, HandRecord, MatchRecord, Rating, SeatRecord

DEFAULT = (25.0, 25.0 / 3)


@pytest.fixture(scope="module")
def database(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def players(database: Database) -> PlayerStore:
    return PlayerStore(database, recent_games=3)


@pytest.fixture
def archive(database: Database) -> Archive:
    return Archive(database, ordinal=ordinal)


def _name(prefix: str = "Ann") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def _family() -> str:
    return "fam-" + uuid.uuid4().hex[:8]


def ten_points_to_the_winner(winner: int) -> Any:
    """A deterministic rating callback: the winner's mu +10, the loser's −10, sigma −1 (both)."""

    def rate(before: tuple[Rating | None, Rating | None], won: int) -> tuple[Rating, Rating]:
        assert won == winner
        (mu0, sigma0), (mu1, sigma1) = (rating or DEFAULT for rating in before)
        sign = 1 if winner == 0 else -1
        return (mu0 + 10 * sign, sigma0 - 1), (mu1 - 10 * sign, sigma1 - 1)

    return rate


def never_rated(before: tuple[Rating | None, Rating | None], winner: int) -> tuple[Rating, Rating]:
    raise AssertionError("this game must not be rated")


def _record(
    archive: Archive,
    seats: tuple[str | None, str | None],
    winner: int | None,
    *,
    game_id: str | None = None,
    family: str = "standard",
    rated: bool = False,
    reason: str = "finished",
    finished_at: float = 1_700_000_000.5,
    rate: Any = never_rated,
) -> bool:
    """Archive a finished match between these players; True when it was new."""
    stats = ({"hands": 3, "gins": 1}, {"hands": 3, "knocks": 2})
    record = MatchRecord(
        game_id=game_id or "g" + uuid.uuid4().hex,
        seats=(SeatRecord(seats[0], seats[0], 100, stats[0]), SeatRecord(seats[1], seats[1], 40, stats[1])),
        rules={"target": 100},
        family=family,
        clock=None,
        rated=rated,
        winner=winner,
        end_reason=reason,
        started_at=finished_at - 60,
        finished_at=finished_at,
        hands=3,
        version=42,
        state="opaque",
        document={"format": "ginrummy.match", "version": 1},
    )
    return bool(archive.write([], [record], rate))


def test_names_are_unique_whatever_their_case(players: PlayerStore) -> None:
    name = _name("Zoë")
    players.create(name, "tok-" + name)
    with pytest.raises(NameTaken):
        players.create(name.upper(), "tok-other-" + name)
    assert players.exists(name.lower()) and players.exists(name.upper())
    profile = players.get(name.swapcase())
    assert profile is not None and profile["name"] == name  # kept as typed
    assert players.by_token("tok-other-" + name) is None  # the refused create left no token behind


def test_a_token_finds_its_player(players: PlayerStore) -> None:
    name = _name()
    players.create(name, "hash-" + name)
    assert players.by_token("hash-" + name) == name
    assert players.by_token("hash-nobody") is None
    # A miss is not remembered: a token made right after (by any process) is found.
    later = _name("Later")
    assert players.by_token("hash-" + later) is None
    PlayerStore(players.database).create(later, "hash-" + later)
    assert players.by_token("hash-" + later) == later


def test_a_new_player_has_an_empty_profile(players: PlayerStore) -> None:
    name = _name()
    before = time.time()
    players.create(name, "t-" + name)
    profile = players.get(name)
    assert profile is not None
    assert before - 1 <= profile["created"] <= time.time() + 1
    assert {k: profile[k] for k in ("played", "won", "lost", "drawn")} == dict.fromkeys(
        ("played", "won", "lost", "drawn"), 0
    )
    assert (profile["stats"], profile["ratings"], profile["recent_games"]) == ({}, {}, [])
    assert players.get(_name()) is None and not players.exists(_name())
    assert players.rating(name, "standard") is None


def test_a_finished_game_is_applied_exactly_once(players: PlayerStore, archive: Archive) -> None:
    ann, bob = _name("Ann"), _name("Bob")
    players.create(ann, "t-" + ann)
    players.create(bob, "t-" + bob)
    game_id = "g" + uuid.uuid4().hex
    assert _record(archive, (ann, bob), 0, game_id=game_id)
    once = players.get(ann), players.get(bob)
    assert not _record(archive, (ann, bob), 1, game_id=game_id)  # a repeat changes nothing at all
    assert (players.get(ann), players.get(bob)) == once

    _record(archive, (bob, ann), 0, finished_at=1_700_000_100.5)  # a second game: Bob wins this one
    profile = players.get(ann)
    assert profile is not None
    assert (profile["played"], profile["won"], profile["lost"], profile["drawn"]) == (2, 1, 1, 0)
    assert profile["stats"] == {"hands": 6, "gins": 1, "knocks": 2}  # seat 0, then seat 1 of a game
    latest, first = profile["recent_games"]
    assert (latest["result"], latest["opponent"], first["result"], first["game_id"]) == (
        "lost",
        bob,
        "won",
        game_id,
    )
    assert first == {
        "game_id": game_id,
        "family": "standard",
        "rated": False,
        "opponent": bob,
        "result": "won",
        "reason": "finished",
        "finished_at": 1_700_000_000.5,
        "rating_change": None,
    }


def test_recent_games_are_capped_newest_first(players: PlayerStore, archive: Archive) -> None:
    ann, bob = _name("Ann"), _name("Bob")
    ids = [f"g{i}-{uuid.uuid4().hex}" for i in range(5)]
    for number, game_id in enumerate(ids):
        _record(archive, (ann, bob), 0, game_id=game_id, finished_at=1_700_000_000.5 + number)
    profile = players.get(ann)
    assert profile is not None and profile["won"] == 5
    assert [game["game_id"] for game in profile["recent_games"]] == ids[:1:-1]  # the last 3, newest first


def test_anonymous_seats_draws_and_aborted_games(players: PlayerStore, archive: Archive) -> None:
    ann, bot = _name("Ann"), _name("Bot")
    players.create(ann, "t-" + ann)
    # An anonymous opponent: only Ann's record changes, and nothing is rated.
    assert _record(archive, (None, ann), 1, rated=True)
    _record(archive, (ann, bot), None, finished_at=1_700_000_001.5)
    _record(archive, (ann, bot), None, reason="aborted", rated=True, finished_at=1_700_000_002.5)
    profile = players.get(ann)
    assert profile is not None
    assert (profile["played"], profile["won"], profile["lost"], profile["drawn"]) == (2, 1, 0, 1)
    assert [g["result"] for g in profile["recent_games"]] == ["aborted", "drawn", "won"]
    assert profile["recent_games"][2]["opponent"] is None
    assert profile["ratings"] == {}
    # A name without a profile (a bot) gets one by playing; it has no token.
    bot_profile = players.get(bot)
    assert bot_profile is not None and bot_profile["name"] == bot and bot_profile["drawn"] == 1


def test_a_rated_game_moves_both_ratings(players: PlayerStore, archive: Archive) -> None:
    ann, bob, family = _name("Ann"), _name("Bob"), _family()
    first = "g" + uuid.uuid4().hex
    _record(
        archive, (ann, bob), 0, game_id=first, family=family, rated=True, rate=ten_points_to_the_winner(0)
    )
    match = archive.match(first)
    assert match is not None and match.ratings == [
        {"before": None, "after": (35.0, DEFAULT[1] - 1)},
        {"before": None, "after": (15.0, DEFAULT[1] - 1)},
    ]
    assert players.rating(ann, family) == (35.0, DEFAULT[1] - 1)
    assert players.rating(ann, "other-family") is None

    second = "g" + uuid.uuid4().hex
    _record(archive, (bob, ann), 0, game_id=second, family=family, rated=True,
            rate=ten_points_to_the_winner(0), finished_at=1_700_000_100.5)  # fmt: skip
    match = archive.match(second)
    assert match is not None and [change["before"] for change in match.ratings if change] == [
        (15.0, DEFAULT[1] - 1),
        (35.0, DEFAULT[1] - 1),
    ]
    profile = players.get(ann)
    assert profile is not None
    # Ann and Bob tie (25, sigma − 2): the newer player ranks first, and Bob was made after Ann.
    assert profile["ratings"] == {family: {"mu": 25.0, "sigma": DEFAULT[1] - 2, "games": 2, "rank": 2}}
    latest, first = profile["recent_games"]
    assert first["rating_change"] is None  # no rating before the first rated game
    assert latest["rating_change"] == pytest.approx(-10 + 3)  # mu −10, sigma −1: the ordinal −7

    # An unrated game leaves the ratings alone.
    assert _record(archive, (ann, bob), 0, family=family, rated=False)
    assert players.rating(ann, family) == (25.0, DEFAULT[1] - 2)


def test_concurrent_games_of_one_player_lose_no_rating_update(players: PlayerStore, archive: Archive) -> None:
    ann, bob, family = _name("Ann"), _name("Bob"), _family()
    games = 8  # sigma −1 a game must stay above 0 (25/3 at the start)
    calls = []
    winning = ten_points_to_the_winner(0)

    def rate(before: tuple[Rating | None, Rating | None], winner: int) -> tuple[Rating, Rating]:
        calls.append(before)
        time.sleep(0.002)  # widens the window between reading the ratings and writing them
        result: tuple[Rating, Rating] = winning(before, winner)
        return result

    barrier = threading.Barrier(games)
    errors: list[BaseException] = []

    def play(index: int) -> None:
        try:
            barrier.wait()
            _record(archive, (ann, bob), 0, game_id=f"g{index}-{uuid.uuid4().hex}", family=family,
                    rated=True, rate=rate)  # fmt: skip
        except BaseException as error:  # reported by the assert below
            errors.append(error)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(games)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert players.rating(ann, family) == (25.0 + 10 * games, DEFAULT[1] - games)
    assert players.rating(bob, family) == (25.0 - 10 * games, DEFAULT[1] - games)
    profile = players.get(ann)
    assert profile is not None and profile["won"] == games and profile["ratings"][family]["games"] == games
    assert len(calls) == games  # rated once each: the players' rows are locked, nobody rates twice


def test_writes_of_several_matches_sharing_players_wait_for_each_other(
    players: PlayerStore, archive: Archive
) -> None:
    """Two writers (two processes' drainers), each archiving several matches in one write, with the same
    players in the opposite order: every player is locked first, in the order of the ids, so neither
    deadlocks and no count or rating is lost."""
    ann, bob, cid, dan, family = _name("Ann"), _name("Bob"), _name("Cid"), _name("Dan"), _family()
    rounds = 4
    winning = ten_points_to_the_winner(0)

    def slow(before: tuple[Rating | None, Rating | None], winner: int) -> tuple[Rating, Rating]:
        time.sleep(0.01)  # holds the first match's players while the other writer takes its own
        result: tuple[Rating, Rating] = winning(before, winner)
        return result

    def match(pair: tuple[str, str]) -> MatchRecord:
        seats = (SeatRecord(pair[0], pair[0], 100, {"gins": 1}), SeatRecord(pair[1], pair[1], 40))
        return MatchRecord(
            game_id="g" + uuid.uuid4().hex, seats=seats, rules={}, family=family, clock=None, rated=True,
            winner=0, end_reason="finished", started_at=1_700_000_000.0, finished_at=1_700_000_060.0,
            hands=1, version=9, state="opaque", document={},
        )  # fmt: skip

    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def write(pairs: list[tuple[str, str]]) -> None:
        try:
            for _ in range(rounds):
                barrier.wait()
                batch = [match(pair) for pair in pairs]
                hands = [HandRecord(m.game_id, 1, '{"number": 1}', 1_700_000_060.0) for m in batch]
                assert len(archive.write(hands, batch, slow)) == len(pairs)
        except BaseException as error:  # reported by the assert below
            errors.append(error)
            barrier.abort()

    writers = [
        threading.Thread(target=write, args=([(ann, bob), (cid, dan)],)),
        threading.Thread(target=write, args=([(dan, cid), (bob, ann)],)),
    ]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join()
    assert errors == []
    for name, won in ((ann, rounds), (bob, rounds), (cid, rounds), (dan, rounds)):
        profile = players.get(name)
        assert profile is not None
        assert (profile["played"], profile["won"], profile["lost"]) == (2 * rounds, won, 2 * rounds - won)
        assert profile["ratings"][family]["games"] == 2 * rounds
        assert profile["stats"] == {"gins": rounds}
    assert players.rating(ann, family) == (25.0, DEFAULT[1] - 2 * rounds)  # +10 as seat 0, −10 as seat 1


def test_leaderboard_ranks_by_ordinal(players: PlayerStore, archive: Archive) -> None:
    family = _family()
    names = [_name(f"P{i}") for i in range(4)]
    targets = {names[0]: (30.0, 2.0), names[1]: (40.0, 5.0), names[2]: (28.0, 1.0), names[3]: (20.0, 6.0)}

    def set_to(pair: tuple[str, str]) -> Any:
        return lambda before, winner: (targets[pair[0]], targets[pair[1]])

    for pair in ((names[0], names[1]), (names[2], names[3])):
        _record(archive, pair, 0, family=family, rated=True, rate=set_to(pair))
    # ordinals: P0 24, P1 25, P2 25, P3 2 — P1 and P2 tie (the newer player first).
    board = players.leaderboard(family)
    assert [(row["rank"], row["ordinal"]) for row in board] == [(1, 25.0), (2, 25.0), (3, 24.0), (4, 2.0)]
    assert {row["name"] for row in board[:2]} == {names[1], names[2]}
    assert board[2] == {"rank": 3, "name": names[0], "mu": 30.0, "sigma": 2.0, "ordinal": 24.0, "games": 1}
    assert players.leaderboard(family, limit=2, offset=2) == board[2:]
    assert players.leaderboard(family, limit=0) == []
    assert [players.rank(name.upper(), family) for name in names[::3]] == [3, 4]
    assert players.rank(_name(), family) is None
    assert ordinal(*targets[names[3]]) == 2.0


def test_one_write_of_many_matches_rates_them_in_order_and_counts_each_once(
    players: PlayerStore, archive: Archive
) -> None:
    """A drainer's transaction holds the matches that queued up: the same players' rated matches are
    rated one after the other (each from the rating the one before left), a match archived before is
    left as it was, and a player's counters and statistics add up over the write."""
    ann, bob, family = _name("Ann"), _name("Bob"), _family()
    old = "g" + uuid.uuid4().hex
    assert _record(
        archive, (ann, bob), 0, game_id=old, family=family, rated=True, rate=ten_points_to_the_winner(0)
    )

    def match(winner: int, game_id: str | None = None, finished: float = 1_700_000_100.0) -> MatchRecord:
        seats = (SeatRecord(ann, ann, 100, {"gins": 1}), SeatRecord(bob, bob, 40, {"knocks": 2}))
        return MatchRecord(
            game_id=game_id or "g" + uuid.uuid4().hex, seats=seats, rules={}, family=family, clock=None,
            rated=True, winner=winner, end_reason="finished", started_at=finished - 60, finished_at=finished,
            hands=1, version=9, state="opaque", document={"n": finished},
        )  # fmt: skip

    def alternate(before: tuple[Rating | None, Rating | None], winner: int) -> tuple[Rating, Rating]:
        result: tuple[Rating, Rating] = ten_points_to_the_winner(winner)(before, winner)
        return result

    batch = [match(0, finished=1_700_000_100.0 + n) for n in range(3)] + [match(1, game_id=old)]
    batch.insert(2, match(1, finished=1_700_000_101.5))
    assert archive.write([], batch, alternate) == [m.game_id for m in batch if m.game_id != old]
    profile = players.get(ann)
    assert profile is not None
    assert (profile["played"], profile["won"], profile["lost"]) == (5, 4, 1)
    assert profile["stats"] == {"gins": 5, "hands": 3}  # (the first match, archived alone, played 3)
    assert profile["ratings"][family]["games"] == 5
    assert players.rating(ann, family) == (25.0 + 30, DEFAULT[1] - 5)  # +10 four times, −10 once
    player = archive.player(ann)
    assert player is not None
    history = archive.rating_history(player[0], family)
    assert len(history) == 5
    for earlier, later in zip(history, history[1:], strict=False):  # each from where the one before left
        assert later["mu_before"] == earlier["mu_after"]
