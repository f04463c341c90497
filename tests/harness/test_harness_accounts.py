"""``gin-bot`` as a bot account, against the real service (gunicorn) with the DEFAULT rate limits on: two
bot accounts set up as the README tells a new user (sign up, become a bot, an API token with scope bot)
play 20 challenges at once, one of them killed (SIGKILL) in the middle of a game and started again; the
filter declining challenges with their reasons and an abandoned game claimed; ``--strict``."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ginrummy_client import Client

from tests.fixtures.live_service import start_service, stop_gunicorn

from .conftest import BotProcess, Ran, gin_bot, spectator_view

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PASSWORD = "a long enough password"
QUICK = ["-o", "target=1", "-o", "knock_limit=30"]  # one scoring hand; a knock comes after a few draws
GAMES = 20
TIMEOUT = 240.0
"""Seconds the 20 games may take before the run is called stuck (a guard, not a timed assertion)."""

ACCOUNT_BOT = '''
"""The test's bot: knocks when it may, else throws its highest deadwood card. With FREEZE_AFTER set it
hangs at that decision (and every later one), writing the game's id to FREEZE_MARK: a process to kill."""
import os
import threading
import time

FREEZE_AFTER = int(os.environ.get("FREEZE_AFTER") or 0)
calls = 0
lock = threading.Lock()
VALUE = {**{rank: n for n, rank in enumerate("A23456789", 1)}, "T": 10, "J": 10, "Q": 10, "K": 10}


def choose(view):
    global calls
    if FREEZE_AFTER:
        with lock:
            calls += 1
            if calls == FREEZE_AFTER:
                with open(os.environ["FREEZE_MARK"], "w") as mark:
                    mark.write(view["game_id"])
        if calls >= FREEZE_AFTER:
            time.sleep(3600)
    legal = view["legal_actions"]
    for kind in ("deal", "layoff", "knock"):
        for action in legal:
            if action["type"] == kind:
                return action
    draws = [a for a in legal if a["type"] in ("draw", "pass")]
    if draws:
        return next((a for a in draws if a.get("source") == "stock"), None) or next(
            (a for a in draws if a["type"] == "pass"), draws[0]
        )
    discards = [a for a in legal if a["type"] == "discard"]
    deadwood = set(view["hand"]["deadwood_cards"])
    return max(discards, key=lambda a: (a["card"] in deadwood, VALUE[a["card"][0]]))
'''


def readme_setup(server: str, name: str, folder: Path) -> Path:
    """Run the README's bot-account steps (the first ``sh`` block of its bot walk-through) as a new user
    would, for the bot ``name``: the token file it leaves."""
    text = README.read_text(encoding="utf-8")
    section = text.split("### A bot account", 1)[1].split("\n## ", 1)[0]
    script = re.findall(r"```sh\n(.*?)```", section, re.S)[0]
    script = script.replace("B=http://127.0.0.1:8000", f"B={server}").replace("NAME=MyBot", f"NAME={name}")
    done = subprocess.run(
        ["bash", "-c", "set -eu -o pipefail\n" + script],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    token_file = folder / "mybot.token"
    assert token_file.read_text().startswith("gin_p_"), done.stdout
    assert f'{{"name":"{name}","bot":true}}' in done.stdout, done.stdout
    return token_file


def results(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def wait_for(check: Any, what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def serving(folder: Path, redis_url: str, workers: int = 2, **settings: str) -> Iterator[str]:
    """A real gunicorn with these ``GIN_…`` settings and the rate limits on, for a module's tests."""
    process, base = start_service(
        redis_url, folder, workers=workers, extra_env={"GIN_RATE_LIMITS": "1", **settings}
    )
    try:
        yield base
    finally:
        stop_gunicorn(process)


@pytest.fixture(scope="module")
def limited_service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service as deployed: the default rate limits on (the suite turns them off elsewhere)."""
    yield from serving(tmp_path_factory.mktemp("limited"), redis_url)


def bot_folder(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "account_bot.py").write_text(ACCOUNT_BOT)
    return folder


def test_two_bot_accounts_play_20_challenges_through_a_kill_and_a_restart(
    limited_service: str, tmp_path: Path
) -> None:
    server = limited_service
    tag = uuid.uuid4().hex[:6]
    host_name, guest_name = f"Acceptor{tag}", f"Challenger{tag}"
    host_dir, guest_dir = bot_folder(tmp_path, "acceptor"), bot_folder(tmp_path, "challenger")
    host_token, guest_token = (
        readme_setup(server, host_name, host_dir),
        readme_setup(server, guest_name, guest_dir),
    )
    host_results, guest_results = host_dir / "games.jsonl", guest_dir / "games.jsonl"
    mark = host_dir / "frozen"
    accept = [
        "run",
        "account_bot.py:choose",
        "--account",
        "--token-file",
        str(host_token),
        "--max-games",
        "4",
    ]
    accept += ["--results", str(host_results)]

    first = BotProcess(
        accept, server=server, cwd=host_dir, env={"FREEZE_AFTER": "40", "FREEZE_MARK": str(mark)}
    )
    first.wait_for(r"playing as the bot account " + host_name)
    challenger = BotProcess(
        ["run", "account_bot.py:choose", "--challenge", host_name, "--games", str(GAMES), "--max-games", "4"]
        + ["--token-file", str(guest_token), "--results", str(guest_results), *QUICK],
        server=server,
        cwd=guest_dir,
    )
    try:
        wait_for(mark.exists, "the acceptor to freeze in the middle of a game")
        frozen_game = mark.read_text()
        time.sleep(0.5)  # its other games reach a move of its own (or their end) meanwhile
        first.proc.send_signal(signal.SIGKILL)
        killed = first.finish()
        assert killed.status == -signal.SIGKILL
        before = {record["game_id"] for record in results(host_results)}
        in_hand = set(json.loads((host_dir / "games.jsonl.playing").read_text()))
        assert frozen_game in in_hand and len(in_hand) >= 2 and not in_hand & before, (in_hand, before)
        # While it is down, the challenger resigns the game it froze in: that game ends with no one of
        # the acceptor's there to see it, and no stream will tell of it again.
        with Client(server, token=guest_token.read_text().strip()) as guest:
            guest.games.get(frozen_game).resign()

        again = BotProcess(accept, server=server, cwd=host_dir)
        played = challenger.finish(TIMEOUT)
        wait_for(lambda: len(results(host_results)) >= GAMES, "the acceptor's 20 results", 120)
        again.proc.send_signal(signal.SIGINT)
        resumed = again.finish()
    finally:
        for process in (challenger, first):
            if process.proc.poll() is None:
                process.proc.kill()

    # The challenger: 20 challenges sent, 20 accepted, 20 games played to their end.
    assert played.status == 0, played.err[-3000:]
    summary = played.summary()
    assert summary["games"] == summary["won"] + summary["lost"] == GAMES, summary
    assert summary["aborted"] == summary["errors"] == summary["unfinished"] == summary["bad_answers"] == 0
    assert (
        f"challenges: received 0, accepted 0, declined 0; sent {GAMES}, accepted {GAMES}, refused 0"
        in played.out
    )
    # The acceptor, started again, found its games in play and played them on; it wrote each game once.
    assert resumed.status == 130, resumed.err[-3000:]
    mine, theirs = results(host_results), results(guest_results)
    assert len(mine) == len(theirs) == GAMES
    assert {r["game_id"] for r in mine} == {r["game_id"] for r in theirs} and len(
        {r["game_id"] for r in mine}
    ) == GAMES
    # The games it had in hand when killed: played on (found again on the stream), or, the one resigned
    # meanwhile, written down all the same.
    assert in_hand <= {r["game_id"] for r in mine} - before
    by_id = {r["game_id"]: r for r in theirs}
    for record in mine:
        other = by_id[record["game_id"]]
        assert {record["result"], other["result"]} == {"won", "lost"}, (record, other)
        assert record["points"] == other["points"][::-1] and record["hands"] == other["hands"]
        assert record["opponent"] == guest_name and other["opponent"] == host_name
        assert record["seat"] == 1 and other["seat"] == 0 and not record["rated"]
        resigned = record["game_id"] == frozen_game
        assert record["end_reason"] == other["end_reason"] == ("resigned" if resigned else "finished")
        assert record["result"] == "won" if resigned else record["hands"] >= 1
        assert other["decision_ms"]["max"] >= other["decision_ms"]["p99"] >= other["decision_ms"]["p50"] >= 0
    assert sum(r["decisions"] for r in theirs) >= GAMES and sum(r["decisions"] for r in mine) >= GAMES
    for game_id in in_hand:
        view = spectator_view(server, game_id)
        assert view["phase"] == "match_over" and view.get("end_reason") in (None, "resigned")
    assert not json.loads((host_dir / "games.jsonl.playing").read_text())  # nothing left in hand
    # Started again, it found its games in play on its account stream (gameStart), and the ones that ended
    # meanwhile — the one resigned, and any the challenger's move ended while it was down — in what it had
    # in hand.
    assert f"game {frozen_game}: in hand when the last run stopped" in resumed.err
    for game_id in in_hand - {frozen_game}:
        assert (
            f"game {game_id}: in play, against {guest_name}" in resumed.err
            or f"game {game_id}: in hand when the last run stopped" in resumed.err
        ), resumed.err[-3000:]
    # None stranded: neither account has a game in play; nothing was refused on a rate limit.
    for token in (host_token, guest_token):
        with Client(server, token=token.read_text().strip()) as account:
            assert account.account.games() == []
    for ran in (killed, played, resumed):
        assert "rate_limited" not in ran.err and "HTTP 429" not in ran.err
        assert "Traceback" not in ran.err and " ERROR " not in ran.err


def test_rated_games_against_house_bots_with_the_accounts_token(limited_service: str, tmp_path: Path) -> None:
    name = "Rated" + uuid.uuid4().hex[:6]
    folder = bot_folder(tmp_path, "rated")
    token_file = readme_setup(limited_service, name, folder)
    token = token_file.read_text().strip()
    # A challenge to a house bot (accepted at once), and a game made against one with the token as the
    # player's: both rated, both the account's, both with their rating change in the results.
    challenged = gin_bot(
        [
            "run",
            "account_bot.py:choose",
            "--challenge",
            "bot-random",
            "--rated",
            "--token-file",
            str(token_file),
        ]
        + ["--results", "games.jsonl"],
        server=limited_service,
        cwd=folder,
    )
    assert challenged.status == 0, challenged.err
    made = gin_bot(
        ["run", "account_bot.py:choose", "--bot", "random", "--rated", "--results", "games.jsonl"],
        server=limited_service,
        cwd=folder,
        env={"GIN_PLAYER_TOKEN": token},
    )
    assert made.status == 0, made.err
    first, second = results(folder / "games.jsonl")
    for record in (first, second):
        assert record["rated"] and record["opponent"] == "bot-random" and record["seat"] == 0
        assert record["rating"]["family"] == "standard" and record["rating"]["after"], record
    assert first["rating"]["before"] is None and second["rating"]["before"] == first["rating"]["after"]
    assert second["rating"]["change"] == second["rating"]["after"] - second["rating"]["before"]
    with Client(limited_service) as anyone:
        profile = anyone.players.get(name)
    assert profile["games"]["played"] == 2 and profile["ratings"]["standard"]["games"] == 2
    for ran in (challenged, made):
        assert token not in ran.out + ran.err


@pytest.fixture(scope="module")
def impatient_service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service with a player who sits on its move claimable after one second."""
    yield from serving(tmp_path_factory.mktemp("impatient"), redis_url, workers=1, GIN_ABANDON_AFTER="1")


def test_the_filter_declines_with_reasons_and_an_abandoned_game_is_claimed(
    impatient_service: str, tmp_path: Path
) -> None:
    server = impatient_service
    name, person_name = "Filter" + uuid.uuid4().hex[:6], "Person" + uuid.uuid4().hex[:6]
    folder = bot_folder(tmp_path, "filter")
    token = readme_setup(server, name, folder)
    running = BotProcess(
        [
            "run",
            "account_bot.py:choose",
            "--account",
            "--token-file",
            str(token),
            "--accept-family",
            "oklahoma",
        ]
        + ["--accept-casual", "--accept-clock-min", "100", "--results", "games.jsonl"],
        server=server,
        cwd=folder,
    )
    try:
        running.wait_for(r"playing as the bot account " + name)
        with Client(server) as person:
            person.account.sign_up(person_name, PASSWORD)
            refusals = {
                "rules": person.challenges.create(name, rules="standard"),
                "casual": person.challenges.create(name, rules="oklahoma", rated=True),
                "too_fast": person.challenges.create(name, rules="oklahoma", clock="eaai"),
            }
            taken = person.challenges.create(name, rules="oklahoma")  # no clock: as slow as can be
            for reason, sent in refusals.items():
                wait_for(lambda sent=sent: person.challenges.get(sent.id)["status"] != "open", reason, 30)
                status = person.challenges.get(sent.id)
                assert (status["status"], status["decline_reason"]) == ("declined", reason)
            wait_for(lambda: person.challenges.get(taken.id)["status"] == "accepted", "the accept", 30)
            game_id = person.challenges.get(taken.id)["game_id"]
            assert game_id
            # The person walks away: gin-bot claims the game once the service allows it.
            running.wait_for(rf"game {game_id}: won", timeout=60)
            assert person.games.get(game_id).view.get("end_reason") == "abandoned"
        running.proc.send_signal(signal.SIGINT)
        ran = running.finish()
    finally:
        if running.proc.poll() is None:
            running.proc.kill()
    assert ran.status == 130, ran.err
    assert "challenges: received 4, accepted 1, declined 3" in ran.out
    [record] = results(folder / "games.jsonl")
    assert record["game_id"] == game_id and record["result"] == "won"
    assert record["end_reason"] == "abandoned" and record["opponent"] == person_name


STRICT_BOT = """
def choose(view):
    return {"type": "discard", "card": "ZZ"}   # never a legal action
"""


def test_strict_fails_the_run_on_an_illegal_answer(live_service: str, tmp_path: Path) -> None:
    (tmp_path / "sloppy_bot.py").write_text(STRICT_BOT)
    lenient = gin_bot(["run", "sloppy_bot:choose", "-o", "target=1"], server=live_service, cwd=tmp_path)
    assert lenient.status == 0 and lenient.summary()["bad_answers"] >= 1, lenient.err
    strict = gin_bot(
        ["run", "sloppy_bot:choose", "--games", "3", "--strict", "--results", "r.jsonl", "-o", "target=1"],
        server=live_service,
        cwd=tmp_path,
    )
    assert strict.status == 4, strict.err
    assert (
        'the bot answered {"type":"discard","card":"ZZ"}, which is not one of the legal actions' in strict.err
    )
    assert "gin-bot: --strict: " in strict.err
    summary = strict.summary()
    assert summary["bad_answers"] == 1 and summary["games"] == 1 and summary["unfinished"] == 1
    assert not (tmp_path / "r.jsonl").read_text()


@pytest.mark.parametrize(
    ("argv", "env", "says"),
    [
        (["--account"], {}, "put it in GIN_TOKEN or in a file named by --token-file"),
        (["--account", "--player-token", "p"], {"GIN_TOKEN": "t"}, "not as --player-token"),
        (["--account", "--rated"], {"GIN_TOKEN": "t"}, "go with --challenge"),
        (["--accept-family", "standard"], {}, "add --account"),
        (["--challenge", "Ann", "--bot", "simple"], {"GIN_TOKEN": "t"}, "no --bot, --host, --join or --seek"),
        (["--challenge", "Ann", "--clock", "slowly"], {"GIN_TOKEN": "t"}, "a clock is a preset"),
        (["--bot", "simple", "--token-file", "x"], {}, "--token-file is the account's API token"),
        (["--account", "--token-file", "no/such/file"], {}, "cannot read the token file"),
    ],
)
def test_what_the_account_mode_would_ignore_is_refused(
    argv: list[str], env: dict[str, str], says: str
) -> None:
    ran: Ran = gin_bot(["run", "json:dumps", "--server", "http://127.0.0.1:9", *argv], server=None, env=env)
    assert ran.status == 2 and says in ran.err, ran.err
    assert ran.out == ""
