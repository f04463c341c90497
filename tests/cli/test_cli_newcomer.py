"""Regressions found by playing ``gin`` as a newcomer would: each test is one thing that went wrong."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from gin_cli.commands_reference import render_analysis
from gin_cli.play import plain
from gin_cli.results import render_result
from gin_cli.screen import Screen
from gin_cli.table import describe_move, player_names
from ginrummy_client import Client

from .conftest import STEP_TIMEOUT, GinProcess, gin_env, play_to_end, run_once

README = Path(__file__).resolve().parents[2] / "README.md"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_hollywood_shows_the_three_games_and_each_game_that_ends(run_gin) -> None:
    # Hollywood scores three games at once: the score line showed only game 3 (0 for a long time) and
    # the totals of games 1 and 2, which end while the match goes on, were never shown.
    gin: GinProcess = run_gin(
        "play", "--bot", "random", "--rules", "hollywood", "-o", "target=10", "--seed", "8"
    )
    assert play_to_end(gin) == 0, gin.errors
    out = gin.output
    assert re.search(
        r"Score: You \d+/\d+/\d+ · random \(bot\) \d+/\d+/\d+   \(games 1/2/3, each to 10\)", out
    )
    assert all(f"Game {n} over" in out for n in (1, 2, 3)), out[-3000:]
    # Game 1 is over (and shown) before the match is.
    assert out.index("Game 1 over") < out.index("Match over")
    assert out.count("Game 1 over") == 1


def test_the_waiting_player_sees_the_table_and_hears_of_the_join(run_gin, tmp_path: Path) -> None:
    # While the other person was to move, the waiting side saw no table at all: the host could not see
    # their cards until the guest joined and moved, and after a move the new hand was not shown.
    host: GinProcess = run_gin("host", "--seed", "12", "--name", "Ann")
    waiting = host.wait_for(r"Waiting for the opponent to join: gin join (\S+)")
    before_join = host.output[: waiting.start()]
    assert "Your hand:" in before_join and "Deadwood:" in before_join
    guest_home = tmp_path / "guest"
    guest_home.mkdir()
    guest: GinProcess = run_gin("join", waiting.group(1), "--name", "Bob", home=guest_home)
    host.wait_for(r"Bob joined the game\.")
    # Whoever waits now sees their hand above the "Waiting for …" line, and how to leave.
    line = r"Waiting for (Ann|Bob)… \(Ctrl-C leaves; gin resume comes back\)"
    waited = 0
    for gin in (host, guest):
        found = gin.wait_for(line + r"|\n> ")
        if found.group(0).startswith("Waiting"):
            waited += 1
            assert "Your hand:" in gin.output[: found.start()].rsplit("Hand 1", 1)[-1]
    assert waited == 1


def test_ids_that_begin_with_a_dash_are_not_options(run_gin, config_home: Path) -> None:
    # Game ids are base64url text and may begin with "-": `gin join -x…:…` (as printed by gin host)
    # and `gin resume -x…` were read as unknown options (exit 2).
    joined: GinProcess = run_gin("join", "-i0PJ9CuEnqcqteCHIrA:B8PmyVe5oZXJg2OvFTTw1nF2J")
    assert joined.wait() == 4
    assert "there is no game '-i0PJ9CuEnqcqteCHIrA'" in joined.errors and "usage:" not in joined.errors

    games = config_home / "gin" / "games.json"
    games.parent.mkdir(mode=0o700)
    entry = {"game_id": "-aBcDeFgHiJkLmNoPqRs", "server": "", "seat": 0, "token": "t"}
    games.write_text(json.dumps({"games": {entry["game_id"]: entry}}))
    resumed: GinProcess = run_gin("resume", "-aBcDeFgHiJkLmNoPqRs")
    assert resumed.wait() == 6
    assert "game -aBcDeFgHiJkLmNoPqRs can no longer be resumed" in resumed.errors


def test_ctrl_c_right_after_the_prompt_is_never_lost(run_gin) -> None:
    # With input from a pipe, a SIGINT that came between the prompt and the read was only noticed when
    # a line arrived: the client hung (the Ctrl-C test failed now and then).
    gin: GinProcess = run_gin("play", "--seed", "5")
    assert gin.wait_prompt() is not None
    gin.send("quit")
    assert gin.wait() == 5
    for _ in range(8):
        again: GinProcess = run_gin("resume")
        assert again.wait_prompt() is not None
        again.interrupt()  # at once, as the prompt appears
        assert again.wait(timeout=10) == 130
        assert "Resume with: gin resume" in again.errors


def test_end_of_input_at_the_prompt_ends_the_line(run_gin) -> None:
    # Ctrl-D at the prompt printed "> Left game …" on the prompt's line.
    gin: GinProcess = run_gin("play", "--seed", "6")
    assert gin.wait_prompt() is not None
    gin.close_input()
    assert gin.wait() == 5
    assert "\n> \nLeft game " in gin.output


def test_bot_names_in_any_case_and_where_to_find_them(live_service: str, config_home: Path) -> None:
    env = gin_env(config_home, live_service)
    done = run_once(["play", "--bot", "Expert", "--seed", "3"], env)
    assert done.returncode == 5, done.stderr  # played (then left at the end of input)
    assert "expert (bot)" in done.stdout
    unknown = run_once(["play", "--bot", "grandmaster"], env)
    assert unknown.returncode == 4
    assert "gin bots lists the bots" in unknown.stderr


def test_the_start_line_fits_80_columns(live_service: str, config_home: Path) -> None:
    done = run_once(["play", "--seed", "3"], gin_env(config_home, live_service))
    first = done.stdout.splitlines()[0]
    assert re.fullmatch(r"Game \S+ started \(quit leaves; gin resume comes back\)\.", first)
    assert len(first) <= 80


def test_moves_are_told_with_the_cards_drawn_as_on_the_table() -> None:
    # In colour the table showed 10♥ while "… discarded TH." used the canonical text; a gin was told
    # as "knocked".
    out = io.StringIO()
    screen = Screen(color=True, out=out)
    screen.line(*describe_move(screen, {"seat": 1, "type": "discard", "card": "TH"}, "Bob"))
    gin_view = {"result": {"outcome": {"end": "gin", "knocker": 1}}}
    screen.line(*describe_move(screen, {"seat": 1, "type": "knock", "discard": "2C"}, "Bob", gin_view))
    plain = ANSI.sub("", out.getvalue())
    assert "Bob discarded 10♥" in plain
    assert "Bob went gin, discarding 2♣" in plain


def test_analyze_columns_line_up_in_colour(live_service: str) -> None:
    with Client(live_service) as client:
        analysis = plain(
            client.service.analyze(["th", "td", "ts", "9s", "9d", "2c", "3c", "kd", "qd", "js", "9c"])
        )
    out = io.StringIO()
    render_analysis(Screen(color=True, out=out), analysis)
    rows = [
        ANSI.sub("", line)
        for line in out.getvalue().splitlines()
        if re.match(r"\s+\S+ +\d", ANSI.sub("", line))
    ]
    assert len(rows) == 2
    numbers = [[m.start() for m in re.finditer(r"\d+(?=\s|$)", row)] for row in rows]
    assert numbers[1] == numbers[0][: len(numbers[1])], rows


def test_the_result_screen_is_unchanged_for_a_plain_knock() -> None:
    view: dict[str, Any] = {
        "seat": 0,
        "hand_number": 1,
        "players": [{"name": "Ann"}, {"name": "simple", "bot": "simple"}],
        "result": {
            "outcome": {
                "end": "knock",
                "winner": 0,
                "points": 5,
                "knocker": 0,
                "knocker_deadwood": 3,
                "defender_deadwood": 8,
                "difference": 5,
                "bonus": 0,
                "multiplier": 1,
            },  # fmt: skip
            "knocker": {
                "seat": 0,
                "discard": "9S",
                "melds": [["AC", "2C", "3C"]],
                "deadwood_cards": ["3H"],
                "deadwood": 3,
            },  # fmt: skip
            "defender": {"seat": 1, "melds": [], "layoffs": [], "deadwood_cards": ["8D"], "deadwood": 8},
        },
        "scores": {"games": [{"number": 1, "points": [5, 0], "over": False}], "games_won": [0, 0]},
        "rules": {"target": 100},
    }
    out = io.StringIO()
    render_result(Screen(color=False, out=out), view, player_names(view))
    assert "Points: deadwood 8 − 3 = 5 → You score 5" in out.getvalue()
    assert "Score: You 5 · simple (bot) 0   (game to 100)" in out.getvalue()


def test_the_readme_curl_walk_through(live_service: str, tmp_path: Path) -> None:
    assert shutil.which("curl") and shutil.which("jq"), (
        "the README walk-through needs curl and jq (.ci/run installs them)"
    )
    # The README's act() set V to null after any refused move (the walk-through's sample moves often
    # are), and every later command then failed with bad_if_match while printing "null".
    text = README.read_text(encoding="utf-8")
    section = text.split("## A hand over HTTP with curl", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    script = "\n".join(blocks).replace("B=http://127.0.0.1:8000", f"B={live_service}")
    script = "set -u\n" + script + '\necho "final version: $V"\n'
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "bad_if_match" not in out and "\nnull\n" not in out, out
    assert re.search(r"final version: \d+$", out.strip()), out
    # Every act printed either what happened or why it was refused.
    lines = [line for line in out.splitlines() if line.startswith(("[", '{"phase"', '{"code"'))]
    assert len(lines) >= 6, out


def test_lay_offs_are_grouped_by_the_meld_they_extend() -> None:
    # "3♠ on [5♠ 6♠ 7♠ 8♠]" looked illegal: it was laid off after 4♠ on the same meld.
    view: dict[str, Any] = {
        "seat": 0,
        "hand_number": 1,
        "players": [{"name": "Ann"}, {"name": "random", "bot": "random"}],
        "result": {
            "outcome": {
                "end": "knock",
                "winner": 0,
                "points": 53,
                "knocker": 0,
                "knocker_deadwood": 4,
                "defender_deadwood": 57,
                "difference": 53,
                "bonus": 0,
                "multiplier": 1,
            },  # fmt: skip
            "knocker": {
                "seat": 0,
                "discard": "2C",
                "melds": [["3H", "4H", "5H"], ["5S", "6S", "7S", "8S"]],
                "deadwood_cards": ["AD", "AH", "2S"],
                "deadwood": 4,
            },  # fmt: skip
            "defender": {
                "seat": 1,
                "melds": [],
                "deadwood_cards": ["KC"],
                "deadwood": 57,
                "layoffs": [{"card": "6H", "meld": 0}, {"card": "4S", "meld": 1}, {"card": "3S", "meld": 1}],
            },  # fmt: skip
        },
        "scores": {"games": [{"number": 1, "points": [53, 0], "over": False}]},
        "rules": {"target": 100},
    }
    out = io.StringIO()
    render_result(Screen(color=False, out=out), view, player_names(view))
    lines = out.getvalue().splitlines()
    assert "  laid off 6H on [3H 4H 5H]" in lines
    assert "  laid off 4S 3S on [5S 6S 7S 8S]" in lines
