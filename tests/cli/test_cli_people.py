"""`gin` for people who play people: logins, quick matches between two `gin` processes, the lobby,
resigning, aborting, rematches, clocks and profiles — real `gin` processes against the real service.

Seeks are only paired with seeks of the very same rules (options and clock included), so each story
seeks under rules of its own: a seek some other test left open is never paired with it."""

from __future__ import annotations

import json
import random
import re
import signal
import stat
import time
import uuid
from pathlib import Path

from ginrummy_client import Client

from .conftest import GinProcess, first_at_prompt, gin_env, resign_whoever_moves, run_once, scripted_reply


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


PASSWORD = "a password long enough"


def login(home: Path, server: str, name: str) -> str:
    """``gin signup NAME`` in ``home`` (the password on stdin); returns the session token it kept (read
    from the file, never printed)."""
    done = run_once(["signup", name], gin_env(home, server), stdin=PASSWORD + "\n")
    assert done.returncode == 0, done.stderr
    token = json.loads((home / "gin" / "players.json").read_text())["players"][server]["token"]
    assert token not in done.stdout + done.stderr and PASSWORD not in done.stdout + done.stderr
    return str(token)


def own_clock() -> str:
    """A ``--clock BANK+INC`` no other test seeks with (a long bank: nobody runs out of time)."""
    return f"{random.randrange(20_000, 86_400)}+{random.randrange(1, 600)}"


def test_login_is_kept_owner_only_per_server_and_no_token_is_printed(
    live_service: str, tmp_path: Path
) -> None:
    home = tmp_path / "ann"
    elsewhere = {"name": "Someone", "token": "another-servers-token"}
    (home / "gin").mkdir(parents=True, mode=0o700)
    (home / "gin" / "players.json").write_text(json.dumps({"players": {"http://elsewhere:8000": elsewhere}}))
    env = gin_env(home, live_service)
    name = unique("Ann")
    token = login(home, live_service, name)
    path = home / "gin" / "players.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    kept = json.loads(path.read_text())["players"]
    assert kept["http://elsewhere:8000"] == elsewhere and kept[live_service]["name"] == name
    assert kept[live_service]["kind"] == "session" and PASSWORD not in path.read_text()

    outputs = []
    for args in (["login", name], ["login", "--json", name], ["profile"], ["profile", "--json"]):
        done = run_once(args, env)  # signed in already: no password asked
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout + done.stderr)
    assert "Already signed in as" in outputs[0] and json.loads(outputs[1]) == {
        "name": name,
        "server": live_service,
    }
    assert f"── {name}" in outputs[2] and "Games: 0 played" in outputs[2]
    assert json.loads(outputs[3])["name"] == name
    other = run_once(["login", unique("Bob")], env)
    assert other.returncode == 2 and "gin logout first" in other.stderr
    taken = run_once(["signup", name.upper()], gin_env(tmp_path / "bob", live_service), stdin=PASSWORD)
    assert taken.returncode == 4 and "is taken (names ignore case)" in taken.stderr
    out = run_once(["logout"], env)
    assert out.returncode == 0 and "this machine's session has ended" in out.stdout
    assert json.loads(path.read_text())["players"] == {"http://elsewhere:8000": elsewhere}
    needs = run_once(["seek"], env)
    assert needs.returncode == 2 and "gin login NAME first" in needs.stderr
    for text in [*outputs, other.stdout, other.stderr, out.stdout]:
        assert token not in text


def test_two_gins_quick_matched_play_resign_and_see_it_in_their_profiles(
    run_gin, live_service: str, tmp_path: Path
) -> None:
    homes = {who: tmp_path / who for who in ("ann", "bob")}
    names = {who: unique(who.capitalize()) for who in homes}
    tokens = {who: login(home, live_service, names[who]) for who, home in homes.items()}
    clock = own_clock()
    ann: GinProcess = run_gin("seek", "--rated", "--clock", clock, home=homes["ann"])
    ann.wait_for(r"Waiting for an opponent… \(Ctrl-C cancels the seek\)")
    bob: GinProcess = run_gin("seek", "--rated", "--clock", clock, home=homes["bob"])
    bob.wait_for(rf"Playing {names['ann']}: game (\S+) ")
    ann.wait_for(rf"Playing {names['bob']}: game (\S+) ")

    # A few moves each, then Bob resigns (and confirms) at his prompt.
    moves = 0
    while not (moves >= 6 and bob.at_prompt()):
        waiting = True
        for gin in (ann, bob):
            if gin.at_prompt():
                gin.wait_prompt()
                gin.send(scripted_reply(gin.output))
                moves, waiting = moves + 1, False
        if waiting:
            time.sleep(0.02)
    bob.wait_prompt()
    bob.send("resign")
    assert (bob.wait_prompt() or "").endswith("Resign? You lose the match. [y/N] ")
    bob.send("y")
    assert f"You resigned: {names['ann']} wins the match." in (bob.wait_prompt() or "")
    assert f"{names['bob']} resigned: you win the match." in (ann.wait_prompt() or "")
    # Both want a rematch: Ann's offer waits for Bob, whose yes accepts it; the same seats play it.
    assert ann.output.endswith("Play a rematch? [y/N] ") and bob.output.endswith("Play a rematch? [y/N] ")
    ann.send("y")
    ann.wait_for(rf"Rematch offered\. Waiting for {names['bob']} to accept… \(Ctrl-C leaves\)")
    bob.send("y")
    rematch = bob.wait_for(r"Rematch: game (\S+) started\.").group(1)
    assert ann.wait_for(r"Rematch: game (\S+) started\.").group(1) == rematch
    resign_whoever_moves(ann, bob)  # whoever is to move first resigns this one at once
    assert "Clock: You " in ann.output  # a clocked game shows both banks

    profile = run_once(["profile"], gin_env(homes["ann"], live_service))
    assert profile.returncode == 0, profile.stderr
    assert "Games: 2 played · " in profile.stdout
    assert re.search(r"Rating \(standard\): 1\d{3}\?? ±\d+ · 2 rated games · rank \d+", profile.stdout)
    # (no rating change is told for a first rated game: the service has no rating before it to compare)
    assert re.search(rf"won\s+vs {names['bob']} \(resigned\) · standard rated · ", profile.stdout)
    assert re.search(r"vs \S+ \(resigned\) · standard rated [+-]\d+ · ", profile.stdout)  # the rematch
    board = run_once(["leaderboard", "--limit", "200"], gin_env(homes["bob"], live_service))
    assert board.returncode == 0, board.stderr
    for name in names.values():
        assert re.search(rf"^\s+\d+\s+{name}\s+1\d{{3}}\?? +\d+ +2$", board.stdout, re.M), board.stdout
    for text in (ann.output, ann.errors, bob.output, bob.errors, profile.stdout, board.stdout):
        assert not any(token in text for token in tokens.values())


def test_the_lobby_lists_a_waiting_seek_ctrl_c_withdraws_it_gin_accept_takes_one(
    run_gin, live_service: str, tmp_path: Path
) -> None:
    home = tmp_path / "ann"
    name = unique("Ann")
    login(home, live_service, name)
    clock = own_clock()
    seeker: GinProcess = run_gin("seek", "-o", "target=37", "--clock", clock, home=home)
    seek_id = seeker.wait_for(r"Seek (\S+) is in the lobby").group(1)
    seeker.wait_for("Waiting for an opponent…")
    env = gin_env(tmp_path / "watcher", live_service)
    lobby = run_once(["lobby"], env)
    assert lobby.returncode == 0, lobby.stderr
    row = next(line for line in lobby.stdout.splitlines() if seek_id in line)
    assert f"{name} (unrated)" in row and "standard target=37 · casual · clock " in row
    assert "Public games in play" in lobby.stdout
    seeker.interrupt()
    assert seeker.wait() == 130
    assert "your seek is withdrawn" in seeker.errors and "Traceback" not in seeker.errors
    listed = json.loads(run_once(["lobby", "--json"], env).stdout)
    assert seek_id not in [s["id"] for s in listed["seeks"]] and "games" in listed

    # A closed terminal or a kill withdraws the seek as Ctrl-C does (no seek left behind to pair with).
    killed: GinProcess = run_gin("seek", "-o", "target=37", "--clock", clock, home=home)
    killed_id = killed.wait_for(r"Seek (\S+) is in the lobby").group(1)
    killed.wait_for("Waiting for an opponent…")
    killed.proc.send_signal(signal.SIGTERM)
    code = killed.wait()
    listed = json.loads(run_once(["lobby", "--json"], env).stdout)
    assert killed_id not in [s["id"] for s in listed["seeks"]], (code, killed.output, killed.errors)

    # Seeking again; Bob takes this seek from the lobby, and whoever is to move aborts the match.
    again: GinProcess = run_gin("seek", "-o", "target=37", "--clock", clock, home=home)
    seek_id = again.wait_for(r"Seek (\S+) is in the lobby").group(1)
    bob_home = tmp_path / "bob"
    login(bob_home, live_service, unique("Bob"))
    bob: GinProcess = run_gin("accept", seek_id, home=bob_home)
    game_id = bob.wait_for(rf"Playing {name}: game (\S+) ").group(1)
    assert again.wait_for(r"Playing Bob\w+: game (\S+) ").group(1) == game_id
    mover = first_at_prompt(again, bob)
    mover.wait_prompt()
    mover.send("abort")
    for gin in (again, bob):
        assert "The match was aborted: no result." in (gin.wait_prompt() or "")
        gin.send("n")
        assert gin.wait() == 0, gin.errors
    taken = run_once(["accept", seek_id], gin_env(bob_home, live_service))
    assert taken.returncode == 4 and "seek" in taken.stderr and "seek_" not in taken.stderr  # no longer open


def test_resign_at_the_prompt_a_rematch_then_gin_resign_gin_rematch_and_gin_abort(
    run_gin, config_home: Path, live_service: str
) -> None:
    env = gin_env(config_home, live_service)
    gin: GinProcess = run_gin("play", "--seed", "5")
    first = gin.wait_prompt() or ""
    assert re.search(r"Moves: .* · help · resign · abort", first), first
    gin.send("resign")
    assert (gin.wait_prompt() or "").endswith("[y/N] ")
    gin.send("")  # no: nothing happens
    assert gin.wait_prompt() == "> "
    gin.send("resign")
    gin.wait_prompt()
    gin.send("yes")
    ended = gin.wait_prompt() or ""
    assert "You resigned: simple (bot) wins the match." in ended and ended.endswith("Play a rematch? [y/N] ")
    gin.send("y")  # a bot accepts at once
    rematch = gin.wait_prompt() or ""
    game_id = re.search(r"Rematch: game (\S+) started\.", rematch)
    assert game_id is not None and "Your hand:" in rematch
    gin.send("quit")
    assert gin.wait() == 5

    resigned = run_once(["resign", "--yes"], env)  # the game played last: the rematch
    assert resigned.returncode == 0, resigned.stderr
    assert "You resigned: simple (bot) wins the match." in resigned.stdout
    assert f"gin rematch {game_id.group(1)}" in resigned.stdout
    assert run_once(["resign"], env).returncode == 6  # nothing unfinished is left

    again: GinProcess = run_gin("rematch")  # of the game finished last
    assert "Your hand:" in (again.wait_prompt() or "")
    assert re.search(r"Rematch: game \S+ started\.", again.output)
    again.send("quit")
    assert again.wait() == 5
    assert run_once(["resign", "-y"], env).returncode == 0

    fresh: GinProcess = run_gin("play", "--seed", "5")  # as above: abort is on offer
    assert fresh.wait_prompt() is not None
    fresh.send("quit")
    assert fresh.wait() == 5
    aborted = run_once(["abort", "--json", "--yes"], env)
    assert aborted.returncode == 0, aborted.stderr
    assert json.loads(aborted.stdout)["view"]["end_reason"] == "aborted"


def test_gin_resign_asks_at_a_terminal_and_wants_the_game_named_without_one(
    run_gin, run_gin_at_terminal, config_home: Path, live_service: str
) -> None:
    env = gin_env(config_home, live_service)

    def left_game() -> str:
        """A new game against simple, left at once: the game played last."""
        gin: GinProcess = run_gin("play", "--seed", "5")
        assert gin.wait_prompt() is not None
        gin.send("quit")
        assert gin.wait() == 5
        return re.search(r"Resume with: gin resume (\S+)", gin.output).group(1)  # type: ignore[union-attr]

    def still_live(game_id: str) -> bool:
        with Client(live_service) as client:  # a spectator's look
            return client.games.get(game_id).view["end_reason"] is None

    game_id = left_game()
    # A script (no terminal): the game played last is not ended unless named or --yes.
    for how in ("resign", "abort"):
        refused = run_once([how], env)
        assert refused.returncode == 2, refused.stderr
        assert f"name the game (gin {how} {game_id}) or add --yes" in refused.stderr
        assert run_once([how, "--json"], env).returncode == 2
    assert still_live(game_id)

    # At a terminal the question says which game it is; no (or Enter) changes nothing.
    asked = run_gin_at_terminal("resign")
    question = asked.wait_for(
        r"Resign your game against simple \(bot\) \((\S+), hand 1, .*\? You lose the match\. \[y/N\] "
    )
    assert question.group(1) == game_id
    asked.send("n")
    assert asked.wait() == 0
    assert "Nothing was done: the game goes on (gin resume)." in asked.output
    assert still_live(game_id)
    asked = run_gin_at_terminal("resign")
    asked.wait_for(r"\[y/N\] ")
    asked.send("y")
    assert asked.wait() == 0
    assert "You resigned: simple (bot) wins the match." in asked.output
    assert not still_live(game_id)

    # Named, or with --yes, a script's resign is carried out.
    named = left_game()
    done = run_once(["resign", named], env)
    assert done.returncode == 0 and "You resigned" in done.stdout, done.stderr
    left_game()
    done = run_once(["abort", "--yes"], env)
    assert done.returncode == 0 and "The match was aborted: no result." in done.stdout, done.stderr


def test_the_clock_is_shown_and_a_loss_on_time_ends_both_sides(
    run_gin, live_service: str, tmp_path: Path
) -> None:
    bank: GinProcess = run_gin("play", "--clock", "300+5", "--seed", "3", home=tmp_path / "solo")
    shown = bank.wait_prompt() or ""
    assert re.search(
        r"Clock: You [45]:\d\d · simple \(bot\) 5:00 · \+5 s a move · your move: [45]:\d\d left", shown
    )
    bank.send("quit")
    assert bank.wait() == 5

    # Three seconds a move, between two people; the one to move never moves. Both gins see the time run
    # out by themselves, without a line typed: the mover's prompt gives up at its deadline, the other
    # side's wait at the opponent's (the events alone would not tell it); each reads the view then,
    # which settles the loss on time.
    host: GinProcess = run_gin("host", "--clock", "3", "--name", "Ann", home=tmp_path / "ann")
    invitation = host.wait_for(r"gin join (\S+)").group(1)
    guest: GinProcess = run_gin("join", invitation, "--name", "Bob", home=tmp_path / "bob")
    mover = first_at_prompt(host, guest)
    idle = guest if mover is host else host
    asked = mover.wait_prompt() or ""
    assert re.search(r"Clock: 3 s a move · your move: \d\.\d s left\n> $", asked), asked  # above the prompt
    idle.wait_for(r"ran out of time: you win the match\.", timeout=15)
    assert "Play a rematch? [y/N] " in (idle.wait_prompt() or "")
    ended = mover.wait_prompt() or ""  # nothing was typed
    assert "You ran out of time: " in ended and ended.endswith("Play a rematch? [y/N] "), ended
    for gin in (mover, idle):
        gin.send("n")
        assert gin.wait() == 0, gin.errors


def test_on_a_terminal_the_clocks_tick_and_a_flag_fall_ends_the_game_untouched(
    run_gin_at_terminal, tmp_path: Path
) -> None:
    # Two people at terminals, five seconds a move; nobody types. The running clock is redrawn in place
    # (above the mover's prompt, below the other's waiting line) and both see the end by themselves.
    host = run_gin_at_terminal("host", "--clock", "5", "--name", "Ann", home=tmp_path / "ann")
    invitation = host.wait_for(r"gin join (\S+)").group(1)
    guest = run_gin_at_terminal("join", invitation, "--name", "Bob", home=tmp_path / "bob")
    ended = {gin: gin.wait_for(r"(\w+) ran out of time: (.*)\n", timeout=30) for gin in (host, guest)}
    [mover] = [gin for gin, said in ended.items() if said.group(1) == "You"]
    [other] = [gin for gin in (host, guest) if gin is not mover]
    assert ended[other].group(1) in ("Ann", "Bob") and ended[other].group(2) == "you win the match."
    told = r"{}: (\d+\.\d) s left"
    mine = re.findall(told.format("your move"), mover.output)
    theirs = re.findall(told.format("(?:Ann|Bob)'s move"), other.output)
    assert len(set(mine)) >= 3 and len(set(theirs)) >= 3, (mine, theirs)  # it ticked, on both sides
    assert [float(s) for s in mine] == sorted((float(s) for s in mine), reverse=True)
    assert "\x1b7\x1b[1A" in mover.output  # redrawn above the prompt, the cursor put back
    for gin in (host, guest):
        gin.wait_for(r"Play a rematch\? \[y/N\] ")
        gin.send("n")
        assert gin.wait() == 0


def test_between_hands_a_deal_by_the_opponent_starts_the_clock_of_a_player_who_waits_at_the_prompt(
    run_gin, tmp_path: Path
) -> None:
    # Five seconds a move. After hand 1 both are asked to deal (nobody's clock runs); the loser deals,
    # which makes the winner's clock run at once (the non-dealer moves first). The winner, who typed
    # nothing, is told of the deal by gin itself, sees the clock, and loses on time.
    host: GinProcess = run_gin("host", "--clock", "5", "--seed", "8", "--name", "Ann", home=tmp_path / "ann")
    invitation = host.wait_for(r"gin join (\S+)").group(1)
    guest: GinProcess = run_gin("join", invitation, "--name", "Bob", home=tmp_path / "bob")
    at_deal: dict[GinProcess, str] = {}
    while len(at_deal) < 2:
        waiting = True
        for gin in (host, guest):
            if gin not in at_deal and gin.at_prompt():
                screen = gin.wait_prompt() or ""
                waiting = False
                if "Hand 1 over: " in gin.output:
                    at_deal[gin] = screen
                else:
                    gin.send(scripted_reply(gin.output))
        if waiting:
            time.sleep(0.02)
    for screen in at_deal.values():
        assert "Moves: deal (Enter)" in screen
    [winner] = [gin for gin in at_deal if re.search(r"Hand 1 over: .* · You \+\d+", gin.output)]
    [loser] = [gin for gin in at_deal if gin is not winner]
    told = len(winner.output)
    loser.send("deal")
    # Nothing typed: gin sees the deal by itself, draws the new hand and asks, its clock running.
    winner.wait_for(r"── Hand 2 · \w+ dealt(.*\n)+Clock: 5 s a move · your move: \d\.\d s left\n> ")
    assert "Hand 2" not in winner.output[:told]
    winner.wait_for(r"You ran out of time: \w+ wins the match\.")
    loser.wait_for(r"\w+ ran out of time: you win the match\.")
    for gin in (winner, loser):
        gin.wait_for(r"Play a rematch\? \[y/N\] $")
        gin.send("n")
        assert gin.wait() == 0, gin.errors
