"""``gin-bot`` at the table chat: the README's ``on_chat`` is called with the line the other seat says and
its answer reaches that seat; ``--greet`` says good luck at the start and good game at the end; a greeting
that is no phrase is refused before any game."""

from __future__ import annotations

import re
from pathlib import Path

from ginrummy_client import ChatLine, Client, Game, StaleVersion

from .conftest import CLIENTS, BotProcess, gin_bot

README = CLIENTS / "bot" / "README.md"
WAIT = 20.0
"""Seconds a long poll waits for the bot's line (a guard against a hang, not a timed assertion)."""


def readme_chat_bot(folder: Path) -> None:
    """The README's ``chat_bot.py``, saved in ``folder`` as printed."""
    section = README.read_text(encoding="utf-8").split("## The table chat")[1]
    example = re.search(r"<!-- file: chat_bot.py -->\n```python\n(.*?)```", section, re.S)
    assert example is not None
    (folder / "chat_bot.py").write_text(example.group(1))


def bot_said(game: Game, preset: str) -> ChatLine:
    """The bot's (seat 0's) line saying ``preset``, once said: long polls until it comes."""
    after = 0
    while True:
        page = game.chat(after, wait=WAIT)
        assert page["lines"], f"the bot never said {preset}"
        for line in page["lines"]:
            if line["seat"] == 0 and line["preset"] == preset:
                return line
        after = page["last"]


def test_on_chat_hears_the_other_seat_and_its_answer_reaches_it(live_service: str, tmp_path: Path) -> None:
    readme_chat_bot(tmp_path)
    bot = f"{CLIENTS / 'examples' / 'python_bot.py'}:choose"
    chatting = ["--on-chat", "chat_bot.py:on_chat", "--greet"]
    host = BotProcess(["run", bot, "--host", "--name", "Host", *chatting], server=live_service, cwd=tmp_path)
    code = host.wait_for(r"^(\S+:\S+)$", on="out")[1]
    with Client(live_service) as client:
        guest = client.games.join(code, name="Guest")
        assert bot_said(guest, "good_luck")["text"] == "Good luck!"  # --greet, at the start
        hello = guest.say(preset="hello")
        answer = bot_said(guest, "hello")  # the README's on_chat answers a hello with a hello
        assert answer["n"] > hello["n"] and answer["author"] == "Host"
        for _ in range(5):  # the bot may move meanwhile: resign on top of the game as it is
            try:
                guest.refresh()
                guest.resign()
                break
            except StaleVersion:
                continue
        assert bot_said(guest, "good_game")["text"] == "Good game!"  # --greet, at the end
    ran = host.finish()
    assert ran.status == 0, ran.err
    assert f"game {guest.game_id}: Guest says Hello!" in ran.err
    assert f"game {guest.game_id}: said Hello!" in ran.err
    assert "WARNING" not in ran.err
    # The bot's own lines are not handed to it: it answered the guest's hello once, and nothing else.
    lines = [(line["seat"], line["preset"]) for line in guest.chat()["lines"]]
    assert lines == [(0, "good_luck"), (1, "hello"), (0, "hello"), (0, "good_game")]


def test_a_greeting_that_is_no_phrase_is_refused_before_any_game(live_service: str) -> None:
    ran = gin_bot(["run", "examples/python_bot.py:choose", "--greet", "hi,gloat"], server=live_service)
    assert ran.status == 2 and "--greet takes preset phrases" in ran.err and "hi, gloat" in ran.err
