"""Tournaments through the real ``gin`` against the real service and a real director: an organiser makes
an arena with ``gin tournament create`` and enters a house bot; a person lists it, joins it with ``gin
tournament join``, plays the match paired with the bot in the terminal to its end, sees the standings,
and gin ends with the tournament; Ctrl-C while waiting pauses (here: leaves, before the start)."""

from __future__ import annotations

import json
import re
import time
import uuid
from pathlib import Path

import pytest
from ginrummy_client import Client

from .conftest import GinProcess, gin_env, kept_session, run_once, scripted_reply, signup

PLAYED = 180.0
"""Seconds the person's match may take before gin is called stuck (a guard, not a timed assertion)."""


def unique(prefix: str) -> str:
    return prefix + uuid.uuid4().hex[:8]


def organised(tmp_path: Path, server: str, *extra: str) -> tuple[str, str]:
    """An organiser signed up with gin, who makes an arena with ``gin tournament create --json``: the
    tournament's id, and the organiser's session (to enter house bots and start it)."""
    home = tmp_path / "organiser"
    home.mkdir()
    signup(home, server, unique("org"))
    made = run_once(
        ["tournament", "create", "CLI arena", "--format", "arena", "--minutes", "5", "--bots",
         "-o", "target=50", "--starts-in", "3600", "--json", *extra],
        gin_env(home, server),
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    created = json.loads(made.stdout)
    assert created["tournament"]["format"] == "arena" and created["tournament"]["settings"]["bots"]
    return created["tournament"]["id"], kept_session(home, server)


def play_until(gin: GinProcess, text: str, timeout: float = PLAYED) -> None:
    """Answer each prompt with the scripted strategy until ``text`` is printed."""
    deadline = time.monotonic() + timeout
    while text not in gin.output:
        assert gin.proc.poll() is None, gin.output[-1500:] + gin.errors
        assert time.monotonic() < deadline, f"{text!r} never came:\n{gin.output[-1500:]}"
        if gin.at_prompt():
            gin.wait_prompt()
            gin.send(scripted_reply(gin.output))
        else:
            time.sleep(0.02)


@pytest.mark.usefixtures("tournament_director")
def test_a_person_joins_an_arena_plays_its_pairing_and_sees_the_standings(
    live_service: str, run_gin, config_home: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    tid, organiser_session = organised(tmp_path, live_service)
    name = unique("ann")
    signup(config_home, live_service, name)
    listed = run_once(["tournaments"], gin_env(config_home, live_service))
    assert listed.returncode == 0 and tid in listed.stdout and "CLI arena" in listed.stdout, listed.stderr

    with Client(live_service, token=organiser_session) as organiser:
        organiser.tournaments.join(tid, bot="simple")
        gin = run_gin("tournament", "join", tid)
        gin.wait_for(f"Joined CLI arena as {name}")
        organiser.tournaments.start(tid)
        gin.wait_for(r"Playing .*: game (\S+) ")
        play_until(gin, "Standings of CLI arena")
        # The standings after the match: both played one, the winner scored 2 (an arena's win).
        gin.wait_for(r"Waiting for your next pairing")
        shown = gin.output.split("Standings of CLI arena", 1)[1]
        assert re.search(rf"^>\s+\d\s+{name} ", shown, re.M) and "bot-simple (bot)" in shown, shown
        rows = {row["player"]: row for row in organiser.tournaments.get(tid)["standings"]["players"]}
        assert rows[name]["games"] == rows["bot-simple"]["games"] == 1
        assert sorted([rows[name]["points"], rows["bot-simple"]["points"]]) == [0, 2]
        # Two players never meet twice in a row: nothing more is paired. The organiser ends it.
        organiser.tournaments.terminate(tid)
        assert gin.wait(60) == 0, gin.errors
    assert "CLI arena is finished." in gin.output

    show = run_once(["tournament", "show", tid], gin_env(config_home, live_service))
    assert show.returncode == 0, show.stderr
    assert "Standings of CLI arena" in show.stdout and f"You ({name}): in." in show.stdout


def test_ctrl_c_while_waiting_pauses(live_service: str, run_gin, config_home: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tid, organiser_session = organised(tmp_path, live_service)
    name = unique("bob")
    signup(config_home, live_service, name)
    gin = run_gin("tournament", "join", tid)
    gin.wait_for("Waiting for your next pairing")
    with Client(live_service, token=organiser_session) as organiser:
        assert organiser.tournaments.get(tid)["players"] == 1
        gin.interrupt()
        assert gin.wait() == 130
        assert "You left CLI arena before its start" in gin.output
        assert organiser.tournaments.get(tid)["players"] == 0
    paused = run_once(["tournament", "pause", tid, "--json"], gin_env(config_home, live_service))
    assert paused.returncode == 4 and json.loads(paused.stderr)["error"]["code"] == "not_entered"
