"""``gin-bot run --tournament`` against the real service and a real director: two bot accounts (two real
gin-bot processes) join a round robin an organiser made for bots, with a house bot entered; the
organiser starts it; each process plays its pairings and ends once the tournament is over. Every match is
archived, and the standings add up to what the processes played."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from ginrummy_client import Client

from .conftest import BotProcess

PASSWORD = "a long enough password"
PYTHON_BOT = "examples/python_bot.py"
LONG = 180.0
"""Seconds the round robin may take (a guard against a hang, not a timed assertion)."""


def bot_account(server: str, folder: Path) -> tuple[str, Path]:
    """A bot account, as the README makes one: its name and the file of its API token (scope bot)."""
    name = "tbot" + uuid.uuid4().hex[:8]
    with Client(server) as owner:
        owner.account.sign_up(name, PASSWORD)
        owner.account.become_bot()
        token = owner.account.create_token("tournament", ["bot"])["token"]
    path = folder / f"{name}.token"
    path.write_text(token + "\n")
    return name, path


@pytest.mark.usefixtures("tournament_director")
def test_two_bot_accounts_play_a_round_robin_to_its_end(live_service: str, tmp_path: Path) -> None:
    with Client(live_service) as organiser:
        organiser.account.sign_up("org" + uuid.uuid4().hex[:8], PASSWORD)
        made = organiser.tournaments.create(
            "Bots' round robin",
            "round_robin",
            bots=True,
            rules={"preset": "standard", "options": {"target": 50}},
        )
        tid = made["tournament"]["id"]
        organiser.tournaments.join(tid, bot="simple")
        runs = {}
        for _ in range(2):
            name, token_file = bot_account(live_service, tmp_path)
            results = tmp_path / f"{name}.results"
            args = ["run", PYTHON_BOT, "--tournament", tid, "--token-file", str(token_file)]
            runs[name] = (BotProcess([*args, "--results", str(results)], server=live_service), results)
        last = ["run", PYTHON_BOT, "--tournament", tid, "--token-file", str(token_file)]
        for process, _ in runs.values():
            process.wait_for(rf"tournament {tid}: in, as ")
        assert organiser.tournaments.get(tid)["players"] == 3
        organiser.tournaments.start(tid)

        played = {}
        for name, (process, results) in runs.items():
            ran = process.finish(LONG)
            assert ran.status == 0, ran.err
            assert ran.summary()["games"] == 2 and ran.summary()["errors"] == 0, ran.out
            played[name] = [json.loads(line) for line in results.read_text().splitlines()]

        final = organiser.tournaments.get(tid)
        assert final["status"] == "finished"
        rows = {row["player"]: row for row in final["standings"]["players"]}
        assert sum(row["points"] for row in rows.values()) == 3  # three matches, a point each
        for name, lines in played.items():
            won = sum(line["result"] == "won" for line in lines)
            assert rows[name]["games"] == len(lines) == 2 and rows[name]["wins"] == won, (rows[name], lines)
            assert rows[name]["bot"] is True
        games = {game["game_id"] for game in organiser.tournaments.games(tid)}
        mine = {line["game_id"] for lines in played.values() for line in lines}
        assert len(games) == 3 and mine <= games  # every match archived; both bots' in there
        for game_id in games:
            assert organiser.archive.export(game_id)["game_id"] == game_id
    # Over: a run started again is refused its entry (exit 2).
    ran = BotProcess(last, server=live_service).finish(60)
    assert ran.status == 2 and "this tournament is over" in ran.err, ran.err
