"""The table chat on a terminal: a line typed at the game prompt reaches the opponent (read through the
API), the opponent's lines show up as they come with the prompt drawn again below them, ``/mute``, and
``gin chat`` and ``gin say`` on a game by its id; and, without a service, how a line arriving from another
thread keeps the prompt or a ticking clock whole, and what a refusal says."""

from __future__ import annotations

import io
import json
from pathlib import Path

from gin_cli.chat import line_parts
from gin_cli.screen import Screen
from gin_cli.words import refusal
from ginrummy_client import Client

from tests.finished import unique

from .conftest import GinProcess, gin_env, run_once, signup


def test_lines_typed_at_the_prompt_reach_the_opponent_and_theirs_show_up(
    run_gin, config_home: Path, live_service: str, tmp_path: Path
) -> None:
    ann = unique("Ann")
    signup(config_home, live_service, ann)  # free text is an account's
    gin: GinProcess = run_gin("host")
    code = gin.wait_for(r"gin join (\S+)").group(1)
    with Client(live_service) as client:
        bob = client.games.join(code, name="Bob")  # no account: Bob says phrases only
        bob.say(preset="good_luck")
        gin.wait_for(r"\nBob says: Good luck!\n")
        if bob.refresh() and bob.your_move:
            bob.pass_()  # the upcard goes to Ann: her prompt
        gin.wait_prompt()

        gin.send("say Good luck to you too, Bob")
        assert "You said: Good luck to you too, Bob\n" in (gin.wait_prompt() or "")
        gin.send("/GG")
        assert "You said: Good game!\n" in (gin.wait_prompt() or "")
        page = bob.chat(after=1)
        assert [(line["author"], line["text"], line["preset"]) for line in page["lines"]] == [
            (ann, "Good luck to you too, Bob", None),
            (ann, "Good game!", "good_game"),
        ]

        # Bob's line arrives while Ann's prompt waits: it is shown, and the prompt again below it.
        bob.say(preset="wow")
        gin.wait_for(r"> \nBob says: 😮\n> $")
        gin.wait_prompt()
        gin.send("/mute")
        assert "You no longer read Bob's lines in this game" in (gin.wait_prompt() or "")
        assert bob.chat(after=3)["lines"][0]["text"] == "😮" and not bob.chat()["muted"]
        gin.send("/nope")
        assert "There is no phrase /nope" in (gin.wait_prompt() or "")
        gin.send("quit")
        assert gin.wait() == 5, gin.errors
    game_id = bob.game_id

    # gin chat: the lines Ann reads (her seat saved here); gin say speaks in her seat's room.
    env = gin_env(config_home, live_service)
    said = run_once(["say", game_id, "/ty"], env)
    assert said.returncode == 0 and said.stdout == "You said: Thanks!\n", said.stderr
    read = run_once(["chat", game_id], env)
    assert read.returncode == 0, read.stderr
    assert "Chat of game" in read.stdout and "the players' room" in read.stdout
    assert "Bob: " not in read.stdout and "You muted the other player" in read.stdout
    assert f"{ann}: Good luck to you too, Bob" in read.stdout and f"{ann}: Thanks!" in read.stdout
    # Anyone else reads the spectators' room, and says nothing without a login.
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    outside = run_once(["chat", game_id, "--json"], gin_env(stranger, live_service))
    assert json.loads(outside.stdout)["rooms"] == ["spectator"] and json.loads(outside.stdout)["lines"] == []
    refused = run_once(["say", game_id, "hi"], gin_env(stranger, live_service))
    assert refused.returncode == 2 and "gin login NAME first" in refused.stderr


def test_a_line_from_another_thread_keeps_the_ticking_clock_whole() -> None:
    out = io.StringIO()
    screen = Screen(color=False, out=out, live=True)
    with screen.ticking(lambda: "Bob 0:42"):  # a control character (never from the service): escaped
        screen.interject(*line_parts({"author": "Bob", "room": "player", "text": "\x1b[31mhi"}))
    assert out.getvalue() == "Bob 0:42\r\x1b[2KBob says: \\x1b[31mhi\nBob 0:42\n"


def test_a_refused_line_is_said_in_the_players_words() -> None:
    said = refusal("chat_presets_only", "players without an account say preset phrases only")
    assert said == "Players without an account say preset phrases only: sign up to type."
