"""Following a game's events with the SDK: every event exactly once and in order, across connections
the network drops, streams the service ends, and error lines; both the NDJSON stream and long polls."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from ginrummy_client import ApiError, Client, Event, Game

from tests.fixtures.live_service import start_service
from tests.support import choose, stop_gunicorn

from .conftest import Answer, Reader, stub_service, wait_until
from .proxy import Proxy


def play(
    game: Game, moves: int, reader: Reader, *, between: float = 0.0, cut: Proxy | None = None
) -> list[list[Event]]:
    """Make ``moves`` moves; after each, wait until the reader has every event so far (with ``cut``:
    then drop its connection, so that the next move happens while it reconnects). Returns the events
    of each move, as its response listed them."""
    per_move: list[list[Event]] = []
    for _ in range(moves):
        per_move.append(game.act(choose(game.view))["events"])
        total = sum(map(len, per_move))
        wait_until(lambda total=total: len(reader.events) >= total, "the reader to catch up")
        if cut is not None:
            assert cut.cut() >= 1
        time.sleep(between)
    return per_move


@pytest.fixture
def watched(live_service: str, proxy: Proxy) -> Iterator[tuple[Game, Game]]:
    """A game against the bot (played straight to the service) and the same seat seen through the proxy."""
    with Client(live_service) as player, Client(proxy.url) as watcher:
        game = player.games.create(bot="simple", seed=424242)
        yield game, watcher.games.get(game.game_id, game.token)


def test_the_stream_resumes_after_the_connection_drops(watched: tuple[Game, Game], proxy: Proxy) -> None:
    game, seen_through_proxy = watched
    start = game.cursor
    reader = Reader(seen_through_proxy.events(after=start, wait=30))
    moves = play(game, 5, reader, cut=proxy)
    received = reader.stop()
    expected = [event for move in moves for event in move]
    assert [e["id"] for e in received] == [e["id"] for e in expected]
    assert received == expected
    streams = proxy.requests_to(f"GET /v1/games/{game.game_id}/events")
    assert len(streams) >= 5  # the first, and one after each cut but (perhaps) the last
    resumed_from = [parse_qs(urlsplit(head.line.split()[1]).query)["after"][0] for head in streams]
    assert resumed_from == [start] + [move[-1]["id"] for move in moves][: len(streams) - 1]
    page = game.events_page(after=start)  # the JSON page says the same
    assert page["events"] == received and not page["truncated"]
    assert reader.feed.cursor == received[-1]["id"] == seen_through_proxy.cursor


def test_the_stream_resumes_after_the_service_ends_it(watched: tuple[Game, Game], proxy: Proxy) -> None:
    game, seen_through_proxy = watched
    start = game.cursor
    reader = Reader(seen_through_proxy.events(after=start, wait=0.3))  # the service ends each after 0.3 s
    moves = play(game, 4, reader, between=0.4)
    assert reader.stop() == [event for move in moves for event in move]
    assert len(proxy.requests_to(f"GET /v1/games/{game.game_id}/events")) >= 3  # ended and resumed
    assert not reader.feed.truncated


def test_long_polls_resume_after_the_connection_drops(watched: tuple[Game, Game], proxy: Proxy) -> None:
    game, seen_through_proxy = watched
    start = game.cursor
    reader = Reader(seen_through_proxy.events(after=start, wait=1, stream=False))
    moves = play(game, 4, reader, cut=proxy)
    assert reader.stop() == [event for move in moves for event in move]
    polls = proxy.requests_to(f"GET /v1/games/{game.game_id}/events")
    assert all("application/json" in head.headers["accept"] for head in polls)


def test_until_ends_the_feed_and_trimmed_events_are_reported(client: Client) -> None:
    game = client.games.create(bot="simple", seed=99)
    first = game.cursor
    for _ in range(12):  # more events than the service keeps (GIN_EVENTS_MAXLEN = 16)
        game.act(choose(game.view))
    assert game.events_page(after=first)["truncated"]
    last = game.cursor
    feed = game.events(after=first, wait=5, until=lambda event: event["id"] == last)
    events = list(feed)
    assert events[-1]["id"] == last and feed.truncated
    assert events == game.events_page()["events"]  # what is kept, in order, once each


# --- error lines ------------------------------------------------------------------------------------
# The real service writes an error line only when its Redis fails in the middle of a stream
# (tests/e2e/test_faults.py kills one for that); here a stub speaks the same lines.

LINES = {
    None: [{"type": "keepalive"}, {"id": "3-1", "type": "pass", "seat": 1}]
    + [{"type": "error", "code": "store_unavailable", "detail": "Redis is down", "retry_after": 0.2}],
    "3-1": [{"type": "keepalive"}, {"id": "3-2", "type": "pass", "seat": 0}],
    "3-2": [{"type": "keepalive"}, {"type": "error", "code": "something_new", "detail": "no more"}],
}


def test_error_lines_wait_then_resume_or_raise() -> None:
    def answer(query: dict[str, str]) -> Answer:
        return 200, {}, LINES[query.get("after")]

    with stub_service(answer) as server, Client(server.url) as client:
        feed = Game(client, "g1", token="t0k3n").events()
        delivered = []
        with pytest.raises(ApiError) as raised:
            for event in feed:
                delivered.append(event["id"])
    assert delivered == ["3-1", "3-2"]
    assert [query.get("after") for _, query in server.seen] == [None, "3-1", "3-2"]
    assert server.seen[1][0] - server.seen[0][0] >= 0.2  # retry_after was honoured
    assert raised.value.code == "something_new" and "t0k3n" not in str(raised.value)


class SilentStream(BaseHTTPRequestHandler):
    """A stream that sends its first keep-alive line, then nothing for a long time: chunked on a
    keep-alive connection as gunicorn sends it, or (HTTP/1.0) until the connection closes."""

    protocol_version = "HTTP/1.1"
    opened = threading.Event()

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        chunked = self.protocol_version == "HTTP/1.1"
        line = b'{"type": "keepalive"}\n'
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line) if chunked else line)
        self.wfile.flush()
        self.opened.set()
        time.sleep(5)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet
        pass


class SilentStreamUntilClose(SilentStream):
    protocol_version = "HTTP/1.0"


@pytest.mark.parametrize("handler", [SilentStream, SilentStreamUntilClose])
def test_close_from_another_thread_ends_a_silent_stream_at_once(handler: type[SilentStream]) -> None:
    handler.opened.clear()
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with Client(f"http://127.0.0.1:{server.server_port}") as client:
            reader = Reader(Game(client, "g1", token="t").events(wait=60))
            assert handler.opened.wait(5)
            time.sleep(0.1)  # the reader is blocked reading the stream
            started = time.monotonic()
            assert reader.stop() == []
            assert time.monotonic() - started < 1.0
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def impatient_service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real service, with a seat claimable after 5 s idle (opponentGone after 1 s)."""
    process, base = start_service(
        redis_url, tmp_path_factory.mktemp("impatient"), workers=1, extra_env={"GIN_ABANDON_AFTER": "5"}
    )
    try:
        yield base
    finally:
        stop_gunicorn(process)


@pytest.mark.parametrize("stream", [True, False])
def test_the_feed_says_when_the_opponent_seems_gone_and_the_claim_wins(
    impatient_service: str, stream: bool
) -> None:
    with Client(impatient_service) as ann, Client(impatient_service) as bob:
        game = ann.games.create(human=True)
        joined = bob.games.join(game.game_id, game.invitation)
        game.refresh()
        waiting = joined if game.your_move else game
        reader = Reader(waiting.events(wait=2, stream=stream))
        try:
            wait_until(lambda: reader.feed.opponent_gone is not None, "opponentGone", timeout=60)
            gone = reader.feed.opponent_gone
            assert gone is not None and gone["type"] == "opponentGone" and 0 <= gone["claim_in"] <= 5
            assert reader.error is None  # not an event (no id): never delivered as one
            assert all(event["type"] != "opponentGone" for event in reader.events)
            # The view's claim_after counts from its reading (a 304 keeps the view read before): the claim
            # opens within the seconds said.
            assert 0 <= waiting.refresh()["claim_after"] <= 5
            claimed: list[Any] = []

            def claim() -> bool:
                try:
                    claimed.append(waiting.claim_victory())
                except ApiError as refused:
                    assert refused.code == "too_early", refused
                    return False
                return True

            wait_until(claim, "the claim to win", timeout=60)
            assert claimed[0]["view"]["end_reason"] == "abandoned"
        finally:
            reader.stop()
