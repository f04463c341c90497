"""Stories of ``gin-bot`` and the example bots playing whole matches against the real service (gunicorn
+ Redis): the Python example through the harness, the JavaScript example on its own, two harnesses at one
table, a bot that answers nonsense, and a network that drops connections and answers 503."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
from ginrummy_client import Client

from tests.sdk.proxy import Proxy

from .conftest import (
    CLIENTS,
    SHORT,
    TIMEOUT,
    BotProcess,
    assert_played_to_the_end,
    bot_command,
    bot_env,
    gin_bot,
    results,
    spectator_view,
    tallied,
)

PYTHON_BOT = "examples/python_bot.py:choose"


def test_the_python_example_plays_12_matches_4_at_a_time(live_service: str) -> None:
    ran = gin_bot(
        ["run", PYTHON_BOT, "--games", "12", "--concurrency", "4", "--bot", "simple", *SHORT],
        server=live_service,
    )
    assert ran.status == 0, ran.err
    played = ran.results()
    assert ran.summary() == tallied(played)
    assert_played_to_the_end(live_service, played, 12)
    assert "WARNING" not in ran.err  # the example's every answer was legal


def test_the_node_example_plays_10_matches_with_nothing_but_fetch(live_service: str) -> None:
    node = shutil.which("node")
    assert node, "the JavaScript example needs node (.ci/run installs Debian's nodejs)"
    done = subprocess.run(
        [node, "examples/node_bot.mjs", live_service, "10", "simple", "500", "target=1"],
        cwd=CLIENTS,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    played = results(done.stdout)
    assert_played_to_the_end(live_service, played, 10)
    won = sum(result.result == "won" for result in played)
    assert f"summary: games 10, won {won}, lost {10 - won}, aborted 0, errors 0" in done.stdout
    names = {player["name"] for player in spectator_view(live_service, played[0].game_id)["players"]}
    assert names == {"node-bot", "simple"}


def test_two_harnesses_play_each_other_host_and_join(live_service: str) -> None:
    host = BotProcess(["run", PYTHON_BOT, "--host", "--name", "Host", "-o", "target=25"], server=live_service)
    code = host.wait_for(r"^(\S+:\S+)$", on="out")[1]
    guest = gin_bot(["run", "examples/python_bot.py", "--join", code, "--name", "Guest"], server=live_service)
    hosted = host.finish()
    assert hosted.status == 0 and guest.status == 0, (hosted.err, guest.err)
    [mine], [theirs] = hosted.results(), guest.results()
    assert mine.game_id == theirs.game_id == code.split(":")[0]
    assert {mine.result, theirs.result} == {"won", "lost"}
    assert (mine.mine, mine.theirs, mine.hands) == (theirs.theirs, theirs.mine, theirs.hands)
    assert_played_to_the_end(live_service, [mine], 1)
    players = spectator_view(live_service, mine.game_id)["players"]
    assert [player["name"] for player in players] == ["Host", "Guest"]
    assert hosted.summary()["games"] == guest.summary()["games"] == 1


GARBAGE_BOT = """
import itertools

calls = itertools.count()


def choose(view):
    n = next(calls)
    if n % 3 == 0:
        return {"type": "discard", "card": "ZZ"}      # no such card
    if n % 3 == 1:
        raise RuntimeError("the bot's bug")
    return "knock!"                                    # not even an action
"""


def test_a_bot_that_answers_garbage_plays_legal_moves_and_finishes(live_service: str, tmp_path: Path) -> None:
    (tmp_path / "garbage_bot.py").write_text(GARBAGE_BOT)
    ran = gin_bot(["run", "garbage_bot:choose", "--games", "2", *SHORT], server=live_service, cwd=tmp_path)
    assert ran.status == 0, ran.err
    played = ran.results()
    assert_played_to_the_end(live_service, played, 2)
    warnings = [line for line in ran.err.splitlines() if " WARNING game " in line]
    assert ran.summary() == {**tallied(played), "bad_answers": len(warnings)}
    assert len(warnings) >= 6
    assert any(
        'answered {"type":"discard","card":"ZZ"}, which is not one of the legal actions' in w
        for w in warnings
    )
    assert any('answered "knock!", which is not one' in w for w in warnings)
    assert any("raised RuntimeError: the bot's bug; playing {" in w for w in warnings)
    # Where the bug is, once: the author's file and line, none of the harness's frames.
    assert ran.err.count("the bot's traceback:") == 1
    line = GARBAGE_BOT.splitlines().index('        raise RuntimeError("the bot\'s bug")') + 1
    assert f'garbage_bot.py", line {line}, in choose' in ran.err and "harness.py" not in ran.err


def test_dropped_connections_and_a_503_are_waited_out(live_service: str) -> None:
    proxy = Proxy(live_service)
    body = b'{"code": "store_unavailable", "status": 503, "title": "Service unavailable", "detail": "down"}'
    proxy.answer(
        "POST /v1/games/",  # the first move: refused before the service sees it, without Retry-After
        b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\n"
        b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body),
    )
    running = BotProcess(
        ["run", PYTHON_BOT, "--games", "3", "--concurrency", "3", "-o", "target=25"], server=proxy.url
    )
    cut: list[int] = []

    def cut_now_and_then() -> None:
        # Once the 503 has been answered (a cut then would break it instead): every 0.1 s, ten times.
        while not proxy.requests_to("POST /v1/games/") and running.proc.poll() is None:
            time.sleep(0.01)
        time.sleep(0.1)
        while running.proc.poll() is None and len(cut) < 10:
            cut.append(proxy.cut())
            time.sleep(0.1)

    cutter = threading.Thread(target=cut_now_and_then, daemon=True)
    cutter.start()
    try:
        ran = running.finish()
    finally:
        cutter.join()
        proxy.close()
    assert ran.status == 0, ran.err
    played = ran.results()
    assert ran.summary() == tallied(played)
    assert_played_to_the_end(live_service, played, 3)
    assert "down (store_unavailable, HTTP 503); trying again in 0.5 s" in ran.err
    assert sum(cut) >= 3 and "the connection broke" in ran.err


def test_two_harnesses_quick_match_each_other_in_the_lobby(live_service: str) -> None:
    # Rules of this test alone (a casual seek may carry options): nobody else's seek can pair with them.
    rules = ["-o", "target=1", "-o", "game_bonus=77"]
    first = BotProcess(
        ["run", PYTHON_BOT, "--seek", "--games", "2", "--name", f"Seeker{os.getpid()}a", *rules],
        server=live_service,
    )
    second = gin_bot(
        ["run", PYTHON_BOT, "--seek", "--games", "2", "--name", f"Seeker{os.getpid()}b", *rules],
        server=live_service,
    )
    done = first.finish()
    assert done.status == 0 and second.status == 0, (done.err, second.err)
    mine, theirs = done.results(), second.results()
    assert sorted(r.game_id for r in mine) == sorted(r.game_id for r in theirs) and len(mine) == 2
    for game_id in {r.game_id for r in mine}:
        ours = {r.result for r in mine + theirs if r.game_id == game_id}
        assert ours == {"won", "lost"}
    assert_played_to_the_end(live_service, mine, 2)


def test_a_player_token_plays_house_bots_as_that_player_rated_or_not(live_service: str) -> None:
    name = f"RatedBot{os.getpid()}{int(time.time() * 1000) % 100000}"
    with Client(live_service) as client:
        token = client.players.create(name).token
    # Rated against a house bot: a preset as it is (the whole standard match), as the player.
    rated = gin_bot(
        ["run", PYTHON_BOT, "--bot", "simple", "--rated", "--player-token", token], server=live_service
    )
    assert rated.status == 0, rated.err
    [game] = rated.results()
    assert_played_to_the_end(live_service, [game], 1)
    # Casual, the token from the environment: the game counts for the player too.
    casual = subprocess.run(
        bot_command(["run", PYTHON_BOT, "--bot", "novice", *SHORT]),
        cwd=CLIENTS,
        env={**bot_env(live_service), "GIN_PLAYER_TOKEN": token},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert casual.returncode == 0, casual.stderr
    [other] = results(casual.stderr)
    assert token not in rated.out + rated.err + casual.stdout + casual.stderr

    with Client(live_service) as client:
        profile = client.players.get(name)
        seats = [p["name"] for p in spectator_view(live_service, game.game_id)["players"]]
    assert seats[0] == name
    assert profile["games"]["played"] == 2
    recent = {entry["game_id"]: entry for entry in profile["recent"]}
    assert recent[game.game_id]["rated"] is True and recent[game.game_id]["opponent"] == "bot-simple"
    assert recent[other.game_id]["rated"] is False
    assert profile["ratings"]["standard"]["games"] == 1


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (
            ["--bot", "simple", "--rated"],
            "a rated game is played by a player: give its token with --player-token",
        ),
        (["--host", "--rated"], "a rated game is played by a player"),
        (["--join", "g1:secret", "--rated"], "the host chose whether it is rated"),
    ],
)
def test_only_what_the_service_refuses_is_refused(argv: list[str], says: str) -> None:
    ran = gin_bot(["run", PYTHON_BOT, "--server", "http://127.0.0.1:9", *argv], server=None)
    assert ran.status == 2 and says in ran.err, ran.err
    assert ran.out == "" and "secret" not in ran.err
