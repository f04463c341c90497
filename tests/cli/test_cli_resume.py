"""`gin resume` after the client was killed, and the owner-only file that makes it possible."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from .conftest import GinProcess, play_to_end, scripted_reply


def test_resume_after_the_client_was_killed(run_gin, config_home: Path) -> None:
    gin: GinProcess = run_gin("play", "--seed", "9")
    for _ in range(4):
        assert gin.wait_prompt() is not None
        gin.send(scripted_reply(gin.output))
    assert gin.wait_prompt() is not None
    gin.kill()  # SIGKILL: no chance to clean up

    directory = config_home / "gin"
    saved = directory / "games.json"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    (game_id,) = json.loads(saved.read_text())["games"]

    again: GinProcess = run_gin("resume")
    first = again.wait_prompt() or ""
    assert f"Resuming game {game_id}" in first and "Your hand:" in first
    assert play_to_end(again) == 0, again.errors
    assert "Game 1 over" in again.output
    assert json.loads(saved.read_text())["games"] == {}


def test_resume_by_id_and_nothing_to_resume(run_gin, config_home: Path) -> None:
    nothing: GinProcess = run_gin("resume")
    assert nothing.wait() == 6
    assert "no saved unfinished game" in nothing.errors

    gin: GinProcess = run_gin("play", "--seed", "4")
    assert gin.wait_prompt() is not None
    gin.close_input()  # end of input: leave, keep the game
    assert gin.wait() == 5
    (game_id,) = json.loads((config_home / "gin" / "games.json").read_text())["games"]

    listed: GinProcess = run_gin("resume", "--list", "--json")
    assert listed.wait() == 0
    assert [g["game_id"] for g in json.loads(listed.output)] == [game_id]

    unknown: GinProcess = run_gin("resume", "no-such-game")
    assert unknown.wait() == 6

    back: GinProcess = run_gin("resume", game_id)
    assert "Your hand:" in (back.wait_prompt() or "")
    back.send("quit")
    assert back.wait() == 5


def test_a_stale_screen_is_refreshed_not_replayed(run_gin, config_home: Path) -> None:
    """Two terminals on one seat: the second answer is based on an old view, so the service says 412."""
    first: GinProcess = run_gin("play", "--seed", "6")
    assert first.wait_prompt() is not None
    second: GinProcess = run_gin("resume")
    assert second.wait_prompt() is not None
    move = scripted_reply(first.output)
    first.send(move)
    assert first.wait_prompt() is not None
    second.send(move)
    refreshed = second.wait_prompt() or ""
    assert "The game moved on meanwhile; here it is again." in refreshed
    assert "Your hand:" in refreshed  # shown again, from a fresh view
    for gin in (first, second):
        gin.send("quit")
        assert gin.wait() == 5


def test_the_recap_of_a_resumed_game_tells_your_own_moves(run_gin) -> None:
    """Coming back to a game retells the last moves of the hand, the player's own discard among them."""
    gin: GinProcess = run_gin("play", "--seed", "9")
    discarded = None
    while discarded is None:
        assert gin.wait_prompt() is not None
        reply = scripted_reply(gin.output)
        gin.send(reply)
        if reply.startswith("discard "):
            discarded = reply.split()[1]
    assert gin.wait_prompt() is not None  # the bot has answered
    gin.send("quit")
    assert gin.wait() == 5

    again: GinProcess = run_gin("resume")
    recap = again.wait_prompt() or ""
    assert f"You discarded {discarded}." in recap, recap
    assert recap.index(f"You discarded {discarded}.") < recap.index("Your hand:")
    again.send("quit")
    assert again.wait() == 5
