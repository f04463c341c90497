"""`gin games`, `gin export` and `gin replay` — the real `gin` against the real service, reading the
archive of a logged-in player's finished games: rated games resigned at once, then a quick match played
out hand after hand."""

from __future__ import annotations

import http.server
import json
import os
import re
import threading
from pathlib import Path

import pytest
from gin_cli.cards import card_order
from ginrummy_client import Client, MatchExport

from tests.finished import History, archived, play_history, unique

from .conftest import gin_env, run_once

RESIGNED = 3


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The config home of the player's `gin` (its login)."""
    return tmp_path_factory.mktemp("records-home")


@pytest.fixture(scope="module")
def history(live_service: str, home: Path) -> History:
    """`gin signup` makes the player; its games are played through the SDK with the session gin keeps."""
    name = unique("Rec")
    done = run_once(["signup", name], gin_env(home, live_service), stdin="a password long enough\n")
    assert done.returncode == 0, done.stderr
    token = json.loads((home / "gin" / "players.json").read_text())["players"][live_service]["token"]
    return play_history(live_service, resigned=RESIGNED, name=name, token=token)


@pytest.fixture(scope="module")
def match(live_service: str, history: History) -> MatchExport:
    """The played-out match's export, as the SDK reads it."""
    with Client(live_service) as client:
        return client.archive.export(history.played)


def rows(output: str) -> list[str]:
    """The game ids of the rows of a `gin games` table, in order."""
    return re.findall(r"^  (\S{21}) \d{4}-\d\d-\d\d ", output, re.MULTILINE)


def test_gin_games_lists_the_logged_in_players_games_newest_first_with_filters(
    live_service: str, home: Path, history: History, match: MatchExport
) -> None:
    env = gin_env(home, live_service)
    table = run_once(["games"], env)  # no NAME: the player logged in
    assert table.returncode == 0, table.stderr
    assert f"── Games of {history.name} · newest first" in table.stdout
    assert rows(table.stdout) == history.newest_first
    won = "won" if match["result"]["winner"] == 0 else "lost"
    assert re.search(rf"^  {history.played} \S+ {won} .* simple +casual$", table.stdout, re.MULTILINE)
    for game_id in history.resigned:
        assert re.search(rf"^  {game_id} \S+ lost +0–100 bot-simple +standard +\S+$", table.stdout, re.M)
    assert all(len(line) <= 80 for line in table.stdout.splitlines())

    two = run_once(["games", history.name, "--limit", "2"], env)
    assert rows(two.stdout) == history.newest_first[:2] and "More: a larger --limit" in two.stdout
    assert rows(run_once(["games", "--rated"], env).stdout) == history.newest_first[1:]
    assert rows(run_once(["games", "--casual", "--result", won], env).stdout) == [history.played]
    against_the_bot = run_once(["games", "--opponent", "bot-simple", "--since", "2000-01-01"], env)
    assert rows(against_the_bot.stdout) == history.newest_first[1:]
    nothing = run_once(["games", "--until", "2000-01-01T00:00Z"], env)
    assert nothing.returncode == 0 and "none that pass these filters" in nothing.stdout
    as_json = json.loads(run_once(["games", "--json", "--limit", "1"], env).stdout)
    assert [g["game_id"] for g in as_json["games"]] == [history.played] and as_json["more"] is True

    bad_time = run_once(["games", "--since", "yesterday"], env)
    assert bad_time.returncode == 2 and "ISO 8601" in bad_time.stderr
    unknown = run_once(["games", unique("nobody")], env)
    assert unknown.returncode == 4 and "there is no player" in unknown.stderr
    anonymous = run_once(["games"], gin_env(home.parent / "nobody-home", live_service))
    assert anonymous.returncode == 2 and "gin login NAME first" in anonymous.stderr


def test_gin_export_writes_every_game_as_an_ndjson_line_and_counts_on_stderr(
    live_service: str, home: Path, history: History, match: MatchExport
) -> None:
    env = gin_env(home, live_service)
    done = run_once(["export", history.name], env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    documents = [json.loads(line) for line in lines]  # every line is a JSON document
    assert [d["game_id"] for d in documents] == history.newest_first
    assert all(d["format"] == "ginrummy.match" for d in documents) and documents[0] == match
    assert f"Exported {len(lines)} games of {history.name}." in done.stderr
    rated = run_once(["export", "--rated", "--limit", "2"], env)  # the logged-in player's
    assert [json.loads(line)["game_id"] for line in rated.stdout.splitlines()] == history.newest_first[1:3]
    assert "Exported 2 games" in rated.stderr
    unknown = run_once(["export", unique("nobody")], env)
    assert unknown.returncode == 4 and unknown.stdout == ""


def test_gin_replay_prints_every_hand_both_hands_dealt_and_the_final_score(
    live_service: str, home: Path, history: History, match: MatchExport
) -> None:
    env = gin_env(home, live_service)
    done = run_once(["replay", history.played, "--no-interactive"], env)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert f"── Replay of game {history.played}" in text and f"{history.name} vs simple (bot)" in text
    names = [history.name, "simple (bot)"]
    for hand in match["hands"]:
        assert re.search(rf"^── Hand {hand['number']} · .* dealt · knock at", text, re.MULTILINE)
        assert f"── Hand {hand['number']} over: " in text
        for seat, cards in enumerate(hand["initial_hands"]):
            dealt = " ".join(sorted(cards, key=card_order))
            assert re.search(rf"^  {re.escape(names[seat])} +{dealt}$", text, re.MULTILINE), dealt
        moves = len(hand["actions"])
        assert f"Move {moves} of {moves}: " in text
        outcome = hand["result"]["outcome"]
        if outcome["winner"] is not None:
            assert f"{names[outcome['winner']]} scores {outcome['points']}" in text
    totals = [sum(game["grand_totals"][seat] for game in match["result"]["games"]) for seat in (0, 1)]
    assert f"Final score: {history.name} {totals[0]} · simple (bot) {totals[1]}" in text
    assert f"{names[match['result']['match_winner']]} wins the match." in text
    assert all(len(line) <= 80 for line in text.splitlines())

    piped = run_once(["replay", history.played], env)  # stdout is no terminal: the same text
    assert piped.returncode == 0 and piped.stdout == text
    as_json = run_once(["replay", "--json", history.played], env)
    assert json.loads(as_json.stdout) == match

    resigned = run_once(["replay", history.resigned[0]], env)
    with Client(live_service) as reader:
        cut_short = reader.archive.export(history.resigned[0])["hands"]  # the bot's first move, if it dealt
    assert ("No hand was played to its end." in resigned.stdout) == (not cut_short)
    assert ("the match ended here" in resigned.stdout) == bool(cut_short)
    assert f"{history.name} resigned: simple (bot) wins the match." in resigned.stdout
    assert re.search(rf"Rating of {history.name}: none → \d+", resigned.stdout)


def test_gin_replay_refuses_a_game_in_play_and_needs_a_game(
    live_service: str, home: Path, history: History
) -> None:
    with Client(live_service) as client:
        in_play = client.games.create(bot="simple")
    env = gin_env(home, live_service)
    refused = run_once(["replay", in_play.game_id], env)
    assert refused.returncode == 4 and "is not in the archive" in refused.stderr
    # Nothing finished saved on this machine: the account's game finished last, wherever it was played.
    latest = run_once(["replay", "--no-interactive"], env)
    assert latest.returncode == 0 and f"── Replay of game {history.newest_first[0]}" in latest.stdout
    nothing_saved = run_once(["replay"], gin_env(home.parent / "anonymous", live_service))
    assert nothing_saved.returncode == 6 and "gin replay GAME_ID" in nothing_saved.stderr


def test_gin_replay_at_a_terminal_steps_with_keys(
    run_gin_at_terminal, history: History, match: MatchExport
) -> None:
    gin = run_gin_at_terminal("replay", history.played)
    gin.wait_for(r"The deal: the upcard is")
    gin.wait_for(r"\[hand 1 of \d+\] n/Enter next · p previous")
    seen = len(gin.output)
    os.write(gin.master, b"\x1b[C")  # →: the next move
    gin.wait_for(r"Move 1 of \d+: ", after=seen)
    seen = len(gin.output)
    os.write(gin.master, b"p")
    gin.wait_for(r"The deal: the upcard is", after=seen)
    for hand in match["hands"][1:]:  # N: the next hand's deal
        seen = len(gin.output)
        os.write(gin.master, b"N")
        gin.wait_for(rf"── Hand {hand['number']} · ", after=seen)
    seen = len(gin.output)
    os.write(gin.master, b"N")
    gin.wait_for(r"Final score: .*\n(.*\n)*\[the end\]", after=seen)
    os.write(gin.master, b"q")
    assert gin.wait() == 0
    assert "\x1b[?1049l" in gin.output  # the terminal's own screen is back


class BreakingArchive(http.server.BaseHTTPRequestHandler):
    """A service whose database fails after two games of an export: the stream's last line says so."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.end_headers()
        for game_id in ("g1", "g2"):
            self.wfile.write(json.dumps({"format": "ginrummy.match", "game_id": game_id}).encode() + b"\n")
        error = {"type": "error", "code": "archive_unavailable", "detail": "the archive does not answer"}
        self.wfile.write(json.dumps(error).encode() + b"\n")

    def log_message(self, *args: object) -> None:
        pass


def test_gin_export_that_breaks_off_keeps_the_whole_lines_and_says_how_many(config_home: Path) -> None:
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), BreakingArchive) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            done = run_once(["export", "Ann"], gin_env(config_home, f"http://127.0.0.1:{server.server_port}"))
        finally:
            server.shutdown()
    assert done.returncode == 4
    assert [json.loads(line)["game_id"] for line in done.stdout.splitlines()] == ["g1", "g2"]
    assert "Exported 2 games of Ann, then it broke off:\ngin: the archive does not answer" in done.stderr


def test_gin_replay_shows_the_moves_of_a_hand_a_resignation_cut_short(live_service: str, home: Path) -> None:
    with Client(live_service) as client:
        game = client.games.create(bot="simple", seed=5, name="Cutter")
        for _ in range(2):
            game.act(next(a for a in game.view["legal_actions"] if a["type"] in ("pass", "draw", "discard")))
        game.resign()
        archived(client, game.game_id)
    done = run_once(["replay", game.game_id], gin_env(home, live_service))
    assert done.returncode == 0, done.stderr
    assert "Hand 1: the match ended here: Cutter resigned." in done.stdout
    assert "Move 1 of " in done.stdout and "No hand was played to its end." not in done.stdout
