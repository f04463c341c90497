"""Accounts from the terminal — the real `gin` against the real service: signing up on one machine and
playing the same game from another (each machine a config directory of its own), personal API tokens
shown once and refused once revoked, signing out here and everywhere, passwords read from stdin or typed
at a terminal without echo (and never found in any output or file), too many failed sign-ins, claiming a
name-and-token player, and `gin watch` following a game two other clients play."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from ginrummy_client import BadCredentials, Client, Game, UnknownPlayer

from tests.finished import unique

from .conftest import PASSWORD, GinProcess, TerminalGin, gin_env, kept_session, run_once, signup

NEW_PASSWORD = "staple battery horse correct"


def gin(home: Path, server: str, *args: str, stdin: str = "", **env: str):  # type: ignore[no-untyped-def]
    """``gin ARGS…`` run to its end on the machine whose config directory is ``home``."""
    return run_once(list(args), {**gin_env(home, server), **env}, stdin=stdin)


def login(home: Path, server: str, name: str, password: str = PASSWORD) -> str:
    done = gin(home, server, "login", name, stdin=password + "\n")
    assert done.returncode == 0, done.stderr
    assert f"Signed in as {name} on {server}" in done.stdout
    return kept_session(home, server)


def nowhere(secret: str, *places: Path | str) -> None:
    """``secret`` is in none of the texts and none of the files under the directories given."""
    for place in places:
        if isinstance(place, Path):
            for path in place.rglob("*"):
                if path.is_file():
                    assert secret not in path.read_text(errors="replace"), path
        else:
            assert secret not in place


def test_an_account_plays_its_game_from_a_second_machine(live_service: str, tmp_path: Path, run_gin) -> None:
    laptop, phone = tmp_path / "laptop", tmp_path / "phone"
    name = unique("Ann")
    signup(laptop, live_service, name)
    started: GinProcess = run_gin("play", "--bot", "simple", "--seed", "5", home=laptop)
    assert started.wait_prompt() is not None
    started.send("quit")
    assert started.wait() == 5
    game_id = re.search(r"Game (\S+) started", started.output)[1]  # type: ignore[index]

    login(phone, live_service, name)  # nothing of the game is saved on the phone
    listed = gin(phone, live_service, "games", "--live")
    assert listed.returncode == 0 and re.search(
        rf"^  {re.escape(game_id)} +0  simple \(bot\) ", listed.stdout, re.M
    )
    view = json.loads(gin(phone, live_service, "show", game_id, "--json").stdout)
    assert view["seat"] == 0 and len(view["hand"]["cards"]) == 10 and view["your_move"]
    move = "pass" if any(a["type"] == "pass" for a in view["legal_actions"]) else "draw"
    acted = gin(phone, live_service, "act", "--game", game_id, move)
    assert acted.returncode == 0, acted.stderr
    seen = json.loads(gin(laptop, live_service, "show", game_id, "--json").stdout)  # the phone's move
    assert seen["version"] > view["version"] and seen["history"][0]["seat"] == 0
    assert seen["history"][0]["type"] == move

    resumed: GinProcess = run_gin("resume", home=phone)  # no GAME_ID: the account's game in play
    assert resumed.wait_prompt() is not None and f"Resuming game {game_id}." in resumed.output
    resumed.send("quit")
    assert resumed.wait() == 5
    who = gin(phone, live_service, "whoami")
    assert (
        who.returncode == 0 and f"── {name} on {live_service}" in who.stdout and "Sessions: 2 ·" in who.stdout
    )
    nowhere(PASSWORD, laptop, phone, started.output, resumed.output, listed.stdout, who.stdout)

    # Signed out everywhere from the laptop: the phone's session is refused, and gin says why.
    assert gin(laptop, live_service, "logout", "--everywhere").returncode == 0
    refused = gin(phone, live_service, "resume", game_id)
    assert refused.returncode == 4 and f"no longer signed in as {name}" in refused.stderr, refused.stderr


def test_an_api_token_is_shown_once_never_listed_and_refused_once_revoked(
    live_service: str, tmp_path: Path
) -> None:
    home, ci = tmp_path / "ann", tmp_path / "ci"
    name = unique("Tok")
    session = signup(home, live_service, name)
    made = gin(home, live_service, "token", "create", "ci bot", "--scope", "play", "--scope", "read")
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    assert token.startswith("gin_p_") and made.stdout == token + "\n"  # alone: T=$(gin token create …)
    assert "will not be shown again" in made.stderr and token not in made.stderr
    listed = gin(home, live_service, "token", "list")
    row = re.search(r"^ +(\d+)  ci bot +play,read +\S+ \S+  never$", listed.stdout, re.M)
    assert row is not None, listed.stdout
    token_id = row[1]

    # Another machine, no session: the token in GIN_TOKEN acts for the account.
    who = gin(ci, live_service, "whoami", GIN_TOKEN=token)
    assert who.returncode == 0 and f"── {name} on" in who.stdout and "GIN_TOKEN, an API token" in who.stdout
    played = gin(ci, live_service, "play", "--bot", "simple", stdin="quit\n", GIN_TOKEN=token)
    assert played.returncode == 5, played.stderr
    with Client(live_service, token=session) as client:  # the game is the account's
        live = [g["game_id"] for g in client.account.games()]
    assert live == re.findall(r"Game (\S+) started", played.stdout)
    manage = gin(ci, live_service, "token", "list", GIN_TOKEN=token)
    assert manage.returncode == 2 and "needs a signed-in session: gin login NAME first" in manage.stderr

    revoked = gin(home, live_service, "token", "revoke", token_id)
    assert revoked.returncode == 0 and f"API token {token_id} revoked" in revoked.stdout
    refused = gin(ci, live_service, "whoami", GIN_TOKEN=token)
    assert refused.returncode == 4 and "the token in GIN_TOKEN is refused" in refused.stderr
    again = gin(home, live_service, "token", "revoke", token_id, "--json")
    assert again.returncode == 4 and json.loads(again.stderr)["error"]["code"] == "token_not_found"
    nowhere(token, listed.stdout, who.stdout, refused.stderr, again.stderr, home, ci)
    nowhere(session, made.stdout, made.stderr, listed.stdout, who.stdout)


def test_logout_ends_the_session_here_or_everywhere(live_service: str, tmp_path: Path) -> None:
    homes = [tmp_path / machine for machine in ("one", "two", "three")]
    name = unique("Out")
    first = signup(homes[0], live_service, name)
    login(homes[1], live_service, name)
    login(homes[2], live_service, name)

    out = gin(homes[0], live_service, "logout")
    assert out.returncode == 0 and f"Signed out {name} on {live_service}" in out.stdout
    assert json.loads((homes[0] / "gin" / "players.json").read_text())["players"] == {}
    with Client(live_service, token=first, retries=0) as client, pytest.raises(UnknownPlayer):
        client.account.get()  # the session saved here is refused from now on

    everywhere = gin(homes[1], live_service, "logout", "--everywhere")
    assert everywhere.returncode == 0
    assert f"Signed out {name} everywhere: 2 sessions ended, this one too." in everywhere.stdout
    ended = gin(homes[2], live_service, "whoami")  # its session was one of them
    assert ended.returncode == 4 and f"no longer signed in as {name}" in ended.stderr
    assert f"gin login {name} signs in again" in ended.stderr
    gone = gin(homes[2], live_service, "whoami")  # the dead session was forgotten
    assert gone.returncode == 2 and "not logged in" in gone.stderr


def test_passwords_come_from_stdin_or_the_terminal_and_are_never_shown(
    live_service: str, tmp_path: Path, run_gin_at_terminal
) -> None:
    home, other = tmp_path / "home", tmp_path / "other"
    name = unique("Pw")
    empty = gin(home, live_service, "signup", name)
    assert empty.returncode == 2 and "no password was given" in empty.stderr
    short = gin(home, live_service, "signup", name, stdin="too short\n")
    assert short.returncode == 4 and "at least 10 characters" in short.stderr

    # At a terminal: typed without echo, twice.
    typed: TerminalGin = run_gin_at_terminal("signup", name, home=home, controlling=True)
    typed.wait_for(rf"A password for {name} \(10 characters or more\): ")
    typed.send(PASSWORD)
    typed.wait_for(r"The same again: ")
    typed.send(PASSWORD)
    assert typed.wait() == 0 and f"Signed up as {name}" in typed.output
    typo: TerminalGin = run_gin_at_terminal("passwd", home=home, controlling=True)
    typo.wait_for(r"Current password of \S+: ")
    typo.send(PASSWORD)
    typo.wait_for(r"New password \(10 characters or more\): ")
    typo.send(NEW_PASSWORD)
    typo.wait_for(r"The same again: ")
    typo.send(NEW_PASSWORD + "!")
    assert typo.wait() == 2 and "the two passwords differ: nothing was changed" in typo.output

    wrong = gin(other, live_service, "login", name, stdin="not the password\n")
    assert wrong.returncode == 4 and "gin: the name or the password is wrong." in wrong.stderr
    changed = gin(home, live_service, "passwd", stdin=f"{PASSWORD}\n{NEW_PASSWORD}\n")
    assert changed.returncode == 0 and "Password changed." in changed.stdout
    old = gin(other, live_service, "login", name, stdin=PASSWORD + "\n")
    assert old.returncode == 4
    login(other, live_service, name, NEW_PASSWORD)
    outputs = [r.stdout + r.stderr for r in (empty, short, wrong, changed, old)]
    for secret in (PASSWORD, NEW_PASSWORD):
        nowhere(secret, home, other, typed.output, typo.output, *outputs)

    # Too many failed sign-ins of one name: the service's limit, said with its wait.
    victim = unique("Lock")
    with Client(live_service, retries=0) as client:
        for _ in range(10):
            with pytest.raises(BadCredentials):
                client.account.sign_in(victim, "not the password")
    limited = gin(tmp_path / "third", live_service, "login", victim, stdin="not the password either\n")
    assert limited.returncode == 4 and re.search(r"try again in \d+ s", limited.stderr), limited.stderr


def test_a_name_and_token_player_kept_here_is_claimed_with_a_password(
    live_service: str, tmp_path: Path
) -> None:
    home = tmp_path / "old"
    with Client(live_service) as client:
        player = client.players.create(unique("Old"))
    # The file as a gin from before accounts wrote it.
    (home / "gin").mkdir(parents=True, mode=0o700)
    entry = {"name": player.name, "token": player.token}
    (home / "gin" / "players.json").write_text(json.dumps({"players": {live_service: entry}}))
    who = gin(home, live_service, "whoami")
    assert who.returncode == 0 and "Password: no (gin signup --claim sets one)" in who.stdout
    needs = gin(home, live_service, "sessions")
    assert needs.returncode == 2 and "gin signup --claim" in needs.stderr
    claimed = gin(home, live_service, "signup", "--claim", stdin=PASSWORD + "\n")
    assert claimed.returncode == 0 and f"{player.name} now has a password" in claimed.stdout
    assert kept_session(home, live_service) != player.token
    login(tmp_path / "new", live_service, player.name)
    sessions = gin(home, live_service, "sessions")
    assert sessions.returncode == 0 and len(re.findall(r"^[ *] +\d+  ", sessions.stdout, re.M)) == 2
    assert re.search(r"^\* +\d+  ", sessions.stdout, re.M)  # this machine's, marked


def test_gin_watch_follows_a_game_two_other_clients_play(live_service: str, run_gin) -> None:
    with Client(live_service) as ann_client, Client(live_service) as bob_client:
        ann = ann_client.games.create(human=True, name="Ann", seed=11)
        watcher: GinProcess = run_gin("watch", ann.game_id)
        watcher.wait_for("Waiting for the second player to join.")
        bob = bob_client.games.join(str(ann.invitation_code), name="Bob")
        watcher.wait_for("Bob joined the game.")
        moves = 0
        while moves < 8:
            for seat in (ann, bob):
                seat.refresh()
                if seat.your_move:
                    seat.act(simple_move(seat))
                    moves += 1
        watcher.wait_for(r"(Ann|Bob) discarded [2-9TJQKA][CDHS]\.\n  Stock: \d+ · Discard pile: ")
        stopped: GinProcess = run_gin("watch", ann.game_id)
        stopped.wait_for(r"── Hand 1 · ")
        stopped.interrupt()
        assert stopped.wait() == 130 and f"Stopped watching game {ann.game_id}." in stopped.output
        bob.resign()
        assert watcher.wait() == 0, watcher.errors
    out = watcher.output
    assert out.startswith(f"Watching game {ann.game_id}: Ann vs (not joined yet) (Ctrl-C stops watching).")
    assert stopped.output.startswith(f"Watching game {ann.game_id}: Ann vs Bob (Ctrl-C stops watching).")
    assert re.search(r"^(Ann|Bob) (passed|drew from the stock|took \S+ from the discard pile)\.$", out, re.M)
    assert "Bob resigned: Ann wins the match.\nThe match is over.\n" in out
    assert "Your hand" not in out  # a spectator sees no hand


def simple_move(seat: Game) -> dict[str, object]:
    """Pass the upcard, draw from the stock, discard the first card on offer."""
    moves = seat.play_actions
    for wanted in ({"type": "pass"}, {"type": "draw", "source": "stock"}):
        for action in moves:
            if all(action.get(key) == value for key, value in wanted.items()):
                return dict(action)
    return dict(next(action for action in moves if action["type"] == "discard"))
