"""The player store against a real redis-server and a real 3-master Cluster: accounts with unique names,
finished games applied exactly once, ratings that lose no update under concurrent games, leaderboards."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from ginrummy.app.ratings import ordinal
from ginrummy.engine import MatchEnd
from ginrummy.store import NameTaken, PlayerStore, make_client
from ginrummy.store.players import Rating

DEFAULT = (25.0, 25.0 / 3)


@pytest.fixture(params=["single", "cluster"])
def players(request: pytest.FixtureRequest) -> Iterator[PlayerStore]:
    url = request.getfixturevalue("redis_url" if request.param == "single" else "redis_cluster_url")
    client = make_client(url)
    try:
        yield PlayerStore(client, ordinal=ordinal, recent_games=3)
    finally:
        client.close()


def _name(prefix: str = "Ann") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def _family() -> str:
    return "fam-" + uuid.uuid4().hex[:8]


def ten_points_to_the_winner(winner: int) -> Any:
    """A deterministic rating callback: the winner's mu +10, the loser's −10, sigma −1 (both)."""

    def rate(before: tuple[Rating | None, Rating | None]) -> tuple[Rating, Rating]:
        (mu0, sigma0), (mu1, sigma1) = (rating or DEFAULT for rating in before)
        sign = 1 if winner == 0 else -1
        return (mu0 + 10 * sign, sigma0 - 1), (mu1 - 10 * sign, sigma1 - 1)

    return rate


def _record(players: PlayerStore, seats: tuple[str | None, str | None], winner: int | None, **kw: Any) -> Any:
    args: dict[str, Any] = {
        "game_id": "g" + uuid.uuid4().hex,
        "family": "standard",
        "rated": False,
        "seats": seats,
        "winner": winner,
        "stats": ({"hands": 3, "gins": 1}, {"hands": 3, "knocks": 2}),
        "reason": "score",
        "finished_at": 1_700_000_000.5,
        "rate": None,
    }
    args.update(kw)
    return players.record_game(**args)


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


def test_a_finished_game_is_applied_exactly_once(players: PlayerStore) -> None:
    ann, bob = _name("Ann"), _name("Bob")
    players.create(ann, "t-" + ann)
    players.create(bob, "t-" + bob)
    game_id = "g" + uuid.uuid4().hex
    _record(players, (ann, bob), 0, game_id=game_id)
    once = players.get(ann), players.get(bob)
    assert _record(players, (ann, bob), 1, game_id=game_id) is None  # a repeat changes nothing at all
    assert (players.get(ann), players.get(bob)) == once

    _record(players, (bob, ann), 0)  # a second game: Bob wins this one
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
        "reason": "score",
        "finished_at": 1_700_000_000.5,
        "rating_change": None,
    }


def test_recent_games_are_capped_newest_first(players: PlayerStore) -> None:
    ann, bob = _name("Ann"), _name("Bob")
    ids = [f"g{i}-{uuid.uuid4().hex}" for i in range(5)]
    for game_id in ids:
        _record(players, (ann, bob), 0, game_id=game_id)
    profile = players.get(ann)
    assert profile is not None and profile["won"] == 5
    assert [game["game_id"] for game in profile["recent_games"]] == ids[:1:-1]  # the last 3, newest first


def test_anonymous_seats_draws_and_aborted_games(players: PlayerStore) -> None:
    ann, bot = _name("Ann"), _name("Bot")
    players.create(ann, "t-" + ann)
    rate = ten_points_to_the_winner(0)
    # An anonymous opponent: only Ann's record changes, and nothing is rated.
    assert _record(players, (None, ann), 1, rated=True, rate=rate) is None
    _record(players, (ann, bot), None, reason="draw")
    _record(players, (ann, bot), None, reason=MatchEnd.ABORTED, rated=True, rate=rate)
    profile = players.get(ann)
    assert profile is not None
    assert (profile["played"], profile["won"], profile["lost"], profile["drawn"]) == (2, 1, 0, 1)
    assert [g["result"] for g in profile["recent_games"]] == ["aborted", "drawn", "won"]
    assert profile["recent_games"][2]["opponent"] is None
    assert profile["ratings"] == {}
    # A name without a profile (a bot) gets one by playing; it has no token.
    bot_profile = players.get(bot)
    assert bot_profile is not None and bot_profile["name"] == bot and bot_profile["drawn"] == 1


def test_a_rated_game_moves_both_ratings(players: PlayerStore) -> None:
    ann, bob, family = _name("Ann"), _name("Bob"), _family()
    change = _record(players, (ann, bob), 0, family=family, rated=True, rate=ten_points_to_the_winner(0))
    assert change == {"before": [None, None], "after": [(35.0, DEFAULT[1] - 1), (15.0, DEFAULT[1] - 1)]}
    assert players.rating(ann, family) == (35.0, DEFAULT[1] - 1)
    assert players.rating(ann, "other-family") is None

    change = _record(players, (bob, ann), 0, family=family, rated=True, rate=ten_points_to_the_winner(0))
    assert change is not None and change["before"] == [(15.0, DEFAULT[1] - 1), (35.0, DEFAULT[1] - 1)]
    profile = players.get(ann)
    assert profile is not None
    assert profile["ratings"] == {family: {"mu": 25.0, "sigma": DEFAULT[1] - 2, "games": 2}}
    latest, first = profile["recent_games"]
    assert first["rating_change"] is None  # no rating before the first rated game
    assert latest["rating_change"] == pytest.approx(-10 + 3)  # mu −10, sigma −1: the ordinal −7

    # An unrated game (or one without a callback) leaves the ratings alone.
    assert (
        _record(players, (ann, bob), 0, family=family, rated=False, rate=ten_points_to_the_winner(0)) is None
    )
    assert _record(players, (ann, bob), 0, family=family, rated=True, rate=None) is None
    assert players.rating(ann, family) == (25.0, DEFAULT[1] - 2)


def test_concurrent_games_of_one_player_lose_no_rating_update(players: PlayerStore) -> None:
    ann, bob, family = _name("Ann"), _name("Bob"), _family()
    games = 24
    calls = []
    winning = ten_points_to_the_winner(0)

    def rate(before: tuple[Rating | None, Rating | None]) -> tuple[Rating, Rating]:
        calls.append(before)
        time.sleep(0.002)  # widens the window between reading the ratings and writing them
        result: tuple[Rating, Rating] = winning(before)
        return result

    barrier = threading.Barrier(games)
    errors: list[BaseException] = []

    def play(index: int) -> None:
        try:
            barrier.wait()
            _record(players, (ann, bob), 0, game_id=f"g{index}-{uuid.uuid4().hex}", family=family,
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
    assert len(calls) >= games  # more when games raced (each loser of a race rates again)


def test_leaderboard_ranks_by_ordinal(players: PlayerStore) -> None:
    family = _family()
    names = [_name(f"P{i}") for i in range(4)]
    targets = {names[0]: (30.0, 2.0), names[1]: (40.0, 5.0), names[2]: (28.0, 1.0), names[3]: (20.0, 6.0)}

    def set_to(pair: tuple[str, str]) -> Any:
        return lambda before: (targets[pair[0]], targets[pair[1]])

    for pair in ((names[0], names[1]), (names[2], names[3])):
        _record(players, pair, 0, family=family, rated=True, rate=set_to(pair))
    # ordinals: P0 24, P1 25, P2 25, P3 2 — P1 and P2 tie, P1 has the higher mu and sigma.
    board = players.leaderboard(family)
    assert [(row["rank"], row["ordinal"]) for row in board] == [(1, 25.0), (2, 25.0), (3, 24.0), (4, 2.0)]
    assert {row["name"] for row in board[:2]} == {names[1], names[2]}
    assert board[2] == {"rank": 3, "name": names[0], "mu": 30.0, "sigma": 2.0, "ordinal": 24.0, "games": 1}
    assert players.leaderboard(family, limit=2, offset=2) == board[2:]
    assert players.leaderboard(family, limit=0) == []
    assert [players.rank(name.upper(), family) for name in names[::3]] == [3, 4]
    assert players.rank(_name(), family) is None
    assert ordinal(*targets[names[3]]) == 2.0
