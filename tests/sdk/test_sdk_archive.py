"""Reading the past through the SDK against the real service: a player's games page after page (an
opaque cursor followed lazily), filtered; every game streamed as NDJSON, as many as the list holds; the
export of a played-out match; the rating history; and an NDJSON stream that ends in an error line."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from ginrummy_client import (
    ArchiveUnavailable,
    BadFilter,
    Client,
    ConnectionFailed,
    NotArchived,
    PlayerNotFound,
    ValidationError,
)

from tests.finished import History, archived, play_history, unique

README = Path(__file__).resolve().parents[2] / "clients" / "python" / "README.md"


@pytest.fixture(scope="module")
def history(live_service: str) -> History:
    """A player with five rated games resigned at once and then a quick casual match played out."""
    return play_history(live_service, resigned=5)


class Recorded:
    """The URLs of the GETs a client sent (a response hook on its session)."""

    def __init__(self, client: Client) -> None:
        self.urls: list[str] = []
        client.session.hooks["response"].append(self.seen)

    def seen(self, response: requests.Response, *args: Any, **kwargs: Any) -> None:
        self.urls.append(response.url)

    def queries(self) -> list[dict[str, list[str]]]:
        return [parse_qs(urlsplit(url).query) for url in self.urls]


def test_a_players_games_come_newest_first_page_by_page_only_as_they_are_read(
    client: Client, history: History
) -> None:
    sent = Recorded(client)
    games = client.archive.games(history.name, limit=2)
    assert sent.urls == []  # nothing is asked before the first game is
    first = next(games)
    assert first["game_id"] == history.played and len(sent.urls) == 1
    assert first["result"] in ("won", "lost") and first["rated"] is False and first["hands"] >= 1
    assert first["export"] == f"/v1/games/{history.played}/export"
    rest = list(games)
    assert [first["game_id"], *(g["game_id"] for g in rest)] == history.newest_first
    assert len(sent.urls) == 3  # six games, two a page
    # Each cursor sent is the `next` of the page before, as the service wrote it.
    raw = client.requestor.request("GET", f"/v1/players/{history.name}/games", params={"limit": 2}).data
    assert sent.queries()[1]["cursor"] == [raw["next"]] and "cursor" not in sent.queries()[0]
    resigned = rest[-1]
    assert (resigned["result"], resigned["end_reason"], resigned["rated"]) == ("lost", "resigned", True)
    assert resigned["rating"] is not None and resigned["rating"]["before"] is None
    # islice stops reading: one page for the first two.
    sent.urls.clear()
    assert len(list(itertools.islice(client.archive.games(history.name, limit=2), 2))) == 2
    assert len(sent.urls) == 1


def test_the_filters_are_the_services(client: Client, history: History) -> None:
    newest_first = history.newest_first
    resigned = newest_first[1:]
    now = dt.datetime.now(dt.UTC)

    def listed(**filters: Any) -> list[str]:
        return [game["game_id"] for game in client.archive.games(history.name, limit=3, **filters)]

    assert listed(rated=True) == resigned and listed(rated=False) == [history.played]
    assert listed(family="standard", rated=True) == resigned
    assert set(resigned) <= set(listed(result="lost"))
    assert listed(opponent="BOT-SIMPLE") == resigned  # a player's name, any case
    assert listed(since=now - dt.timedelta(hours=1)) == newest_first  # an aware datetime
    assert listed(since=(now - dt.timedelta(hours=1)).replace(tzinfo=None)) == newest_first  # naive: UTC
    assert listed(until=dt.date(2000, 1, 1)) == [] and listed(until="2000-01-01T00:00:00Z") == []
    assert listed(since=dt.date.today() - dt.timedelta(days=1), rated=True) == resigned
    with pytest.raises(BadFilter):
        listed(since=now, until=now - dt.timedelta(days=1))
    with pytest.raises(ValidationError):
        listed(result="maybe")
    with pytest.raises(TypeError):
        client.archive.games(history.name, colour="red")  # type: ignore[call-arg]
    with pytest.raises(PlayerNotFound):
        next(client.archive.games(unique("nobody")))


def test_the_ndjson_export_streams_every_listed_game_as_its_export_document(
    client: Client, history: History
) -> None:
    documents = list(client.archive.export_games(history.name))
    assert [d["game_id"] for d in documents] == [g["game_id"] for g in client.archive.games(history.name)]
    assert len(documents) == len(history.newest_first)
    assert all(d["format"] == "ginrummy.match" and d["version"] == 1 for d in documents)
    assert documents[0] == client.archive.export(history.played)
    rated = [d["game_id"] for d in client.archive.export_games(history.name, rated=True)]
    assert rated == history.newest_first[1:]
    with contextlib.closing(client.archive.export_games(history.name)) as stream:  # one, and let go
        assert next(stream)["game_id"] == history.played
    with pytest.raises(PlayerNotFound):
        next(client.archive.export_games(unique("nobody")))


def test_a_played_out_match_exports_every_hand_and_a_game_in_play_none(
    client: Client, history: History
) -> None:
    export = client.archive.export(history.played)
    assert export["game_id"] == history.played and export["rated"] is False and export["family"] is None
    assert export["hand_count"] == len(export["hands"]) >= 1
    assert [hand["number"] for hand in export["hands"]] == list(range(1, export["hand_count"] + 1))
    for hand in export["hands"]:
        assert len(hand["initial_hands"]) == 2 and hand["actions"] and hand["result"]["outcome"]
    assert export["result"]["match_over"] and export["result"]["end_reason"] == "finished"
    assert [p["name"] for p in export["players"]][1] == "simple"
    in_play = client.games.create(bot="simple")  # nobody's game: the player's list stays as it is
    with pytest.raises(NotArchived):
        client.archive.export(in_play.game_id)


def test_the_rating_history_follows_each_rated_game(client: Client, history: History) -> None:
    points = client.archive.rating_history(history.name)["families"]["standard"]
    assert [p["game_id"] for p in points] == history.resigned
    assert points[0]["before"] is None
    for earlier, later in itertools.pairwise(points):
        assert later["before"] == earlier["after"]
    assert client.archive.rating_history(history.name, family="oklahoma") == {
        "player": history.name,
        "families": {},
    }
    with pytest.raises(PlayerNotFound):
        client.archive.rating_history(unique("nobody"))


def test_the_readmes_example_runs_as_printed(
    live_service: str,
    history: History,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    section = README.read_text().split("## The past: finished games")[1]
    example = re.search(r"```python\n(.*?)```", section, re.S)
    assert example is not None
    code = (
        example.group(1).replace("http://127.0.0.1:8000", live_service).replace('"Ann"', repr(history.name))
    )
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(README), "exec"), {})
    exported = (tmp_path / "ann.ndjson").read_text().splitlines()
    assert [json.loads(line)["game_id"] for line in exported] == history.newest_first
    printed = capsys.readouterr().out
    assert "lost vs bot-simple [0, 100]" in printed and "standard [" in printed


class Canned(requests.adapters.BaseAdapter):
    """A transport that answers every request with an NDJSON body, read in small pieces from ``raw``."""

    def __init__(self, raw: Any) -> None:
        super().__init__()
        self.raw = raw

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        response = requests.Response()
        response.status_code = 200
        response.headers["Content-Type"] = "application/x-ndjson"
        response.raw = self.raw
        response.url = str(request.url)
        response.request = request
        return response

    def close(self) -> None:
        pass


class Breaking(io.RawIOBase):
    """A body that gives ``data`` and then breaks, as a dropped connection does."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, size: int = -1) -> bytes:
        if not self.data:
            raise requests.exceptions.ChunkedEncodingError("connection broken")
        chunk, self.data = self.data[:size], self.data[size:]
        return chunk


@contextlib.contextmanager
def canned_client(raw: Any) -> Iterator[Client]:
    session = requests.Session()
    session.mount("http://canned/", Canned(raw))
    with Client("http://canned", session=session) as client:
        yield client


def test_an_error_line_ends_the_stream_with_its_exception_after_the_games_before_it() -> None:
    game = {"format": "ginrummy.match", "version": 1, "game_id": "g1"}
    error = {"type": "error", "code": "archive_unavailable", "detail": "the archive does not answer"}
    body = (json.dumps(game) + "\n\n" + json.dumps(error) + "\n").encode()
    with canned_client(io.BytesIO(body)) as client:
        stream = client.archive.export_games("Ann")
        assert next(stream)["game_id"] == "g1"
        with pytest.raises(ArchiveUnavailable) as raised:
            next(stream)
        assert raised.value.status == 503 and "does not answer" in str(raised.value)


def test_a_stream_that_breaks_is_connection_failed_after_the_games_before_it() -> None:
    game = {"format": "ginrummy.match", "version": 1, "game_id": "g1"}
    with canned_client(Breaking((json.dumps(game) + "\n").encode())) as client:
        stream = client.archive.export_games("Ann")
        assert next(stream)["game_id"] == "g1"
        with pytest.raises(ConnectionFailed) as raised:
            next(stream)
        assert raised.value.reason == "the connection broke" and "after 1 games" in str(raised.value)


def test_a_player_lists_its_private_games_others_do_not(live_service: str) -> None:
    with Client(live_service) as anonymous:
        player = anonymous.players.create(unique("Prv"))
    with Client(live_service, token=player.token) as me, Client(live_service) as anyone:
        game = me.games.create(bot="simple", rated=True, private=True)
        game.resign()
        archived(me, game.game_id)
        assert [g["game_id"] for g in me.archive.games(player.name)] == [game.game_id]
        assert [d["game_id"] for d in me.archive.export_games(player.name)] == [game.game_id]
        assert list(anyone.archive.games(player.name)) == []
        assert [p["game_id"] for p in me.archive.rating_history(player.name)["families"]["standard"]] == [
            game.game_id
        ]
        assert [p["game_id"] for p in anyone.archive.rating_history(player.name)["families"]["standard"]] == [
            None
        ]
