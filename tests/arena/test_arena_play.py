"""The arena plays house bots and bot functions against each other on the real engine: round robin,
mirrored deals, a seed that reproduces every byte, forfeits reported and never replaced."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from ginrummy.arena import Table, games, parse_entrants, run, schedule, wilson
from ginrummy.arena.cli import main
from ginrummy.arena.entrants import EntrantError, load_function
from ginrummy.engine import Rules

ROOT = Path(__file__).resolve().parents[2]
SHORT = ["-o", "target=25"]  # short matches: a few hands each

RANDOM_BOT = """
    import random

    def choose(view):
        return random.choice([a for a in view["legal_actions"] if a["kind"] == "play"])
"""
ILLEGAL_BOT = """
    def choose(view):
        for action in view["legal_actions"]:
            if action["type"] == "discard":
                return {"type": "discard", "card": "XX"}
        return view["legal_actions"][0]
"""
RAISING_BOT = """
    def choose(view):
        if view["phase"] == "discard":
            return helper(view)
        return view["legal_actions"][0]

    def helper(view):
        raise ValueError("no idea what to throw")
"""


def write_bot(folder: Path, name: str, source: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    return path


def arena(folder: Path, *args: str) -> tuple[int, dict[str, Any], str, list[dict[str, Any]]]:
    """``ginrummy-arena ARGS`` with --json, --csv and --records in ``folder``: exit status, JSON, CSV text and
    records."""
    status = main(
        [
            *args,
            "--json",
            str(folder / "results.json"),
            "--csv",
            str(folder / "results.csv"),
            "--records",
            str(folder / "games.ndjson"),
            "--quiet",
        ]
    )
    records = [json.loads(line) for line in (folder / "games.ndjson").read_text().splitlines()]
    return (
        status,
        json.loads((folder / "results.json").read_text()),
        (folder / "results.csv").read_text(),
        records,
    )


def test_wilson_intervals_match_published_values() -> None:
    # Brown, Cai and DasGupta (2001) and any Wilson table: 95%, z = 1.96.
    assert wilson(5, 10) == (0.2366, 0.7634)
    assert wilson(0, 10) == (0.0, 0.2775)
    assert wilson(10, 10) == (0.7225, 1.0)
    assert wilson(1436, 2000) == (0.6979, 0.7373)  # docs/bots.md: expert–simple 71.8% [69.8, 73.7]
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_round_robin_of_mirrored_deals_with_the_same_deals_for_every_pairing() -> None:
    table = Table(tuple(parse_entrants(["random", "novice", "simple"])), Rules(), seed=40)
    tasks = schedule(table, games=3)  # rounded up to whole mirrored deals: 4 a pairing
    assert len(tasks) == 3 * 4
    assert [t.seats for t in tasks[:4]] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert {t.seats for t in tasks} == {(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)}
    assert [t.deal_seed for t in tasks] == [40, 40, 41, 41] * 3
    assert [t.number for t in tasks] == list(range(12))


def test_the_same_seed_gives_the_same_bytes_with_one_process_or_two(tmp_path: Path) -> None:
    # Each run is the command, in a process of its own as a user runs it: inside the suite's process,
    # other libraries' threads (redis-py's and psycopg_pool's back-off jitter) draw from the `random`
    # module that the arena seeds for bot functions, and the random bot's choices shifted with them.
    write_bot(tmp_path, "randombot", RANDOM_BOT)
    bot = str(tmp_path / "randombot.py") + ":choose"
    runs = []
    for name, jobs in (("one", "1"), ("again", "1"), ("two", "2")):
        folder = tmp_path / name
        folder.mkdir()
        args = [bot, "simple", "novice", "--games", "4", "--seed", "9", "--jobs", jobs, *SHORT, "--no-timing"]
        outputs = ["--json", "results.json", "--csv", "results.csv", "--records", "games.ndjson", "--quiet"]
        ran = subprocess.run(
            [sys.executable, "-m", "ginrummy.arena", *args, *outputs],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert ran.returncode == 0, ran.stderr
        runs.append({f: (folder / f).read_bytes() for f in ("results.json", "results.csv", "games.ndjson")})
    assert runs[0] == runs[1] == runs[2]
    results = json.loads(runs[0]["results.json"])
    assert results["arena"]["games"] == 12 and "timing" not in results
    assert all("decision_ms_p50" not in row for row in results["standings"])

    other = tmp_path / "other"
    other.mkdir()
    arena(other, bot, "simple", "novice", "--games", "4", "--seed", "10", *SHORT, "--no-timing")
    assert (other / "games.ndjson").read_bytes() != runs[0]["games.ndjson"]


def test_mirrored_games_deal_the_same_decks_with_the_seats_swapped(tmp_path: Path) -> None:
    status, results, _, records = arena(tmp_path, "simple", "knocker", "--games", "4", "--seed", "3", *SHORT)
    assert status == 0 and len(records) == 4
    for first, second in (records[0:2], records[2:4]):
        assert [p["name"] for p in first["players"]] == ["simple", "knocker"]
        assert [p["name"] for p in second["players"]] == ["knocker", "simple"]
        # Hand by hand the same decks, as far as both games went.
        decks = [[hand["deck"] for hand in game["hands"]] for game in (first, second)]
        common = min(len(decks[0]), len(decks[1]))
        assert common >= 1 and decks[0][:common] == decks[1][:common]
        assert first["hands"][0]["dealer"] == second["hands"][0]["dealer"]  # the cut: the same seat deals
    assert records[0]["hands"][0]["deck"] != records[2]["hands"][0]["deck"]  # another deal seed
    assert [r["game_id"] for r in records] == [f"arena-3-{n:06d}" for n in range(4)]


def test_results_count_what_the_records_show(tmp_path: Path) -> None:
    status, results, text, records = arena(tmp_path, "expert", "random", "--games", "6", *SHORT)
    assert status == 0
    expert, random_bot = results["standings"]
    assert (expert["entrant"], expert["opponent"], random_bot["entrant"]) == ("expert", "all", "random")
    assert expert["games"] == random_bot["games"] == 6
    wins = [
        sum(r["players"][r["result"]["winner"]]["name"] == name for r in records)
        for name in ("expert", "random")
    ]
    assert [expert["wins"], random_bot["wins"]] == wins and expert["losses"] == random_bot["wins"]
    assert expert["wins"] == 6  # the expert beats a random player every time
    assert (expert["wilson_low"], expert["wilson_high"]) == wilson(6, 6)
    assert expert["hands"] == sum(r["hand_count"] for r in records)
    seat_stats = [r["stats"][[p["name"] for p in r["players"]].index("expert")] for r in records]
    assert expert["gins"] == sum(s["gins"] + s["big_gins"] for s in seat_stats)
    assert expert["knocks"] == sum(s["knocks"] for s in seat_stats)
    assert expert["undercuts"] == sum(s["undercuts_given"] for s in seat_stats)
    assert expert["decisions"] > 0 and 0 <= expert["decision_ms_p50"] <= expert["decision_ms_p99"]
    assert results["timing"]["games_per_second"] > 0
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(row["entrant"], row["opponent"]) for row in rows] == [
        ("expert", "all"),
        ("random", "all"),
        ("expert", "random"),
        ("random", "expert"),
    ]
    assert rows[0]["wins"] == "6" and rows[0]["wilson_low"] == str(expert["wilson_low"])


def test_a_bot_function_from_a_module_or_a_file_plays_like_a_house_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write_bot(tmp_path, "arena_first_bot", RANDOM_BOT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    status = main(["arena_first_bot:choose", "mine=arena_first_bot.py", "simple", "--games", "2", *SHORT])
    assert status == 0
    shown = capsys.readouterr().out
    assert "arena_first_bot:choose" in shown and "mine" in shown and "simple" in shown
    assert "Row's win rate against column" in shown  # three entrants: a cross-table


def test_unknown_bots_and_bad_rules_are_refused_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simple", "grandmaster", "--games", "2"]) == 2
    error = capsys.readouterr().err
    assert "unknown bot 'grandmaster'" in error and "expert" in error
    assert main(["simple", str(tmp_path / "missing.py") + ":choose"]) == 2
    assert "no file" in capsys.readouterr().err
    write_bot(tmp_path, "notabot", "choose = 42\n")
    assert main(["simple", str(tmp_path / "notabot.py") + ":choose"]) == 2
    assert "is not a function" in capsys.readouterr().err
    assert main(["simple", "expert", "--rules", "gin-gin"]) == 2
    assert "unknown preset" in capsys.readouterr().err
    assert main(["simple"]) == 2
    with pytest.raises(EntrantError, match="has no function nothing"):
        load_function("json:nothing")


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        (ILLEGAL_BOT, 'answered {"type":"discard","card":"XX"}, which is not one of the legal actions'),
        (RAISING_BOT, "raised ValueError: no idea what to throw"),
    ],
    ids=["illegal", "raises"],
)
def test_a_bot_that_answers_an_illegal_move_or_raises_forfeits_and_is_reported(
    tmp_path: Path, source: str, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    write_bot(tmp_path, "badbot", source)
    bad = str(tmp_path / "badbot.py") + ":choose"
    status, results, _, records = arena(tmp_path, bad, "simple", "--games", "2", *SHORT)
    assert status == 0  # a forfeit is a result
    assert len(records) == 2 and len(results["forfeits"]) == 2
    # Each forfeit in a line; the bot's first with its traceback (or the legal moves), the others without.
    printed = capsys.readouterr().err
    assert printed.count(problem) == 2
    assert printed.count(results["forfeits"][0]["detail"]) == 1 and results["forfeits"][0]["detail"]
    for record, forfeit in zip(records, results["forfeits"], strict=True):
        seat = [p["bot"] for p in record["players"]].index(bad)
        assert record["result"]["end_reason"] == "disqualified"
        assert record["result"]["forfeited_by"] == seat and record["result"]["winner"] == 1 - seat
        assert (forfeit["entrant"], forfeit["seat"], forfeit["problem"]) == (bad, seat, problem)
    if source is RAISING_BOT:
        detail = results["forfeits"][0]["detail"]
        assert "in helper" in detail and "ginrummy/arena" not in detail  # the bot's frames, not the arena's
    bad_row = results["standings"][0]
    assert (bad_row["forfeits"], bad_row["losses"], bad_row["wins"]) == (2, 2, 0)

    # --strict: the run stops at the first forfeit, exit status 4.
    strict = tmp_path / "strict"
    strict.mkdir()
    status, results, _, records = arena(strict, bad, "simple", "--games", "6", "--strict", *SHORT)
    assert status == 4 and results["arena"]["stopped"] is True
    assert len(records) == 1 and len(results["forfeits"]) == 1


def test_an_output_file_that_cannot_be_written_is_refused_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nowhere = tmp_path / "no" / "such" / "results.csv"
    assert main(["simple", "simple", "--games", "2", "--csv", str(nowhere)]) == 2
    printed = capsys.readouterr()
    assert printed.err == f"ginrummy-arena: --csv {nowhere}: cannot write it (no folder {nowhere.parent})\n"
    assert printed.out == ""  # not a game played
    assert main(["simple", "simple", "--games", "2", "--records", str(tmp_path)]) == 2
    assert f"--records {tmp_path}: cannot write it ({tmp_path} is a folder)" in capsys.readouterr().err
    assert not nowhere.parent.exists()


def test_the_tournament_bench_is_the_arena_and_takes_bot_functions(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import tournament
    finally:
        sys.path.remove(str(ROOT / "bench"))
    write_bot(tmp_path, "benchbot", RANDOM_BOT)
    pairing = tournament.run_pairing(str(tmp_path / "benchbot.py") + ":choose", "simple", 2, 1, "straight", 5)
    assert pairing.games == 2 and pairing.a_wins == 0
    report = pairing.report()
    assert "benchbot.py:choose win rate 0.0%" in report and "simple decision time" in report
    same = run(Table(tuple(parse_entrants(["expert", "simple"])), Rules.from_options("standard"), 5), 2)
    assert (
        tournament.run_pairing("expert", "simple", 2, 1, "standard", 5).a_wins == same.standings()[0]["wins"]
    )


def test_a_match_that_does_not_end_stops_the_run_with_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Random players under straight gin may never win a hand: the guard ends the run instead of hanging.
    monkeypatch.setattr(games, "MAX_DECISIONS", 60)
    assert main(["random", "random", "--rules", "straight", "--games", "2"]) == 1
    assert "did not end in 60 decisions" in capsys.readouterr().err
