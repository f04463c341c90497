"""Tournaments through the SDK, against the real service and a real director: an organiser runs a round
robin of house bots from its creation to its end, reading the stream as it happens (and again, resumed
from its first line), the results and every game; a person plays its arena match from the account stream
and berserks; the refusals come as their own exception classes."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from ginrummy_client import (
    BadEntryCode,
    BerserkNotAllowed,
    BotsOnly,
    Client,
    NotEntered,
    TournamentEvent,
    TournamentNotFound,
    ValidationError,
)

from .conftest import Reader, wait_until

PASSWORD = "a long enough password"
SHORT = {"preset": "standard", "options": {"target": 50}}
"""Shorter matches (a casual tournament may change the rules)."""
LONG = 180.0
"""Seconds a tournament of house bots may take to finish (a guard against a hang, not a timed assert)."""


def signed_up(server: str, prefix: str) -> Client:
    client = Client(server)
    client.account.sign_up(prefix + uuid.uuid4().hex[:8], PASSWORD)
    return client


@pytest.mark.usefixtures("tournament_director")
def test_an_organiser_runs_a_round_robin_of_house_bots_to_its_end(live_service: str) -> None:
    with signed_up(live_service, "org") as organiser:
        made = organiser.tournaments.create("SDK cup", "round_robin", bots=True, starts_in=3600)
        tid = made["tournament"]["id"]
        assert made["entry_code"] is None and made["tournament"]["status"] == "created"
        assert tid in [t["id"] for t in organiser.tournaments.list()["created"]]
        edited = organiser.tournaments.edit(tid, rules=SHORT)
        assert edited["settings"]["rules"]["options"] == {"target": 50} and edited["players"] == 0
        for bot in ("random", "novice", "simple"):
            entered = organiser.tournaments.join(tid, bot=bot)
            assert entered == {"tournament": tid, "player": f"bot-{bot}", "active": True}
        reader: Reader[TournamentEvent] = Reader(organiser.tournaments.stream(tid, wait=5))
        wait_until(lambda: bool(reader.events), "the stream's first line")
        first = reader.events[0]
        assert first["type"] == "standings" and first["tournament"]["status"] == "created"
        organiser.tournaments.start(tid)  # the director starts it at its next step

        # The stream ends by itself once a standings line says the tournament is finished.
        reader.thread.join(LONG)
        events = reader.stop()
        kinds = [event["type"] for event in events]
        assert events[-1]["type"] == "standings" and events[-1]["tournament"]["status"] == "finished"
        assert kinds.count("pairing") == 3 and kinds.count("result") == 3  # three players: three matches
        paired = {event["pairing"]["game_id"] for event in events if event["type"] == "pairing"}
        finished = [event["pairing"] for event in events if event["type"] == "result"]
        assert {pairing["game_id"] for pairing in finished} == paired and len(paired) == 3
        assert all(pairing["status"] == "finished" and pairing["outcome"] for pairing in finished)

        # Resumed after the first line: everything after it again, in the same order.
        again = list(organiser.tournaments.stream(tid, since=first["id"], wait=5))
        assert [event["id"] for event in again] == [event["id"] for event in events[1:]]

        final = organiser.tournaments.get(tid)
        rows = final["standings"]["players"]
        assert final["status"] == "finished" and final["round"] == final["rounds"] == 3
        results = list(organiser.tournaments.results(tid))
        assert [line["player"] for line in results] == [row["player"] for row in rows]
        assert [line["rank"] for line in results] == [1, 2, 3]
        assert all(line["tournament"] == tid and line["games"] == 2 for line in results)
        assert sum(line["points"] for line in results) == 3  # a point a match (two halves for a draw)

        games = list(organiser.tournaments.games(tid))
        assert {game["game_id"] for game in games} == paired
        for game in games:
            bots = {player.get("bot") for player in game["players"]}
            assert bots <= {"random", "novice", "simple"} and len(bots) == 2, game["players"]


@pytest.mark.usefixtures("tournament_director")
def test_a_person_plays_its_arena_match_from_the_account_stream_and_berserks(live_service: str) -> None:
    with signed_up(live_service, "ber") as person:
        me = person.account.get()["name"]
        made = person.tournaments.create("Berserk arena", "arena", minutes=5, clock="blitz", bots=True)
        tid = made["tournament"]["id"]
        person.tournaments.join(tid, bot="simple")
        assert person.tournaments.join(tid) == {"tournament": tid, "player": me, "active": True}
        events = person.account.stream(wait=5)
        person.tournaments.start(tid)
        started = next(
            event for event in events if event["type"] == "gameStart" and event["game"]["tournament"] == tid
        )
        events.close()
        game = person.games.get(started["game"]["game_id"])  # the account's token plays it
        bank = clock_of(game.refresh(), game.seat)
        moved = game.berserk()
        assert [event["type"] for event in moved["events"]] == ["berserk"]
        assert clock_of(moved["view"], game.seat) <= bank / 2
        with pytest.raises(BerserkNotAllowed):
            game.berserk()
        assert person.tournaments.get(tid)["me"] == {"player": me, "active": True, "playing": game.game_id}
        game.resign()

        def scored() -> bool:
            rows = person.tournaments.get(tid)["standings"]["players"]
            return any(row["games"] for row in rows)

        wait_until(scored, "the match in the standings", timeout=30)
        rows = {row["player"]: row for row in person.tournaments.get(tid)["standings"]["players"]}
        assert rows[me]["losses"] == 1 and rows[me]["points"] == 0
        assert rows["bot-simple"]["wins"] == 1 and rows["bot-simple"]["points"] == 2
        paused = person.tournaments.withdraw(tid)
        assert paused["active"] is False
        person.tournaments.terminate(tid)
        wait_until(lambda: person.tournaments.get(tid)["status"] == "finished", "the end", timeout=30)


def clock_of(view: Any, seat: int | None) -> float:
    """The seconds left in the bank of ``seat`` in a view."""
    return float(view["clock"]["remaining"][seat or 0])


def test_the_refusals_are_their_own_classes(live_service: str) -> None:
    with signed_up(live_service, "ref") as organiser, signed_up(live_service, "pl") as player:
        private = organiser.tournaments.create("Private", "arena", minutes=5, private=True, starts_in=3600)
        tid, code = private["tournament"]["id"], private["entry_code"]
        assert code and tid not in [t["id"] for t in player.tournaments.list()["created"]]
        with pytest.raises(BadEntryCode):
            player.tournaments.join(tid, "not the code")
        assert player.tournaments.join(tid, code)["active"] is True
        assert player.tournaments.withdraw(tid)["active"] is False  # before the start: leaves
        with pytest.raises(NotEntered):
            player.tournaments.withdraw(tid)
        bots_only = organiser.tournaments.create("Bots", "round_robin", bots=True, duplicate=True)
        with pytest.raises(BotsOnly):
            player.tournaments.join(bots_only["tournament"]["id"])
        with pytest.raises(ValidationError):
            organiser.tournaments.create("No minutes", "arena")
        with pytest.raises(TournamentNotFound):
            player.tournaments.get("nope")
        organiser.tournaments.terminate(tid)
        assert organiser.tournaments.get(tid)["status"] == "canceled"
