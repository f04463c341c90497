"""Follows and blocks from the terminal — the real `gin` against the real service: `gin follow` and
`gin following` (who is online, who plays which game, and the command to go on with, which runs as
printed), the followers on `gin profile`, `gin unfollow`; `gin block` and `gin blocking`, a blocked
player's `gin challenge` declined while the blocker never hears of it, the blocker's own refused;
`gin unblock`; and the refusals as one-line messages."""

from __future__ import annotations

import doctest
import json
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from gin_cli import relations
from ginrummy_client import Client

from tests.finished import unique

from .conftest import PASSWORD, GinProcess, signup
from .test_cli_challenges import EXIT_NOT_ACCEPTED, gin, no_traceback, people

EXIT_REFUSED, EXIT_USAGE, EXIT_INTERRUPTED = 4, 2, 130


@pytest.fixture
def friends(live_service: str) -> Iterator[dict[str, tuple[str, Client]]]:
    """Bob, Cy and Dee: accounts signed up through the SDK, each with its name and a client of its own."""
    with Client(live_service) as bob, Client(live_service) as cy, Client(live_service) as dee:
        clients = {"bob": bob, "cy": cy, "dee": dee}
        yield {who: (c.account.sign_up(unique(who.title()), PASSWORD).name, c) for who, c in clients.items()}


def test_following_shows_who_is_online_and_their_game_whose_watch_command_runs(
    run_gin, live_service: str, tmp_path: Path, friends: dict[str, tuple[str, Client]]
) -> None:
    home, ann = tmp_path / "ann", unique("Ann")
    signup(home, live_service, ann)
    (bob, bob_client), (cy, cy_client), (dee, _) = friends["bob"], friends["cy"], friends["dee"]
    game = bob_client.games.create(bot="simple")
    stream = bob_client.account.stream(wait=30)  # Bob's account stream open: online
    try:
        assert next(stream)["type"] == "gameStart"  # (it opens with the game in play)
        cy_client.account.events()  # Cy reads a page of hers: online, playing nothing
        followed = gin(home, live_service, "follow", bob.lower())
        assert followed.returncode == 0, followed.stderr
        assert followed.stdout == (
            f"You follow {bob} now: gin following shows when they are online and what they play.\n"
        )
        for name in (cy, dee):
            assert gin(home, live_service, "follow", name).returncode == 0
        listed = gin(home, live_service, "following")
        as_json = json.loads(gin(home, live_service, "following", "--json").stdout)
    finally:
        stream.close()
    assert listed.returncode == 0, listed.stderr
    assert f"── {ann} follows · 2 of 3 online " in listed.stdout
    rows = listed.stdout.splitlines()
    assert re.fullmatch(r"  player +now +doing +next", rows[1])
    watch = f"gin watch {game.game_id}"
    assert {row.split()[0]: row for row in rows[2:5]} == {
        bob: f"  {bob:<20} online   playing  {watch}",
        cy: f"  {cy:<20} online   free     gin challenge {cy}",
        dee: f"  {dee:<20} offline",
    }
    assert by_name(as_json) == {
        bob: {"name": bob, "bot": False, "online": True, "playing": [game.game_id]},
        cy: {"name": cy, "bot": False, "online": True, "playing": []},
        dee: {"name": dee, "bot": False, "online": False, "playing": []},
    }

    # The command shown runs as printed: Ann watches Bob's game.
    watching: GinProcess = run_gin(*shlex.split(watch)[1:], home=home)
    watching.wait_for(rf"Watching game {game.game_id}: {bob} vs simple")
    watching.interrupt()
    assert watching.wait() == EXIT_INTERRUPTED

    profile = gin(home, live_service, "profile", bob)
    assert profile.returncode == 0 and "\nFollowers: 1\n" in profile.stdout
    gone = gin(home, live_service, "unfollow", dee)
    assert gone.returncode == 0 and gone.stdout == f"You no longer follow {dee}.\n"
    assert set(by_name(json.loads(gin(home, live_service, "following", "--json").stdout))) == {bob, cy}
    no_traceback(listed.stderr, watching.errors)


def by_name(listing: dict[str, list[dict[str, object]]]) -> dict[object, dict[str, object]]:
    return {player["name"]: player for player in listing["players"]}


def test_a_blocked_players_challenge_is_declined_and_the_blocker_never_hears_of_it(
    live_service: str, tmp_path: Path
) -> None:
    homes, names = people(tmp_path, live_service)
    ann, bob = names["ann"], names["bob"]
    blocked = gin(homes["ann"], live_service, "block", bob.upper())
    assert blocked.returncode == 0, blocked.stderr
    assert blocked.stdout == (
        f"You block {bob} now: their challenges to you are declined, and they are never told.\n"
    )
    listed = gin(homes["ann"], live_service, "blocking")
    assert listed.returncode == 0 and f"── {ann} blocks · only you see this " in listed.stdout
    assert listed.stdout.splitlines()[1:3] == ["  player", f"  {bob}"]

    # Bob's challenge is declined at once, as any may be; Ann has nothing to answer.
    challenged = gin(homes["bob"], live_service, "challenge", ann)
    assert challenged.returncode == EXIT_NOT_ACCEPTED, challenged.stderr
    assert f"gin: {ann} declined your challenge.\n" in challenged.stderr
    assert "block" not in challenged.stdout + challenged.stderr
    assert json.loads(gin(homes["ann"], live_service, "challenges", "--json").stdout)["in"] == []
    # Ann may not challenge whom she blocks: told how to undo it.
    refused = gin(homes["ann"], live_service, "challenge", bob)
    assert refused.returncode == EXIT_REFUSED
    assert refused.stderr == (
        f"gin: you block {bob}: unblock them to challenge them.\n"
        "gin: gin blocking lists the players you block; gin unblock NAME\n"
    )

    unblocked = gin(homes["ann"], live_service, "unblock", bob, "--json")
    assert json.loads(unblocked.stdout) == {"player": bob, "blocking": False}
    empty = gin(homes["ann"], live_service, "blocking")
    assert "  nobody: gin block NAME declines a player's challenges" in empty.stdout

    # Refusals: no login here; nobody of that name.
    anonymous = gin(tmp_path / "nobody", live_service, "follow", bob)
    assert (
        anonymous.returncode == EXIT_USAGE and "gin follow is for players: gin login NAME" in anonymous.stderr
    )
    nobody = gin(homes["ann"], live_service, "follow", unique("nobody"))
    assert nobody.returncode == EXIT_REFUSED and "there is no player" in nobody.stderr
    no_traceback(challenged.stderr, refused.stderr, anonymous.stderr, nobody.stderr)


def test_the_screens_docstring_examples_run() -> None:
    result = doctest.testmod(relations)
    assert result.failed == 0 and result.attempted >= 4
