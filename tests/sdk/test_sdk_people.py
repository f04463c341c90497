"""Stories of people through the SDK against the real service: players find each other by quick match
(one waiting on ``Seek.wait``), play, resign, and see it in their profiles and on the leaderboard; a
rematch is played with the same token; a victory claimed too early; the new error classes.

Each story seeks under rules no other test uses (a clock of its own), so that no seek left open by
another test of this worker's service is paired with it."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from ginrummy_client import (
    Client,
    Game,
    NameReserved,
    NameTaken,
    NothingToClaim,
    NotOver,
    OwnGame,
    Player,
    PlayerNotFound,
    PlayerRequired,
    RatedGame,
    RatedNeedsPreset,
    RematchExists,
    RematchOffered,
    Seek,
    SeekIncompatible,
    SeekNotFound,
    TooEarly,
    UnknownPlayer,
)

from tests.support import choose


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def own_clock() -> dict[str, int]:
    """A time control no other test seeks with: a bank of a random number of seconds (a long one)."""
    return {"bank": random.randrange(20_000, 86_400)}


@dataclass
class Person:
    """A player and a client that carries the player's token."""

    player: Player
    client: Client

    @property
    def name(self) -> str:
        return self.player.name


@pytest.fixture
def players(live_service: str) -> Iterator[tuple[Person, Person]]:
    """Two new players, Ann and Bob."""
    with Client(live_service) as anonymous:
        ann, bob = anonymous.players.create(unique("Ann")), anonymous.players.create(unique("Bob"))
    with (
        Client(live_service, token=ann.token) as ann_client,
        Client(live_service, token=bob.token) as bob_client,
    ):
        yield Person(ann, ann_client), Person(bob, bob_client)


def quick_match(ann: Person, bob: Person, **seek: Any) -> tuple[Game, Game, Seek]:
    """Ann seeks and waits on Seek.wait in a thread; Bob's quick seek is paired with hers at once."""
    waiting = ann.client.lobby.seek(**seek)
    assert isinstance(waiting, Seek) and waiting.status == "open"
    listed = ann.client.lobby.get()["seeks"]
    assert any(s["id"] == waiting.id and s["player"] == ann.name for s in listed)
    found: list[Game | None] = []
    thread = threading.Thread(target=lambda: found.append(waiting.wait(timeout=15)))
    thread.start()
    paired = bob.client.lobby.seek(**seek)
    thread.join(20)
    assert isinstance(paired, Game) and paired.seat == 1
    (mine,) = found
    assert mine is not None and mine.seat == 0 and mine.game_id == paired.game_id
    assert mine.token == waiting.token and waiting.status == "matched"
    assert not any(s["id"] == waiting.id for s in ann.client.lobby.get()["seeks"])
    return mine, paired, waiting


def play(seats: tuple[Game, Game], moves: int) -> None:
    """``moves`` moves of the play, by whichever seat has its move (never resign or abort)."""
    for _ in range(moves):
        for seat in seats:
            seat.refresh()
        mover = next(seat for seat in seats if seat.your_move)
        mover.act(choose({**mover.view, "legal_actions": mover.play_actions}))


def test_players_quick_match_resign_profiles_and_the_leaderboard(players: tuple[Person, Person]) -> None:
    ann, bob = players
    ann_seat, bob_seat, _ = quick_match(ann, bob, rated=True, clock=own_clock())
    assert ann_seat.view["rated"] and [p["player"] for p in ann_seat.view["players"]] == [ann.name, bob.name]
    assert ann_seat.view["clock"] is not None and ann_seat.view["clock"]["remaining"] is not None
    play((ann_seat, bob_seat), 4)
    live = ann.client.games.live(limit=200)["games"]
    assert [g["players"] for g in live if g["game_id"] == ann_seat.game_id][0][1]["player"] == bob.name
    # The player's token is a credential of the player's seat too.
    assert bob.client.games.get(bob_seat.game_id).seat == 1
    bob_seat.refresh()
    resigned = bob_seat.resign()
    assert any(e["type"] == "match_over" for e in resigned["events"])
    ann_seat.refresh()
    assert ann_seat.match_over and not ann_seat.your_move
    assert ann_seat.view["end_reason"] == "resigned" and ann_seat.view["forfeited_by"] == 1
    deadline = time.monotonic() + 15  # the service's drainer archives the match a moment after its end
    while ann.client.players.get(ann.name)["games"]["won"] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    won, lost = ann.client.players.get(ann.name), ann.client.players.get(bob.name)
    assert (won["games"]["won"], lost["games"]["lost"]) == (1, 1)
    assert won["ratings"]["standard"]["rating"] > 1500 > lost["ratings"]["standard"]["rating"]
    assert won["recent"][0]["game_id"] == ann_seat.game_id
    board = [row["name"] for row in ann.client.players.leaderboard("standard", limit=200)["players"]]
    assert board.index(ann.name) < board.index(bob.name)


def test_a_rematch_against_a_bot_is_played_with_the_same_token(client: Client) -> None:
    game = client.games.create(bot="simple", seed=5)
    assert {"type": "resign", "kind": "match"} in game.legal_actions and game.your_move
    with pytest.raises(NotOver):
        game.rematch()
    game.resign()
    assert game.match_over and game.view["end_reason"] == "resigned" and game.view["forfeited_by"] == 0
    assert game.legal_actions == [{"type": "rematch", "kind": "match"}] and game.rematch_game() is None
    result = game.rematch()  # a bot accepts at once
    assert [e["type"] for e in result["events"]] == ["rematch"]
    again = game.rematch_game()
    assert again is not None and again.game_id == result["events"][0]["game_id"] != game.game_id
    assert (again.token, again.seat) == (game.token, 0) and again.your_move and not again.match_over
    again.act(again.play_actions[0])
    assert again.version == 2
    with pytest.raises(RematchExists) as exists:
        game.rematch()
    assert exists.value.game_id == again.game_id


def test_two_people_rematch_one_waiting_for_the_other(client: Client, live_service: str) -> None:
    host = client.games.create(human=True, name="Ann")
    with Client(live_service) as other:
        guest = other.games.join(host.invitation_code or "")
        host.refresh()
        host.resign()
        offered = host.rematch()
        assert offered["events"][0]["type"] == "rematch_offered" and host.rematch_game() is None
        with pytest.raises(RematchOffered):
            host.rematch()
        assert host.wait_rematch(timeout=0.5) is None
        guest.refresh()
        assert guest.view["rematch"] == {"offered_by": [0], "game_id": None}
        accepting = threading.Timer(0.3, guest.rematch)  # Bob accepts while Ann waits
        accepting.start()
        again = host.wait_rematch(timeout=15)
        assert again is not None and again.token == host.token and again.seat == 0
        accepting.join(15)  # (Ann may learn of it before Bob's own answer is back)
        assert (
            guest.rematch_game() is not None
            and again.view["players"][1]["name"] == guest.view["players"][1]["name"]
        )


def test_abort_and_a_victory_claimed_too_early(client: Client, live_service: str) -> None:
    host = client.games.create(human=True)
    with Client(live_service) as other:
        guest = other.games.join(host.invitation_code or "")
        host.refresh()
        mover, idle = (host, guest) if host.your_move else (guest, host)
        with pytest.raises(TooEarly) as early:
            idle.claim_victory()
        assert early.value.seconds_left is not None and early.value.seconds_left > 0
        with pytest.raises(NothingToClaim):
            mover.claim_victory()
        assert {"type": "abort", "kind": "match"} in mover.legal_actions
        mover.abort()
        assert mover.match_over and mover.view["end_reason"] == "aborted"


def test_a_seek_can_be_cancelled_and_the_new_errors_have_their_classes(
    players: tuple[Person, Person], live_service: str
) -> None:
    ann, bob = players
    seek = ann.client.lobby.seek(clock=own_clock(), quick=False)
    assert isinstance(seek, Seek) and seek.token not in repr(seek)
    with pytest.raises(SeekIncompatible):
        ann.client.lobby.accept(seek.id)  # one's own seek
    assert seek.cancel()["status"] == "cancelled"
    assert seek.refresh()["status"] == "cancelled" and seek.wait() is None
    with pytest.raises(SeekNotFound):
        bob.client.lobby.accept("sNoSuchSeek")
    with Client(live_service) as anonymous:
        with pytest.raises(NameTaken):
            anonymous.players.create(ann.name.upper())
        with pytest.raises(NameReserved):
            anonymous.players.create("bot-" + unique("x"))
        with pytest.raises(PlayerNotFound):
            anonymous.players.get(unique("nobody"))
        with pytest.raises(PlayerRequired):
            anonymous.games.create(rated=True)
    with Client(live_service, token="not-a-player-token") as stranger, pytest.raises(UnknownPlayer):
        stranger.lobby.seek()
    with pytest.raises(RatedNeedsPreset):
        ann.client.games.create(rated=True, options={"target": 50})
    rated = ann.client.games.create(rated=True, bot="simple")
    with pytest.raises(RatedGame):
        rated.hint()
    hidden = ann.client.games.create(private=True)
    assert hidden.view["private"] and hidden.game_id not in [
        g["game_id"] for g in ann.client.games.live()["games"]
    ]
    hosted = ann.client.games.create(human=True)
    with pytest.raises(OwnGame):
        ann.client.games.join(hosted.invitation_code or "")
    assert "token" not in repr(Player("Ann", "secret")) and "secret" not in repr(Player("Ann", "secret"))
