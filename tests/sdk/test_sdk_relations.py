"""Follows and blocks through the SDK against the real service: an account follows a person and a bot
account, and its list says who is online and what they play, the profile counts the followers; a block
declines the blocked player's challenges without telling it; the refusals are their classes; and the
README's example runs as printed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from ginrummy_client import Client, Forbidden, PlayerNotFound, TokenScope, Unauthorized
from ginrummy_client.errors import AccountRequired, PlayerBlocked

from tests.finished import unique

README = Path(__file__).resolve().parents[2] / "clients" / "python" / "README.md"
PASSWORD = "a long enough password"


@pytest.fixture
def accounts(live_service: str) -> Iterator[tuple[Client, Client]]:
    """Two accounts, Ann and Bob, each signed in on a client of its own."""
    with Client(live_service) as ann, Client(live_service) as bob:
        ann.account.sign_up(unique("Ann"), PASSWORD)
        bob.account.sign_up(unique("Bob"), PASSWORD)
        yield ann, bob


def name_of(client: Client) -> str:
    return client.account.get()["name"]


def test_follow_a_person_and_a_bot_account_who_is_online_and_playing(
    live_service: str, accounts: tuple[Client, Client]
) -> None:
    ann, bob = accounts
    bob_name = name_of(bob)
    with Client(live_service) as owner:
        bot_name = owner.account.sign_up(unique("Botty"), PASSWORD).name
        owner.account.become_bot()
        token = owner.account.create_token("engine", ["bot"])["token"]
    assert ann.players.follow(bob_name.lower()) == {"player": bob_name, "following": True}
    assert ann.players.follow(bot_name) == {"player": bot_name, "following": True}
    assert ann.players.follow(bot_name)["following"] is True  # again: nothing changes
    assert ann.players.get(bob_name)["followers"] == 1
    game = bob.games.create(bot="simple")
    with Client(live_service, token=token) as bot:
        bot.account.events()  # the bot account reads its account stream: online
    by_name = {friend["name"]: friend for friend in ann.account.following()}
    assert by_name == {
        bob_name: {"name": bob_name, "bot": False, "online": False, "playing": [game.game_id]},
        bot_name: {"name": bot_name, "bot": True, "online": True, "playing": []},
    }
    assert bob.account.following() == []  # following is one way

    assert ann.players.unfollow(bob_name) == {"player": bob_name, "following": False}
    assert ann.players.unfollow(bob_name)["following"] is False  # not followed: nothing changes
    assert ann.players.get(bob_name)["followers"] == 0
    assert [friend["name"] for friend in ann.account.following()] == [bot_name]

    # Refusals: no token, a player's token (no account), a token that only reads, nobody, oneself.
    with Client(live_service) as anonymous:
        with pytest.raises(Unauthorized):
            anonymous.players.follow(bob_name)
        player = anonymous.players.create(unique("Cy"))
    with Client(live_service, token=player.token) as cy, pytest.raises(AccountRequired):
        cy.players.follow(bob_name)
    with Client(live_service, token=ann.account.create_token("look", ["read"])["token"]) as reader:
        with pytest.raises(TokenScope):
            reader.players.block(bob_name)
        assert [friend["name"] for friend in reader.account.following()] == [bot_name]  # reading is fine
    with pytest.raises(PlayerNotFound):
        ann.players.follow(unique("nobody"))
    with pytest.raises(Forbidden):
        ann.players.block(name_of(ann))


def test_a_blocked_players_challenges_are_declined_and_the_blocker_may_not_challenge(
    accounts: tuple[Client, Client],
) -> None:
    ann, bob = accounts
    ann_name, bob_name = name_of(ann), name_of(bob)
    assert ann.players.block(bob_name.upper()) == {"player": bob_name, "blocking": True}
    assert ann.account.blocking() == [bob_name] and bob.account.blocking() == []
    declined = bob.challenges.create(ann_name)
    assert declined.status == "declined" and declined.info["decline_reason"] == "generic"
    assert ann.challenges.list()["in"] == []  # Ann never hears of it
    with pytest.raises(PlayerBlocked):
        ann.challenges.create(bob_name)

    assert ann.players.unblock(bob_name) == {"player": bob_name, "blocking": False}
    assert ann.account.blocking() == []
    made = bob.challenges.create(ann_name)
    assert made.status == "open"
    assert [c["id"] for c in ann.challenges.list()["in"]] == [made.id]
    bob.challenges.cancel(made.id)


def test_the_readmes_example_runs_as_printed(
    live_service: str, accounts: tuple[Client, Client], capsys: pytest.CaptureFixture[str]
) -> None:
    ann, bob = accounts
    bob_name = name_of(bob)
    with Client(live_service) as anonymous:
        troll = anonymous.players.create(unique("Troll")).name
    game = bob.games.create(bot="simple")
    section = README.read_text().split("## Follows and blocks")[1]
    example = re.search(r"```python\n(.*?)```", section, re.S)
    assert example is not None
    code = (
        example.group(1)
        .replace("http://127.0.0.1:8000", live_service)
        .replace('"bob"', repr(bob_name.lower()))
        .replace('"Troll"', repr(troll))
    )
    exec(compile(code, str(README), "exec"), {"token": ann.token})
    assert capsys.readouterr().out.splitlines() == [
        str({"player": bob_name, "following": True}),
        f"{bob_name} plays {game.game_id}",
        str([troll]),
    ]
