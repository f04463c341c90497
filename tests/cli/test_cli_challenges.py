"""Challenges from the terminal — the real `gin` against the real service: a house bot accepts at once and
the game is played (and resumed) here; a person is challenged, sees it in `gin challenges`, accepts with
`gin challenges accept` and both play; a decline's reason reaches the challenger, who exits 7; Ctrl-C and
`gin challenges cancel` withdraw a challenge; an unanswered one expires; and the refusals are one-line
messages, never a traceback."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from ginrummy_client import Client

from tests.finished import unique
from tests.fixtures.live_service import start_service
from tests.support import stop_gunicorn

from .conftest import GinProcess, gin_env, resign_whoever_moves, run_once, signup

EXIT_NOT_ACCEPTED = 7


def gin(home: Path, server: str, *args: str, **env: str):  # type: ignore[no-untyped-def]
    """``gin ARGS…`` run to its end on the machine whose config directory is ``home``."""
    return run_once(list(args), {**gin_env(home, server), **env})


def people(tmp_path: Path, server: str, *who: str) -> tuple[dict[str, Path], dict[str, str]]:
    """People (``ann`` and ``bob`` unless named), each signed up with ``gin signup`` on a machine (a config
    directory) of their own: the machines and the names, by who they are."""
    homes = {person: tmp_path / person for person in who or ("ann", "bob")}
    names = {who: unique(who.capitalize()) for who in homes}
    for person, home in homes.items():
        signup(home, server, names[person])
    return homes, names


def waiting_challenge(gin_process: GinProcess, opponent: str) -> str:
    """The id of the challenge a ``gin challenge`` process says it sent, once it waits for the answer."""
    challenge_id = gin_process.wait_for(rf"Challenge (\S+) sent to {opponent} \(").group(1)
    gin_process.wait_for(rf"Waiting for {opponent} to answer… \(Ctrl-C withdraws the challenge\)")
    return challenge_id


def saved_games(home: Path, which: str = "games") -> dict[str, dict[str, object]]:
    """The games saved on the machine ``home`` (``finished``: those kept once over)."""
    path = home / "gin" / "games.json"
    return dict(json.loads(path.read_text())[which]) if path.exists() else {}


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text, text


def test_a_house_bot_accepts_at_once_and_the_game_is_played_here_then_resumed(
    run_gin, live_service: str, tmp_path: Path
) -> None:
    homes, names = people(tmp_path, live_service, "ann")
    home, name = homes["ann"], names["ann"]
    challenger: GinProcess = run_gin("challenge", "bot-Simple", "--rated", home=home)
    game_id = challenger.wait_for(r"Playing simple \(bot\): game (\S+) \(quit leaves").group(1)
    screen = challenger.wait_prompt() or ""
    assert "Your hand:" in screen and "Moves:" in screen and "Waiting for" not in challenger.output
    view = json.loads(gin(home, live_service, "show", game_id, "--json").stdout)
    assert view["rated"] is True and view["seat"] == 0
    assert view["players"][0]["player"] == name and view["players"][1]["bot"] == "simple"
    challenger.send("quit")
    assert challenger.wait() == 5
    saved = saved_games(home)[game_id]
    assert saved["seat"] == 0 and saved["opponent"] == "simple" and saved["token"]  # the challenge's token

    resumed: GinProcess = run_gin("resume", home=home)
    resumed.wait_prompt()
    resumed.send("resign")
    assert (resumed.wait_prompt() or "").endswith("Resign? You lose the match. [y/N] ")
    resumed.send("y")
    assert "You resigned: simple (bot) wins the match." in (resumed.wait_prompt() or "")
    resumed.send("n")
    assert resumed.wait() == 0, resumed.errors

    # Without an account: a casual game under a name, its seat token saved (--json says what started).
    guest_home = tmp_path / "guest"
    guest: GinProcess = run_gin(
        "challenge", "bot-random", "--name", "Guest", "-o", "target=5", "--json", home=guest_home
    )
    started = json.loads(guest.next_line() or "{}")
    assert started == {"type": "matched", "game_id": started["game_id"], "seat": 0}
    guest.wait_for(r'\{"type": "prompt", ')
    guest.send("quit")
    assert guest.wait() == 5
    shown = json.loads(gin(guest_home, live_service, "show", started["game_id"], "--json").stdout)
    assert shown["players"][0]["name"] == "Guest" and shown["players"][0]["player"] is None
    assert shown["rules"]["target"] == 5 and shown["seat"] == 0
    no_traceback(challenger.errors, resumed.errors, guest.errors)


def test_a_person_accepts_with_gin_challenges_accept_and_both_play_the_game(
    run_gin, live_service: str, tmp_path: Path
) -> None:
    homes, names = people(tmp_path, live_service)
    ann: GinProcess = run_gin(
        "challenge", names["bob"].lower(), "-o", "target=10", "--clock", "900+5", home=homes["ann"]
    )
    challenge_id = waiting_challenge(ann, names["bob"])
    assert re.search(r"\(standard target=10, casual, clock 900\+5 s\); it expires in 1[45] min\.", ann.output)

    # Both sides list it: Bob's received, Ann's sent — who, rules, clock, casual, age and expiry.
    listed = gin(homes["bob"], live_service, "challenges")
    assert listed.returncode == 0, listed.stderr
    received, sent = listed.stdout.split(f"── Challenges from {names['bob']} ")
    row = re.search(rf"^  {re.escape(challenge_id)}  (.*)$", received, re.M)
    assert row is not None, listed.stdout
    assert re.fullmatch(rf"{names['ann']} +standard targ… +900\+5 s +casual +\d+ s +1[45] min", row.group(1))
    assert "  none: gin challenge NAME sends one" in sent
    theirs = json.loads(gin(homes["ann"], live_service, "challenges", "--json").stdout)
    assert theirs["in"] == [] and [c["id"] for c in theirs["out"]] == [challenge_id]
    assert theirs["out"][0]["rules"] == {"preset": "standard", "options": {"target": 10}}

    bob: GinProcess = run_gin("challenges", "accept", challenge_id, home=homes["bob"])
    game_id = bob.wait_for(rf"Playing {names['ann']}: game (\S+) \(quit leaves").group(1)
    assert ann.wait_for(rf"Playing {names['bob']}: game (\S+) \(quit leaves").group(1) == game_id
    again = gin(homes["bob"], live_service, "challenges", "accept", challenge_id)
    assert again.returncode == 4
    assert again.stderr == "gin: the challenge is no longer open: it was accepted.\n"

    resign_whoever_moves(ann, bob)  # the game is on for both: whoever is asked first resigns; both are told
    for player in (ann, bob):  # the challenge's clock is the game's
        assert re.search(r"^Clock: .* 1[45]:\d\d · \+5 s a move · ", player.output, re.M), player.output
    for who in ("ann", "bob"):  # gin resume would find it: saved with its seat, now finished
        assert saved_games(homes[who], "finished")[game_id]["seat"] == (0 if who == "ann" else 1)
    no_traceback(ann.errors, bob.errors)


def test_a_decline_tells_the_challenger_why_and_gin_exits_7(
    run_gin, live_service: str, tmp_path: Path
) -> None:
    homes, names = people(tmp_path, live_service)
    ann: GinProcess = run_gin("challenge", names["bob"], "--rated", "--clock", "blitz", home=homes["ann"])
    challenge_id = waiting_challenge(ann, names["bob"])
    declined = gin(homes["bob"], live_service, "challenges", "decline", challenge_id, "--reason", "too_fast")
    assert declined.returncode == 0, declined.stderr
    assert (
        declined.stdout
        == f"Challenge {challenge_id} from {names['ann']} declined (too_fast): {names['ann']} is told.\n"
    )
    assert ann.wait() == EXIT_NOT_ACCEPTED
    assert ann.errors == (
        f"gin: {names['bob']} declined your challenge: the clock is too fast for them — try a slower one.\n"
    )
    assert "Playing" not in ann.output and saved_games(homes["ann"]) == {}

    # With --json: a line when it is sent, a line when it is declined (the reason as the service says).
    scripted: GinProcess = run_gin("challenge", names["bob"], "--json", home=homes["ann"])
    sent = json.loads(scripted.next_line() or "{}")
    assert sent["type"] == "challenged" and sent["challenge"]["status"] == "open"
    assert sent["challenge"]["opponent"]["name"] == names["bob"] and "token" not in json.dumps(sent)
    listed = json.loads(gin(homes["bob"], live_service, "challenges", "--json").stdout)
    assert [c["id"] for c in listed["in"]] == [sent["challenge"]["id"]]
    told = gin(homes["bob"], live_service, "challenges", "decline", sent["challenge"]["id"], "--json")
    assert json.loads(told.stdout)["decline_reason"] == "generic"
    over = json.loads(scripted.next_line() or "{}")
    assert over["type"] == "declined" and over["challenge"]["decline_reason"] == "generic"
    assert scripted.wait() == EXIT_NOT_ACCEPTED
    no_traceback(ann.errors, scripted.errors)


def test_ctrl_c_withdraws_a_challenge_and_gin_challenges_cancel_withdraws_one(
    run_gin, live_service: str, tmp_path: Path
) -> None:
    homes, names = people(tmp_path, live_service)
    ann: GinProcess = run_gin("challenge", names["bob"], home=homes["ann"])
    challenge_id = waiting_challenge(ann, names["bob"])
    ann.interrupt()
    assert ann.wait() == 130
    assert f"gin: your challenge to {names['bob']} is withdrawn\n" in ann.errors
    assert json.loads(gin(homes["bob"], live_service, "challenges", "--json").stdout) == {"in": [], "out": []}
    late = gin(homes["bob"], live_service, "challenges", "accept", challenge_id)
    assert late.returncode == 4
    assert late.stderr == "gin: the challenge is no longer open: the challenger withdrew it.\n"

    # A challenge of the account, sent from elsewhere (here the SDK, with Ann's session), withdrawn.
    session = json.loads((homes["ann"] / "gin" / "players.json").read_text())["players"][live_service][
        "token"
    ]
    with Client(live_service, token=session) as client:
        other = client.challenges.create(names["bob"]).id
    cancelled = gin(homes["ann"], live_service, "challenges", "cancel", other)
    assert cancelled.returncode == 0, cancelled.stderr
    assert cancelled.stdout == f"Challenge {other} to {names['bob']} withdrawn: {names['bob']} is told.\n"
    twice = gin(homes["ann"], live_service, "challenges", "cancel", other)
    assert twice.returncode == 4 and "no longer open: the challenger withdrew it" in twice.stderr
    no_traceback(ann.errors, late.stderr, twice.stderr)


def test_refusals_are_one_line_messages_with_an_exit_status(live_service: str, tmp_path: Path) -> None:
    homes, names = people(tmp_path, live_service)
    ann, bob = homes["ann"], homes["bob"]
    expected = {
        ("challenges", "accept", "no-such-challenge"): (
            4,
            "gin: there is no challenge 'no-such-challenge'.\ngin: gin challenges lists your open challenges\n",
        ),
        ("challenges", "decline", "no-such-challenge"): (
            4,
            "gin: there is no challenge 'no-such-challenge'.",
        ),
        ("challenges", "cancel", "no-such-challenge"): (4, "gin: there is no challenge 'no-such-challenge'."),
        ("challenge", names["ann"].upper()): (4, "gin: you cannot challenge yourself.\n"),
        ("challenge", unique("Nobody")): (4, "a house bot is bot-NAME (gin bots lists them)"),
        ("challenge", "bot-grandmaster"): (
            4,
            "gin: there is no bot 'bot-grandmaster'.\ngin: gin bots lists the bots\n",
        ),
        ("challenge", names["bob"], "--rules", "backgammon"): (4, "gin rules lists the presets and options"),
        ("challenge", names["bob"], "--clock", "glacial"): (
            4,
            "gin: the service has no such clock: it knows ",
        ),
        ("challenge", names["bob"], "--rated", "-o", "target=50"): (
            4,
            "a preset as it is (--rules PRESET, no -o)",
        ),
        ("challenges", "decline", "c1", "--reason", "bored"): (2, "invalid choice: 'bored'"),
    }
    for args, (status, said) in expected.items():
        done = gin(ann, live_service, *args)
        assert done.returncode == status and said in done.stderr, (args, done.stderr)
        assert done.stdout == "" and (status == 2 or done.stderr.count("\n") <= 2), (args, done.stderr)
        no_traceback(done.stderr)

    # A challenge is its two sides': the challenger may not answer it, nor anyone else see it.
    session = json.loads((ann / "gin" / "players.json").read_text())["players"][live_service]["token"]
    with Client(live_service, token=session) as client:
        mine = client.challenges.create(names["bob"]).id
    own = gin(ann, live_service, "challenges", "accept", mine)
    assert own.returncode == 4 and own.stderr == "gin: only the challenged player may do this.\n"
    stranger = tmp_path / "cy"
    signup(stranger, live_service, unique("Cy"))
    unseen = gin(stranger, live_service, "challenges", "decline", mine)
    assert unseen.returncode == 4 and f"there is no challenge '{mine}'" in unseen.stderr
    assert gin(bob, live_service, "challenges", "decline", mine).returncode == 0

    # Not signed in: the list and the answers need an account (2); a refused token says so (4).
    for args in (("challenges",), ("challenges", "accept", mine)):
        done = gin(tmp_path / "nobody", live_service, *args)
        assert done.returncode == 2 and "is for players: gin login NAME first" in done.stderr
    refused = gin(tmp_path / "nobody", live_service, "challenges", GIN_TOKEN="gin_p_" + "x" * 32)
    assert refused.returncode == 4 and "the token in GIN_TOKEN is refused" in refused.stderr
    anonymous_rated = gin(tmp_path / "nobody", live_service, "challenge", names["bob"], "--rated")
    assert anonymous_rated.returncode == 4 and "rated games are between players: gin login NAME first" in (
        anonymous_rated.stderr
    )


def test_gin_bots_names_whom_to_challenge_and_the_bot_accounts_online(
    live_service: str, tmp_path: Path
) -> None:
    name = unique("Robo")
    session = signup(tmp_path / "owner", live_service, name)
    with Client(live_service, token=session) as owner:
        owner.account.become_bot()
        token = owner.account.create_token("engine", ["bot"])["token"]
    with Client(live_service, token=token) as bot:
        bot.account.events()  # its program looks at its stream: online for a minute
    listed = gin(tmp_path / "anyone", live_service, "bots")
    assert listed.returncode == 0, listed.stderr
    assert "── Bots (gin play --bot NAME · gin challenge bot-NAME) " in listed.stdout
    online = listed.stdout.split("── Bot accounts online (gin challenge NAME) ", 1)[1]
    assert re.search(rf"^  {name}  unrated$", online, re.M), online
    assert "  expert (level 5)" in listed.stdout


@pytest.fixture(scope="module")
def hasty_service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service with challenges that expire after 2 seconds (the same Redis and PostgreSQL)."""
    process, base = start_service(
        redis_url, tmp_path_factory.mktemp("hasty"), workers=1, extra_env={"GIN_CHALLENGE_TTL": "2"}
    )
    try:
        yield base
    finally:
        stop_gunicorn(process)


def test_an_unanswered_challenge_expires_with_and_without_an_account(
    run_gin, hasty_service: str, tmp_path: Path
) -> None:
    homes, names = people(tmp_path, hasty_service)
    ann: GinProcess = run_gin("challenge", names["bob"], home=homes["ann"], server=hasty_service)
    assert ann.wait() == EXIT_NOT_ACCEPTED
    assert ann.errors == f"gin: your challenge to {names['bob']} expired unanswered.\n"
    assert f"Waiting for {names['bob']} to answer…" in ann.output
    # Without an account (no account stream: gin reads the challenge until it is answered).
    guest: GinProcess = run_gin(
        "challenge", names["bob"], "--name", "Guest", "--json", home=tmp_path / "guest", server=hasty_service
    )
    lines = [json.loads(line) for line in iter(guest.next_line, None)]
    assert [line["type"] for line in lines] == ["challenged", "expired"]
    assert lines[1]["challenge"]["challenger"] == {"name": "Guest", "player": None}
    assert guest.wait() == EXIT_NOT_ACCEPTED
    accepted_late = gin(homes["bob"], hasty_service, "challenges", "accept", lines[1]["challenge"]["id"])
    assert accepted_late.returncode == 4
    assert accepted_late.stderr == "gin: the challenge is no longer open: it expired unanswered.\n"
