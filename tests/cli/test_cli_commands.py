"""The one-shot commands (analyze, rules, bots, show, act) and the error paths, as a script sees them."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from .conftest import GinProcess, gin_env, run_once


def test_analyze_prints_melds_and_deadwood(live_service: str, config_home: Path) -> None:
    env = gin_env(config_home, live_service)
    cards = ["7h", "8h", "9h", "10h", "ks", "kd", "kc", "2c", "3d", "as"]
    done = run_once(["analyze", "--json", *cards], env)
    assert done.returncode == 0, done.stderr
    analysis = json.loads(done.stdout)
    assert analysis["deadwood"] == 6
    text = run_once(["analyze", *cards], env)
    assert text.returncode == 0
    assert "Deadwood" in text.stdout and "7H 8H 9H TH" in text.stdout


def test_analyze_rejects_a_bad_card(live_service: str, config_home: Path) -> None:
    done = run_once(["analyze", "7h", "zz"], gin_env(config_home, live_service))
    assert done.returncode == 4
    assert "gin: not a card: 'zz'" in done.stderr and "bad_card" not in done.stderr  # words, no code
    as_json = run_once(["analyze", "--json", "7h", "zz"], gin_env(config_home, live_service))
    assert as_json.returncode == 4
    assert json.loads(as_json.stderr)["error"]["code"] == "bad_card"


def test_rules_and_bots(live_service: str, config_home: Path) -> None:
    env = gin_env(config_home, live_service)
    bots = run_once(["bots", "--json"], env)
    assert bots.returncode == 0, bots.stderr
    assert "simple" in bots.stdout
    assert "simple" in run_once(["bots"], env).stdout
    rules = run_once(["rules", "--json"], env)
    assert rules.returncode == 0
    assert "tournament" in rules.stdout
    text = run_once(["rules"], env)
    assert text.returncode == 0 and "knock_limit" in text.stdout


def test_service_down(config_home: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = run_once(["play"], gin_env(config_home, f"http://127.0.0.1:{port}"))
    assert done.returncode == 3
    assert "cannot reach the service" in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_command_lines(live_service: str, config_home: Path) -> None:
    env = gin_env(config_home, live_service)
    assert run_once(["play", "-o", "target"], env).returncode == 2
    assert run_once(["fly"], env).returncode == 2
    bad_rules = run_once(["play", "--rules", "no-such-preset"], env)
    assert bad_rules.returncode == 4 and "unknown preset 'no-such-preset'" in bad_rules.stderr
    assert "gin rules lists the presets" in bad_rules.stderr
    bad_bot = run_once(["play", "--bot", "no-such-bot"], env)
    assert bad_bot.returncode == 4
    assert bad_bot.stderr == "gin: there is no bot 'no-such-bot'.\ngin: gin bots lists the bots\n"
    assert run_once(["join", "not-an-invitation"], env).returncode == 2


def test_a_clock_preset_is_the_services_to_know(live_service: str, config_home: Path) -> None:
    # gin sends any preset name; the service refuses one it does not know, and says which it knows.
    env = gin_env(config_home, live_service)
    unknown = run_once(["play", "--clock", "no-such-clock"], env)
    assert unknown.returncode == 4, unknown.stderr
    assert unknown.stderr.startswith("gin: the service has no such clock: it knows ")
    assert "eaai" in unknown.stderr and "validation_error" not in unknown.stderr
    assert run_once(["play", "--clock", "ten minutes"], env).returncode == 2  # no preset, no number


def test_not_your_turn_and_one_shot_moves(run_gin, live_service: str, tmp_path: Path) -> None:
    host_home, guest_home = tmp_path / "host", tmp_path / "guest"
    host: GinProcess = run_gin("host", "--seed", "2", "--json", home=host_home)
    created = json.loads(host.wait_for(r'\{"type": "created".*\}\n').group(0))
    invitation = created["invitation"]
    host.kill()
    guest: GinProcess = run_gin("join", "--json", invitation, home=guest_home)
    guest.wait_for(r'"type": "joined"')  # the seat token is saved before this line
    guest.kill()

    homes = {}
    for home in (host_home, guest_home):
        shown = run_once(["show", "--json"], gin_env(home, live_service))
        assert shown.returncode == 0, shown.stderr
        view = json.loads(shown.stdout)
        homes[view["seat"]] = (home, view)
    turn = homes[0][1]["turn"]
    waiting_home = homes[1 - turn][0]
    refused = run_once(["act", "pass"], gin_env(waiting_home, live_service))
    assert refused.returncode == 4
    assert refused.stderr == "gin: it is not your move: it is Opponent's.\n"  # the other seat, unnamed
    assert "not_your_turn" not in refused.stderr and "seat" not in refused.stderr
    as_json = run_once(["act", "--json", "pass"], gin_env(waiting_home, live_service))
    assert json.loads(as_json.stderr)["error"]["code"] == "not_your_turn"  # scripts get the code

    mover_home, view = homes[turn]
    move = "pass" if any(a["type"] == "pass" for a in view["legal_actions"]) else "draw"
    moved = run_once(["act", "--json", move], gin_env(mover_home, live_service))
    assert moved.returncode == 0, moved.stderr
    assert json.loads(moved.stdout)["events"][0]["type"] in ("pass", "draw")
    table = run_once(["show"], gin_env(mover_home, live_service))
    assert table.returncode == 0 and "Your hand:" in table.stdout
