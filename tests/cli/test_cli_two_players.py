"""`gin host` and `gin join`: two people on two terminals, each side following the other's moves."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from .conftest import GinProcess, first_at_prompt, highest_deadwood, scripted_reply

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.slow
def test_host_and_join_play_a_whole_game(run_gin, tmp_path: Path) -> None:
    host: GinProcess = run_gin("host", "--seed", "21", "-o", "target=25", "--name", "Ann")
    # The invitation is printed before anything else (the host may then move before anyone joins).
    invitation = host.wait_for(r"gin join (\S+)").group(1)
    guest_home = tmp_path / "guest"
    guest_home.mkdir()
    guest: GinProcess = run_gin("join", invitation, "--name", "Bob", home=guest_home)

    players = {"host": host, "guest": guest}
    finished: dict[str, int] = {}
    for _ in range(4000):
        if len(finished) == 2:
            break
        progressed = False
        for name, gin in players.items():
            if name in finished:
                continue
            if gin.proc.poll() is not None and not gin.at_prompt():
                finished[name] = gin.wait()
                progressed = True
                continue
            if gin.at_prompt():
                gin.wait_prompt()
                gin.send(scripted_reply(gin.output))
                progressed = True
        if not progressed:
            _wait_any(players.values())
    assert finished == {"host": 0, "guest": 0}, (host.errors, guest.errors)
    for gin in (host, guest):
        assert "Game 1 over" in gin.output and "grand total" in gin.output
    # Each side saw the other's moves as they happened (through the events long poll).
    assert re.search(r"Bob (drew|took|passed|discarded)", host.output)
    assert re.search(r"Ann (drew|took|passed|discarded)", guest.output)
    assert "Waiting for" in host.output and "Waiting for" in guest.output


def _wait_any(processes) -> None:  # type: ignore[no-untyped-def]
    """Sleep until one of the processes prints something or exits."""
    sizes = [(len(p.output), p.proc.poll()) for p in processes]
    for _ in range(600):
        time.sleep(0.05)
        if [(len(p.output), p.proc.poll()) for p in processes] != sizes:
            return
    raise AssertionError("neither player moved: " + " | ".join(p.output[-500:] for p in processes))


def test_between_people_a_knock_over_the_limit_names_the_limit(run_gin, tmp_path: Path) -> None:
    """A game between people has no deadwood figures per discard (docs/api.md, "Assistance"): gin shows
    none, and a knock over the limit is sent, so that the service's answer names the limit."""
    host: GinProcess = run_gin("host", "--seed", "21", "--name", "Ann")
    invitation = host.wait_for(r"gin join (\S+)").group(1)
    guest_home = tmp_path / "guest"
    guest_home.mkdir()
    guest: GinProcess = run_gin("join", invitation, "--name", "Bob", home=guest_home)
    mover = first_at_prompt(host, guest)
    assert "pile" in (mover.wait_prompt() or "")
    mover.send("p")  # take the upcard: eleven cards, a discard to make
    screen = mover.wait_prompt() or ""
    assert "Moves: discard CARD" in screen and "knock CARD" not in screen, screen
    assert "Deadwood after discarding" not in screen
    card = highest_deadwood(mover.output)
    mover.send(f"knock {card}")
    said = mover.wait_prompt() or ""
    assert re.match(
        rf"You cannot knock: discarding {card} leaves \d+ deadwood; the knock limit is 10\.\n", said
    ), said
    # What docs/cli.md says of that line is what gin does.
    docs = " ".join((DOCS / "cli.md").read_text().split())
    assert "With 11 cards in a game against a bot, a line lists the deadwood left" in docs
    mover.send("quit")
    assert mover.wait() == 5, mover.errors
