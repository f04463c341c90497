"""`gin review` and `gin replay --review` — the real `gin` against the real service and the suite's bot
worker: a short match played out, then reviewed (asked for by gin, waited for, shown seat by seat and
move by move, the same as the API's review in `--json`), and stepped through with each verdict beside its
move; a game not in the archive; and, against a scripted service, a review that stays pending (`--wait`,
Ctrl-C at a terminal) or fails."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gin_cli.table import player_names
from ginrummy_client import Client, MatchExport, ReviewStatus

from tests.finished import archived, short_match
from tests.scripted import Answer, ScriptedService, review_answer, scripted_service

from .conftest import GIN, TerminalGin, gin_env, run_once

MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
MOVE_LINE = re.compile(r"^  (\?!|\?\?|\?| ) +Hand (\d+) · move (\d+) · (.*)\n        (.*)$", re.MULTILINE)
"""A move of `gin review`'s list: its mark, hand, move and words; then the review's word on it."""
REVIEW_BOUND = 330.0
"""Seconds a `gin review` that waits for the bot worker's review may take: the CLI's own bound (``--wait``,
300 s by default) and a little more — not a step's 30 s: on a loaded machine the suite's one bot worker
(one process, the master's turns of the other tests too) takes longer than that to review a match."""


def reviewed_by_the_worker(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``gin`` to completion where it waits for a review the bot worker computes."""
    return subprocess.run(
        [GIN, *args], capture_output=True, text=True, env=env, timeout=REVIEW_BOUND, check=False
    )


@pytest.fixture(scope="module")
def match(live_service: str) -> MatchExport:
    return short_match(live_service)


@pytest.fixture(scope="module")
def reviewed(live_service: str, match: MatchExport, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The first `gin review` of the match: gin asks for it and waits for the bot worker."""
    env = gin_env(tmp_path_factory.mktemp("review"), live_service)
    done = reviewed_by_the_worker(["review", match["game_id"]], env)
    assert done.returncode == 0, done.stderr
    assert "The master is reviewing the match… (" in done.stderr  # asked for, and waited for
    assert re.search(r"The master reviewed the match in \d+ s\.", done.stderr)
    assert "review_not_found" not in done.stderr + done.stdout
    return done.stdout


@pytest.fixture(scope="module")
def answer(live_service: str, reviewed: str, match: MatchExport) -> ReviewStatus:
    """The API's review of the match, once gin has had it computed."""
    with Client(live_service) as client:
        return client.reviews.get(match["game_id"])


def better(move: dict[str, Any]) -> str:
    """How the review's word on a marked move goes on: a knock where the better move is none says so."""
    knocked = move["played"]["type"] == "knock" and move["played"].get("discard")
    return "don't knock, better " if knocked and move["best"]["type"] != "knock" else "better "


def judged(answer: ReviewStatus) -> list[dict[str, Any]]:
    assert answer["review"] is not None
    return [dict(move) for move in answer["review"]["moves"]]


def test_gin_review_shows_both_seats_and_the_marked_moves_as_the_api_says(
    live_service: str, config_home: Path, match: MatchExport, reviewed: str, answer: ReviewStatus
) -> None:
    game_id, text = match["game_id"], reviewed
    names = player_names({"players": match["players"]})
    assert names == ["Ann", "simple (bot)"]
    assert answer["status"] == "done" and answer["review"] is not None
    assert f"── Review of game {game_id} " in text and "Ann vs simple (bot) · 2 hands" in text
    for seat in answer["review"]["seats"]:
        counts = f"{seat['decisions']} +{seat['inaccuracies']} +{seat['mistakes']} +{seat['blunders']}"
        row = rf"^  {re.escape(names[seat['seat']])} +{seat['accuracy']:.1f}% +{counts} +{seat['points_lost']:.1f}$"
        assert re.search(row, text, re.MULTILINE), row
    marked = [move for move in judged(answer) if move["verdict"]]
    assert marked, "the short match has no marked move: choose another seed"
    assert f"── Marked moves: {len(marked)} of {len(judged(answer))} judged " in text
    shown = MOVE_LINE.findall(text)
    assert [(mark, int(hand), int(step)) for mark, hand, step, _, _ in shown] == [
        (MARKS[move["verdict"]], move["hand"], move["index"] + 1) for move in marked
    ]
    for (_, _, _, played, said), move in zip(shown, marked, strict=True):
        assert played.startswith(names[move["seat"]] + " ")
        best = move["best"].get("card") or move["best"].get("discard") or ""
        assert re.fullmatch(
            rf"{move['verdict']}: {better(move)}.*{best}.* \({move['loss']:.1f} points given up\)", said
        )
        if better(move) != "better ":  # and why, in the review's words, under it
            assert f"{said}\n        Don't knock: " in text, text
    assert all(len(line) <= 80 for line in text.splitlines())

    env = gin_env(config_home, live_service)
    again = run_once(["review", game_id], env)  # kept: shown at once, nothing waited for
    assert again.returncode == 0 and again.stdout == text and again.stderr == ""
    every = run_once(["review", game_id, "--all"], env)
    listed = MOVE_LINE.findall(every.stdout)
    assert [(int(hand), int(step)) for _, hand, step, _, _ in listed] == [
        (move["hand"], move["index"] + 1) for move in judged(answer)
    ]
    assert all(said.startswith("good") for mark, *_, said in listed if mark == " ")
    as_json = run_once(["review", "--json", game_id], env)
    assert as_json.returncode == 0 and json.loads(as_json.stdout) == answer


def test_gin_replay_review_shows_each_verdict_beside_its_move(
    live_service: str, config_home: Path, match: MatchExport, answer: ReviewStatus
) -> None:
    env = gin_env(config_home, live_service)
    done = run_once(["replay", match["game_id"], "--review", "--no-interactive"], env)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    hands = re.split(r"^── Hand \d+ · ", done.stdout, flags=re.MULTILINE)[1:]
    assert len(hands) == len(match["hands"])
    for move in judged(answer):
        lines = hands[move["hand"] - 1].splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith(f"Move {move['index'] + 1} of "))
        note = lines[at + 1]
        if move["verdict"]:
            assert note.startswith(f"  {MARKS[move['verdict']]:<2} {move['verdict']}: {better(move)}"), note
        else:
            assert note.startswith("  good"), note
    as_json = run_once(["replay", "--json", "--review", match["game_id"]], env)
    assert json.loads(as_json.stdout) == {"export": match, "review": answer}


def test_gin_replay_review_at_a_terminal_goes_from_mark_to_mark(
    run_gin_at_terminal, match: MatchExport, answer: ReviewStatus
) -> None:
    marked = [move for move in judged(answer) if move["verdict"]]
    gin = run_gin_at_terminal("replay", match["game_id"], "--review")
    gin.wait_for(r"\[hand 1 of \d+\] n/Enter next .*\nm/M next/previous marked move")
    for move in marked[:2]:
        seen = len(gin.output)
        os.write(gin.master, b"m")
        mark = re.escape(MARKS[move["verdict"]])
        gin.wait_for(
            rf"Move {move['index'] + 1} of \d+: .*\n  {mark} +{move['verdict']}: {better(move)}", after=seen
        )
    os.write(gin.master, b"q")
    assert gin.wait() == 0


def test_gin_review_of_a_game_not_in_the_archive_says_so(live_service: str, config_home: Path) -> None:
    with Client(live_service) as client:
        in_play = client.games.create(bot="simple")
    env = gin_env(config_home, live_service)
    refused = run_once(["review", in_play.game_id], env)
    assert refused.returncode == 4 and refused.stdout == ""
    assert f"gin: the game '{in_play.game_id}' is not in the archive" in refused.stderr
    assert "review_not_found" not in refused.stderr
    as_json = run_once(["review", "--json", in_play.game_id], env)
    assert as_json.returncode == 4 and json.loads(as_json.stderr)["error"]["code"] == "not_archived"
    nothing = run_once(["review"], env)  # no game named, none finished here, no login
    assert nothing.returncode == 6 and "gin review GAME_ID" in nothing.stderr


def test_gin_review_of_a_match_without_a_decision_gives_no_accuracy(
    live_service: str, config_home: Path
) -> None:
    """Resigned before a card was played: no decision was judged, and gin says so rather than showing a
    perfect accuracy."""
    with Client(live_service) as client:
        # The player to move first (else the bot's first move would be a decision of the hand the
        # resignation cuts short, which the archive keeps): the seeds decide who deals.
        made = (client.games.create(bot="simple", seed=s) for s in range(1, 40))
        game = next(g for g in made if not g.refresh().get("history"))  # nobody has moved yet
        game.resign()
        archived(client, game.game_id)
    done = reviewed_by_the_worker(["review", game.game_id], gin_env(config_home, live_service))
    assert done.returncode == 0, done.stderr
    assert "0 decisions judged" in done.stdout, done.stdout
    assert "100.0%" not in done.stdout
    for name in ("Player 1", "simple (bot)"):
        row = next((line for line in done.stdout.splitlines() if line.startswith(f"  {name} ")), done.stdout)
        assert re.fullmatch(rf"  {re.escape(name)} +— +0 +0 +0 +0 +0\.0", row), row
        assert f"  {name} made no decision to judge: no accuracy." in done.stdout
    assert "No move was judged" in done.stdout


EXPORT = {"format": "ginrummy.match", "version": 1, "game_id": "gScripted", "players": [], "hands": []}


@pytest.fixture
def pending_forever() -> Iterator[ScriptedService]:
    """A service whose review of gScripted is being computed for ever (no bot worker runs)."""

    def answer(method: str, path: str) -> Answer:
        if path.endswith("/export"):
            return 200, {}, EXPORT
        return 202, {"Location": path}, review_answer("gScripted", "pending")

    with scripted_service(answer) as service:
        yield service


def test_gin_review_gives_up_after_wait_seconds(pending_forever: ScriptedService, config_home: Path) -> None:
    env = gin_env(config_home, pending_forever.url)
    pending = run_once(["review", "gScripted", "--wait", "1"], env)
    assert pending.returncode == 8 and pending.stdout == ""
    assert pending.stderr.startswith("The master is reviewing the match… (0 s) — Ctrl-C stops waiting\n")
    assert (
        "gin: no review after 1 s (is a bot worker running?): gin review gScripted shows it" in pending.stderr
    )
    at_once = run_once(["review", "gScripted", "--wait", "0", "--json"], env)
    assert at_once.returncode == 8 and json.loads(at_once.stdout) == review_answer("gScripted", "pending")


def test_ctrl_c_stops_waiting_for_a_review(pending_forever: ScriptedService, config_home: Path) -> None:
    gin = TerminalGin(["review", "gScripted"], gin_env(config_home, pending_forever.url))
    try:
        gin.wait_for(r"The master is reviewing the match… \(\d+ s\)")
        gin.proc.send_signal(signal.SIGINT)
        assert gin.wait() == 130
    finally:
        gin.kill()
    assert "stopped waiting: the review goes on in the service; gin review gScripted shows it" in gin.output


def test_a_review_the_service_could_not_make_is_asked_again_then_said(config_home: Path) -> None:
    def answer(method: str, path: str) -> Answer:
        if path.endswith("/export"):
            return 200, {}, EXPORT
        return (
            (202, {}, review_answer("gScripted", "pending"))
            if method == "POST"
            else (200, {}, review_answer("gScripted", "failed"))
        )

    with scripted_service(answer) as service:
        failed = run_once(["review", "gScripted"], gin_env(config_home, service.url))
        asked = [method for method, path in service.requests() if path.endswith("/review")]
    assert failed.returncode == 4 and asked == ["GET", "POST", "GET"]
    assert (
        "gin: the service's review of game gScripted failed: gin review gScripted asks again" in failed.stderr
    )
