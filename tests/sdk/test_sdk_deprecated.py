"""The Client's old flat names still work, for one release: each warns — a DeprecationWarning naming its
new call, at the caller's line — and makes that call with the same arguments (they fit its signature)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from ginrummy_client import Client

from tests.support import choose

RENAMED: dict[str, tuple[str, tuple[Any, ...], dict[str, Any]]] = {
    # old name: (new call, positional arguments, keyword arguments), as the old names were called
    "rules": ("service.rules", (), {}),
    "bots": ("service.bots", (), {}),
    "analyze": ("service.analyze", (["7H", "8H", "9H"],), {"knock_limit": 7}),
    "health": ("service.health", (), {}),
    "ready": ("service.ready", (), {}),
    "create_game": (
        "games.create",
        (),
        {"bot": "expert", "preset": "oklahoma", "rated": True, "clock": "eaai"},
    ),
    "join_game": ("games.join", ("gAbc", "s3cr3t"), {"name": "Bob"}),
    "game": ("games.get", ("gAbc", "seat-token"), {}),
    "live_games": ("games.live", (10,), {}),
    "create_player": ("players.create", ("Ann",), {}),
    "player": ("players.get", ("Ann",), {}),
    "leaderboard": ("players.leaderboard", ("oklahoma",), {"limit": 10}),
    "lobby": ("lobby.get", (), {}),
    "seek": ("lobby.seek", (), {"preset": "standard", "rated": True, "min_rating": 1400, "quick": False}),
    "accept_seek": ("lobby.accept", ("s1",), {}),
    "account": ("account.get", (), {}),
    "sign_up": ("account.sign_up", ("Ann", "a long enough password"), {"claim": True}),
    "sign_in": ("account.sign_in", ("Ann", "a long enough password"), {}),
    "sign_out": ("account.sign_out", ("all",), {}),
    "change_password": ("account.change_password", ("old password", "new password"), {}),
    "sessions": ("account.sessions", (), {}),
    "create_token": ("account.create_token", ("ci bot", ["bot"]), {}),
    "tokens": ("account.tokens", (), {}),
    "revoke_token": ("account.revoke_token", ("t1",), {}),
    "become_bot": ("account.become_bot", (), {}),
    "account_stream": ("account.stream", (), {"since": "5-0", "wait": 30}),
    "account_events": ("account.events", ("5-0",), {"wait": 1.0}),
    "account_games": ("account.games", (), {}),
    "challenge": ("challenges.create", ("Bob",), {"rules": "oklahoma", "clock": "rapid", "rated": True}),
    "challenges": ("challenges.list", (), {}),
    "challenge_status": ("challenges.get", ("c1",), {"token": "challenge-token"}),
    "accept_challenge": ("challenges.accept", ("c1",), {}),
    "decline_challenge": ("challenges.decline", ("c1", "too_fast"), {}),
    "cancel_challenge": ("challenges.cancel", ("c1",), {}),
    "export": ("archive.export", ("gAbc",), {}),
    "player_games": ("archive.games", ("Ann",), {"limit": 20, "rated": True, "since": "2026-11-01"}),
    "export_games": ("archive.export_games", ("Ann",), {"opponent": "Bob"}),
    "rating_history": ("archive.rating_history", ("Ann", "standard"), {}),
    "request_review": ("reviews.request", ("gAbc",), {}),
    "review": ("reviews.get", ("gAbc",), {}),
    "wait_for_review": ("reviews.wait", ("gAbc", 60.0), {"sleep": print}),
}
SETTINGS = {"close", "server", "session", "timeout", "retries", "max_retry_wait", "user_agent"}


def test_the_old_names_are_every_flat_name_of_the_client() -> None:
    assert len(RENAMED) == 41
    client = Client("http://127.0.0.1:9")
    flat = {name for name in dir(client) if not name.startswith("_")} - SETTINGS - {"requestor", "token"}
    resources = {name for name in flat if name in vars(client)}
    assert flat - resources == set(RENAMED) - {"account", "challenges", "lobby"}
    assert {"account", "challenges", "lobby"} <= resources  # called as a method: their __call__


@pytest.mark.parametrize("old", sorted(RENAMED))
def test_an_old_name_warns_and_makes_its_new_call(old: str) -> None:
    new, args, kwargs = RENAMED[old]
    resource_name, method = new.split(".")
    client = Client("http://127.0.0.1:9")
    resource = getattr(client, resource_name)
    signature = inspect.signature(getattr(type(resource), method))
    made: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    answer = object()

    def new_call(*given: Any, **named: Any) -> object:
        signature.bind(resource, *given, **named)  # the old call fits the new signature
        made.append((given, named))
        return answer

    setattr(resource, method, new_call)  # this resource client's method, seen by the old name
    with pytest.warns(DeprecationWarning) as warned:
        got = getattr(client, old)(*args, **kwargs)
    assert got is answer and made == [(args, kwargs)]
    assert [str(warning.message) for warning in warned] == [
        f"client.{old}() is deprecated and goes in the next release: use client.{new}()"
    ]
    assert warned[0].filename == __file__  # the caller's line, not the SDK's


def test_the_old_names_play_against_the_service(live_service: str) -> None:
    with Client(live_service) as client, pytest.warns(DeprecationWarning):
        game = client.create_game(bot="simple", seed=5)
        game.act(choose(game.view))
        again = client.game(game.game_id, game.token)
        assert again.version == game.version and again.seat == 0
        assert "simple" in [bot["name"] for bot in client.bots()["bots"]]
