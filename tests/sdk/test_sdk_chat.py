"""The table chat through the SDK against the real service: two seats say preset phrases and read each
other, a seat without an account is refused free text, a table mute hides the other seat's lines; the
game's stream with ``chat=True`` yields chat lines typed apart from its events and resumes them after a
dropped connection without repeating one; a bot account reads the chat on its game's stream and answers in
free text; and the README's example runs as printed."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from ginrummy_client import ChatLine, Client, Event, Game
from ginrummy_client.errors import ChatForbidden, ChatPresetsOnly

from tests.finished import unique

from .conftest import Reader, wait_until
from .proxy import Proxy

README = Path(__file__).resolve().parents[2] / "clients" / "python" / "README.md"
PASSWORD = "a long enough password"


def table(client: Client) -> tuple[Game, Game]:
    """A game between two seats without an account: Ann hosts, Bob joins."""
    ann = client.games.create(human=True, name="Ann")
    assert ann.invitation_code is not None
    return ann, client.games.join(ann.invitation_code, name="Bob")


def said(lines: list[ChatLine]) -> list[tuple[str, str]]:
    return [(line["author"], line["text"]) for line in lines]


def test_two_seats_say_presets_read_each_other_and_mute(client: Client) -> None:
    ann, bob = table(client)
    presets = {preset["id"]: preset["text"] for preset in client.service.chat_presets()["presets"]}
    assert presets["good_luck"] == "Good luck!" and presets["good_game"] == "Good game!"

    line = ann.say(preset="good_luck")
    assert (line["n"], line["room"], line["seat"], line["preset"]) == (1, "player", 0, "good_luck")
    assert line["text"] == "Good luck!" and line["author"] == "Ann" and not line["bot"]
    with pytest.raises(ChatPresetsOnly):
        ann.say("hi Bob")  # free text is an account's
    with pytest.raises(ValueError):
        ann.say("hi", preset="hello")
    page = bob.chat()
    assert said(page["lines"]) == [("Ann", "Good luck!")]
    assert (page["last"], page["rooms"], page["muted"]) == (1, ["player"], False)

    # Bob mutes Ann at this table: her next line is said (and she reads it), Bob does not read it.
    assert bob.mute() == {"game_id": bob.game_id, "muted": True, "player": "Ann"}
    ann.say(preset="smile")
    bob.say(preset="thanks")
    assert said(bob.chat(after=1)["lines"]) == [("Bob", "Thanks!")] and bob.chat()["muted"]
    assert said(ann.chat(after=1)["lines"]) == [("Ann", "🙂"), ("Bob", "Thanks!")]
    assert bob.unmute()["muted"] is False
    assert said(bob.chat(after=1)["lines"]) == [("Ann", "🙂"), ("Bob", "Thanks!")]

    # Anyone watching reads the spectators' room only, and says nothing in the players'.
    watcher = client.games.get(ann.game_id)
    assert watcher.chat() == {"lines": [], "last": 0, "rooms": ["spectator"], "muted": False}
    with Client(client.server) as named:
        named.account.sign_up(unique("Cy"), PASSWORD)
        seen = Game(named, ann.game_id, token=named.token)  # watching: its view is the public one
        with pytest.raises(ChatForbidden):
            seen.say(preset="hello")
        assert seen.say("what a game", room="spectator")["seat"] is None
    assert said(watcher.chat()["lines"])[-1][1] == "what a game"


def test_the_stream_yields_chat_lines_and_resumes_them_once(
    live_service: str, client: Client, proxy: Proxy
) -> None:
    ann, bob = table(client)
    ann.say(preset="hello")  # line 1, said before the feed: after chat_after=0, it comes first
    with Client(proxy.url) as through_proxy:
        seen = through_proxy.games.get(bob.game_id, bob.token)
        reader: Reader[Event | ChatLine] = Reader(seen.events(after=bob.cursor, chat=True, wait=30))
        wait_until(lambda: len(reader.events) >= 1, "the first chat line")
        assert proxy.cut() >= 1  # Bob's feed reconnects: only the lines after line 1
        ann.say(preset="good_luck")
        wait_until(lambda: any(item.get("n") == 2 for item in reader.events), "the second chat line")
        ann.refresh(), bob.refresh()
        (bob if bob.your_move else ann).pass_()  # an event of the game, after the chat lines
        wait_until(lambda: any("id" in item for item in reader.events), "an event of the game")
        received = reader.stop()
    lines = [item for item in received if item["type"] == "chatLine"]
    assert [(line["n"], line["text"]) for line in lines] == [(1, "Hello!"), (2, "Good luck!")]
    assert all("id" not in line for line in lines) and reader.feed.chat_after == 2
    events = [item for item in received if item["type"] != "chatLine"]
    assert events and reader.feed.cursor == events[-1]["id"]  # chat lines leave the cursor alone
    streams = proxy.requests_to(f"GET /v1/games/{bob.game_id}/events")
    resumed = [parse_qs(urlsplit(head.line.split()[1]).query) for head in streams]
    assert resumed[0]["chat"] == ["true"] and resumed[0]["chat_after"] == ["0"]
    assert resumed[1]["chat_after"] == ["1"]


def test_a_bot_account_reads_and_writes_chat_through_the_sdk(live_service: str) -> None:
    with Client(live_service) as owner, Client(live_service) as person:
        bot_name = owner.account.sign_up(unique("Botty"), PASSWORD).name
        owner.account.become_bot()
        token = owner.account.create_token("engine", ["bot"])["token"]
        ann_name = person.account.sign_up(unique("Ann"), PASSWORD).name
        challenge = person.challenges.create(bot_name)
        with Client(live_service, token=token) as bot:
            game = bot.challenges.accept(challenge.id)
            mine = person.games.get(game.game_id)
            mine.say("hello bot, good luck")
            with game.events(chat=True, wait=10) as feed:
                heard = next(item for item in feed if item["type"] == "chatLine")
            assert (heard["author"], heard["text"], heard["seat"]) == (ann_name, "hello bot, good luck", 0)
            answer = game.say(f"thanks {heard['author']}, you too")
            assert answer["bot"] is True and answer["seat"] == 1
    assert said(mine.chat(after=heard["n"])["lines"]) == [(bot_name, f"thanks {ann_name}, you too")]


def test_the_readmes_example_runs_as_printed(live_service: str, capsys: pytest.CaptureFixture[str]) -> None:
    section = README.read_text().split("## Table chat")[1]
    example = re.search(r"```python\n(.*?)```", section, re.S)
    assert example is not None
    code = example.group(1).replace("http://127.0.0.1:8000", live_service)
    exec(compile(code, str(README), "exec"), {})
    assert capsys.readouterr().out.splitlines() == [
        "chat_presets_only",
        "[('Ann', 'Good luck!')]",
        "2 Bob Thanks!",
    ]
