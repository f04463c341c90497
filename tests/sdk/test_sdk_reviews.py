"""Reviews through the SDK: a short match played out against the real service, whose review is asked for,
computed by the suite's bot worker and read (the verdicts naming moves the export holds); a game not in
the archive; and, against a scripted service, how politely a pending review is waited for — after the
``Retry-After`` the service sends, else after pauses doubling from half a second — and given up on."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from ginrummy_client import (
    Client,
    MatchExport,
    NotArchived,
    ReviewMove,
    ReviewNotFound,
    ReviewStatus,
    ReviewTimeout,
)

from tests.finished import short_match
from tests.scripted import NOT_ASKED, Answer, scripted_service

VERDICTS = (None, "inaccuracy", "mistake", "blunder")
README = Path(__file__).resolve().parents[2] / "clients" / "python" / "README.md"


@pytest.fixture(scope="module")
def match(live_service: str) -> MatchExport:
    return short_match(live_service)


def test_a_review_is_asked_for_computed_by_a_worker_and_kept(client: Client, match: MatchExport) -> None:
    game_id = match["game_id"]
    with pytest.raises(ReviewNotFound):
        client.reviews.get(game_id)
    asked = client.reviews.request(game_id)
    assert asked["game_id"] == game_id and asked["status"] == "pending"
    assert asked["requested_at"] and asked["finished_at"] is None and asked["review"] is None
    pauses: list[float] = []

    def pause(seconds: float) -> None:
        pauses.append(seconds)
        time.sleep(seconds)

    done = client.reviews.wait(game_id, timeout=120, sleep=pause)
    assert done["status"] == "done" and done["finished_at"]
    assert pauses and set(pauses) == {2.0}  # the service's Retry-After: 2 while pending
    review = done["review"]
    assert review is not None
    assert [seat["seat"] for seat in review["seats"]] == [0, 1]
    for seat in review["seats"]:
        mine = [move["verdict"] for move in review["moves"] if move["seat"] == seat["seat"]]
        assert seat["decisions"] == len(mine) and 0 <= seat["accuracy"] <= 100
        counts = (seat["inaccuracies"], seat["mistakes"], seat["blunders"])
        assert counts == (mine.count("inaccuracy"), mine.count("mistake"), mine.count("blunder"))
    for move in review["moves"]:
        assert the_record_holds(match, move)
    assert review["thresholds"] == {"blunder": 10.0, "mistake": 5.0, "inaccuracy": 2.0}
    # Kept: reading it, asking again and waiting again all answer the same, at once.
    assert client.reviews.get(game_id) == done
    assert client.reviews.request(game_id) == done
    assert client.reviews.wait(game_id, timeout=0, sleep=pause) == done


def test_the_readme_example_runs(
    live_service: str, match: MatchExport, capsys: pytest.CaptureFixture[str]
) -> None:
    section = README.read_text().split("### Reviews: a finished match judged by the master")[1]
    example = re.search(r"```python\n(.*?)```", section, re.S)
    assert example is not None
    code = example.group(1).replace("http://127.0.0.1:8000", live_service)
    exec(compile(code, str(README), "exec"), {"game_id": match["game_id"]})
    printed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in printed[:2]] == ["0", "1"]  # a line a seat: seat, accuracy, counts
    assert all(line.split()[0] in VERDICTS for line in printed[2:])


def the_record_holds(match: MatchExport, move: ReviewMove) -> bool:
    """Whether the judged move is the one the export's record holds at its place: same seat, and the
    move played as recorded (a record's draw also names the card drawn)."""
    recorded = dict(match["hands"][move["hand"] - 1]["actions"][move["index"]])
    played = {key: value for key, value in move["played"].items() if key != "kind"}
    if recorded.get("type") == "draw":
        recorded.pop("card", None)
    return recorded.pop("seat") == move["seat"] and recorded == played and move["verdict"] in VERDICTS


def test_a_game_not_in_the_archive_has_no_review(client: Client) -> None:
    in_play = client.games.create(bot="simple")
    for call in (client.reviews.get, client.reviews.request, client.reviews.wait):
        with pytest.raises(NotArchived, match="not in the archive"):
            call(in_play.game_id)


PENDING: ReviewStatus = {
    "game_id": "gScripted",
    "status": "pending",
    "requested_at": "2026-11-24T18:00:00+00:00",
    "finished_at": None,
    "review": None,
}


def test_waiting_honours_retry_after_and_gives_up_at_the_timeout() -> None:
    def answer(method: str, path: str) -> Answer:
        return 202, {"Retry-After": "1"}, PENDING

    pauses: list[float] = []

    def pause(seconds: float) -> None:
        pauses.append(seconds)
        time.sleep(seconds)

    with scripted_service(answer) as service, Client(service.url) as client:
        with pytest.raises(ReviewTimeout, match="still being computed after 2 s") as raised:
            client.reviews.wait("gScripted", timeout=2.2, sleep=pause)
        assert service.requests() == [("GET", "/v1/games/gScripted/review")] * (len(pauses) + 1)
    assert pauses[:2] == [1.0, 1.0] and len(pauses) == 3 and pauses[2] <= 0.2  # the last cut at the deadline
    assert raised.value.status == PENDING and raised.value.game_id == "gScripted"
    assert raised.value.waited >= 2.2 and isinstance(raised.value, TimeoutError)


def test_without_retry_after_the_pauses_double_from_half_a_second() -> None:
    reads = 0

    def answer(method: str, path: str) -> Answer:
        nonlocal reads
        if method == "POST":
            return 202, {"Location": path}, PENDING
        reads += 1
        if reads == 1:
            return 404, {}, NOT_ASKED
        return (200, {}, {**PENDING, "status": "done", "review": {}}) if reads == 5 else (202, {}, PENDING)

    pauses: list[float] = []
    with scripted_service(answer) as service, Client(service.url) as client:
        done = client.reviews.wait("gScripted", timeout=None, sleep=pauses.append)
        sent = service.requests()
    assert done["status"] == "done"
    path = "/v1/games/gScripted/review"
    assert sent == [("GET", path), ("POST", path), *[("GET", path)] * 4]  # asked only when there was none
    assert pauses == [0.5, 1.0, 2.0, 3.0]


def test_a_failed_review_is_asked_for_again_once() -> None:
    def answer(method: str, path: str) -> Answer:
        return (202, {}, PENDING) if method == "POST" else (200, {}, {**PENDING, "status": "failed"})

    with scripted_service(answer) as service, Client(service.url) as client:
        failed = client.reviews.wait("gScripted", sleep=lambda seconds: None)
        sent = [method for method, _ in service.requests()]
    assert failed["status"] == "failed" and sent == ["GET", "POST", "GET"]
